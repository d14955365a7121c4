//! Every `Transition` is reachable, and `ALL` and `name` describe the enum faithfully.

use std::collections::BTreeSet;

use model::{Model, Stats, Transition as T};

/// Records the transition of one call and hands back its whole result for checking.
fn see<R>(seen: &mut BTreeSet<T>, (result, t): (R, T)) -> (R, T) {
    seen.insert(t);
    (result, t)
}

/// Records the transition of a call that returns nothing else.
fn see_t(seen: &mut BTreeSet<T>, t: T) -> T {
    seen.insert(t);
    t
}

#[test]
fn every_transition_is_reachable() {
    let s = &mut BTreeSet::new();
    let mut m: Model<u8, u8> = Model::new(2, Some(10), 0);

    // Empty model: every read misses on a never-seen key.
    assert_eq!(see(s, m.get(&1)), (None, T::GetMissNeverSeen));
    assert_eq!(see(s, m.get_mut(&1)), (None, T::GetMutMiss));
    assert_eq!(see(s, m.peek(&1)), (None, T::PeekMiss));
    assert_eq!(see(s, m.contains(&1)), (false, T::ContainsFalse));
    assert_eq!(see(s, m.remove(&1)), (None, T::RemoveMiss));
    assert_eq!(see(s, m.peek_lru()), (None, T::PeekLruNone));
    assert_eq!(see(s, m.pop_lru()), (None, T::PopLruNone));
    assert_eq!(see_t(s, m.retain(|_, _| unreachable!())), T::RetainOnEmpty);
    assert_eq!(see(s, m.iter()), (vec![], T::IterEmpty));
    assert_eq!(see(s, m.iter_mut()), (vec![], T::IterMutEmpty));
    assert_eq!(see(s, m.is_empty()), (true, T::IsEmptyTrue));
    assert_eq!(see(s, m.len()), (0, T::Len));
    assert_eq!(see(s, m.capacity()), (2, T::Capacity));
    assert_eq!(see(s, m.stats()), (Stats { hits: 0, misses: 2, evictions: 0 }, T::Stats));
    assert_eq!(see_t(s, m.advance(0)), T::AdvanceZero);
    assert_eq!(see_t(s, m.advance(1)), T::AdvanceQuiet);

    // Fill to capacity, overwrite at capacity, read hits.
    assert_eq!(see(s, m.put(1, 10)), (None, T::PutInserted));
    assert_eq!(see(s, m.push(2, 20)), (None, T::PushInserted));
    assert_eq!(see(s, m.put(1, 11)), (Some(10), T::PutOverwroteAtCapacity));
    assert_eq!(see(s, m.push(2, 21)), (Some((2, 20)), T::PushOverwroteAtCapacity));
    assert_eq!(see(s, m.get(&1)), (Some(&11), T::GetHit));
    assert_eq!(see(s, m.get_mut(&1)), (Some(&mut 11), T::GetMutHit));
    assert_eq!(see(s, m.peek(&1)), (Some(&11), T::PeekHit));
    assert_eq!(see(s, m.contains(&1)), (true, T::ContainsTrue));
    assert_eq!(see(s, m.peek_lru()), (Some((&2, &21)), T::PeekLruSome));
    assert_eq!(see(s, m.iter()), (vec![(&1, &11), (&2, &21)], T::IterNonEmpty));
    assert_eq!(see(s, m.iter_mut()), (vec![(&1, &mut 11), (&2, &mut 21)], T::IterMutNonEmpty));
    assert_eq!(see(s, m.is_empty()), (false, T::IsEmptyFalse));

    // Evictions, then misses on evicted and removed keys.
    assert_eq!(see(s, m.put(3, 30)), (None, T::PutEvictedLru));
    assert_eq!(see(s, m.get(&2)), (None, T::GetMissEvicted));
    assert_eq!(see(s, m.push(4, 40)), (Some((1, 11)), T::PushEvictedLru));
    assert_eq!(see(s, m.remove(&3)), (Some(30), T::RemoveHit));
    assert_eq!(see(s, m.get(&3)), (None, T::GetMissRemoved));
    assert_eq!(see(s, m.put(4, 41)), (Some(40), T::PutOverwrote));
    assert_eq!(see(s, m.push(4, 42)), (Some((4, 41)), T::PushOverwrote));
    assert_eq!(see_t(s, m.retain(|_, _| true)), T::RetainKeptAll);
    assert_eq!(see_t(s, m.retain(|_, _| false)), T::RetainRemovedSome);

    // Expiry: at the deadline, then after it.
    assert_eq!(see(s, m.put(5, 50)), (None, T::PutInserted)); // now 1, deadline 11
    assert_eq!(see_t(s, m.advance(10)), T::AdvanceToDeadline);
    assert_eq!(see(s, m.get(&5)), (None, T::GetMissAtDeadline));
    assert_eq!(see_t(s, m.advance(1)), T::AdvanceQuiet);
    assert_eq!(see(s, m.get(&5)), (None, T::GetMissExpired));
    assert_eq!(see(s, m.get_mut(&5)), (None, T::GetMutMissExpired));
    assert_eq!(see(s, m.peek(&5)), (None, T::PeekMissExpired));
    assert_eq!(see(s, m.contains(&5)), (false, T::ContainsExpired));
    assert_eq!(see(s, m.remove(&5)), (None, T::RemoveExpired));
    assert_eq!(see(s, m.len()), (0, T::LenHidesExpired));
    assert_eq!(see(s, m.put(6, 60)), (None, T::PutInserted)); // now 12, deadline 22
    assert_eq!(see_t(s, m.advance(15)), T::AdvanceExpired);

    // Keys 5 and 6 expired: a lazy cache could be full of them.
    assert_eq!(see(s, m.put(7, 70)), (None, T::PutInsertedOverExpired));
    assert_eq!(see(s, m.push(8, 80)), (None, T::PushInsertedOverExpired));

    // Resizing, capacity 0, clear.
    assert_eq!(see_t(s, m.resize(3)), T::ResizeKeptAll);
    assert_eq!(see_t(s, m.resize(1)), T::ResizeEvicted);
    assert_eq!(see(s, m.pop_lru()), (Some((8, 80)), T::PopLruSome));
    assert_eq!(see_t(s, m.resize(0)), T::ResizeToZero);
    assert_eq!(see(s, m.put(9, 90)), (None, T::PutCapacityZero));
    assert_eq!(see(s, m.push(9, 91)), (Some((9, 91)), T::PushCapacityZero));
    assert_eq!(see_t(s, m.clear()), T::Clear);
    assert_eq!(see_t(s, m.advance(u64::MAX)), T::AdvanceSaturated);

    // Dead on arrival: ttl 0.
    let mut d: Model<u8, u8> = Model::new(2, Some(0), 0);
    assert_eq!(see(s, d.put(1, 10)), (None, T::PutDeadOnArrival));
    assert_eq!(see(s, d.push(1, 10)), (None, T::PushDeadOnArrival));

    // get_or_insert_with and peek_mut, on a fresh model.
    let mut g: Model<u8, u8> = Model::new(2, Some(10), 0);
    assert_eq!(see(s, g.get_or_insert_with(1, || 10)), (Some(&mut 10), T::GetOrInsertInserted));
    assert_eq!(see(s, g.get_or_insert_with(1, || unreachable!())), (Some(&mut 10), T::GetOrInsertHit));
    assert_eq!(see(s, g.get_or_insert_with(2, || 20)), (Some(&mut 20), T::GetOrInsertInserted));
    assert_eq!(see(s, g.get_or_insert_with(3, || 30)), (Some(&mut 30), T::GetOrInsertEvictedLru));
    assert_eq!(see(s, g.peek_mut(&2)), (Some(&mut 20), T::PeekMutHit));
    assert_eq!(see(s, g.peek_mut(&1)), (None, T::PeekMutMiss));
    assert_eq!(see_t(s, g.advance(10)), T::AdvanceToDeadline);
    assert_eq!(see(s, g.peek_mut(&2)), (None, T::PeekMutMissExpired));
    assert_eq!(see(s, g.stats()), (Stats { hits: 1, misses: 3, evictions: 1 }, T::Stats));
    assert_eq!(see(s, d.get_or_insert_with(2, || 20)), (None, T::GetOrInsertStoredNothing));

    // try_get_or_insert_with: a value that fails to be made is a miss and nothing else.
    let mut loader: Model<u8, u8> = Model::new(1, None, 0);
    loader.put(1, 10);
    assert_eq!(see(s, loader.try_get_or_insert_with(2, || Err("no"))), (Err("no"), T::TryGetOrInsertFailed));
    assert_eq!(loader.iter().0, [(&1, &10)]);
    assert_eq!(
        see(s, loader.try_get_or_insert_with(1, || Err("no"))),
        (Ok(Some(&mut 10)), T::GetOrInsertHit)
    );
    assert_eq!(
        loader.try_get_or_insert_with(2, || Ok::<_, ()>(20)),
        (Ok(Some(&mut 20)), T::GetOrInsertEvictedLru)
    );
    assert_eq!(loader.stats().0, Stats { hits: 1, misses: 2, evictions: 1 });

    takes_both_ends_of_the_order(s);

    // Iterating by value, after which a model is gone.
    assert_eq!(see(s, d.clone().into_entries()), (vec![], T::IntoIterEmpty));
    let mut owned: Model<u8, u8> = Model::new(2, None, 0);
    owned.put(1, 10);
    owned.put(2, 20);
    assert_eq!(see(s, owned.into_entries()), (vec![(2, 20), (1, 10)], T::IntoIterNonEmpty));

    let missing: Vec<_> = T::ALL.iter().filter(|t| !s.contains(t)).collect();
    assert!(missing.is_empty(), "never reached: {missing:?}");
    assert_eq!(s.len(), T::ALL.len());
}

/// `promote`, `demote`, `peek_mru` and `pop_mru`, each way.
fn takes_both_ends_of_the_order(s: &mut BTreeSet<T>) {
    let mut ends: Model<u8, u8> = Model::new(3, Some(10), 0);
    assert_eq!(see(s, ends.peek_mru()), (None, T::PeekMruNone));
    assert_eq!(see(s, ends.pop_mru()), (None, T::PopMruNone));
    assert_eq!(see(s, ends.promote(&1)), (false, T::PromoteMiss));
    assert_eq!(see(s, ends.demote(&1)), (false, T::DemoteMiss));
    ends.put(1, 10);
    ends.put(2, 20);
    ends.put(3, 30);
    assert_eq!(see(s, ends.promote(&1)), (true, T::PromoteHit));
    assert_eq!(see(s, ends.demote(&3)), (true, T::DemoteHit));
    assert_eq!(ends.iter().0, [(&1, &10), (&2, &20), (&3, &30)]);
    assert_eq!(see(s, ends.peek_mru()), (Some((&1, &10)), T::PeekMruSome));
    assert_eq!(see(s, ends.pop_mru()), (Some((1, 10)), T::PopMruSome));
    assert_eq!(ends.stats().0, Stats::default(), "none of these count");
    ends.advance(10);
    assert_eq!(see(s, ends.promote(&2)), (false, T::PromoteExpired));
    assert_eq!(see(s, ends.demote(&2)), (false, T::DemoteExpired));
}

#[test]
fn all_lists_each_variant_once_in_declaration_order() {
    // `Ord` is derived, so declaration order is sorted order.
    assert!(T::ALL.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(T::ALL.first(), Some(&T::PutInserted));
    assert_eq!(T::ALL.last(), Some(&T::AdvanceSaturated));
}

#[test]
fn names_are_unique_snake_case() {
    let names: BTreeSet<_> = T::ALL.iter().map(|t| t.name()).collect();
    assert_eq!(names.len(), T::ALL.len());
    for name in names {
        assert!(!name.is_empty() && !name.starts_with('_') && !name.ends_with('_'), "{name}");
        assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{name}");
    }
    assert_eq!(T::PutEvictedLru.name(), "put_evicted_lru");
    assert_eq!(T::GetMissAtDeadline.name(), "get_miss_at_deadline");
}

#[test]
fn names_match_variants() {
    // The Debug name in snake_case is the label, so a row of the table cannot be mislabelled.
    for t in T::ALL {
        let mut snake = String::new();
        for c in format!("{t:?}").chars() {
            if c.is_ascii_uppercase() && !snake.is_empty() {
                snake.push('_');
            }
            snake.push(c.to_ascii_lowercase());
        }
        assert_eq!(t.name(), snake);
    }
}
