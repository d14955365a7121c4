//! Contract, "Recency and capacity": one test per clause, including the three classic bugs of
//! model-based testing (get must refresh recency, overwrite at capacity evicts nothing, a
//! removed key leaves no ghost).

use cache::{Cache, ManualClock, Stats};

fn keys<K: Copy + std::hash::Hash + Eq, V>(cache: &Cache<K, V, ManualClock>) -> Vec<K> {
    cache.iter().map(|(k, _)| *k).collect()
}

fn lru(capacity: usize) -> Cache<char, u32, ManualClock> {
    Cache::with_clock(capacity, None, ManualClock::new(0))
}

/// Takes `taken` items from both ends in turn, front first, then the rest from the front, and
/// returns them all in order from front to back; checks the length on the way, and that the
/// iterator stays finished.
fn walk_alternately<I: DoubleEndedIterator + ExactSizeIterator>(mut iter: I, taken: usize) -> Vec<I::Item> {
    let total = iter.len();
    let (mut front, mut back) = (vec![], vec![]);
    for n in 0..taken {
        if n % 2 == 0 {
            front.extend(iter.next());
        } else {
            back.extend(iter.next_back());
        }
    }
    assert_eq!(iter.len(), total.saturating_sub(taken), "after {taken} taken");
    front.extend(iter.by_ref());
    assert!(iter.next().is_none() && iter.next_back().is_none(), "finished, then not");
    front.extend(back.into_iter().rev());
    front
}

#[test]
fn get_refreshes_recency() {
    let mut cache = lru(3);
    cache.put('a', 1);
    cache.put('b', 2);
    cache.put('c', 3);
    cache.get(&'a');
    cache.put('d', 4);
    assert_eq!(keys(&cache), ['d', 'a', 'c'], "b was the least recently used");
}

#[test]
fn get_mut_refreshes_recency() {
    let mut cache = lru(2);
    cache.put('a', 1);
    cache.put('b', 2);
    *cache.get_mut(&'a').unwrap() = 10;
    cache.put('c', 3);
    assert_eq!(cache.iter().collect::<Vec<_>>(), [(&'c', &3), (&'a', &10)]);
}

#[test]
fn peek_contains_iter_len_peek_lru_retain_and_misses_leave_the_order_alone() {
    let mut cache = lru(3);
    cache.put('a', 1);
    cache.put('b', 2);
    cache.put('c', 3);
    cache.peek(&'a');
    cache.contains(&'a');
    let _ = cache.iter().count();
    let _ = cache.len();
    let _ = cache.peek_lru();
    let _ = cache.peek_mru();
    cache.retain(|_, _| true);
    cache.get(&'z');
    cache.get_mut(&'z');
    cache.promote(&'z');
    cache.demote(&'z');
    assert_eq!(keys(&cache), ['c', 'b', 'a']);
}

#[test]
fn overwrite_at_capacity_evicts_nothing() {
    let mut cache = lru(2);
    cache.put('a', 1);
    cache.put('b', 2);
    assert_eq!(cache.put('a', 3), Some(1));
    assert_eq!(keys(&cache), ['a', 'b']);
    assert_eq!(cache.stats().evictions, 0);
}

#[test]
fn new_key_at_capacity_evicts_the_least_recently_used() {
    let mut cache = lru(2);
    cache.put('a', 1);
    cache.put('b', 2);
    assert_eq!(cache.put('c', 3), None);
    assert_eq!(keys(&cache), ['c', 'b']);
}

#[test]
fn a_removed_key_leaves_no_ghost() {
    let mut cache = lru(2);
    cache.put('a', 1);
    cache.put('b', 2);
    assert_eq!(cache.remove(&'a'), Some(1));
    cache.put('c', 3); // room for c: nothing may be evicted
    assert_eq!(keys(&cache), ['c', 'b']);
    cache.put('d', 4); // now b is the least recently used, not a ghost of a
    assert_eq!(keys(&cache), ['d', 'c']);
}

#[test]
fn an_expired_entry_never_causes_a_live_one_to_be_evicted() {
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(2, Some(10), clock.clone());
    cache.put('a', 1);
    clock.advance(5);
    cache.put('b', 2);
    cache.get(&'a'); // a is most recently used, but expires first
    clock.advance(5);
    cache.put('c', 3);
    assert_eq!(keys(&cache), ['c', 'b']);
    assert_eq!(cache.stats().evictions, 0);
}

#[test]
fn capacity_zero_stores_nothing() {
    let mut cache = lru(0);
    assert_eq!(cache.put('a', 1), None);
    assert_eq!(cache.push('a', 2), Some(('a', 2)));
    assert_eq!(cache.len(), 0);
    assert_eq!(cache.get(&'a'), None);
    assert_eq!(cache.pop_lru(), None);
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn capacity_one_keeps_the_last_write() {
    let mut cache = lru(1);
    cache.put('a', 1);
    assert_eq!(cache.push('b', 2), Some(('a', 1)));
    assert_eq!(cache.put('b', 3), Some(2));
    assert_eq!(keys(&cache), ['b']);
}

#[test]
fn push_returns_the_entry_that_left() {
    let mut cache = lru(2);
    assert_eq!(cache.push('a', 1), None);
    assert_eq!(cache.push('b', 2), None);
    assert_eq!(cache.push('a', 3), Some(('a', 1)), "overwrite: the old pair");
    assert_eq!(cache.push('c', 4), Some(('b', 2)), "eviction: the LRU pair");
}

#[test]
fn push_drops_expired_entries_instead_of_returning_them() {
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(1, Some(10), clock.clone());
    cache.push('a', 1);
    clock.advance(10);
    assert_eq!(cache.push('b', 2), None);
}

#[test]
fn remove_returns_the_live_value_and_forgets_the_key() {
    let mut cache = lru(2);
    cache.put('a', 1);
    assert_eq!(cache.remove(&'a'), Some(1));
    assert!(!cache.contains(&'a'));
    assert_eq!(cache.remove(&'a'), None);
    assert_eq!(cache.len(), 0);
}

#[test]
fn peek_lru_shows_and_pop_lru_takes_the_least_recently_used() {
    let mut cache = lru(3);
    assert_eq!(cache.peek_lru(), None);
    cache.put('a', 1);
    cache.put('b', 2);
    assert_eq!(cache.peek_lru(), Some((&'a', &1)));
    assert_eq!(cache.pop_lru(), Some(('a', 1)));
    assert_eq!(cache.pop_lru(), Some(('b', 2)));
    assert_eq!(cache.pop_lru(), None);
}

#[test]
fn peek_mru_shows_and_pop_mru_takes_the_most_recently_used() {
    let mut cache = lru(3);
    assert_eq!(cache.peek_mru(), None);
    cache.put('a', 1);
    cache.put('b', 2);
    cache.get(&'a');
    assert_eq!(cache.peek_mru(), Some((&'a', &1)));
    assert_eq!(cache.pop_mru(), Some(('a', 1)));
    assert_eq!(cache.pop_mru(), Some(('b', 2)));
    assert_eq!(cache.pop_mru(), None);
}

#[test]
fn promote_and_demote_move_a_live_key_to_either_end_and_count_nothing() {
    let mut cache = lru(3);
    cache.put('a', 1);
    cache.put('b', 2);
    cache.put('c', 3);
    assert!(cache.promote(&'a'));
    assert_eq!(keys(&cache), ['a', 'c', 'b']);
    assert!(cache.demote(&'c'));
    assert_eq!(keys(&cache), ['a', 'b', 'c']);
    assert!(cache.demote(&'a') && cache.promote(&'a'), "from either end to either end");
    assert_eq!(keys(&cache), ['a', 'b', 'c']);
    assert!(!cache.promote(&'z') && !cache.demote(&'z'));
    cache.put('d', 4);
    assert_eq!(keys(&cache), ['d', 'a', 'b'], "the demoted key was evicted");
    assert_eq!(cache.stats(), Stats { hits: 0, misses: 0, evictions: 1 });
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn resize_evicts_the_least_recently_used_while_over_capacity() {
    let mut cache = lru(4);
    for (v, k) in ['a', 'b', 'c', 'd'].into_iter().enumerate() {
        cache.put(k, u32::try_from(v).unwrap());
    }
    cache.resize(2);
    assert_eq!(keys(&cache), ['d', 'c']);
    assert_eq!(cache.capacity(), 2);
    assert_eq!(cache.stats().evictions, 2);
    cache.resize(5);
    cache.put('e', 9);
    assert_eq!(keys(&cache), ['e', 'd', 'c']);
    cache.resize(0);
    assert!(cache.is_empty());
    assert_eq!(cache.put('f', 1), None);
    assert!(cache.is_empty());
}

#[test]
fn clear_removes_everything() {
    let mut cache = lru(3);
    cache.put('a', 1);
    cache.put('b', 2);
    cache.clear();
    assert!(cache.is_empty());
    assert_eq!(cache.peek_lru(), None);
    cache.put('c', 3);
    assert_eq!(keys(&cache), ['c']);
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn retain_removes_what_the_predicate_rejects_and_keeps_the_order() {
    let mut cache = lru(6);
    for (v, k) in "abcdef".chars().enumerate() {
        cache.put(k, u32::try_from(v).unwrap());
    }
    cache.retain(|_, v| {
        *v *= 10;
        *v % 20 == 0
    });
    assert_eq!(cache.iter().collect::<Vec<_>>(), [(&'e', &40), (&'c', &20), (&'a', &0)]);
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn iter_goes_from_most_to_least_recently_used() {
    let mut cache = lru(3);
    cache.put('a', 1);
    cache.put('b', 2);
    cache.put('c', 3);
    cache.get(&'b');
    assert_eq!(keys(&cache), ['b', 'c', 'a']);
    assert_eq!((&cache).into_iter().count(), 3);
}

#[test]
fn stats_count_only_get_hits_misses_and_evictions_to_make_room() {
    let mut cache = lru(2);
    cache.put('a', 1);
    cache.put('b', 2);
    cache.get(&'a');
    cache.get_mut(&'b');
    cache.get(&'x');
    cache.get_mut(&'y');
    cache.put('c', 3); // evicts a
    cache.push('d', 4); // evicts b
    assert_eq!(cache.stats(), Stats { hits: 2, misses: 2, evictions: 2 });
    // None of these count.
    cache.peek(&'c');
    cache.contains(&'x');
    cache.remove(&'c');
    cache.pop_lru();
    cache.promote(&'d');
    cache.demote(&'d');
    cache.pop_mru();
    cache.put('e', 5);
    cache.retain(|_, _| false);
    cache.clear();
    assert_eq!(cache.stats(), Stats { hits: 2, misses: 2, evictions: 2 });
}

#[test]
fn get_and_lookups_work_through_borrowed_keys() {
    let mut cache = Cache::with_clock(2, None, ManualClock::new(0));
    cache.put(String::from("key"), 1);
    assert_eq!(cache.get("key"), Some(&1));
    assert!(cache.contains("key"));
    assert_eq!(cache.remove("key"), Some(1));
}

#[test]
fn debug_prints_the_live_entries_most_recent_first() {
    let mut cache = lru(2);
    cache.put('a', 1);
    cache.put('b', 2);
    assert_eq!(format!("{cache:?}"), "{'b': 2, 'a': 1}");
}

#[test]
fn iter_knows_its_length_even_with_expired_entries() {
    let mut cache = lru(4);
    cache.put('a', 1);
    cache.put('b', 2);
    cache.put('c', 3);
    let mut iter = cache.iter();
    assert_eq!(iter.len(), 3);
    iter.next();
    assert_eq!(iter.size_hint(), (2, Some(2)));
    iter.next_back();
    assert_eq!(iter.len(), 1);
    assert_eq!(iter.by_ref().count(), 1);
    assert_eq!((iter.len(), iter.next(), iter.next_back()), (0, None, None));
    // Expired entries, not yet cleaned up, are neither counted nor yielded from either end.
    let clock = ManualClock::new(0);
    let mut timed = Cache::with_clock(4, Some(10), clock.clone());
    timed.put('a', 1);
    clock.advance(5);
    timed.put('b', 2);
    timed.put('c', 3);
    timed.get(&'a');
    clock.advance(5);
    assert_eq!(timed.iter().len(), 2);
    assert_eq!(timed.iter().collect::<Vec<_>>(), [(&'c', &3), (&'b', &2)]);
    assert_eq!(timed.iter().rev().collect::<Vec<_>>(), [(&'b', &2), (&'c', &3)]);
}

#[test]
fn iter_walks_from_both_ends_without_crossing() {
    let mut cache = lru(5);
    for (k, v) in ['a', 'b', 'c', 'd', 'e'].into_iter().zip(1..) {
        cache.put(k, v);
    }
    cache.get(&'b');
    // Most recently used first: b e d c a.
    let mut iter = cache.iter();
    assert_eq!(iter.next(), Some((&'b', &2)));
    assert_eq!(iter.next_back(), Some((&'a', &1)));
    assert_eq!(iter.next_back(), Some((&'c', &3)));
    assert_eq!(iter.next(), Some((&'e', &5)));
    assert_eq!(iter.next(), Some((&'d', &4)));
    assert_eq!((iter.next(), iter.next_back()), (None, None));
    let keys: String = cache.iter().rev().map(|(k, _)| *k).collect();
    assert_eq!(keys, "acdeb");
}

#[test]
fn iter_debug_shows_the_entries_to_come() {
    let mut cache = lru(3);
    cache.put('a', 1);
    cache.put('b', 2);
    let mut iter = cache.iter();
    assert_eq!(format!("{iter:?}"), "[('b', 2), ('a', 1)]");
    iter.next();
    assert_eq!(format!("{iter:?}"), "[('a', 1)]");
}

#[test]
fn a_clone_is_independent_and_shares_the_clock() {
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(2, Some(10), clock.clone());
    cache.put('a', 1);
    cache.put('b', 2);
    let mut copy = cache.clone();
    cache.put('c', 3);
    copy.get(&'a');
    assert_eq!(keys(&cache), ['c', 'b']);
    assert_eq!(keys(&copy), ['a', 'b']);
    assert_eq!(copy.check_invariants(), Ok(()));
    clock.advance(10);
    assert!(copy.is_empty(), "the clone reads the same clock");
}

#[test]
fn get_or_insert_with_finds_or_stores_as_put_would() {
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(2, Some(10), clock.clone());
    assert_eq!(cache.get_or_insert_with('a', || 1), Some(&mut 1));
    // A hit does not call `make`, and does not restart the timer.
    clock.advance(5);
    assert_eq!(cache.get_or_insert_with('a', || unreachable!("a hit makes nothing")), Some(&mut 1));
    assert_eq!(cache.get_or_insert_with('b', || 2), Some(&mut 2));
    // Full: a miss evicts the least recently used, as `put` does.
    *cache.get_or_insert_with('c', || 3).expect("stored") += 30;
    assert_eq!(cache.iter().collect::<Vec<_>>(), [(&'c', &33), (&'b', &2)]);
    let stats = cache.stats();
    assert_eq!((stats.hits, stats.misses, stats.evictions), (1, 3, 1));
    // 'b' was written at 5: gone at 15, and a miss again.
    clock.set(15);
    assert_eq!(cache.get_or_insert_with('b', || 4), Some(&mut 4));
    assert_eq!(cache.stats().misses, 4);
}

#[test]
fn try_get_or_insert_with_stores_only_what_was_made() {
    let mut cache = Cache::with_clock(2, Some(10), ManualClock::new(0));
    cache.put('a', 1);
    cache.put('b', 2);
    // Full, and the value fails: nothing is evicted, nothing stored, the order stays.
    assert_eq!(cache.try_get_or_insert_with('c', || Err("offline")), Err("offline"));
    assert_eq!(keys(&cache), ['b', 'a']);
    // A hit does not call `make`, and makes the entry the most recently used.
    let found =
        cache.try_get_or_insert_with('a', || -> Result<_, ()> { unreachable!("a hit makes nothing") });
    assert_eq!(found, Ok(Some(&mut 1)));
    assert_eq!(keys(&cache), ['a', 'b']);
    // A value that is made is stored as `put` would: here by evicting 'b'.
    assert_eq!(cache.try_get_or_insert_with('c', || Ok::<_, ()>(3)), Ok(Some(&mut 3)));
    assert_eq!(keys(&cache), ['c', 'a']);
    let stats = cache.stats();
    assert_eq!((stats.hits, stats.misses, stats.evictions), (1, 2, 1));
}

#[test]
fn peek_mut_changes_the_value_and_nothing_else() {
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(2, Some(10), clock.clone());
    cache.put('a', 1);
    clock.advance(5);
    cache.put('b', 2);
    *cache.peek_mut(&'a').expect("live") = 10;
    assert_eq!(cache.stats(), Stats::default());
    // Still the least recently used, and still expiring at 10.
    assert_eq!(cache.peek_lru(), Some((&'a', &10)));
    clock.set(10);
    assert_eq!(cache.peek_mut(&'a'), None);
    assert_eq!(cache.peek_mut(&'z'), None);
}

#[test]
fn iter_mut_changes_values_in_recency_order_and_nothing_else() {
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(3, Some(10), clock.clone());
    cache.put('a', 1);
    clock.advance(5);
    cache.put('b', 2);
    cache.put('c', 3);
    cache.get(&'b');
    let before = cache.stats();
    let mut seen = vec![];
    for (key, value) in &mut cache {
        seen.push(*key);
        *value *= 10;
    }
    assert_eq!(seen, ['b', 'c', 'a']);
    assert_eq!(cache.iter().collect::<Vec<_>>(), [(&'b', &20), (&'c', &30), (&'a', &10)]);
    assert_eq!(cache.stats(), before);
    // The timers were not restarted: 'a' still expires at 10.
    clock.set(10);
    assert_eq!(cache.iter_mut().map(|(k, _)| *k).collect::<Vec<_>>(), ['b', 'c']);
    assert_eq!(cache.check_invariants(), Ok(()));
}

#[test]
fn iter_mut_walks_from_both_ends_without_crossing() {
    let mut cache = lru(5);
    for (n, key) in ('a'..='e').enumerate() {
        cache.put(key, n as u32);
    }
    for taken in 0..=6 {
        let walked = walk_alternately(cache.iter_mut(), taken);
        let keys: String = walked.into_iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, "edcba", "after {taken} taken alternately");
    }
}

#[test]
fn iter_mut_debug_shows_the_entries_to_come() {
    let mut cache = lru(3);
    cache.put('a', 1);
    cache.put('b', 2);
    let mut iter = cache.iter_mut();
    assert_eq!(format!("{iter:?}"), "[('b', 2), ('a', 1)]");
    iter.next_back();
    assert_eq!(format!("{iter:?}"), "[('b', 2)]");
}

#[test]
fn into_iter_moves_the_live_entries_out_in_recency_order() {
    let clock = ManualClock::new(0);
    let mut cache = Cache::with_clock(4, Some(10), clock.clone());
    cache.put('a', 1);
    clock.advance(5);
    for (n, key) in ('b'..='d').enumerate() {
        cache.put(key, n as u32 + 2);
    }
    cache.get(&'b');
    // 'a' expires before the iterator is made; the rest are still yielded after their deadline.
    clock.set(10);
    let mut entries = cache.into_iter();
    assert_eq!(entries.len(), 3);
    assert_eq!(format!("{entries:?}"), "[('b', 2), ('d', 4), ('c', 3)]");
    clock.set(100);
    assert_eq!(entries.next(), Some(('b', 2)));
    assert_eq!(entries.next_back(), Some(('c', 3)));
    assert_eq!(entries.len(), 1);
    assert_eq!(entries.collect::<Vec<_>>(), [('d', 4)]);
}

#[test]
fn into_iter_walks_from_both_ends_without_crossing() {
    for taken in 0..=6 {
        let mut cache = lru(5);
        for (n, key) in ('a'..='e').enumerate() {
            cache.put(key, n as u32);
        }
        cache.get(&'c');
        let keys: String = walk_alternately(cache.into_iter(), taken).into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, "cedba", "after {taken} taken alternately");
    }
}
