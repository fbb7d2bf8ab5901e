//! Secrets handed out and checked: random tokens, what the database keeps of them, and
//! comparing them without leaking timing.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// A random token: 32 bytes, hex.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What is stored of a token: its sha256.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Compares two tokens in a time that depends only on their lengths.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}
