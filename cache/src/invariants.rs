//! The cache's self-check, for tests and fuzzers to call after every step.

use std::hash::{BuildHasher, Hash};

use crate::cache::{Cache, MAX_LEN};
use crate::clock::Clock;

impl<K: Hash + Eq, V, C: Clock, S: BuildHasher> Cache<K, V, C, S> {
    /// Checks the internal invariants and says which one is broken: the slots are within the
    /// capacity, the index maps every key to its own slot, the recency list links every slot
    /// exactly once, and with a ttl the expiry list does too, in deadline order.
    ///
    /// Linear in the number of entries; meant for tests and fuzzers, not for production paths.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// assert_eq!(cache.check_invariants(), Ok(()));
    /// ```
    ///
    /// # Errors
    ///
    /// A description of the first broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        let len = self.slots.len();
        if len > self.capacity.min(MAX_LEN) {
            return Err(format!("{len} slots for capacity {}", self.capacity));
        }
        if self.index.len() != len {
            return Err(format!("the index has {} keys for {len} slots", self.index.len()));
        }
        for (i, slot) in self.slots.iter().enumerate() {
            let hash = self.hasher.hash_one(&slot.key);
            let found = self.index.find(hash, |&j| self.slots[j as usize].key == slot.key);
            if found.map(|&j| j as usize) != Some(i) {
                return Err(format!("the index finds slot {i}'s key at {found:?}"));
            }
        }
        let recency = self.recency.walk(&self.slots).map_err(|e| format!("recency list: {e}"))?;
        if recency.len() != len {
            return Err(format!("the recency list links {} of {len} slots", recency.len()));
        }
        if self.ttl.is_none() {
            return if self.timers.is_empty() { Ok(()) } else { Err("timers without a ttl".into()) };
        }
        if self.timers.len() != len {
            return Err(format!("{} timers for {len} slots", self.timers.len()));
        }
        let expiry = self.expiry.walk(&self.timers).map_err(|e| format!("expiry list: {e}"))?;
        if expiry.len() != len {
            return Err(format!("the expiry list links {} of {len} slots", expiry.len()));
        }
        let deadlines = expiry.iter().map(|&i| self.timers[i as usize].deadline);
        if deadlines.clone().zip(deadlines.skip(1)).any(|(a, b)| a > b) {
            return Err("the expiry list is out of deadline order".into());
        }
        Ok(())
    }
}
