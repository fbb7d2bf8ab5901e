//! Seeded random planar maps with fair starts.
