//! Keys whose hashes crowd a few chunks of the index, so that chunks fill and keys overflow past
//! them: the path the fuzzer's ten keys never reach (a chunk holds twelve). A naive LRU list
//! checks every answer, and the cache's own invariant check, which recounts every chunk's
//! overflow, runs after every step.

use std::hash::{BuildHasher, Hasher};

mod support;

use cache::{Cache, ManualClock};
use support::Rng;

/// Hashes a `u32` key so that its home is one of three chunks, whatever the table's size (the
/// low bits), with a tag and a probe stride that vary from key to key (the top bits).
#[derive(Clone, Copy, Default)]
struct Crowded;

struct CrowdedHasher(u64);

impl Hasher for CrowdedHasher {
    fn finish(&self) -> u64 {
        let mixed = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed & !0xffff_ffff) | (self.0 % 3)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0 << 8 | u64::from(byte);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n);
    }
}

impl BuildHasher for Crowded {
    type Hasher = CrowdedHasher;
    fn build_hasher(&self) -> CrowdedHasher {
        CrowdedHasher(0)
    }
}

/// The reference: the entries, most recently used first.
struct Naive {
    entries: Vec<(u32, u32)>,
    capacity: usize,
}

impl Naive {
    fn position(&self, key: u32) -> Option<usize> {
        self.entries.iter().position(|&(k, _)| k == key)
    }
    fn get(&mut self, key: u32) -> Option<u32> {
        let entry = self.entries.remove(self.position(key)?);
        self.entries.insert(0, entry);
        Some(entry.1)
    }
    fn put(&mut self, key: u32, value: u32) -> Option<u32> {
        let old = self.position(key).map(|at| self.entries.remove(at).1);
        if old.is_none() && self.entries.len() == self.capacity {
            self.entries.pop();
        }
        self.entries.insert(0, (key, value));
        old
    }
    fn remove(&mut self, key: u32) -> Option<u32> {
        Some(self.entries.remove(self.position(key)?).1)
    }
}

#[test]
fn crowded_keys_overflow_their_chunks_and_are_still_found() {
    // Each run: capacity, the number of distinct keys, operations. The first two fill three
    // chunks many times over; the last shrinks and grows the cache on the way.
    for (capacity, keys, ops) in [(40, 60_u32, 20_000), (200, 400, 20_000), (100, 150, 10_000)] {
        let mut cache = Cache::with_clock_and_hasher(capacity, None, ManualClock::new(0), Crowded);
        let mut naive = Naive { entries: Vec::new(), capacity };
        let mut rng = Rng::seeded();
        for step in 0..ops {
            let key = rng.below(u64::from(keys)) as u32;
            match rng.below(16) {
                0..=6 => assert_eq!(cache.put(key, step), naive.put(key, step), "step {step}: put {key}"),
                7..=11 => assert_eq!(cache.get(&key).copied(), naive.get(key), "step {step}: get {key}"),
                12..=14 => assert_eq!(cache.remove(&key), naive.remove(key), "step {step}: remove {key}"),
                _ if capacity == 100 => {
                    // Between half and all of the capacity: evicts, then lets the cache grow.
                    let size = capacity / 2 + key as usize % (capacity / 2 + 1);
                    cache.resize(size);
                    naive.capacity = size;
                    naive.entries.truncate(size);
                }
                _ => assert_eq!(cache.pop_lru(), naive.entries.pop(), "step {step}: pop_lru"),
            }
            assert_eq!(cache.check_invariants(), Ok(()), "step {step}");
            assert!(cache.iter().map(|(&k, &v)| (k, v)).eq(naive.entries.iter().copied()), "step {step}");
        }
    }
}
