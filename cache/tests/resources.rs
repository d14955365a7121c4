//! Contract, "Resources": bounded memory, every value dropped exactly once, no panics for any
//! capacity, ttl or clock value, and a sound cache after a user callback panics.

mod support;

use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};

use cache::{Cache, ManualClock, Stats};
use support::{DropLog, Rng};

#[test]
fn every_value_is_dropped_exactly_once() {
    let log = DropLog::default();
    let clock = ManualClock::new(0);
    let mut rng = Rng::seeded();
    for ttl in [None, Some(0), Some(3), Some(40)] {
        let mut cache = Cache::with_clock(4, ttl, clock.clone());
        for _ in 0..5_000 {
            let key = rng.below(8);
            match rng.below(12) {
                0..=3 => drop(cache.put(key, log.value())),
                4 => drop(cache.push(key, log.value())),
                5 => drop(cache.remove(&key)),
                6 => drop(if key % 2 == 0 { cache.pop_lru() } else { cache.pop_mru() }),
                7 => cache.retain(|k, _| k % 3 != 0),
                8 => cache.resize(rng.below(6) as usize),
                9 => clock.advance(rng.below(8)),
                10 => drop(cache.get(&key)),
                _ => cache.clear(),
            }
            assert!(log.alive() <= cache.capacity(), "more values held than the capacity");
            assert_eq!(cache.check_invariants(), Ok(()));
        }
    }
    log.assert_all_dropped_once();
}

#[test]
fn evicted_and_overwritten_values_are_dropped_at_once() {
    let log = DropLog::default();
    let mut cache = Cache::with_clock(1, None, ManualClock::new(0));
    cache.put(1, log.value());
    cache.put(1, log.value()); // the old value comes back from put and is dropped here
    assert_eq!(log.drops(0), 1);
    cache.put(2, log.value());
    assert_eq!(log.drops(1), 1, "the evicted value is dropped by the cache");
    assert_eq!(log.alive(), 1);
}

#[test]
fn expired_values_are_dropped_by_the_next_mutation_and_never_exceed_capacity() {
    let log = DropLog::default();
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(3, Some(5), clock.clone());
    for k in 0..3 {
        cache.put(k, log.value());
    }
    clock.advance(5);
    assert_eq!(cache.len(), 0);
    assert_eq!(log.alive(), 3, "still held, but within the capacity");
    cache.get(&0);
    assert_eq!(log.alive(), 0);
}

#[test]
fn dropping_the_cache_drops_what_it_holds() {
    let log = DropLog::default();
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(8, Some(5), clock.clone());
    for k in 0..8 {
        cache.put(k, log.value());
    }
    clock.advance(3);
    drop(cache);
    log.assert_all_dropped_once();
}

#[test]
fn into_iter_hands_back_or_drops_every_value_once() {
    for taken in 0..=4 {
        let log = DropLog::default();
        let clock = ManualClock::new(0);
        let mut cache = Cache::with_clock(4, Some(5), clock.clone());
        for k in 0..6 {
            cache.put(k, log.value());
            clock.advance(1);
        }
        // Keys 0 and 1 were evicted; at 7, key 2 (written at 2) is expired, and dropped when the
        // iterator is made.
        clock.set(7);
        let mut iter = cache.into_iter();
        assert_eq!(log.alive(), 3);
        let yielded: Vec<_> = iter.by_ref().take(taken).collect();
        assert_eq!(yielded.len(), taken.min(3));
        drop(iter);
        assert_eq!(log.alive(), yielded.len(), "after taking {taken}: only the yielded values");
        drop(yielded);
        log.assert_all_dropped_once();
    }
}

#[test]
fn extreme_capacities_ttls_and_clocks_never_panic() {
    for capacity in [0, 1, 2, usize::MAX] {
        for ttl in [None, Some(0), Some(1), Some(u64::MAX - 1), Some(u64::MAX)] {
            for start in [0, 1, u64::MAX - 1, u64::MAX] {
                let clock = ManualClock::new(start);
                let mut cache = Cache::with_clock(capacity, ttl, clock.clone());
                for k in 0..4_u8 {
                    cache.put(k, u64::from(k));
                    cache.push(k + 1, 0);
                    cache.get(&k);
                    clock.advance(u64::MAX / 2);
                    cache.get_mut(&(k + 1));
                    let _ =
                        (cache.peek(&k), cache.peek_lru(), cache.peek_mru(), cache.len(), cache.is_empty());
                    cache.resize(capacity.saturating_sub(usize::from(k)));
                }
                cache.pop_lru();
                cache.pop_mru();
                cache.remove(&1);
                assert_eq!(cache.check_invariants(), Ok(()));
            }
        }
    }
}

#[test]
fn a_huge_capacity_is_cheap() {
    let mut cache = Cache::new(usize::MAX);
    cache.put(1, 1);
    assert_eq!(cache.len(), 1);
    assert_eq!(cache.capacity(), usize::MAX);
}

#[test]
fn a_retain_closure_that_panics_half_way_leaves_a_usable_cache() {
    let log = DropLog::default();
    let mut cache = Cache::with_clock(8, Some(100), ManualClock::new(0));
    for k in 0..8 {
        cache.put(k, log.value());
    }
    let mut calls = 0;
    let result = catch_unwind(AssertUnwindSafe(|| {
        cache.retain(|k, _| {
            calls += 1;
            assert!(calls < 5, "the closure gives up half-way");
            k % 2 == 0
        });
    }));
    assert!(result.is_err());
    assert_eq!(cache.check_invariants(), Ok(()));
    // The four entries visited before the panic were judged (7, 5 removed); the rest are kept.
    assert_eq!(cache.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [6, 4, 3, 2, 1, 0]);
    cache.put(10, log.value());
    assert_eq!(cache.len(), 7);
    drop(cache);
    log.assert_all_dropped_once();
}

/// A key whose every hash collides, so a lookup compares it with each stored key, and whose `Eq`
/// panics when the fuse lit by `light_fuse` burns down.
#[derive(Debug)]
struct Picky(u32);

impl Hash for Picky {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

impl PartialEq for Picky {
    fn eq(&self, other: &Self) -> bool {
        let left = FUSE.get();
        if left > 0 {
            FUSE.set(left - 1);
            assert!(left != 1, "the fuse burnt down");
        }
        self.0 == other.0
    }
}

impl Eq for Picky {}

#[test]
fn an_eq_panicking_at_any_comparison_leaves_the_cache_as_it_was() {
    // Keys 0, 1 and 2 are written at times 0, 5 and 6 with a ttl of 10. Each call runs at 7,
    // on a full cache, and at 12, when key 0 has expired but is not cleaned up yet. Every call
    // compares keys before it changes anything (dropping expired entries aside): a panic must
    // leave what is live, the order and the stats as they were.
    type Call = fn(&mut Cache<Picky, support::Tracked, ManualClock>, &DropLog);
    let calls: [(&str, Call); 9] = [
        ("get", |c, _| _ = c.get(&Picky(2))),
        ("get_mut", |c, _| _ = c.get_mut(&Picky(1))),
        ("peek", |c, _| _ = c.peek(&Picky(2))),
        ("contains", |c, _| _ = c.contains(&Picky(7))),
        ("remove", |c, _| drop(c.remove(&Picky(1)))),
        ("put, new key", |c, log| drop(c.put(Picky(7), log.value()))),
        ("put, live key", |c, log| drop(c.put(Picky(2), log.value()))),
        ("put, key 0", |c, log| drop(c.put(Picky(0), log.value()))),
        ("push, new key", |c, log| drop(c.push(Picky(8), log.value()))),
    ];
    let log = DropLog::default();
    let mut panics = 0;
    for (name, call) in calls {
        for (time, comparisons) in [7, 12].into_iter().flat_map(|t| (1..=4).map(move |n| (t, n))) {
            let clock = ManualClock::new(0);
            let mut cache = Cache::with_clock(3, Some(10), clock.clone());
            for (k, written) in [(0, 0), (1, 5), (2, 6)] {
                clock.set(written);
                cache.put(Picky(k), log.value());
            }
            clock.set(time);
            let live = |cache: &Cache<Picky, _, _>| cache.iter().map(|(k, _)| k.0).collect::<Vec<_>>();
            let (before, stats) = (live(&cache), cache.stats());
            light_fuse(comparisons);
            let result = catch_unwind(AssertUnwindSafe(|| call(&mut cache, &log)));
            light_fuse(0);
            let context = format!("{name} at {time}, with the panic at comparison {comparisons}");
            assert_eq!(cache.check_invariants(), Ok(()), "{context}");
            if result.is_err() {
                panics += 1;
                assert_eq!((live(&cache), cache.stats()), (before, stats), "{context}");
            }
            // Still usable: it fills up, evicts, and empties.
            for k in 10..14 {
                cache.put(Picky(k), log.value());
            }
            assert_eq!(live(&cache), [13, 12, 11], "{context}");
            while cache.pop_lru().is_some() {}
            assert_eq!(cache.check_invariants(), Ok(()), "{context}");
        }
    }
    // Each call compares with at least the two live keys before it finds or misses its own.
    assert!(panics >= 2 * 2 * calls.len(), "only {panics} calls panicked");
    log.assert_all_dropped_once();
}

/// A value whose `Drop` panics if it was made to, and otherwise logs its drop.
struct Explosive {
    _logged: support::Tracked,
    explodes: bool,
}

impl Drop for Explosive {
    fn drop(&mut self) {
        assert!(!self.explodes, "a planted panic in Drop");
    }
}

#[test]
fn a_drop_that_panics_in_clear_leaves_an_empty_usable_cache() {
    // `Drop` is user code too: when one panics while `clear` drops the entries, the cache must
    // already be empty, its lists and index too, and the other values still dropped once.
    for ttl in [None, Some(100)] {
        let log = DropLog::default();
        let mut cache = Cache::with_clock(4, ttl, ManualClock::new(0));
        for k in 0..4 {
            cache.put(k, Explosive { _logged: log.value(), explodes: k == 1 });
        }
        assert!(catch_unwind(AssertUnwindSafe(|| cache.clear())).is_err());
        assert_eq!(cache.check_invariants(), Ok(()), "ttl {ttl:?}");
        assert_eq!((cache.len(), cache.iter().count(), cache.peek_lru().is_some()), (0, 0, false));
        for k in 10..16 {
            cache.put(k, Explosive { _logged: log.value(), explodes: false });
        }
        assert_eq!(cache.pop_lru().map(|(k, _)| k), Some(12), "ttl {ttl:?}");
        assert_eq!(cache.check_invariants(), Ok(()), "ttl {ttl:?}");
        drop(cache);
        log.assert_all_dropped_once();
    }
}

/// A key whose `Drop` panics if it was made to.
#[derive(Debug)]
struct ExplosiveKey(u32, bool);

impl Hash for ExplosiveKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl PartialEq for ExplosiveKey {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for ExplosiveKey {}

impl Drop for ExplosiveKey {
    fn drop(&mut self) {
        assert!(!self.1, "a planted panic in Drop");
    }
}

#[test]
fn a_key_whose_drop_panics_as_it_leaves_does_not_leak_its_value() {
    // `put` over a live key and `remove` drop the stored key and hand its value back. Were the
    // value already on its way out when the key's `Drop` panics, Rust would leak it
    // (rust-lang/rust#47949): the key must go first.
    type Call = fn(&mut Cache<ExplosiveKey, support::Tracked>, &DropLog);
    let calls: [(&str, Call); 2] = [
        ("put", |c, log| drop(c.put(ExplosiveKey(1, false), log.value()))),
        ("remove", |c, _| drop(c.remove(&ExplosiveKey(1, false)))),
    ];
    for (name, call) in calls {
        let log = DropLog::default();
        let mut cache = Cache::new(2);
        cache.put(ExplosiveKey(1, true), log.value());
        cache.put(ExplosiveKey(2, false), log.value());
        assert!(catch_unwind(AssertUnwindSafe(|| call(&mut cache, &log))).is_err(), "{name}");
        assert_eq!(cache.check_invariants(), Ok(()), "{name}");
        assert_eq!(log.drops(0), 1, "{name}: the old value of key 1 was not dropped");
        drop(cache);
        log.assert_all_dropped_once();
    }
}

/// A hasher that collides on purpose. With `SEVEN`, every key gets one of seven hashes. Without,
/// a `u64` key's hash is its bytes reversed: small keys then differ only in their top bits, so
/// hashbrown, which picks the first bucket from the low bits, starts every probe at the same
/// place, and a table that picks it from the top bits gets long runs of neighbours.
#[derive(Default)]
struct Colliding<const SEVEN: bool>(u64);

impl<const SEVEN: bool> Hasher for Colliding<SEVEN> {
    fn finish(&self) -> u64 {
        if SEVEN { (self.0 % 7).wrapping_mul(0x9E37_79B9_7F4A_7C15) } else { self.0.swap_bytes() }
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// Random operations on caches of up to 200 entries, checking the invariants after each.
fn churn_with<S: BuildHasher + Default>(rng: &mut Rng) {
    let log = DropLog::default();
    let clock = ManualClock::new(0);
    for (capacity, ttl) in [(50, None), (200, None), (200, Some(300))] {
        let mut cache = Cache::with_clock_and_hasher(capacity, ttl, clock.clone(), S::default());
        for _ in 0..2_000 {
            let key = rng.below(2 * capacity as u64);
            match rng.below(10) {
                0..=3 => drop(cache.put(key, log.value())),
                4 | 5 => drop(cache.get(&key)),
                6 => drop(cache.remove(&key)),
                7 => drop(cache.pop_lru()),
                8 => clock.advance(rng.below(8)),
                _ => assert_eq!(cache.peek(&key).is_some(), cache.iter().any(|(k, _)| *k == key)),
            }
            assert_eq!(cache.check_invariants(), Ok(()));
        }
    }
    log.assert_all_dropped_once();
}

#[test]
fn a_hasher_that_collides_keeps_the_cache_sound() {
    // Long probe sequences and runs of equal tags: the index paths that a good hash at fuzzing
    // sizes (up to ten keys) hardly ever takes.
    let mut rng = Rng::seeded();
    churn_with::<BuildHasherDefault<Colliding<true>>>(&mut rng);
    churn_with::<BuildHasherDefault<Colliding<false>>>(&mut rng);
}

/// A key whose `Hash` panics for one value.
#[derive(PartialEq, Eq, Debug)]
struct Touchy(u32);

impl Hash for Touchy {
    fn hash<H: Hasher>(&self, state: &mut H) {
        assert!(self.0 != 13, "unlucky key");
        self.0.hash(state);
    }
}

#[test]
fn a_panicking_hash_leaves_the_cache_as_it_was() {
    let log = DropLog::default();
    let mut cache = Cache::with_clock(2, Some(10), ManualClock::new(0));
    cache.put(Touchy(1), log.value());
    cache.put(Touchy(2), log.value());
    for attempt in 0..3 {
        let result = catch_unwind(AssertUnwindSafe(|| match attempt {
            0 => drop(cache.put(Touchy(13), log.value())),
            1 => drop(cache.get(&Touchy(13))),
            _ => drop(cache.remove(&Touchy(13))),
        }));
        assert!(result.is_err());
        assert_eq!(cache.check_invariants(), Ok(()));
        assert_eq!(cache.len(), 2);
    }
    assert!(cache.contains(&Touchy(1)) && cache.contains(&Touchy(2)));
    drop(cache);
    log.assert_all_dropped_once();
}

thread_local! {
    /// How many more `Fused` keys may be hashed on this thread before one panics; 0: never.
    static FUSE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A key whose `Hash` panics once, when the fuse lit by `light_fuse` burns down: so that the
/// cache's own hashing of keys it stores (to evict, to remove, to move a slot) can panic too.
#[derive(PartialEq, Eq, Debug)]
struct Fused(u32);

fn light_fuse(hashes: u32) {
    FUSE.set(hashes);
}

impl Hash for Fused {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let left = FUSE.get();
        if left > 0 {
            FUSE.set(left - 1);
            assert!(left != 1, "the fuse burnt down");
        }
        self.0.hash(state);
    }
}

#[test]
fn a_hash_panicking_on_a_stored_key_leaves_the_cache_as_it_was() {
    // Each way a removal or an eviction hashes keys the cache holds, with the panic at each of
    // the hashes the call makes; key 0 sits in slot 0, so the last slot moves into its place.
    // Three entries are written at times 0, 1 and 2 with a ttl of 10; each call runs at `time`.
    type Call = fn(&mut Cache<Fused, support::Tracked, ManualClock>, &DropLog);
    let calls: [(&str, u64, Call); 6] = [
        ("remove", 3, |c, _| drop(c.remove(&Fused(0)))),
        ("pop_lru", 3, |c, _| drop(c.pop_lru())),
        ("resize", 3, |c, _| c.resize(2)),
        ("retain", 3, |c, _| c.retain(|k, _| k.0 != 0)),
        ("put evicting", 3, |c, log| drop(c.put(Fused(9), log.value()))),
        ("put after an expiry", 10, |c, log| drop(c.put(Fused(9), log.value()))),
    ];
    for (name, time, call) in calls {
        let filled = |log: &DropLog| {
            let clock = ManualClock::new(0);
            let mut cache = Cache::with_clock(3, Some(10), clock.clone());
            for k in 0..3 {
                cache.put(Fused(k), log.value());
                clock.advance(1);
            }
            clock.set(time);
            cache
        };
        let live = |cache: &Cache<Fused, _, _>| cache.iter().map(|(k, _)| k.0).collect::<Vec<_>>();
        let log = DropLog::default();
        let mut undisturbed = filled(&log);
        call(&mut undisturbed, &log);
        let done = live(&undisturbed);
        for hashes in 1..=3 {
            let mut cache = filled(&log);
            let before = live(&cache);
            light_fuse(hashes);
            let result = catch_unwind(AssertUnwindSafe(|| call(&mut cache, &log)));
            let burnt = FUSE.get() == 0;
            light_fuse(0);
            let context = format!("{name}, with the panic at hash {hashes}");
            assert_eq!(cache.check_invariants(), Ok(()), "{context}");
            if result.is_err() {
                assert!(burnt, "{context}: only the fuse panics");
                let after = live(&cache);
                assert!(after == before || after == done, "{context}: {before:?} became {after:?}");
            }
            // Still usable: every entry can be removed.
            for k in 0..10 {
                cache.remove(&Fused(k));
            }
            assert_eq!(cache.check_invariants(), Ok(()), "{context}");
        }
        drop(undisturbed);
        log.assert_all_dropped_once();
    }
}

#[test]
fn a_cache_without_a_ttl_never_reads_its_clock() {
    struct Forbidden;
    impl cache::Clock for Forbidden {
        fn now(&self) -> u64 {
            panic!("a cache without a ttl read its clock")
        }
    }
    let mut cache = Cache::with_clock(2, None, Forbidden);
    cache.put(1, 1);
    cache.get(&1);
    let _ = (cache.len(), cache.is_empty(), cache.peek(&1), cache.iter().count(), cache.peek_lru());
    cache.retain(|_, _| true);
    cache.pop_lru();
}

#[test]
fn get_or_insert_with_stores_nothing_where_put_would_not() {
    let log = DropLog::default();
    let mut none = Cache::new(0);
    assert!(none.get_or_insert_with('a', || log.value()).is_none());
    let mut instant = Cache::with_clock(2, Some(0), ManualClock::new(0));
    assert!(instant.get_or_insert_with('a', || log.value()).is_none());
    assert_eq!((none.len(), instant.len(), none.stats().misses), (0, 0, 1));
    log.assert_all_dropped_once();
}

#[test]
fn a_value_that_fails_to_be_made_leaves_every_value_with_its_owner() {
    let log = DropLog::default();
    let mut cache = Cache::new(1);
    cache.put('a', log.value());
    // The error carries a value of its own: it goes back to the caller, not into the cache.
    let failed = cache.try_get_or_insert_with('b', || Err(log.value()));
    assert!(failed.is_err());
    drop(failed);
    assert_eq!((cache.len(), cache.stats().evictions), (1, 0));
    drop(cache);
    log.assert_all_dropped_once();
}

#[test]
fn a_callback_panicking_in_get_or_insert_with_counts_nothing() {
    // `Picky` keys all collide: the lookup compares the new key with both stored keys, the
    // write with both again, and `make` runs in between. A panic at any of these must leave
    // the stats and the entries as they were.
    let log = DropLog::default();
    for (what, comparisons) in [("Eq", 1), ("Eq", 2), ("Eq", 3), ("Eq", 4), ("make", 0)] {
        let mut cache = Cache::with_clock(3, Some(10), ManualClock::new(0));
        cache.put(Picky(1), log.value());
        cache.put(Picky(2), log.value());
        light_fuse(comparisons);
        let call = || {
            cache.get_or_insert_with(Picky(7), || {
                assert!(what != "make", "make gives up");
                log.value()
            });
        };
        assert!(catch_unwind(AssertUnwindSafe(call)).is_err(), "{what} {comparisons}");
        light_fuse(0);
        assert_eq!(cache.stats(), Stats::default(), "{what} {comparisons}");
        assert_eq!((cache.len(), cache.check_invariants()), (2, Ok(())), "{what} {comparisons}");
    }
    log.assert_all_dropped_once();
}

#[test]
fn an_eviction_by_resize_is_counted_even_if_its_drop_panics() {
    let log = DropLog::default();
    let mut cache = Cache::new(2);
    cache.put(1, Explosive { _logged: log.value(), explodes: true });
    cache.put(2, Explosive { _logged: log.value(), explodes: false });
    assert!(catch_unwind(AssertUnwindSafe(|| cache.resize(1))).is_err());
    assert_eq!((cache.len(), cache.stats().evictions), (1, 1));
    assert_eq!(cache.check_invariants(), Ok(()));
    drop(cache);
    log.assert_all_dropped_once();
}
