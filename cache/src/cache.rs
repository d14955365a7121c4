//! The cache itself: slots, the index over them, and the two lists that order them.

use std::borrow::Borrow;
use std::convert::Infallible;
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::mem;
use std::time::Duration;

use crate::clock::{Clock, SystemClock};
use crate::index::Index;
use crate::iter::{IntoIter, Iter, IterMut};
use crate::list::{Links, List, NIL, Node};
use crate::upcoming::Upcoming;

/// The hasher a cache uses unless told otherwise: foldhash (hashbrown's default), fast and
/// seeded per cache.
pub type DefaultHashBuilder = foldhash::fast::RandomState;

/// Slot indices are `u32`, and `NIL` is reserved: this many entries at most, whatever the
/// capacity says.
pub(crate) const MAX_LEN: usize = NIL as usize;

/// Hit, miss and eviction counters; see [`Cache::stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// `get`, `get_mut` and `get_or_insert_with` (and `try_`) calls that found a live entry.
    pub hits: u64,
    /// `get`, `get_mut` and `get_or_insert_with` (and `try_`) calls that found no live entry.
    pub misses: u64,
    /// Live entries removed to make room, by `put`, `push`, `get_or_insert_with` or `resize`.
    pub evictions: u64,
}

/// One entry, linked into the recency list.
#[derive(Clone, Debug)]
pub(crate) struct Slot<K, V> {
    pub(crate) key: K,
    pub(crate) value: V,
    pub(crate) recency: Links,
}

impl<K, V> Node for Slot<K, V> {
    #[inline]
    fn links(&self) -> &Links {
        &self.recency
    }
    #[inline]
    fn links_mut(&mut self) -> &mut Links {
        &mut self.recency
    }
}

/// What a write did, for `put` and `push` to translate into their return values.
enum Write<K, V> {
    /// A new entry was stored with room to spare.
    Stored,
    /// A live entry with the same key was overwritten; here is its old key and value.
    Replaced(K, V),
    /// The least recently used live entry was evicted to make room.
    Evicted(K, V),
    /// The capacity is 0: the pair was not stored and comes back.
    Refused(K, V),
    /// The entry would be expired on arrival (ttl 0, or a saturated deadline): not stored.
    DeadOnArrival,
}

/// A least-recently-used cache with an optional time-to-live and an injected clock.
///
/// See the [crate documentation](crate) for the contract, an example and the design.
#[derive(Clone)]
pub struct Cache<K, V, C: Clock = SystemClock, S = DefaultHashBuilder> {
    /// Entries, densely packed: removing one moves the last slot into its place.
    pub(crate) slots: Vec<Slot<K, V>>,
    /// With a ttl, `deadlines[i]` is when `slots[i]` expires; without one, it is empty. Kept
    /// apart from the slots so that a cache without a ttl pays nothing for expiry.
    pub(crate) deadlines: Vec<u64>,
    /// The index of every slot, found by its key's hash.
    pub(crate) index: Index,
    /// Most recently used at the head, least recently used at the tail, but for `pending`.
    pub(crate) recency: List,
    /// The slot of the last hit, or `NIL`: the most recently used entry, which the list takes
    /// to its head only at the next `&mut` call ([`settle`](Self::settle)). Moved at once, the
    /// relink's stores would wait on the lookup just made; a call later they wait on nothing
    /// (see `cache/benches/experiments.md`). The order is `pending`, then the list without it.
    pub(crate) pending: u32,
    /// Records of the entries that expire soonest; see [`Upcoming`].
    pub(crate) upcoming: Upcoming,
    /// No entry expires before this (`u64::MAX` without a ttl): `upcoming.next_check()`, or
    /// earlier. Every `&mut` call compares the time with it, so it is kept here, in one load.
    pub(crate) next_deadline: u64,
    /// The latest deadline given out since the cache was made or cleared, and at least
    /// `upcoming`'s horizon: the floor for the next one, below which the clock went backwards.
    pub(crate) last_deadline: u64,
    pub(crate) capacity: usize,
    pub(crate) ttl: Option<u64>,
    pub(crate) clock: C,
    pub(crate) hasher: S,
    pub(crate) stats: Stats,
}

impl<K: Hash + Eq, V> Cache<K, V> {
    /// A cache that holds at most `capacity` entries, which never expire.
    ///
    /// Allocates nothing until the first entry arrives, so `Cache::new(usize::MAX)` is cheap.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// assert_eq!(cache.get(&"a"), Some(&1));
    /// ```
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self::with_clock_and_hasher(capacity, None, SystemClock, DefaultHashBuilder::default())
    }

    /// A cache whose entries expire `ttl` after they were written, timed by [`SystemClock`].
    ///
    /// A ttl beyond `u64::MAX` nanoseconds (584 years) is as good as none.
    ///
    /// # Example
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let mut cache = cache::Cache::with_ttl(100, Duration::from_secs(60));
    /// cache.put("session", 7);
    /// assert_eq!(cache.get(&"session"), Some(&7));
    /// ```
    #[must_use]
    pub fn with_ttl(capacity: usize, ttl: Duration) -> Self {
        let ticks = u64::try_from(ttl.as_nanos()).unwrap_or(u64::MAX);
        Self::with_clock_and_hasher(capacity, Some(ticks), SystemClock, DefaultHashBuilder::default())
    }
}

impl<K: Hash + Eq, V, C: Clock> Cache<K, V, C> {
    /// A cache with an optional ttl, in ticks of the given clock.
    ///
    /// # Example
    ///
    /// ```
    /// use cache::{Cache, ManualClock};
    ///
    /// let clock = ManualClock::new(0);
    /// let mut cache = Cache::with_clock(10, Some(5), clock.clone());
    /// cache.put("k", 1);
    /// clock.advance(4);
    /// assert_eq!(cache.get(&"k"), Some(&1));
    /// clock.advance(1); // exactly at the deadline: already gone
    /// assert_eq!(cache.get(&"k"), None);
    /// ```
    #[must_use]
    pub fn with_clock(capacity: usize, ttl: Option<u64>, clock: C) -> Self {
        Self::with_clock_and_hasher(capacity, ttl, clock, DefaultHashBuilder::default())
    }
}

impl<K: Hash + Eq, V, C: Clock, S: BuildHasher> Cache<K, V, C, S> {
    /// A cache with an optional ttl, a clock, and the given hasher for its keys.
    ///
    /// # Example
    ///
    /// ```
    /// use std::hash::RandomState;
    /// use cache::{Cache, ManualClock};
    ///
    /// let mut cache = Cache::with_clock_and_hasher(10, None, ManualClock::new(0), RandomState::new());
    /// cache.put(1, "one");
    /// assert_eq!(cache.peek(&1), Some(&"one"));
    /// ```
    #[must_use]
    pub fn with_clock_and_hasher(capacity: usize, ttl: Option<u64>, clock: C, hasher: S) -> Self {
        Self {
            slots: Vec::new(),
            deadlines: Vec::new(),
            index: Index::new(),
            recency: List::EMPTY,
            pending: NIL,
            upcoming: no_upcoming(ttl),
            next_deadline: no_upcoming(ttl).next_check(),
            last_deadline: 0,
            capacity,
            ttl,
            clock,
            hasher,
            stats: Stats::default(),
        }
    }

    /// Stores `value` under `key` as the most recently used entry and returns the value it
    /// replaced, if the key was live.
    ///
    /// An overwrite restarts the entry's timer and evicts nothing. A new key in a full cache
    /// first evicts the least recently used live entry (expired entries go first and never
    /// count as a reason to evict). With capacity 0 nothing is stored.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(1);
    /// assert_eq!(cache.put("a", 1), None);
    /// assert_eq!(cache.put("a", 2), Some(1));
    /// assert_eq!(cache.put("b", 3), None); // evicts "a"
    /// assert!(!cache.contains(&"a"));
    /// ```
    pub fn put(&mut self, key: K, value: V) -> Option<V> {
        match self.write(key, value) {
            Write::Replaced(old_key, old) => Some(value_of((old_key, old))),
            Write::Stored | Write::Evicted(..) | Write::Refused(..) | Write::DeadOnArrival => None,
        }
    }

    /// Like [`put`](Self::put), but returns the entry that left the cache because of this
    /// call: the old pair on an overwrite, the evicted least recently used pair, or the given
    /// pair itself when the capacity is 0. Expired entries cleaned up on the way are dropped.
    /// So is the given pair if it expires as it arrives (a ttl of 0, or a clock at `u64::MAX`):
    /// like every expired entry, it is dropped, and `None` comes back.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(1);
    /// assert_eq!(cache.push("a", 1), None);
    /// assert_eq!(cache.push("a", 2), Some(("a", 1)));
    /// assert_eq!(cache.push("b", 3), Some(("a", 2)));
    /// ```
    pub fn push(&mut self, key: K, value: V) -> Option<(K, V)> {
        match self.write(key, value) {
            Write::Replaced(k, v) | Write::Evicted(k, v) | Write::Refused(k, v) => Some((k, v)),
            Write::Stored | Write::DeadOnArrival => None,
        }
    }

    /// The value of a live `key`, which becomes the most recently used entry.
    ///
    /// Counts a hit or a miss in [`stats`](Self::stats).
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// assert_eq!(cache.get(&"a"), Some(&1)); // "a" is now the most recently used
    /// cache.put("c", 3); // so "b" is evicted
    /// assert_eq!(cache.get(&"b"), None);
    /// ```
    pub fn get<Q>(&mut self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.touch(key).map(|value| &*value)
    }

    /// Like [`get`](Self::get), but the value can be changed in place. Changing it does not
    /// restart the entry's timer.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// if let Some(v) = cache.get_mut(&"a") {
    ///     *v += 10;
    /// }
    /// assert_eq!(cache.peek(&"a"), Some(&11));
    /// ```
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.touch(key)
    }

    /// The value of a live `key`, as [`get_mut`](Self::get_mut) finds it; on a miss, first
    /// stores `make()` under `key`, as [`put`](Self::put) does (evicting the least recently used
    /// entry from a full cache). Either way the entry becomes the most recently used, and the
    /// call counts a hit or a miss, like `get`.
    ///
    /// `None` when nothing can be stored: with capacity 0, or when the new entry expires as it
    /// arrives (a ttl of 0); the new value is then dropped. One lookup on a hit; a miss probes
    /// the index again to store.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// let mut computed = 0;
    /// for _ in 0..3 {
    ///     let v = cache.get_or_insert_with("a", || {
    ///         computed += 1;
    ///         42
    ///     });
    ///     assert_eq!(v, Some(&mut 42));
    /// }
    /// assert_eq!(computed, 1);
    /// assert_eq!((cache.stats().hits, cache.stats().misses), (2, 1));
    /// ```
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> Option<&mut V> {
        let Ok(value) = self.try_get_or_insert_with(key, || Ok::<V, Infallible>(make()));
        value
    }

    /// [`get_or_insert_with`](Self::get_or_insert_with) for a value that may fail to be made,
    /// as loading it from a file or a database may: on a miss, an `Err` from `make` comes back
    /// as it is, and the cache stores nothing, evicts nothing and counts the miss.
    ///
    /// # Errors
    ///
    /// What `make` returned, if it was called and failed.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// let parsed = cache.try_get_or_insert_with("a", || "x".parse::<u32>());
    /// assert!(parsed.is_err());
    /// assert!(cache.is_empty());
    /// let parsed = cache.try_get_or_insert_with("a", || "7".parse::<u32>());
    /// assert_eq!(parsed, Ok(Some(&mut 7)));
    /// assert_eq!(cache.stats().misses, 2);
    /// ```
    pub fn try_get_or_insert_with<E>(
        &mut self,
        key: K,
        make: impl FnOnce() -> Result<V, E>,
    ) -> Result<Option<&mut V>, E> {
        if let Some(i) = self.find_live(&key) {
            return Ok(Some(self.hit(i)));
        }
        let value = match make() {
            Ok(value) => value,
            Err(e) => {
                self.stats.misses += 1;
                return Err(e);
            }
        };
        let write = self.write(key, value);
        // Counted once the write is done: a `Hash`, `Eq` or `make` that panics changes nothing.
        self.stats.misses += 1;
        match write {
            // A write makes its entry the most recently used. (An overwrite cannot follow a
            // miss, but would find its entry there too.)
            Write::Stored | Write::Evicted(..) | Write::Replaced(..) => {
                let head = self.recency.head;
                Ok(self.slots.get_mut(head as usize).map(|slot| &mut slot.value))
            }
            Write::Refused(..) | Write::DeadOnArrival => Ok(None),
        }
    }

    /// The value of a live `key`, leaving the recency order and the stats alone.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// assert_eq!(cache.peek(&"a"), Some(&1)); // "a" stays the least recently used
    /// cache.put("c", 3);
    /// assert_eq!(cache.peek(&"a"), None);
    /// ```
    pub fn peek<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find(self.hasher.hash_one(key), key)?;
        self.is_live(i, self.now()).then(|| &self.slots[i as usize].value)
    }

    /// Like [`peek`](Self::peek), but the value can be changed in place: the recency order, the
    /// stats and the entry's timer are left alone.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// if let Some(v) = cache.peek_mut(&"a") {
    ///     *v = 10;
    /// }
    /// cache.put("c", 3); // "a" was still the least recently used
    /// assert_eq!(cache.peek(&"a"), None);
    /// ```
    pub fn peek_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find_live(key)?;
        Some(&mut self.slots[i as usize].value)
    }

    /// Whether `key` is live, leaving the recency order and the stats alone.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// assert!(cache.contains(&"a"));
    /// assert!(!cache.contains(&"b"));
    /// ```
    pub fn contains<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.peek(key).is_some()
    }

    /// Removes a live `key` and returns its value.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// assert_eq!(cache.remove(&"a"), Some(1));
    /// assert_eq!(cache.remove(&"a"), None);
    /// ```
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.purge_now();
        let hash = self.hasher.hash_one(key);
        let i = self.find(hash, key)?;
        // The last hash this removal needs, taken while the entry is still indexed.
        let moved_hash = moved_hash(&self.slots, &self.hasher, i);
        self.index.remove(hash, i);
        Some(value_of(self.take_slot(i, moved_hash)))
    }

    /// The least recently used live entry, leaving the recency order alone.
    ///
    /// Taking `&self`, it cannot clean up: it steps over the entries that expired
    /// since the last `&mut` call.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// assert_eq!(cache.peek_lru(), Some((&"a", &1)));
    /// ```
    pub fn peek_lru(&self) -> Option<(&K, &V)> {
        let now = self.now();
        // The last hit's entry is the most recently used: the least only if no other is live.
        self.first_live(now, self.recency.tail, |links| links.prev).or_else(|| self.pending_live(now))
    }

    /// The most recently used live entry, leaving the recency order alone.
    ///
    /// Like [`peek_lru`](Self::peek_lru), it steps over the entries that expired since the last
    /// `&mut` call.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// assert_eq!(cache.peek_mru(), Some((&"b", &2)));
    /// ```
    pub fn peek_mru(&self) -> Option<(&K, &V)> {
        let now = self.now();
        self.pending_live(now).or_else(|| self.first_live(now, self.recency.head, |links| links.next))
    }

    /// The first live entry walking the recency list from `i` by `step`, past the last hit's
    /// (whose place in the order is first, not where the list still holds it).
    fn first_live(&self, now: u64, mut i: u32, step: impl Fn(&Links) -> u32) -> Option<(&K, &V)> {
        // Expired entries are skipped: they can linger only until the next `&mut` call.
        while i != NIL && (i == self.pending || !self.is_live(i, now)) {
            i = step(&self.slots[i as usize].recency);
        }
        let slot = self.slots.get(i as usize)?;
        Some((&slot.key, &slot.value))
    }

    /// The last hit's entry, if there is one not yet moved to the list's head and it is live.
    fn pending_live(&self, now: u64) -> Option<(&K, &V)> {
        let slot = self.slots.get(self.pending as usize)?;
        self.is_live(self.pending, now).then_some((&slot.key, &slot.value))
    }

    /// Removes and returns the least recently used live entry.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// assert_eq!(cache.pop_lru(), Some(("a", 1)));
    /// assert_eq!(cache.len(), 1);
    /// ```
    pub fn pop_lru(&mut self) -> Option<(K, V)> {
        self.purge_now();
        let tail = self.recency.tail;
        (tail != NIL).then(|| self.remove_slot(tail))
    }

    /// Removes and returns the most recently used live entry.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// assert_eq!(cache.pop_mru(), Some(("b", 2)));
    /// assert_eq!(cache.len(), 1);
    /// ```
    pub fn pop_mru(&mut self) -> Option<(K, V)> {
        self.purge_now();
        let mru = self.recency.head;
        (mru != NIL).then(|| self.remove_slot(mru))
    }

    /// Makes a live `key` the most recently used entry, as [`get`](Self::get) would, but counts
    /// no hit and reads no value. Returns whether `key` was live.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// assert!(cache.promote(&"a"));
    /// cache.put("c", 3); // "b" is now the least recently used
    /// assert!(!cache.contains(&"b"));
    /// ```
    pub fn promote<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let Some(i) = self.find_live(key) else { return false };
        self.recency.move_to_front(&mut self.slots, i);
        true
    }

    /// Makes a live `key` the least recently used entry, the next to be evicted. Counts nothing
    /// and leaves its timer alone. Returns whether `key` was live.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// assert!(cache.demote(&"b"));
    /// cache.put("c", 3); // evicts "b", not "a"
    /// assert_eq!(cache.peek_lru(), Some((&"a", &1)));
    /// ```
    pub fn demote<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let Some(i) = self.find_live(key) else { return false };
        self.recency.move_to_back(&mut self.slots, i);
        true
    }

    /// The number of live entries.
    ///
    /// Constant time, unless an entry may have expired since the last `&mut` call (which
    /// drops what has expired): then, taking `&self`, it cannot clean up, and reads every
    /// deadline to count the live entries.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// cache.put("a", 1);
    /// assert_eq!(cache.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.live_at(self.now())
    }

    /// How many entries are live at `now`: all of them, unless one may have expired since the
    /// last `&mut` call cleaned up; then every deadline is read.
    fn live_at(&self, now: u64) -> usize {
        let expired = if now < self.next_deadline {
            0
        } else {
            self.deadlines.iter().filter(|&&deadline| deadline <= now).count()
        };
        self.slots.len() - expired
    }

    /// Whether there is no live entry.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(2);
    /// assert!(cache.is_empty());
    /// cache.put("a", 1);
    /// assert!(!cache.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        let now = self.now();
        if now < self.next_deadline {
            return self.slots.is_empty();
        }
        // Something may have expired since the last `&mut` call: look for a live entry.
        !self.deadlines.iter().any(|&deadline| now < deadline)
    }

    /// The most entries the cache holds.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(cache::Cache::<u8, u8>::new(3).capacity(), 3);
    /// ```
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How long an entry lives after it is written, in clock ticks (nanoseconds for a cache made
    /// by [`with_ttl`](Cache::with_ttl)); `None` if entries never expire.
    ///
    /// # Example
    ///
    /// ```
    /// let cache = cache::Cache::<u8, u8>::with_ttl(2, std::time::Duration::from_secs(1));
    /// assert_eq!(cache.ttl(), Some(1_000_000_000));
    /// ```
    pub fn ttl(&self) -> Option<u64> {
        self.ttl
    }

    /// Sets the capacity, evicting least recently used entries while more than `capacity` are
    /// live. Shrinking also gives memory back.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(3);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// cache.resize(1);
    /// assert_eq!(cache.peek(&"a"), None);
    /// assert_eq!(cache.peek(&"b"), Some(&2));
    /// ```
    pub fn resize(&mut self, capacity: usize) {
        self.purge_now();
        // The capacity changes once the entries fit it: if a `Hash` panics while evicting, the
        // entries left still fit the old one.
        let limit = limit_of(capacity);
        while self.slots.len() > limit {
            let evicted = self.remove_slot(self.recency.tail);
            // Counted before the entry is dropped: its `Drop` may panic.
            self.stats.evictions += 1;
            drop(evicted);
        }
        self.capacity = capacity;
        if limit < self.slots.capacity() {
            self.slots.shrink_to(limit);
            self.deadlines.shrink_to(limit);
            self.reindex(limit);
        }
    }

    /// Removes every entry. The stats are kept.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(3);
    /// cache.put("a", 1);
    /// cache.clear();
    /// assert!(cache.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.index.clear();
        self.deadlines.clear();
        self.recency = List::EMPTY;
        self.pending = NIL;
        self.upcoming = no_upcoming(self.ttl);
        self.note_next_deadline();
        self.last_deadline = 0;
        // Last, once nothing names a slot: dropping the entries runs the users' `Drop`, and if
        // one panics, the rest are still dropped and the cache is already empty and sound.
        self.slots.clear();
    }

    /// Keeps only the live entries for which `keep` returns true, in their order.
    ///
    /// `keep` sees each live entry once, most recently used first, and may change its value.
    /// If `keep` panics, the entries already removed stay removed and the cache stays usable.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(4);
    /// for n in 1..=4 {
    ///     cache.put(n, n * 10);
    /// }
    /// cache.retain(|&k, _| k % 2 == 0);
    /// assert_eq!(cache.iter().collect::<Vec<_>>(), [(&4, &40), (&2, &20)]);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.purge_now();
        let mut i = self.recency.head;
        while i != NIL {
            let slot = &mut self.slots[i as usize];
            let next = slot.recency.next;
            // Nothing is half-changed while `keep` runs, so a panic in it leaves a sound cache.
            if keep(&slot.key, &mut slot.value) {
                i = next;
            } else {
                let last = (self.slots.len() - 1) as u32;
                self.remove_slot(i);
                // Removing moved the last slot into `i`; if that was `next`, follow it there.
                i = if next == last { i } else { next };
            }
        }
    }

    /// The live entries, most recently used first, leaving the order alone. Reversed
    /// (`.rev()`), least recently used first; its `len()` is the number of live entries.
    ///
    /// Costs what [`len`](Self::len) costs to make, then a step per entry.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(3);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// cache.get(&"a");
    /// assert_eq!(cache.iter().collect::<Vec<_>>(), [(&"a", &1), (&"b", &2)]);
    /// assert_eq!(cache.iter().rev().collect::<Vec<_>>(), [(&"b", &2), (&"a", &1)]);
    /// assert_eq!(cache.iter().len(), 2);
    /// ```
    pub fn iter(&self) -> Iter<'_, K, V> {
        let now = self.now();
        Iter::new(&self.slots, &self.deadlines, self.recency, self.pending, now, self.live_at(now))
    }

    /// Like [`iter`](Self::iter), but each value can be changed in place: the recency order, the
    /// stats and the deadlines are left alone.
    ///
    /// Drops the expired entries first, as every `&mut` call does, then allocates one slice of
    /// references (three words per entry) to hand them out in order without `unsafe` code.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(3);
    /// cache.put("a", 1);
    /// cache.put("b", 2);
    /// for (_, value) in cache.iter_mut() {
    ///     *value *= 10;
    /// }
    /// assert_eq!(cache.iter().collect::<Vec<_>>(), [(&"b", &20), (&"a", &10)]);
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        self.purge_now();
        IterMut::new(&mut self.slots, self.recency)
    }

    /// How many `get`, `get_mut` and `get_or_insert_with` calls hit and missed, and how many live
    /// entries were evicted to make room.
    ///
    /// # Example
    ///
    /// ```
    /// let mut cache = cache::Cache::new(1);
    /// cache.put("a", 1);
    /// cache.get(&"a");
    /// cache.get(&"b");
    /// cache.put("b", 2);
    /// let stats = cache.stats();
    /// assert_eq!((stats.hits, stats.misses, stats.evictions), (1, 1, 1));
    /// ```
    pub fn stats(&self) -> Stats {
        self.stats
    }

    // ---- internals ----

    /// The time, when it matters: only a cache with a ttl reads its clock.
    #[inline]
    fn now(&self) -> u64 {
        if self.ttl.is_some() { self.clock.now() } else { 0 }
    }

    /// How many entries may be stored; see [`limit_of`].
    #[inline]
    fn limit(&self) -> usize {
        limit_of(self.capacity)
    }

    #[inline]
    pub(crate) fn is_live(&self, i: u32, now: u64) -> bool {
        // Without a ttl there are no deadlines and every entry is live.
        self.deadlines.get(i as usize).is_none_or(|&deadline| now < deadline)
    }

    #[inline]
    fn find<Q>(&self, hash: u64, key: &Q) -> Option<u32>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        self.index.find(hash, |i| self.slots[i as usize].key.borrow() == key)
    }

    /// Moves the last hit's entry to the head of the recency list, so that the list alone is the
    /// order. Every `&mut` call but `clear` does this first, through
    /// [`purge_now`](Self::purge_now); `get` does it after its lookup.
    #[inline]
    fn settle(&mut self) {
        let i = mem::replace(&mut self.pending, NIL);
        if i != NIL {
            self.recency.move_to_front(&mut self.slots, i);
        }
    }

    /// Settles the last hit, reads the clock (only a cache with a ttl has one to read), drops
    /// every entry that has expired by then, and returns the time. Costs one comparison, unless
    /// an entry may have expired.
    #[expect(
        clippy::inline_always,
        reason = "called by every `&mut` method, so `#[inline]` left it out of line: 10 more instructions a hit"
    )]
    #[inline(always)]
    fn purge_now(&mut self) -> u64 {
        self.settle();
        self.drop_expired().0
    }

    /// Reads the clock (only a cache with a ttl has one to read) and drops every entry that has
    /// expired by then. Returns the time, and whether it dropped any (then slots may have moved).
    #[inline]
    fn drop_expired(&mut self) -> (u64, bool) {
        if self.ttl.is_none() {
            return (0, false);
        }
        let now = self.clock.now();
        // The check stays inline on every call; the loop only runs when something expired.
        if now < self.next_deadline {
            return (now, false);
        }
        self.purge_expired(now);
        (now, true)
    }

    /// Drops every entry that has expired by `now`: those listed, and if the clock has reached
    /// the horizon, the rest, once the next pass has listed them.
    #[inline(never)]
    fn purge_expired(&mut self, now: u64) {
        self.drop_listed(now);
        if now >= self.upcoming.horizon() {
            self.renew_upcoming(now);
            self.drop_listed(now);
        }
        self.note_next_deadline();
    }

    /// Drops the entries whose records say they have expired by `now`, skipping stale records.
    fn drop_listed(&mut self, now: u64) {
        while let Some((deadline, i)) = self.upcoming.first() {
            if deadline > now {
                break;
            }
            if self.is_live(i, now) {
                // Stale: the entry was written again, or has gone and another is in its slot.
                self.upcoming.pop_first();
                continue;
            }
            // Hashed while the record is still there: if `Hash` panics, nothing has changed.
            let hash = self.hasher.hash_one(&self.slots[i as usize].key);
            let moved_hash = moved_hash(&self.slots, &self.hasher, i);
            self.upcoming.pop_first();
            self.index.remove(hash, i);
            drop(self.take_slot(i, moved_hash));
        }
    }

    /// The clock has reached `upcoming`'s horizon: lists the soonest deadlines again, the
    /// expired ones among them first. If more have expired than that lists (the clock jumped),
    /// drops them in one pass first instead.
    #[cold]
    fn renew_upcoming(&mut self, now: u64) {
        let latest = now.saturating_add(self.ttl.unwrap_or(0));
        self.upcoming.rebuild(&self.deadlines, now, latest);
        if self.upcoming.horizon() <= now {
            // Nothing is listed while the expired go, so their removals record nothing; if a
            // `Hash` or `Drop` panics meanwhile, the next call starts over.
            self.upcoming = Upcoming::new(0);
            self.next_deadline = 0;
            // From the back: a removal moves the last slot, already seen to be live, into the hole.
            for i in (0..self.slots.len()).rev() {
                if self.deadlines[i] <= now {
                    drop(self.remove_slot(i as u32));
                }
            }
            self.upcoming.rebuild(&self.deadlines, now, latest);
        }
        self.last_deadline = self.last_deadline.max(self.upcoming.horizon());
    }

    /// Finds a live `key`, counts a hit or a miss, and makes it the most recently used.
    ///
    /// The lookup comes first, before the last hit is settled and the clock is read: its chain
    /// of loads is the step's longest, and on the Zen 3 VM, started ahead of the rest, a hit
    /// took about a sixth less time (`cache/benches/experiments.md`). Nothing before it changes
    /// the cache, so a panicking `Hash` or `Eq` still leaves it as it was.
    #[inline]
    fn touch<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let hash = self.hasher.hash_one(key);
        let mut found = self.find(hash, key);
        self.settle();
        if self.drop_expired().1 {
            // Found before the purge, the entry may have expired or moved: look again.
            found = self.find(hash, key);
        }
        let Some(i) = found else {
            self.stats.misses += 1;
            return None;
        };
        Some(self.hit(i))
    }

    /// Cleans up, then finds a live `key`; the stats and the order are the caller's to change.
    #[inline]
    fn find_live<Q>(&mut self, key: &Q) -> Option<u32>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.purge_now();
        // After the purge every stored entry is live: no deadline to check here.
        self.find(self.hasher.hash_one(key), key)
    }

    /// Counts a hit on slot `i`, makes it the most recently used (the next call moves it in the
    /// list), and returns its value.
    #[inline]
    fn hit(&mut self, i: u32) -> &mut V {
        self.stats.hits += 1;
        self.pending = i;
        &mut self.slots[i as usize].value
    }

    /// The one write path behind `put` and `push`. It probes the index once: for the key, and
    /// for the bucket a new key goes into.
    fn write(&mut self, key: K, value: V) -> Write<K, V> {
        let now = self.purge_now();
        // Hash before changing anything, so that a panicking `Hash` leaves the cache as it was.
        let hash = self.hasher.hash_one(&key);
        let limit = self.limit();
        if limit == 0 {
            return Write::Refused(key, value);
        }
        // The new entry's deadline (without a ttl, none is kept): the latest so far.
        let deadline = match self.ttl {
            None => u64::MAX,
            Some(ttl) => {
                let deadline = now.saturating_add(ttl);
                if deadline <= now {
                    // Expired on arrival (ttl 0, or time at u64::MAX), like every entry: the
                    // purge left nothing to overwrite or evict.
                    return Write::DeadOnArrival;
                }
                if deadline < self.last_deadline {
                    self.pull_deadlines_back(now, deadline);
                }
                self.last_deadline = deadline;
                deadline
            }
        };
        if let Some(i) = self.find(hash, &key) {
            let (old_key, old_value) = self.rewrite_slot(i, key, value, deadline);
            return Write::Replaced(old_key, old_value);
        }
        if self.slots.len() < limit {
            if self.index.len() >= self.index.room() {
                self.reindex((2 * self.slots.len()).max(4).min(limit));
            }
            self.index.insert(hash, self.slots.len() as u32);
            self.push_slot(key, value, deadline);
            return Write::Stored;
        }
        // Full of live entries: the least recently used slot takes the new entry in place. Its
        // old key is hashed while nothing has changed yet. (The index names slots by number and
        // runs no user code: by identity, the evicted key's lane is found without `Eq`.)
        let lru = self.recency.tail;
        let lru_hash = self.hasher.hash_one(&self.slots[lru as usize].key);
        self.index.remove(lru_hash, lru);
        self.index.insert(hash, lru);
        let (old_key, old_value) = self.rewrite_slot(lru, key, value, deadline);
        self.stats.evictions += 1;
        Write::Evicted(old_key, old_value)
    }

    /// Puts a new key and value into slot `i`, which becomes the most recently used entry and
    /// the last to expire, and returns what the slot held.
    #[expect(
        clippy::inline_always,
        reason = "written once for both callers, but inlined as before: 3.7 fewer instructions per operation at 10,000 entries than with `#[inline]`"
    )]
    #[inline(always)]
    fn rewrite_slot(&mut self, i: u32, key: K, value: V, deadline: u64) -> (K, V) {
        let slot = &mut self.slots[i as usize];
        let old = (mem::replace(&mut slot.key, key), mem::replace(&mut slot.value, value));
        self.recency.move_to_front(&mut self.slots, i);
        self.restart_timer(i, deadline);
        old
    }

    /// Stores a new entry, expiring at `deadline` if the cache has a ttl, in a new slot, already
    /// indexed as `slots.len()`; there is room.
    fn push_slot(&mut self, key: K, value: V, deadline: u64) {
        let i = self.slots.len() as u32;
        if self.slots.len() == self.slots.capacity() {
            // Grow by doubling, but never past the capacity: a full cache wastes no slots.
            let len = self.slots.len();
            let grow = len.max(4).min(self.limit() - len);
            self.slots.reserve_exact(grow);
            if self.ttl.is_some() {
                self.deadlines.reserve_exact(grow);
            }
        }
        self.slots.push(Slot { key, value, recency: Links::DETACHED });
        self.recency.push_front(&mut self.slots, i);
        // No earlier than `upcoming`'s horizon (see `last_deadline`), so it needs no record.
        if self.ttl.is_some() {
            self.deadlines.push(deadline);
        }
    }

    /// Reads the earliest time an entry may expire into `next_deadline`, after `upcoming`
    /// changed.
    #[inline]
    fn note_next_deadline(&mut self) {
        self.next_deadline = self.upcoming.next_check();
    }

    /// The clock went backwards: entries written at a later time than now would expire only
    /// when the clock caught up with them again (after a glitch to `u64::MAX`, never). They get
    /// `deadline` instead, the one a write now gives: no entry outlives a ttl from now, and no
    /// deadline is later than the next write's. A pass over every deadline, only ever after the
    /// clock went back.
    #[cold]
    #[inline(never)]
    fn pull_deadlines_back(&mut self, now: u64, deadline: u64) {
        for later in self.deadlines.iter_mut().filter(|later| **later > deadline) {
            *later = deadline;
        }
        self.upcoming.rebuild(&self.deadlines, now, deadline);
        self.note_next_deadline();
    }

    /// Slot `i` was written again: it expires at `deadline` instead. Its record, if it has one,
    /// is now stale: nothing else to do.
    #[inline]
    fn restart_timer(&mut self, i: u32, deadline: u64) {
        if self.ttl.is_some()
            && let Some(old) = self.deadlines.get_mut(i as usize)
        {
            *old = deadline;
        }
    }

    /// Builds a new index with room for `room` entries (at least the slots there are), reading
    /// the slots in order. The old index stays in place until the new one is done, so a
    /// panicking `Hash` leaves the cache as it was.
    fn reindex(&mut self, room: usize) {
        // A growing cache's index doubles as its slots do, so a cache that never fills never
        // holds an index for the full one; a full cache's never changes, as it leaves no
        // tombstones.
        let room = room.max(self.slots.len());
        let mut index = Index::with_room(room);
        for (i, slot) in (0..).zip(&self.slots) {
            index.insert_unnoted(self.hasher.hash_one(&slot.key), i);
        }
        self.index = index;
    }

    /// Removes slot `i` entirely and returns its entry.
    fn remove_slot(&mut self, i: u32) -> (K, V) {
        let hash = self.hasher.hash_one(&self.slots[i as usize].key);
        let moved_hash = moved_hash(&self.slots, &self.hasher, i);
        self.index.remove(hash, i);
        self.take_slot(i, moved_hash)
    }

    /// Takes the already unindexed slot `i` out of both lists and out of the slot vector,
    /// moving the last slot, whose key hashes to `moved_hash`, into the hole.
    fn take_slot(&mut self, i: u32, moved_hash: Option<u64>) -> (K, V) {
        self.recency.unlink(&mut self.slots, i);
        let ttl = self.ttl.is_some();
        let last = (self.slots.len() - 1) as u32;
        let slot = self.slots.swap_remove(i as usize);
        if ttl {
            self.deadlines.swap_remove(i as usize);
        }
        if let Some(hash) = moved_hash {
            self.recency.relocate(&mut self.slots, i);
            if ttl {
                // The moved entry's record, if it had one, names `last`: it gets one at `i`.
                if self.upcoming.moved(self.deadlines[i as usize], i) {
                    self.note_next_deadline();
                }
            }
            self.index.rename(hash, last, i);
        }
        (slot.key, slot.value)
    }
}

/// What a cache with `ttl` (or without) lists before its first call: nothing, and without a
/// ttl nothing ever. With one, the first call passes over the deadlines (there are none yet).
fn no_upcoming(ttl: Option<u64>) -> Upcoming {
    Upcoming::new(if ttl.is_some() { 0 } else { u64::MAX })
}

/// How many entries a cache of `capacity` may store: the capacity, within what `u32` indices can
/// address.
#[inline]
fn limit_of(capacity: usize) -> usize {
    capacity.min(MAX_LEN)
}

/// The value of a pair leaving the cache, its key dropped first: were the key's `Drop` to panic
/// while the value was already on its way out, Rust would leak the value (rust-lang/rust#47949).
#[inline]
fn value_of<K, V>((key, value): (K, V)) -> V {
    drop(key);
    value
}

/// The hash of the key that removing slot `i` moves into its place (the last slot's), if any.
/// Removals hash every key they need before they change anything, so that a panicking `Hash`
/// leaves the cache as it was.
fn moved_hash<K: Hash, V, S: BuildHasher>(slots: &[Slot<K, V>], hasher: &S, i: u32) -> Option<u64> {
    let last = slots.len().checked_sub(1)?;
    (i as usize != last).then(|| hasher.hash_one(&slots[last].key))
}

impl<K, V, C, S> fmt::Debug for Cache<K, V, C, S>
where
    K: Hash + Eq + fmt::Debug,
    V: fmt::Debug,
    C: Clock,
    S: BuildHasher,
{
    /// The live entries as a map, most recently used first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a, K: Hash + Eq, V, C: Clock, S: BuildHasher> IntoIterator for &'a Cache<K, V, C, S> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, K: Hash + Eq, V, C: Clock, S: BuildHasher> IntoIterator for &'a mut Cache<K, V, C, S> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Moves the live entries out, most recently used first, as [`Cache::iter`] shows them.
/// Reversed, least recently used first: the order the `lru` crate's `into_iter` has, and the one
/// that refills another cache in the same order.
///
/// Drops the expired entries first, as every `&mut` call does: the clock is read once, when the
/// iterator is made.
///
/// # Example
///
/// ```
/// let mut cache = cache::Cache::new(3);
/// cache.put("a", 1);
/// cache.put("b", 2);
/// let mut refilled = cache::Cache::new(3);
/// for (key, value) in cache.into_iter().rev() {
///     refilled.put(key, value);
/// }
/// assert_eq!(refilled.iter().collect::<Vec<_>>(), [(&"b", &2), (&"a", &1)]);
/// ```
impl<K: Hash + Eq, V, C: Clock, S: BuildHasher> IntoIterator for Cache<K, V, C, S> {
    type Item = (K, V);
    type IntoIter = IntoIter<K, V>;

    fn into_iter(mut self) -> Self::IntoIter {
        self.purge_now();
        IntoIter::new(self.slots, self.recency)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Cache, ManualClock};

    fn filled(capacity: usize, ttl: Option<u64>, entries: u32) -> Cache<u32, u32, ManualClock> {
        let mut cache = Cache::with_clock(capacity, ttl, ManualClock::new(0));
        for k in 0..entries {
            cache.put(k, k);
        }
        cache
    }

    #[test]
    fn a_full_cache_allocates_no_slot_beyond_its_capacity() {
        for capacity in [1, 5, 37, 1000] {
            let cache = filled(capacity, Some(100), 2 * capacity as u32);
            assert_eq!(cache.slots.capacity(), capacity, "slots for capacity {capacity}");
            assert_eq!(cache.deadlines.capacity(), capacity, "deadlines for capacity {capacity}");
        }
    }

    #[test]
    fn a_busy_full_cache_never_grows_its_index() {
        // Every eviction frees the lane the new key may take, and leaves no tombstone: a full
        // cache's index neither grows nor is rebuilt, however long it runs.
        for capacity in (1..=300).chain([1000, 3583, 10_000]) {
            let mut cache = filled(capacity, None, capacity as u32);
            let (chunks, room) = (cache.index.chunks(), cache.index.room());
            // Room for the full cache, in a power of two of chunks: less than twice that.
            assert!(capacity <= room && room < 2 * capacity + 16, "capacity {capacity}: room {room}");
            for k in 0..20 * capacity as u32 {
                cache.put(capacity as u32 + k, k);
            }
            assert_eq!(cache.index.chunks(), chunks, "capacity {capacity}");
            assert_eq!(cache.check_invariants(), Ok(()));
        }
    }

    #[test]
    fn a_growing_cache_holds_an_index_for_its_entries_not_its_capacity() {
        // 200,000 entries take 2^15 chunks (room for 262,144): a cache of a million that never
        // fills needs no more. Full, it takes 2^17 (room for 1,048,576).
        let mut cache = filled(1_000_000, None, 200_000);
        assert_eq!(cache.index.chunks(), 1 << 15);
        for k in 200_000..1_000_000 {
            cache.put(k, k);
        }
        assert_eq!(cache.index.chunks(), 1 << 17);
    }

    #[test]
    fn after_a_purge_the_cache_waits_for_the_soonest_deadline() {
        // Checking at every call would still be correct, only slower: nothing else shows it.
        let clock = ManualClock::new(0);
        let mut cache = Cache::with_clock(100, Some(100), clock.clone());
        for k in 0..10 {
            clock.set(k);
            cache.put(k, k);
        }
        clock.set(105);
        assert_eq!(cache.get(&9), Some(&9));
        assert_eq!(cache.len(), 4, "the entries written at 0 to 5 expired");
        assert_eq!(cache.next_deadline, 106, "the entry written at 6 expires first");
        assert_eq!(cache.check_invariants(), Ok(()));
    }

    #[test]
    fn shrinking_gives_memory_back() {
        let mut cache = filled(1000, Some(100), 1000);
        let index_before = cache.index.room();
        cache.resize(10);
        assert!(cache.slots.capacity() < 20 && cache.deadlines.capacity() < 20);
        assert!(cache.index.room() < index_before / 10);
        assert_eq!(cache.check_invariants(), Ok(()));
    }
}
