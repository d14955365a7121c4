//! Contract, "Liveness and time": one test per clause.

use cache::{Cache, Clock, ManualClock};

fn timed(capacity: usize, ttl: u64) -> (Cache<&'static str, i32, ManualClock>, ManualClock) {
    let clock = ManualClock::new(1000);
    (Cache::with_clock(capacity, Some(ttl), clock.clone()), clock)
}

#[test]
fn entry_is_live_one_tick_before_its_deadline() {
    let (mut cache, clock) = timed(4, 10);
    cache.put("a", 1);
    clock.advance(9);
    assert_eq!(cache.get(&"a"), Some(&1));
}

#[test]
fn entry_is_gone_exactly_at_its_deadline() {
    let (mut cache, clock) = timed(4, 10);
    cache.put("a", 1);
    clock.advance(10);
    assert_eq!(cache.peek(&"a"), None);
    assert_eq!(cache.get(&"a"), None);
}

#[test]
fn ttl_zero_means_an_entry_is_never_seen() {
    let (mut cache, _clock) = timed(4, 0);
    assert_eq!(cache.put("a", 1), None);
    assert_eq!(cache.push("b", 2), None);
    assert_eq!(cache.put("a", 3), None);
    assert!(!cache.contains(&"a"));
    assert_eq!(cache.len(), 0);
    assert_eq!(cache.iter().count(), 0);
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn no_ttl_means_entries_never_expire() {
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(2, None, clock.clone());
    cache.put("a", 1);
    clock.set(u64::MAX);
    assert_eq!(cache.get(&"a"), Some(&1));
}

#[test]
fn deadline_saturates_at_u64_max() {
    let clock = ManualClock::new(u64::MAX - 5);
    let mut cache = Cache::with_clock(2, Some(u64::MAX), clock.clone());
    cache.put("a", 1);
    clock.advance(4);
    assert_eq!(cache.get(&"a"), Some(&1), "live until the saturated deadline, u64::MAX");
    clock.advance(1);
    assert_eq!(cache.get(&"a"), None, "gone at u64::MAX itself");
}

#[test]
fn nothing_written_at_time_u64_max_is_ever_seen() {
    let clock = ManualClock::new(u64::MAX);
    let mut cache = Cache::with_clock(2, Some(u64::MAX), clock);
    assert_eq!(cache.put("a", 1), None);
    assert_eq!(cache.len(), 0);
    assert_eq!(cache.put("a", 2), None, "the first write was never live");
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn an_overwrite_restarts_the_timer() {
    let (mut cache, clock) = timed(4, 10);
    cache.put("a", 1);
    clock.advance(6);
    assert_eq!(cache.put("a", 2), Some(1));
    clock.advance(6); // 12 after the first write, 6 after the second
    assert_eq!(cache.get(&"a"), Some(&2));
    clock.advance(4);
    assert_eq!(cache.get(&"a"), None);
}

#[test]
fn push_restarts_the_timer_too() {
    let (mut cache, clock) = timed(4, 10);
    cache.push("a", 1);
    clock.advance(6);
    assert_eq!(cache.push("a", 2), Some(("a", 1)));
    clock.advance(6);
    assert!(cache.contains(&"a"));
}

#[test]
fn reads_never_move_a_deadline() {
    let (mut cache, clock) = timed(4, 10);
    cache.put("a", 1);
    for _ in 0..9 {
        clock.advance(1);
        assert!(cache.get(&"a").is_some());
        assert!(cache.get_mut(&"a").is_some());
        assert!(cache.peek(&"a").is_some());
        assert!(cache.contains(&"a"));
        assert_eq!(cache.iter().count(), 1);
    }
    clock.advance(1);
    assert!(!cache.contains(&"a"));
}

#[test]
fn expired_entries_are_invisible_to_every_method() {
    let (mut cache, clock) = timed(4, 10);
    cache.put("old", 1);
    clock.advance(5);
    cache.put("new", 2);
    cache.get(&"old"); // "old" is the most recently used, and the first to expire
    clock.advance(5);
    assert_eq!(cache.len(), 1);
    assert!(!cache.is_empty());
    assert_eq!(cache.peek(&"old"), None);
    assert!(!cache.contains(&"old"));
    assert_eq!(cache.iter().collect::<Vec<_>>(), [(&"new", &2)]);
    assert_eq!(cache.peek_lru(), Some((&"new", &2)));
    assert_eq!(cache.peek_mru(), Some((&"new", &2)), "the expired MRU is stepped over");
    let mut seen = Vec::new();
    cache.retain(|k, _| {
        seen.push(*k);
        true
    });
    assert_eq!(seen, ["new"]);
    assert_eq!(cache.get_mut(&"old"), None);
    assert_eq!(cache.remove(&"old"), None);
    assert!(!cache.promote(&"old") && !cache.demote(&"old"));
    assert_eq!(cache.put("old", 3), None, "put on an expired key returns None");
    assert_eq!(cache.pop_lru(), Some(("new", 2)));
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn pop_lru_skips_expired_entries() {
    let (mut cache, clock) = timed(4, 10);
    cache.put("a", 1);
    clock.advance(5);
    cache.put("b", 2);
    clock.advance(5);
    assert_eq!(cache.pop_lru(), Some(("b", 2)));
    assert_eq!(cache.pop_lru(), None);
}

#[test]
fn pop_mru_skips_expired_entries() {
    let (mut cache, clock) = timed(4, 10);
    cache.put("a", 1);
    clock.advance(5);
    cache.put("b", 2);
    cache.get(&"a"); // the most recently used, and the first to expire
    clock.advance(5);
    assert_eq!(cache.pop_mru(), Some(("b", 2)));
    assert_eq!(cache.pop_mru(), None);
}

#[test]
fn is_empty_and_len_agree_as_entries_expire() {
    let (mut cache, clock) = timed(4, 3);
    for (t, k) in ["a", "b", "c"].into_iter().enumerate() {
        cache.put(k, i32::try_from(t).unwrap());
        clock.advance(1);
    }
    for live in (0..3).rev() {
        assert_eq!(cache.len(), live);
        assert_eq!(cache.is_empty(), live == 0);
        clock.advance(1);
    }
}

#[test]
fn a_clock_that_goes_backwards_is_safe() {
    let (mut cache, clock) = timed(3, 10);
    for step in 0..200_u64 {
        clock.set(if step % 3 == 0 { 5 } else { 1000 + step * 7 % 40 });
        let key = ["a", "b", "c", "d", "e"][(step % 5) as usize];
        match step % 4 {
            0 => drop(cache.put(key, 1)),
            1 => drop(cache.get(&key)),
            2 => drop(cache.remove(&key)),
            _ => drop(cache.pop_lru()),
        }
        assert!(cache.len() <= 3);
        assert_eq!(cache.check_invariants(), Ok(()));
    }
}

#[test]
fn after_the_clock_goes_back_the_next_write_caps_every_deadline() {
    // A glitch to near the end of time, then back: without the cap, the entry written during
    // the glitch would never expire, and every later deadline would be at least its own.
    let (mut cache, clock) = timed(4, 10);
    clock.set(100);
    cache.put("early", 1);
    clock.set(u64::MAX - 5);
    cache.put("glitch", 2);
    clock.set(103);
    cache.put("late", 3);
    clock.set(112);
    assert_eq!(cache.iter().map(|(k, _)| *k).collect::<Vec<_>>(), ["late", "glitch"]);
    clock.set(113);
    assert!(cache.is_empty());
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn with_ttl_uses_the_system_clock() {
    let mut cache = Cache::with_ttl(2, std::time::Duration::from_secs(3600));
    cache.put("a", 1);
    assert_eq!(cache.get(&"a"), Some(&1));
    let mut gone = Cache::with_ttl(2, std::time::Duration::ZERO);
    gone.put("a", 1);
    assert_eq!(gone.get(&"a"), None);
}

#[test]
fn clock_impls_for_references_and_smart_pointers_read_the_same_time() {
    let clock = ManualClock::new(3);
    assert_eq!(Clock::now(&&clock), 3);
    assert_eq!(std::rc::Rc::new(clock.clone()).now(), 3);
    assert_eq!(std::sync::Arc::new(clock.clone()).now(), 3);
    assert_eq!(Box::new(clock).now(), 3);
}

#[test]
fn manual_clock_set_moves_time_to_the_given_tick() {
    let (mut cache, clock) = timed(4, 10);
    cache.put("a", 1);
    clock.set(1009);
    assert!(cache.contains(&"a"));
    clock.set(1010);
    assert!(!cache.contains(&"a"));
}

#[test]
fn the_system_clock_moves_forward() {
    // Not a timing test: it only needs the clock to have moved at all across a short sleep.
    let before = cache::SystemClock.now();
    std::thread::sleep(std::time::Duration::from_millis(2));
    let after = cache::SystemClock.now();
    assert!(after > before + 1_000_000, "2 ms are at least 1,000,000 ns: {before} -> {after}");
}

#[test]
fn the_coarse_clock_lags_the_system_clock_by_at_most_what_it_slept() {
    let clock = cache::CoarseClock::new(std::time::Duration::from_millis(1));
    let before = cache::SystemClock.now();
    // Long enough for the 1 ms thread to have stored a time after `before`, even on a busy machine.
    std::thread::sleep(std::time::Duration::from_millis(50));
    let coarse = clock.now();
    let after = cache::SystemClock.now();
    assert!(before < coarse && coarse <= after, "{before} < {coarse} <= {after}");
}

#[test]
fn coarse_clock_clones_share_one_time() {
    // A clone that shares the original's time reads between two reads of the original; one
    // started with a time of its own reads ahead of them. (Comparing one read of each, as this
    // test once did, races with the thread's next tick.)
    let clock = cache::CoarseClock::new(std::time::Duration::from_millis(1));
    for _ in 0..1000 {
        let first = clock.now();
        let shared = clock.clone().now();
        let last = clock.now();
        assert!(first <= shared && shared <= last, "{first} <= {shared} <= {last}");
    }
}

#[test]
fn entries_expire_on_the_coarse_clock() {
    let clock = cache::CoarseClock::new(std::time::Duration::from_millis(1));
    let mut cache = Cache::with_clock(2, Some(1_000_000), clock);
    cache.put("a", 1);
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(cache.get(&"a"), None);
}

#[test]
fn with_ttl_entries_expire_on_the_system_clock() {
    let mut cache = Cache::with_ttl(2, std::time::Duration::from_millis(1));
    cache.put("a", 1);
    std::thread::sleep(std::time::Duration::from_millis(5));
    assert_eq!(cache.get(&"a"), None);
}
