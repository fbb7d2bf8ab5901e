//! What the simulation benches share.

/// A seed from a simulated case's coordinates (splitmix64 over the parts), so each
/// case draws its own numbers whatever ran before it.
pub fn mix(parts: &[u64]) -> u64 {
    parts.iter().fold(0x243F_6A88_85A3_08D3, |h: u64, &p| {
        let mut z = (h ^ p).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    })
}
