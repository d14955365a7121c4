//! A deliberately naive reference model of the cache contract, for differential testing.
//!
//! The fuzz harness replays one operation sequence against the `cache` crate and against
//! [`Model`] in lockstep and compares every return value. This crate is written from
//! `spec/cache-contract.md` alone, never from the cache's source, so the two cannot share a
//! bug. It depends on nothing but `std` and is meant to be checked against the contract by eye:
//!
//! - The entries live in a `Vec`, **least recently used first** (the LRU is `entries[0]`, the
//!   MRU is last), each with its deadline (`write time + ttl`, saturating; `None` without a
//!   ttl). Every operation is a linear scan.
//! - Time is a plain `u64` that only [`Model::advance`] moves. `advance` drops every entry that
//!   is no longer live, and a write that is dead on arrival is never stored, so the model never
//!   holds an expired entry: every other method sees live entries only.
//! - Each method mirrors one cache method, returns exactly what the cache must return, and
//!   also names what it did with a [`Transition`], so a corpus can be measured by behaviour.
//!
//! Where the contract is silent, the model reads it so (repeated on the methods concerned):
//!
//! - A write that is dead on arrival (ttl 0, or `now + ttl` saturating to `now`) stores
//!   nothing and returns `None`, from `push` too: expired entries are "dropped, never returned".
//!   Capacity 0 comes first: there `push` returns the given pair, as the contract says.
//! - `push` overwriting a key returns the key that was stored, and stores the given one.
//! - `retain` calls its closure on live entries from most to least recently used.
//!
//! Nine methods are not in the contract; the model reads them as the cache documents them,
//! composed from methods that are: `get_or_insert_with` is `get`, and on a miss `put` (the miss
//! counted once), answering with the value stored, if any; `try_get_or_insert_with` is the same
//! when the value is made, and a missing `get` when it fails; `peek_mut` is `peek`, and `iter_mut`
//! is `iter`, with mutable references; iterating by value (`into_entries` here) takes what `iter`
//! shows; `peek_mru` and `pop_mru` are `peek_lru` and `pop_lru` at the other end of the order;
//! `promote` moves a live key where a hit of `get` would, counting nothing, and `demote` moves it
//! to the other end.
//!
//! ```
//! use model::{Model, Transition};
//!
//! let mut m = Model::new(2, Some(10), 0);
//! assert_eq!(m.put("a", 1), (None, Transition::PutInserted));
//! assert_eq!(m.advance(10), Transition::AdvanceToDeadline);
//! assert_eq!(m.get(&"a"), (None, Transition::GetMissAtDeadline));
//! ```

// Safe Rust only: the model must be obviously correct.
#![forbid(unsafe_code)]
// All APIs need docs: each one is read against the contract.
#![deny(missing_docs)]
// No `#[must_use]` on each getter: the harness and the tests read every result, and the model
// must stay within a third of the cache's lines. `Model::iter` returns a `Vec`, not an iterator,
// as it mirrors `Cache::iter`.
#![expect(clippy::must_use_candidate, clippy::iter_not_returning_iterator, reason = "see above")]

use {Gone::*, Transition::*};

/// The counters of the contract's `stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// `get`, `get_mut` and `get_or_insert_with` calls that found a live entry.
    pub hits: u64,
    /// `get`, `get_mut` and `get_or_insert_with` calls that found no live entry.
    pub misses: u64,
    /// Live entries removed to make room, by `put`, `push`, `get_or_insert_with` or `resize`.
    pub evictions: u64,
}

/// Declares [`Transition`], [`Transition::ALL`] and [`Transition::name`] from one table, so the
/// three cannot disagree. Each row: variant, name, one-line doc.
macro_rules! transitions {
    ($($variant:ident $name:literal $doc:literal,)*) => {
        /// What one model operation did: one variant per behaviour the contract describes.
        ///
        /// The harness counts these over a corpus to show which behaviours it exercises. Terms:
        /// a key is *expired* when its last write expired and `clear` has not run since (the
        /// model records why each key left); a write is *over expired* when it finds room
        /// (`len < capacity`) that `len` + the other expired keys would fill, the room a cache
        /// that cleans up lazily must make by dropping expired entries, never live ones; a
        /// write is *dead on arrival* when ttl is 0 or `now + ttl` saturates to `now`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Transition { $(#[doc = $doc] $variant,)* }

        impl Transition {
            /// Every variant, in declaration order.
            pub const ALL: &'static [Transition] = &[$(Transition::$variant,)*];

            /// A short `snake_case` label, such as `"put_evicted_lru"`.
            pub fn name(self) -> &'static str { match self { $(Transition::$variant => $name,)* } }
        }
    };
}

transitions! {
    PutInserted "put_inserted" "`put` stored a new key, with room to spare.",
    PutInsertedOverExpired "put_inserted_over_expired" "`put` stored a new key, over expired.",
    PutEvictedLru "put_evicted_lru" "`put` evicted the LRU entry to store a new key.",
    PutOverwrote "put_overwrote" "`put` overwrote a live key below capacity.",
    PutOverwroteAtCapacity "put_overwrote_at_capacity" "`put` overwrote a live key at capacity.",
    PutCapacityZero "put_capacity_zero" "`put` at capacity 0 stored nothing.",
    PutDeadOnArrival "put_dead_on_arrival" "`put` dead on arrival stored nothing.",
    PushInserted "push_inserted" "`push` stored a new key, with room to spare.",
    PushInsertedOverExpired "push_inserted_over_expired" "`push` stored a new key, over expired.",
    PushEvictedLru "push_evicted_lru" "`push` evicted and returned the LRU entry.",
    PushOverwrote "push_overwrote" "`push` overwrote below capacity, returned the old pair.",
    PushOverwroteAtCapacity "push_overwrote_at_capacity" "`push` overwrote at capacity.",
    PushCapacityZero "push_capacity_zero" "`push` at capacity 0 returned the given pair.",
    PushDeadOnArrival "push_dead_on_arrival" "`push` dead on arrival stored nothing.",
    GetHit "get_hit" "`get` found a live entry.",
    GetMissNeverSeen "get_miss_never_seen" "`get` missed a key never written.",
    GetMissEvicted "get_miss_evicted" "`get` missed an evicted key.",
    GetMissExpired "get_miss_expired" "`get` missed a key expired before now.",
    GetMissAtDeadline "get_miss_at_deadline" "`get` missed a key whose deadline is now.",
    GetMissRemoved "get_miss_removed" "`get` missed a key removed by a method or `clear`.",
    GetMutHit "get_mut_hit" "`get_mut` found a live entry.",
    GetMutMiss "get_mut_miss" "`get_mut` missed a key that is not expired.",
    GetMutMissExpired "get_mut_miss_expired" "`get_mut` missed an expired key.",
    GetOrInsertHit "get_or_insert_hit" "`get_or_insert_with` found a live entry.",
    GetOrInsertInserted "get_or_insert_inserted" "`get_or_insert_with` stored a new key, with room.",
    GetOrInsertEvictedLru "get_or_insert_evicted_lru" "`get_or_insert_with` evicted the LRU to store.",
    GetOrInsertStoredNothing "get_or_insert_stored_nothing" "`get_or_insert_with` stored nothing.",
    TryGetOrInsertFailed "try_get_or_insert_failed" "`try_get_or_insert_with` missed; no value was made.",
    PeekHit "peek_hit" "`peek` found a live entry.",
    PeekMiss "peek_miss" "`peek` missed a key that is not expired.",
    PeekMissExpired "peek_miss_expired" "`peek` missed an expired key.",
    PeekMutHit "peek_mut_hit" "`peek_mut` found a live entry.",
    PeekMutMiss "peek_mut_miss" "`peek_mut` missed a key that is not expired.",
    PeekMutMissExpired "peek_mut_miss_expired" "`peek_mut` missed an expired key.",
    ContainsTrue "contains_true" "`contains` answered true.",
    ContainsFalse "contains_false" "`contains` answered false, key not expired.",
    ContainsExpired "contains_expired" "`contains` answered false, key expired.",
    RemoveHit "remove_hit" "`remove` returned a live value.",
    RemoveMiss "remove_miss" "`remove` missed a key that is not expired.",
    RemoveExpired "remove_expired" "`remove` missed an expired key.",
    PeekLruSome "peek_lru_some" "`peek_lru` showed the LRU entry.",
    PeekLruNone "peek_lru_none" "`peek_lru` found nothing live.",
    PopLruSome "pop_lru_some" "`pop_lru` removed and returned the LRU entry.",
    PopLruNone "pop_lru_none" "`pop_lru` found nothing live.",
    PeekMruSome "peek_mru_some" "`peek_mru` showed the MRU entry.",
    PeekMruNone "peek_mru_none" "`peek_mru` found nothing live.",
    PopMruSome "pop_mru_some" "`pop_mru` removed and returned the MRU entry.",
    PopMruNone "pop_mru_none" "`pop_mru` found nothing live.",
    PromoteHit "promote_hit" "`promote` made a live key the MRU.",
    PromoteMiss "promote_miss" "`promote` missed a key that is not expired.",
    PromoteExpired "promote_expired" "`promote` missed an expired key.",
    DemoteHit "demote_hit" "`demote` made a live key the LRU.",
    DemoteMiss "demote_miss" "`demote` missed a key that is not expired.",
    DemoteExpired "demote_expired" "`demote` missed an expired key.",
    Len "len" "`len` with no expired key to hide.",
    LenHidesExpired "len_hides_expired" "`len` not counting expired keys.",
    IsEmptyTrue "is_empty_true" "`is_empty` answered true.",
    IsEmptyFalse "is_empty_false" "`is_empty` answered false.",
    Capacity "capacity" "`capacity` reported the capacity.",
    ResizeEvicted "resize_evicted" "`resize` to above 0 evicted LRU entries.",
    ResizeKeptAll "resize_kept_all" "`resize` to above 0 evicted nothing.",
    ResizeToZero "resize_to_zero" "`resize` to 0, evicting every entry.",
    Clear "clear" "`clear` removed everything.",
    RetainRemovedSome "retain_removed_some" "`retain` removed at least one entry.",
    RetainKeptAll "retain_kept_all" "`retain` kept every entry.",
    RetainOnEmpty "retain_on_empty" "`retain` found nothing live.",
    IterEmpty "iter_empty" "`iter` yielded nothing.",
    IterNonEmpty "iter_non_empty" "`iter` yielded at least one entry.",
    IterMutEmpty "iter_mut_empty" "`iter_mut` yielded nothing.",
    IterMutNonEmpty "iter_mut_non_empty" "`iter_mut` yielded at least one entry.",
    IntoIterEmpty "into_iter_empty" "iterating by value yielded nothing.",
    IntoIterNonEmpty "into_iter_non_empty" "iterating by value yielded at least one entry.",
    Stats "stats" "`stats` reported the counters.",
    AdvanceQuiet "advance_quiet" "`advance` moved time, expiring nothing.",
    AdvanceExpired "advance_expired" "`advance` expired entries, none exactly at its deadline.",
    AdvanceToDeadline "advance_to_deadline" "`advance` landed exactly on some entry's deadline.",
    AdvanceZero "advance_zero" "`advance` by 0 ticks.",
    AdvanceSaturated "advance_saturated" "`advance` overflowed and saturated at `u64::MAX`.",
}

/// Why a key that was written is no longer in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gone {
    /// Evicted to make room by `put`, `push`, `get_or_insert_with` or `resize`.
    Evicted,
    /// Expired at this deadline (or was dead on arrival with it).
    Expired(u64),
    /// Removed by `remove`, `pop_lru`, `pop_mru`, `retain` or `clear`.
    Removed,
}

/// The reference model: see the crate docs.
#[derive(Clone, Debug)]
pub struct Model<K, V> {
    /// The live entries, **least** recently used first (`entries[0]` is the next to evict, the
    /// last is the MRU): key, value, deadline (`None`: no ttl).
    entries: Vec<(K, V, Option<u64>)>,
    /// Why each key that left the model left. A key is in `entries` or here, at most once: a
    /// write takes it out of here (a write dead on arrival puts it back as expired), and every
    /// way out of `entries` puts it in here.
    gone: Vec<(K, Gone)>,
    now: u64,
    capacity: usize,
    ttl: Option<u64>,
    stats: Stats,
}

impl<K: Clone + PartialEq, V> Model<K, V> {
    /// An empty model with this capacity and ttl (in ticks) whose clock starts at `start`.
    pub fn new(capacity: usize, ttl: Option<u64>, start: u64) -> Self {
        Model { entries: vec![], gone: vec![], now: start, capacity, ttl, stats: Stats::default() }
    }

    /// The current time.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The ttl it was made with.
    pub fn ttl(&self) -> Option<u64> {
        self.ttl
    }

    /// Moves time forward by `ticks`, saturating at `u64::MAX`, and drops every entry that is
    /// no longer live (its deadline is now or earlier). Reports, first match wins: zero ticks,
    /// saturated, landed on a deadline, expired some, quiet.
    pub fn advance(&mut self, ticks: u64) -> Transition {
        let (now, saturated) = self.now.checked_add(ticks).map_or((u64::MAX, true), |n| (n, false));
        self.now = now;
        let at_deadline = self.entries.iter().any(|e| e.2 == Some(now));
        // `sweep` returns how many entries expired.
        match self.sweep(|e| e.2.filter(|&d| d <= now).map(Expired)) {
            _ if ticks == 0 => AdvanceZero,
            _ if saturated => AdvanceSaturated,
            _ if at_deadline => AdvanceToDeadline,
            0 => AdvanceQuiet,
            _ => AdvanceExpired,
        }
    }

    /// Returns the old value of a live `key`, or `None`. Dead on arrival: `None`, nothing stored.
    pub fn put(&mut self, key: K, value: V) -> (Option<V>, Transition) {
        let (left, t) = self.write(key, value, true);
        (left.filter(|_| matches!(t, PutOverwrote | PutOverwroteAtCapacity)).map(|(_, v)| v), t)
    }

    /// Returns the pair that left because of this call: the old pair (with the key that was
    /// stored) on overwrite, the evicted LRU pair, or the given pair at capacity 0. Dead on
    /// arrival (capacity above 0): `None`, the pair is dropped like any expired entry.
    pub fn push(&mut self, key: K, value: V) -> (Option<(K, V)>, Transition) {
        self.write(key, value, false)
    }

    /// `put` and `push`: stores `key` as MRU with a fresh deadline, evicting the LRU if full.
    /// Returns what `push` returns, with `put`'s or `push`'s transition.
    fn write(&mut self, key: K, value: V, put: bool) -> (Option<(K, V)>, Transition) {
        let pick = |for_put, for_push| if put { for_put } else { for_push };
        if self.capacity == 0 {
            return (Some((key, value)), pick(PutCapacityZero, PushCapacityZero));
        }
        self.gone.retain(|(k, _)| *k != key);
        let deadline = self.ttl.map(|ttl| self.now.saturating_add(ttl));
        if let Some(d) = deadline.filter(|&d| d <= self.now) {
            self.gone.push((key, Expired(d)));
            return (None, pick(PutDeadOnArrival, PushDeadOnArrival));
        }
        // Free slots (none: full), and the keys expired and not cleared since: an upper bound on
        // the expired entries a cache that cleans up lazily may still hold in those slots.
        let room = self.capacity - self.entries.len();
        let expired = self.gone.iter().filter(|g| matches!(g.1, Expired(_))).count();
        let old = self.locate(&key).ok().map(|i| self.entries.remove(i)).map(|(k, v, _)| (k, v));
        self.entries.push((key, value, deadline));
        // When full, the LRU goes now: it is still `entries[0]`, as the new entry went last.
        match old {
            Some(_) if room == 0 => (old, pick(PutOverwroteAtCapacity, PushOverwroteAtCapacity)),
            Some(_) => (old, pick(PutOverwrote, PushOverwrote)),
            _ if room == 0 => (Some(self.take(0, Evicted)), pick(PutEvictedLru, PushEvictedLru)),
            _ if expired >= room => (None, pick(PutInsertedOverExpired, PushInsertedOverExpired)),
            _ => (None, pick(PutInserted, PushInserted)),
        }
    }

    /// Returns the live value and makes it MRU; counts a hit or a miss.
    pub fn get(&mut self, key: &K) -> (Option<&V>, Transition) {
        let t = match self.locate(key) {
            Ok(_) => GetHit,
            Err(None) => GetMissNeverSeen,
            Err(Some(Evicted)) => GetMissEvicted,
            Err(Some(Removed)) => GetMissRemoved,
            Err(Some(Expired(d))) if d == self.now => GetMissAtDeadline,
            Err(Some(Expired(_))) => GetMissExpired,
        };
        (self.get_mut(key).0.map(|v| &*v), t)
    }

    /// Like [`Model::get`], with a mutable reference.
    pub fn get_mut(&mut self, key: &K) -> (Option<&mut V>, Transition) {
        let (i, t) = self.find(key, [GetMutHit, GetMutMiss, GetMutMissExpired]);
        // Counts a hit or a miss.
        *if i.is_some() { &mut self.stats.hits } else { &mut self.stats.misses } += 1;
        let Some(i) = i else { return (None, t) };
        self.entries[i..].rotate_left(1); // entry `i` moves to the end: it is the MRU now
        (self.entries.last_mut().map(|e| &mut e.1), t)
    }

    /// `get_mut` on a live `key`; else a miss, then `put(key, make())`, returning the value
    /// stored, if it was (not at capacity 0, nor dead on arrival).
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> (Option<&mut V>, Transition) {
        if self.locate(&key).is_ok() {
            return (self.get_mut(&key).0, GetOrInsertHit);
        }
        self.stats.misses += 1;
        let t = match self.put(key, make()).1 {
            PutInserted | PutInsertedOverExpired => GetOrInsertInserted,
            PutEvictedLru => GetOrInsertEvictedLru,
            _ => return (None, GetOrInsertStoredNothing),
        };
        // The new entry went last: it is the MRU.
        (self.entries.last_mut().map(|e| &mut e.1), t)
    }

    /// [`Model::get_or_insert_with`] with a value that may fail to be made: on a miss, a
    /// failure is the miss alone, and comes back.
    pub fn try_get_or_insert_with<E>(
        &mut self,
        key: K,
        make: impl FnOnce() -> Result<V, E>,
    ) -> (Result<Option<&mut V>, E>, Transition) {
        if self.locate(&key).is_ok() {
            return (Ok(self.get_mut(&key).0), GetOrInsertHit);
        }
        match make() {
            Ok(value) => {
                let (stored, t) = self.get_or_insert_with(key, || value);
                (Ok(stored), t)
            }
            Err(e) => {
                self.stats.misses += 1;
                (Err(e), TryGetOrInsertFailed)
            }
        }
    }

    /// Returns the live value without touching recency or stats.
    pub fn peek(&self, key: &K) -> (Option<&V>, Transition) {
        let (i, t) = self.find(key, [PeekHit, PeekMiss, PeekMissExpired]);
        (i.map(|i| &self.entries[i].1), t)
    }

    /// Like [`Model::peek`], with a mutable reference.
    pub fn peek_mut(&mut self, key: &K) -> (Option<&mut V>, Transition) {
        let (i, t) = self.find(key, [PeekMutHit, PeekMutMiss, PeekMutMissExpired]);
        (i.map(|i| &mut self.entries[i].1), t)
    }

    /// Whether `key` is live, without touching recency or stats.
    pub fn contains(&self, key: &K) -> (bool, Transition) {
        let (i, t) = self.find(key, [ContainsTrue, ContainsFalse, ContainsExpired]);
        (i.is_some(), t)
    }

    /// Removes `key` and returns its live value.
    pub fn remove(&mut self, key: &K) -> (Option<V>, Transition) {
        let (i, t) = self.find(key, [RemoveHit, RemoveMiss, RemoveExpired]);
        (i.map(|i| self.take(i, Removed).1), t)
    }

    /// The LRU live entry.
    pub fn peek_lru(&self) -> (Option<(&K, &V)>, Transition) {
        let lru = self.entries.first().map(|(k, v, _)| (k, v));
        (lru, if lru.is_some() { PeekLruSome } else { PeekLruNone })
    }

    /// Removes and returns the LRU live entry (not an eviction).
    pub fn pop_lru(&mut self) -> (Option<(K, V)>, Transition) {
        let Some(_) = self.entries.first() else { return (None, PopLruNone) };
        (Some(self.take(0, Removed)), PopLruSome)
    }

    /// The MRU live entry.
    pub fn peek_mru(&self) -> (Option<(&K, &V)>, Transition) {
        let mru = self.entries.last().map(|(k, v, _)| (k, v));
        (mru, if mru.is_some() { PeekMruSome } else { PeekMruNone })
    }

    /// Removes and returns the MRU live entry.
    pub fn pop_mru(&mut self) -> (Option<(K, V)>, Transition) {
        let Some(last) = self.entries.len().checked_sub(1) else { return (None, PopMruNone) };
        (Some(self.take(last, Removed)), PopMruSome)
    }

    /// Makes a live `key` the MRU, without touching stats; whether it was live.
    pub fn promote(&mut self, key: &K) -> (bool, Transition) {
        let (i, t) = self.find(key, [PromoteHit, PromoteMiss, PromoteExpired]);
        if let Some(i) = i {
            self.entries[i..].rotate_left(1); // entry `i` moves to the end
        }
        (i.is_some(), t)
    }

    /// Makes a live `key` the LRU, without touching stats; whether it was live.
    pub fn demote(&mut self, key: &K) -> (bool, Transition) {
        let (i, t) = self.find(key, [DemoteHit, DemoteMiss, DemoteExpired]);
        if let Some(i) = i {
            self.entries[..=i].rotate_right(1); // entry `i` moves to the front
        }
        (i.is_some(), t)
    }

    /// The number of live entries.
    pub fn len(&self) -> (usize, Transition) {
        let hides = self.gone.iter().any(|g| matches!(g.1, Expired(_)));
        (self.entries.len(), if hides { LenHidesExpired } else { Len })
    }

    /// Whether no entry is live.
    pub fn is_empty(&self) -> (bool, Transition) {
        (self.entries.is_empty(), if self.entries.is_empty() { IsEmptyTrue } else { IsEmptyFalse })
    }

    /// The capacity.
    pub fn capacity(&self) -> (usize, Transition) {
        (self.capacity, Capacity)
    }

    /// Sets the capacity, then evicts LRU entries while more than `capacity` are live.
    pub fn resize(&mut self, capacity: usize) -> Transition {
        let t = if self.entries.len() > capacity { ResizeEvicted } else { ResizeKeptAll };
        self.capacity = capacity;
        while self.entries.len() > capacity {
            self.take(0, Evicted);
        }
        if capacity == 0 { ResizeToZero } else { t }
    }

    /// Removes every entry (not an eviction).
    pub fn clear(&mut self) -> Transition {
        self.sweep(|_| Some(Removed));
        // The cache holds nothing afterwards, expired or not: expired keys count as removed too,
        // evicted ones stay evicted.
        self.gone.iter_mut().filter(|g| g.1 != Evicted).for_each(|g| g.1 = Removed);
        Clear
    }

    /// Removes the live entries for which `f` is false, keeping the order of the rest; `f` is
    /// called once per live entry, most recently used first.
    pub fn retain(&mut self, mut f: impl FnMut(&K, &mut V) -> bool) -> Transition {
        let t = if self.entries.is_empty() { RetainOnEmpty } else { RetainKeptAll };
        let removed = self.sweep(|(k, v, _)| (!f(k, v)).then_some(Removed));
        if removed > 0 { RetainRemovedSome } else { t }
    }

    /// The live entries, most recently used first.
    pub fn iter(&self) -> (Vec<(&K, &V)>, Transition) {
        let t = if self.entries.is_empty() { IterEmpty } else { IterNonEmpty };
        (self.live().collect(), t)
    }

    /// Like [`Model::iter`], with mutable references to the values.
    pub fn iter_mut(&mut self) -> (Vec<(&K, &mut V)>, Transition) {
        let t = if self.entries.is_empty() { IterMutEmpty } else { IterMutNonEmpty };
        (self.entries.iter_mut().rev().map(|(k, v, _)| (&*k, v)).collect(), t)
    }

    /// Iterating by value: the live entries, most recently used first, moved out.
    pub fn into_entries(self) -> (Vec<(K, V)>, Transition) {
        let t = if self.entries.is_empty() { IntoIterEmpty } else { IntoIterNonEmpty };
        (self.entries.into_iter().rev().map(|(k, v, _)| (k, v)).collect(), t)
    }

    /// The live entries, most recently used first, without a transition or a `Vec`: for checks
    /// that run after every step.
    pub fn live(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().rev().map(|(k, v, _)| (k, v))
    }

    /// The counters.
    pub fn stats(&self) -> (Stats, Transition) {
        (self.stats, Transition::Stats)
    }

    /// Where live `key` is in `entries`, or else why it left (`None`: it was never written).
    fn locate(&self, key: &K) -> Result<usize, Option<Gone>> {
        let why = || self.gone.iter().find(|g| g.0 == *key).map(|g| g.1);
        self.entries.iter().position(|e| e.0 == *key).ok_or_else(why)
    }

    /// Where live `key` is, with the transition `hit`; else `expired` if its last write expired,
    /// or `miss`.
    fn find(&self, key: &K, [hit, miss, expired]: [Transition; 3]) -> (Option<usize>, Transition) {
        let found = self.locate(key);
        let t = if matches!(found, Err(Some(Expired(_)))) { expired } else { miss };
        (found.ok(), if found.is_ok() { hit } else { t })
    }

    /// Takes entry `i` out of the model and records why it left; counts it if it was evicted.
    fn take(&mut self, i: usize, why: Gone) -> (K, V) {
        let (key, value, _) = self.entries.remove(i);
        self.stats.evictions += u64::from(why == Evicted);
        self.gone.push((key.clone(), why));
        (key, value)
    }

    /// Takes out each entry for which `why` gives a reason, keeping the order of the rest.
    /// Calls `why` once per entry, most recently used first; returns how many it took.
    fn sweep(&mut self, mut why: impl FnMut(&mut (K, V, Option<u64>)) -> Option<Gone>) -> usize {
        let before = self.entries.len();
        for i in (0..before).rev() {
            let Some(why) = why(&mut self.entries[i]) else { continue };
            self.take(i, why);
        }
        before - self.entries.len()
    }
}
