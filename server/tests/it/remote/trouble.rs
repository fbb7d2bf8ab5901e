//! What goes wrong on a contestant's network: a connection dropped mid-game, and a
//! slow one against the time rule.
