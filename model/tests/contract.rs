//! The contract's cases as examples, each checked against the model's return values.

use model::{Model, Stats, Transition as T};

/// Keys in recency order, most recently used first.
fn keys<K: Clone + PartialEq, V>(m: &Model<K, V>) -> Vec<K> {
    m.iter().0.into_iter().map(|(k, _)| k.clone()).collect()
}

fn lru(capacity: usize) -> Model<char, u32> {
    Model::new(capacity, None, 0)
}

#[test]
fn get_refreshes_recency() {
    let mut m = lru(3);
    m.put('a', 1);
    m.put('b', 2);
    m.put('c', 3);
    assert_eq!(m.get(&'a'), (Some(&1), T::GetHit));
    assert_eq!(m.put('d', 4), (None, T::PutEvictedLru));
    assert_eq!(keys(&m), ['d', 'a', 'c']);
    assert_eq!(m.get(&'b'), (None, T::GetMissEvicted));
}

#[test]
fn get_mut_refreshes_recency_and_writes_through() {
    let mut m = lru(2);
    m.put('a', 1);
    m.put('b', 2);
    *m.get_mut(&'a').0.unwrap() += 10;
    assert_eq!(m.push('c', 3), (Some(('b', 2)), T::PushEvictedLru));
    assert_eq!(m.peek(&'a'), (Some(&11), T::PeekHit));
}

#[test]
fn peek_contains_iter_len_and_misses_leave_recency_alone() {
    let mut m = lru(2);
    m.put('a', 1);
    m.put('b', 2);
    assert_eq!(m.peek(&'a').0, Some(&1));
    assert!(m.contains(&'a').0);
    assert_eq!(m.iter().0.len(), 2);
    assert_eq!(m.len().0, 2);
    assert_eq!(m.peek_lru().0, Some((&'a', &1)));
    assert_eq!(m.get(&'z'), (None, T::GetMissNeverSeen));
    assert_eq!(m.put('c', 3), (None, T::PutEvictedLru));
    assert_eq!(keys(&m), ['c', 'b']);
}

#[test]
fn overwrite_at_capacity_evicts_nothing() {
    let mut m = lru(2);
    m.put('a', 1);
    m.put('b', 2);
    assert_eq!(m.put('a', 10), (Some(1), T::PutOverwroteAtCapacity));
    assert_eq!(keys(&m), ['a', 'b']);
    assert_eq!(m.len().0, 2);
    assert_eq!(m.stats().0.evictions, 0);
    assert_eq!(m.get(&'b'), (Some(&2), T::GetHit));
}

#[test]
fn removed_key_leaves_no_ghost() {
    let mut m = lru(2);
    m.put('a', 1);
    m.put('b', 2);
    assert_eq!(m.remove(&'a'), (Some(1), T::RemoveHit));
    assert_eq!(m.put('c', 3), (None, T::PutInserted));
    assert_eq!(m.stats().0.evictions, 0);
    // The next eviction takes the live LRU 'b', not a ghost of 'a'.
    assert_eq!(m.push('d', 4), (Some(('b', 2)), T::PushEvictedLru));
    assert_eq!(keys(&m), ['d', 'c']);
    assert_eq!(m.get(&'a'), (None, T::GetMissRemoved));
    assert_eq!(m.remove(&'a'), (None, T::RemoveMiss));
}

#[test]
fn ttl_boundary_live_one_tick_before_gone_at_deadline() {
    let mut m: Model<char, u32> = Model::new(4, Some(10), 100);
    m.put('a', 1);
    assert_eq!(m.advance(9), T::AdvanceQuiet);
    assert_eq!(m.now(), 109);
    assert_eq!(m.get(&'a'), (Some(&1), T::GetHit)); // a read does not move the deadline
    assert_eq!(m.advance(1), T::AdvanceToDeadline);
    assert_eq!(m.get(&'a'), (None, T::GetMissAtDeadline));
    assert_eq!(m.peek(&'a'), (None, T::PeekMissExpired));
    assert_eq!(m.contains(&'a'), (false, T::ContainsExpired));
    assert_eq!(m.remove(&'a'), (None, T::RemoveExpired));
    assert_eq!(m.len(), (0, T::LenHidesExpired));
    assert_eq!(m.advance(1), T::AdvanceQuiet);
    assert_eq!(m.get(&'a'), (None, T::GetMissExpired));
    assert_eq!(m.put('a', 2), (None, T::PutInserted)); // put on an expired key returns None
}

#[test]
fn overwrite_restarts_the_timer() {
    let mut m: Model<char, u32> = Model::new(4, Some(10), 0);
    m.put('a', 1);
    m.put('b', 2);
    m.advance(5);
    assert_eq!(m.put('a', 3), (Some(1), T::PutOverwrote));
    assert_eq!(m.advance(5), T::AdvanceToDeadline); // b's deadline, not a's
    assert_eq!(keys(&m), ['a']);
    assert_eq!(m.advance(4), T::AdvanceQuiet);
    assert_eq!(m.peek(&'a').0, Some(&3));
    assert_eq!(m.advance(1), T::AdvanceToDeadline);
    assert_eq!(m.is_empty(), (true, T::IsEmptyTrue));
}

#[test]
fn expired_entries_never_cause_an_eviction() {
    let mut m: Model<char, u32> = Model::new(2, Some(10), 0);
    m.put('a', 1);
    m.advance(5);
    m.put('b', 2);
    assert_eq!(m.advance(7), T::AdvanceExpired);
    assert_eq!(m.put('c', 3), (None, T::PutInsertedOverExpired));
    assert_eq!(keys(&m), ['c', 'b']);
    assert_eq!(m.stats().0.evictions, 0);
    assert_eq!(m.put('d', 4), (None, T::PutEvictedLru));
    assert_eq!(keys(&m), ['d', 'c']);
}

#[test]
fn expiry_is_hidden_from_lru_end_and_retain() {
    let mut m: Model<char, u32> = Model::new(3, Some(10), 0);
    m.put('a', 1);
    m.advance(5);
    m.put('b', 2);
    m.advance(5);
    assert_eq!(m.peek_lru(), (Some((&'b', &2)), T::PeekLruSome));
    let mut seen = Vec::new();
    m.retain(|k, _| {
        seen.push(*k);
        true
    });
    assert_eq!(seen, ['b']);
    assert_eq!(m.pop_lru(), (Some(('b', 2)), T::PopLruSome));
    assert_eq!(m.pop_lru(), (None, T::PopLruNone));
}

#[test]
fn expiry_is_hidden_from_mru_end_promote_and_demote() {
    let mut m: Model<char, u32> = Model::new(3, Some(10), 0);
    m.put('a', 1);
    m.advance(5);
    m.put('b', 2);
    m.get(&'a'); // the MRU, and the first to expire
    m.advance(5);
    assert_eq!(m.peek_mru(), (Some((&'b', &2)), T::PeekMruSome));
    assert_eq!(m.promote(&'a'), (false, T::PromoteExpired));
    assert_eq!(m.demote(&'a'), (false, T::DemoteExpired));
    assert_eq!(m.pop_mru(), (Some(('b', 2)), T::PopMruSome));
    assert_eq!(m.pop_mru(), (None, T::PopMruNone));
}

#[test]
fn promote_and_demote_reorder_without_counting() {
    let mut m = lru(3);
    m.put('a', 1);
    m.put('b', 2);
    m.put('c', 3);
    assert_eq!(m.promote(&'a'), (true, T::PromoteHit));
    assert_eq!(keys(&m), ['a', 'c', 'b']);
    assert_eq!(m.demote(&'c'), (true, T::DemoteHit));
    assert_eq!(keys(&m), ['a', 'b', 'c']);
    assert_eq!(m.put('d', 4), (None, T::PutEvictedLru));
    assert_eq!(keys(&m), ['d', 'a', 'b'], "the demoted key was evicted");
    assert_eq!(m.stats().0, Stats { hits: 0, misses: 0, evictions: 1 });
}

#[test]
fn capacity_zero_stores_nothing() {
    let mut m = lru(0);
    assert_eq!(m.put('a', 1), (None, T::PutCapacityZero));
    assert_eq!(m.push('b', 2), (Some(('b', 2)), T::PushCapacityZero));
    assert_eq!(m.len(), (0, T::Len));
    assert_eq!(m.get(&'a'), (None, T::GetMissNeverSeen));
    assert_eq!(m.capacity(), (0, T::Capacity));
    let expected = Stats { hits: 0, misses: 1, evictions: 0 };
    assert_eq!(m.stats(), (expected, T::Stats));
}

#[test]
fn capacity_zero_wins_over_dead_on_arrival() {
    let mut m: Model<char, u32> = Model::new(0, Some(0), 0);
    assert_eq!(m.push('a', 1), (Some(('a', 1)), T::PushCapacityZero));
}

#[test]
fn ttl_zero_means_never_seen() {
    let mut m: Model<char, u32> = Model::new(2, Some(0), 7);
    assert_eq!(m.put('a', 1), (None, T::PutDeadOnArrival));
    assert_eq!(m.push('b', 2), (None, T::PushDeadOnArrival));
    assert_eq!(m.put('a', 3), (None, T::PutDeadOnArrival));
    assert_eq!(m.len().0, 0);
    assert_eq!(m.get(&'a'), (None, T::GetMissAtDeadline));
    assert_eq!(m.peek_lru().0, None);
    assert_eq!(m.stats().0, Stats { hits: 0, misses: 1, evictions: 0 });
}

#[test]
fn clock_saturates_at_max() {
    let mut m: Model<char, u32> = Model::new(2, None, u64::MAX - 1);
    m.put('a', 1);
    assert_eq!(m.advance(5), T::AdvanceSaturated);
    assert_eq!(m.now(), u64::MAX);
    assert_eq!(m.advance(u64::MAX), T::AdvanceSaturated);
    assert_eq!(m.get(&'a'), (Some(&1), T::GetHit)); // no ttl: lives forever
}

#[test]
fn deadline_saturates_at_max() {
    // ttl u64::MAX from time 1: the deadline saturates to u64::MAX, so the entry is live until
    // the clock reaches u64::MAX and gone exactly then.
    let mut m: Model<char, u32> = Model::new(2, Some(u64::MAX), 1);
    m.put('a', 1);
    assert_eq!(m.advance(u64::MAX - 2), T::AdvanceQuiet);
    assert_eq!(m.peek(&'a').0, Some(&1));
    assert_eq!(m.advance(1), T::AdvanceToDeadline);
    assert_eq!(m.now(), u64::MAX);
    assert_eq!(m.get(&'a'), (None, T::GetMissAtDeadline));
    // At u64::MAX every deadline saturates to now: every write is dead on arrival.
    assert_eq!(m.put('b', 2), (None, T::PutDeadOnArrival));
    assert_eq!(m.push('c', 3), (None, T::PushDeadOnArrival));
    assert_eq!(m.advance(1), T::AdvanceSaturated);
}

/// A key whose identity is `id`; `tag` tells two equal keys apart.
#[derive(Clone, Copy, Debug)]
struct Tagged {
    id: u8,
    tag: &'static str,
}

impl PartialEq for Tagged {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

#[test]
fn push_returns_what_left() {
    let k = |id, tag| Tagged { id, tag };
    let mut m = Model::new(2, None, 0);
    assert_eq!(m.push(k(1, "first"), 10), (None, T::PushInserted));
    let (old, t) = m.push(k(1, "second"), 11);
    assert_eq!(t, T::PushOverwrote);
    let (old_key, old_value) = old.unwrap();
    assert_eq!((old_key.tag, old_value), ("first", 10)); // the key that was stored
    assert_eq!(m.peek_lru().0.unwrap().0.tag, "second");
    m.push(k(2, "two"), 20);
    let (lru, t) = m.push(k(3, "three"), 30);
    assert_eq!(t, T::PushEvictedLru);
    assert_eq!(lru.map(|(k, v)| (k.tag, v)), Some(("second", 11)));
    assert_eq!(m.stats().0.evictions, 1);
}

#[test]
fn resize_evicts_lru_while_over() {
    let mut m = lru(4);
    for (k, v) in [('a', 1), ('b', 2), ('c', 3), ('d', 4)] {
        m.put(k, v);
    }
    m.get(&'a');
    assert_eq!(m.resize(2), T::ResizeEvicted);
    assert_eq!(keys(&m), ['a', 'd']);
    assert_eq!(m.capacity().0, 2);
    assert_eq!(m.stats().0.evictions, 2);
    assert_eq!(m.resize(5), T::ResizeKeptAll);
    assert_eq!(m.put('e', 5), (None, T::PutInserted));
    assert_eq!(m.resize(0), T::ResizeToZero);
    assert_eq!(m.len().0, 0);
    assert_eq!(m.stats().0.evictions, 5);
    assert_eq!(m.get(&'a'), (None, T::GetMissEvicted));
    assert_eq!(m.put('f', 6), (None, T::PutCapacityZero));
}

#[test]
fn retain_keeps_order_and_recency() {
    let mut m = lru(5);
    for (i, k) in ['a', 'b', 'c', 'd', 'e'].into_iter().enumerate() {
        m.put(k, u32::try_from(i).unwrap());
    }
    let t = m.retain(|_, v| {
        *v *= 10;
        *v % 20 == 0
    });
    assert_eq!(t, T::RetainRemovedSome);
    assert_eq!(m.iter().0, [(&'e', &40), (&'c', &20), (&'a', &0)]);
    assert_eq!(m.get(&'b'), (None, T::GetMissRemoved));
    assert_eq!(m.retain(|_, _| true), T::RetainKeptAll);
    assert_eq!(m.stats().0.evictions, 0);
    m.clear();
    assert_eq!(m.retain(|_, _| unreachable!()), T::RetainOnEmpty);
}

#[test]
fn stats_count_only_get_and_eviction() {
    let mut m: Model<char, u32> = Model::new(2, Some(10), 0);
    m.put('a', 1);
    m.put('b', 2);
    m.get(&'a'); // hit
    m.get_mut(&'x'); // miss
    m.get_mut(&'b'); // hit
    assert_eq!(m.peek(&'x').0, None);
    assert!(!m.contains(&'x').0);
    m.put('c', 3); // evicts a
    m.push('d', 4); // evicts b
    m.pop_lru();
    m.remove(&'d');
    m.put('e', 5);
    m.retain(|_, _| false);
    m.put('f', 6);
    m.clear();
    m.put('g', 7);
    m.advance(10); // expiry is not an eviction
    m.get(&'g'); // miss
    let expected = Stats { hits: 2, misses: 2, evictions: 2 };
    assert_eq!(m.stats(), (expected, T::Stats));
}

#[test]
fn pop_lru_and_clear_are_not_evictions() {
    let mut m = lru(2);
    m.put('a', 1);
    m.put('b', 2);
    assert_eq!(m.peek_lru(), (Some((&'a', &1)), T::PeekLruSome));
    assert_eq!(m.pop_lru(), (Some(('a', 1)), T::PopLruSome));
    assert_eq!(m.clear(), T::Clear);
    assert_eq!(m.iter(), (vec![], T::IterEmpty));
    assert_eq!(m.is_empty(), (true, T::IsEmptyTrue));
    assert_eq!(m.get(&'b'), (None, T::GetMissRemoved));
    assert_eq!(m.stats().0.evictions, 0);
}

#[test]
fn clear_forgets_expired_keys_too() {
    let mut m: Model<char, u32> = Model::new(1, Some(1), 0);
    m.put('a', 1);
    m.advance(1);
    assert_eq!(m.len(), (0, T::LenHidesExpired));
    m.clear();
    assert_eq!(m.len(), (0, T::Len));
    assert_eq!(m.put('b', 2), (None, T::PutInserted));
}

#[test]
fn advance_zero_changes_nothing() {
    let mut m: Model<char, u32> = Model::new(2, Some(3), 5);
    m.put('a', 1);
    assert_eq!(m.advance(0), T::AdvanceZero);
    assert_eq!(m.now(), 5);
    assert_eq!(keys(&m), ['a']);
}
