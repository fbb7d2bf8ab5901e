//! A small in-memory cache of bytes computed from immutable data (a finished match's
//! classic log), bounded by their total size; the least recently used go first.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

#[derive(Debug)]
pub struct ByteCache {
    max_bytes: usize,
    /// Least recently used first.
    entries: Mutex<VecDeque<(i64, Arc<Vec<u8>>)>>,
}

impl ByteCache {
    pub fn new(max_bytes: usize) -> ByteCache {
        ByteCache {
            max_bytes,
            entries: Mutex::new(VecDeque::new()),
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, VecDeque<(i64, Arc<Vec<u8>>)>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The bytes of `key`, marked as just used.
    pub fn get(&self, key: i64) -> Option<Arc<Vec<u8>>> {
        let mut entries = self.entries();
        let at = entries.iter().position(|(k, _)| *k == key)?;
        let entry = entries.remove(at)?;
        let bytes = entry.1.clone();
        entries.push_back(entry);
        Some(bytes)
    }

    /// Keeps `bytes` for `key`, dropping the least recently used past the size bound.
    /// Something larger than the whole bound is not kept.
    pub fn put(&self, key: i64, bytes: Arc<Vec<u8>>) {
        if bytes.len() > self.max_bytes {
            return;
        }
        let mut entries = self.entries();
        entries.retain(|(k, _)| *k != key);
        entries.push_back((key, bytes));
        let mut total: usize = entries.iter().map(|(_, b)| b.len()).sum();
        while total > self.max_bytes {
            match entries.pop_front() {
                Some((_, b)) => total -= b.len(),
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_recently_used_within_its_size() {
        let c = ByteCache::new(10);
        c.put(1, Arc::new(vec![0; 4]));
        c.put(2, Arc::new(vec![0; 4]));
        assert!(c.get(1).is_some());
        c.put(3, Arc::new(vec![0; 4]));
        assert!(c.get(2).is_none(), "the least recently used went");
        assert!(c.get(1).is_some() && c.get(3).is_some());
        c.put(4, Arc::new(vec![0; 11]));
        assert!(c.get(4).is_none(), "too large to keep");
    }
}
