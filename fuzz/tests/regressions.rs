//! Every divergence found, shrunk to its shortest form, as a test that reads in seconds (sled's
//! `00_regression.rs` style). `scripts/promote ARTIFACT` appends here and writes the case's
//! bytes to `corpus/regressions/` under the test's name.

use fuzz::check;
use fuzz::ops::Case;
use fuzz::ops::Op::*;

// The three classic bugs of model-based testing, written by hand before any fuzzing.

/// `get` must make the entry the most recently used: `1`, not `0`, is evicted by `Put(3)`.
#[test]
fn classic_get_refreshes_recency() {
    check(&Case { capacity: 3, ttl: None, start: 0, ops: vec![Put(0), Put(1), Put(2), Get(0), Put(3)] });
}

/// Overwriting a live key in a full cache must evict nothing.
#[test]
fn classic_overwrite_at_capacity_evicts_nothing() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Put(0), Get(1)] });
}

/// A removed key must leave no ghost that is later evicted in place of a live entry.
#[test]
fn classic_removed_key_leaves_no_ghost() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Remove(0), Put(2), Get(1)] });
}

// lockstep divergence at step 3 of 3, Get(0): the live entries, most recently used first, differ from the model's
//     cache: [(1, v1), (0, v0)]
//     model: [(0, v0), (1, v1)]
//
// Planted bug `get-skips-refresh` (get does not make the entry the most recently used), found by fuzzing; shrunk from 3 to 3 operations (get-skips-refresh.crash).
#[test]
fn get_entries_bb3e2832() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Get(0)] });
}

// lockstep divergence at step 2 of 2, Put(0): the return value differs from the model's
//     cache: None
//     model: Some(v0) (put_overwrote_at_capacity)
//
// Planted bug `overwrite-at-capacity-evicts` (a put into a full cache evicts before looking for the key, even for an overwrite), found by fuzzing; shrunk from 2 to 2 operations (overwrite-at-capacity-evicts.crash).
#[test]
fn put_answer_e7c3e5e4() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![Put(0), Put(0)] });
}

// lockstep divergence at step 3 of 3, Remove(0): the cache panicked
//     cache: panicked: index out of bounds: the len is 1 but the index is 1
//     model: no panic
//
// Planted bug `removal-leaves-ghost` (removing an entry leaves a stale link to the moved slot (a ghost) in the recency list), found by fuzzing; shrunk from 3 to 3 operations (removal-leaves-ghost.crash).
#[test]
fn remove_panic_79502dc6() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Remove(0)] });
}

// lockstep divergence at step 2 of 2, Advance(1): len() differs from the model's
//     cache: 1
//     model: 0
//
// Planted bug `deadline-inclusive` (an entry is still live exactly at its deadline (<= instead of <)), found by fuzzing; shrunk from 2 to 2 operations (deadline-inclusive.crash).
#[test]
fn advance_len_327e502a() {
    check(&Case { capacity: 1, ttl: Some(1), start: 0, ops: vec![Put(0), Advance(1)] });
}

// lockstep divergence at step 4 of 4, Advance(1): len() differs from the model's
//     cache: 0
//     model: 1
//
// Planted bug `overwrite-keeps-timer` (an overwrite does not restart the entry's timer), found by fuzzing; shrunk from 8 to 4 operations (overwrite-keeps-timer.crash).
#[test]
fn advance_len_7b1e56dd() {
    check(&Case { capacity: 1, ttl: Some(2), start: 0, ops: vec![Put(0), Advance(1), Put(0), Advance(1)] });
}

// lockstep divergence at step 4 of 4, Advance(1): len() differs from the model's
//     cache: 1
//     model: 0
//
// Planted bug `get-extends-ttl` (get restarts the entry's timer, as if it were a write), found by fuzzing; shrunk from 6 to 4 operations (get-extends-ttl.crash).
#[test]
fn advance_len_bfad491d() {
    check(&Case { capacity: 1, ttl: Some(2), start: 0, ops: vec![Put(0), Advance(1), Get(0), Advance(1)] });
}

// lockstep divergence at step 2 of 2, Resize(0): len() differs from the model's
//     cache: 1
//     model: 0
//
// Planted bug `resize-keeps-all` (resize sets the capacity but evicts nothing), found by fuzzing; shrunk from 2 to 2 operations (resize-keeps-all.crash).
#[test]
fn resize_len_09442116() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![Put(0), Resize(0)] });
}

// lockstep divergence at step 3 of 3, Peek(0): the live entries, most recently used first, differ from the model's
//     cache: [(0, v0), (1, v1)]
//     model: [(1, v1), (0, v0)]
//
// Planted bug `peek-promotes` (peek makes the entry the most recently used (impossible with `peek( Found by fuzzing; self)`: the bug changes the signature)), found by fuzzing; shrunk from 3 to 3 operations (/work/main/target/hunt/peek-promotes.crash).
#[test]
fn peek_entries_a9a95ce2() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Peek(0)] });
}

// lockstep divergence at step 2 of 2, Put(1): the cache holds more than its capacity
//     cache: capacity 1, 1 live entries, 2 values and 1 keys not dropped
//     model: capacity 1, at most 1 of each
//
// Planted bug `evicted-value-forgotten` (put forgets the evicted value instead of dropping it (a leak)), found by fuzzing; shrunk from 2 to 2 operations (evicted-value-forgotten.crash).
#[test]
fn put_capacity_0dc6604d() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![Put(0), Put(1)] });
}

// lockstep divergence at step 1 of 1, Put(0): the cache panicked
//     cache: panicked: index out of bounds: the len is 0 but the index is 4294967295
//     model: no panic
//
// Planted bug `capacity-zero-panics` (a put into a cache of capacity 0 indexes an empty list and panics), found by fuzzing; shrunk from 1 to 1 operations (capacity-zero-panics.crash).
#[test]
fn put_panic_462a7c27() {
    check(&Case { capacity: 0, ttl: None, start: 0, ops: vec![Put(0)] });
}

// lockstep divergence at step 2 of 2, Push(0): the return value differs from the model's
//     cache: None
//     model: Some((0, v0)) (push_overwrote_at_capacity)
//
// Planted bug `push-loses-old-pair` (push returns nothing on an overwrite instead of the old pair), found by fuzzing; shrunk from 2 to 2 operations (push-loses-old-pair.crash).
#[test]
fn push_answer_f958b134() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![Put(0), Push(0)] });
}

// lockstep divergence at step 3 of 3, Put(2): the live entries, most recently used first, differ from the model's
//     cache: [(2, v2), (0, v0)]
//     model: [(2, v2), (1, v1)]
//
// Planted bug `evicts-most-recent` (a full cache evicts the most recently used entry instead of the least), found by fuzzing; shrunk from 4 to 3 operations (evicts-most-recent.crash).
#[test]
fn put_entries_b58c60a0() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Put(2)] });
}

// lockstep divergence at step 1 of 1, Get(0): stats() differs from the model's
//     cache: Stats { hits: 1, misses: 0, evictions: 0 }
//     model: Stats { hits: 0, misses: 1, evictions: 0 }
//
// Planted bug `misses-counted-as-hits` (stats count a get that misses as a hit), found by fuzzing; shrunk from 1 to 1 operations (misses-counted-as-hits.crash).
#[test]
fn get_stats_ffd74ee7() {
    check(&Case { capacity: 0, ttl: None, start: 0, ops: vec![Get(0)] });
}

// lockstep divergence at step 3 of 3, Put(0): the return value differs from the model's
//     cache: Some(v0)
//     model: None (put_inserted)
//
// Planted bug `expired-evicts-live` (a write does not drop expired entries first, so a full cache evicts a live entry (and overwrites see expired ones)), found by fuzzing; shrunk from 3 to 3 operations (expired-evicts-live.crash).
#[test]
fn put_answer_4ecada4e() {
    check(&Case { capacity: 1, ttl: Some(1), start: 0, ops: vec![Put(0), Advance(1), Put(0)] });
}

// lockstep divergence at step 2 of 2, Advance(1): the live entries, most recently used first, differ from the model's
//     cache: [(0, v0)]
//     model: []
//
// Planted bug `iter-shows-expired` (iter yields entries that have expired), found by fuzzing; shrunk from 3 to 2 operations (iter-shows-expired.crash).
#[test]
fn advance_entries_327e502a() {
    check(&Case { capacity: 1, ttl: Some(1), start: 0, ops: vec![Put(0), Advance(1)] });
}

// lockstep divergence at step 4 of 4, Resize(0): the cache's own invariant check failed
//     cache: the index finds slot 0's key at None
//     model: Ok(())
//
// Planted bug `moved-slot-hashed-late` (a removal hashes the key it moves into the hole only after moving it, so a panicking Hash leaves the index naming a slot that is gone), found by fuzzing; shrunk from 14 to 4 operations (moved-slot-hashed-late.crash).
#[test]
fn resize_invariants_34f83239() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), HashPanics(4), Put(1), Resize(0)] });
}

// lockstep divergence at step 3 of 3, Resize(0): the cache holds more than its capacity
//     cache: capacity 0, 1 live entries, 1 values and 1 keys not dropped
//     model: at most 0 of each
//
// Planted bug `resize-shrinks-capacity-first` (resize lowers the capacity before evicting down to it, so a panicking Hash leaves more entries than the capacity), found by fuzzing; shrunk from 29 to 3 operations (resize-shrinks-capacity-first.crash).
#[test]
fn resize_capacity_2e00b0de() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![Put(0), HashPanics(1), Resize(0)] });
}

// lockstep divergence at step 4 of 4, Advance(1): the live entries, in recency order from either end, differ from the model's
//     cache: [(0, v0)] from the back
//     model: [(1, v1)]
//
// Planted bug `iter-rev-yields-expired` (walking the iterator from the back yields expired entries), found by fuzzing; shrunk from 15 to 4 operations (iter-rev-yields-expired.crash).
#[test]
fn advance_entries_a2546719() {
    check(&Case { capacity: 2, ttl: Some(2), start: 0, ops: vec![Put(0), Advance(1), Put(1), Advance(1)] });
}

// lockstep divergence at step 3 of 3, Clear: the cache's own invariant check failed
//     cache: recency list: link to slot 0 of 0
//     model: Ok(())
//
// Planted bug `clear-drops-before-unlinking` (clear drops the entries before it empties the lists, so a panicking Drop leaves the lists naming slots that are gone), found by fuzzing; shrunk from 14 to 3 operations (clear-drops-before-unlinking.crash).
#[test]
fn clear_invariants_def43b50() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![DropPanics(1), Put(0), Clear] });
}

// lockstep divergence when the cache was dropped after the last step: a key or value was dropped twice, too early, or never
//     cache: never dropped v0
//     model: all values dropped
//
// Planted bug `overwrite-leaks-on-drop-panic` (put drops the old key after building its return value, so a panicking key Drop leaks the old value (rust-lang/rust#47949)), found by fuzzing; shrunk from 3 to 3 operations (overwrite-leaks-on-drop-panic.crash).
#[test]
fn drop_drops_be93a3ff() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![DropPanics(1), Put(0), Put(0)] });
}

// lockstep divergence when the cache was dropped after the last step: a key or value was dropped twice, too early, or never
//     cache: never dropped v0
//     model: all values dropped
//
// Planted bug `remove-leaks-on-drop-panic` (remove drops the key after building its return value, so a panicking key Drop leaks the value (rust-lang/rust#47949)), found by fuzzing; shrunk from 4 to 3 operations (remove-leaks-on-drop-panic.crash).
#[test]
fn drop_drops_918003d6() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![DropPanics(1), Put(0), Remove(0)] });
}

// lockstep divergence at step 3 of 3, PeekMut(0): the live entries, in recency order from either end, differ from the model's
//     cache: [(0, v2), (1, v1)]
//     model: [(1, v1), (0, v2)]
//
// Planted bug `peek-mut-promotes` (peek_mut makes the entry the most recently used), found by fuzzing; shrunk from 6 to 3 operations (peek-mut-promotes.crash).
#[test]
fn peek_mut_entries_14389cba() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), PeekMut(0)] });
}

// lockstep divergence at step 2 of 2, GetOrInsert(1): the return value differs from the model's
//     cache: Some(v0)
//     model: Some(v1) (get_or_insert_inserted)
//
// Planted bug `get-or-insert-returns-lru` (get_or_insert_with, on a miss, answers with the least recently used entry's value instead of the new one), found by fuzzing; shrunk from 2 to 2 operations (get-or-insert-returns-lru.crash).
#[test]
fn get_or_insert_answer_eb2f86da() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), GetOrInsert(1)] });
}

// lockstep divergence at step 3 of 3, IterMut(0): the return value differs from the model's
//     cache: len 1: [(0, v0)]
//     model: len 0: [] (iter_mut_empty)
//
// Planted bug `iter-mut-yields-expired` (iter_mut does not drop the expired entries first, and yields them), found by fuzzing; shrunk from 3 to 3 operations (iter-mut-yields-expired.crash).
#[test]
fn iter_mut_answer_5749d03b() {
    check(&Case { capacity: 1, ttl: Some(1), start: 0, ops: vec![Put(0), Advance(1), IterMut(0)] });
}

// lockstep divergence at step 4 of 4, IterMut(1): the return value differs from the model's
//     cache: len 3: [(2, v2), (1, v0)]
//     model: len 3: [(2, v2), (0, v1), (1, v0)] (iter_mut_non_empty)
//
// Planted bug `iter-mut-back-walks-forward` (iter_mut, walking from the back, follows the links towards the back), found by fuzzing; shrunk from 4 to 4 operations (iter-mut-back-walks-forward.crash).
#[test]
fn iter_mut_answer_1e876387() {
    check(&Case { capacity: 3, ttl: None, start: 0, ops: vec![Put(1), Put(0), Put(2), IterMut(1)] });
}

// lockstep divergence at step 3 of 3, IntoIter(0): the return value differs from the model's
//     cache: len 1: []
//     model: len 0: [] (into_iter_empty)
//
// Planted bug `into-iter-yields-expired` (iterating by value does not drop the expired entries first, and yields them), found by fuzzing; shrunk from 5 to 3 operations (into-iter-yields-expired.crash).
#[test]
fn into_iter_answer_d0b203fd() {
    check(&Case { capacity: 1, ttl: Some(1), start: 0, ops: vec![Put(0), Advance(1), IntoIter(0)] });
}

// lockstep divergence at step 4 of 4, IntoIter(2): the cache panicked
//     cache: panicked: index out of bounds: the len is 1 but the index is 1
//     model: no panic
//
// Planted bug `into-iter-forgets-moved-slot` (iterating by value moves the last slot into the hole without telling its neighbours), found by fuzzing; shrunk from 4 to 4 operations (into-iter-forgets-moved-slot.crash).
#[test]
fn into_iter_panic_e0e602b7() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Put(0), IntoIter(2)] });
}

// lockstep divergence at step 2 of 2, IterMut(1): the return value differs from the model's
//     cache: lens [1, 1, 1]: [(0, v0)]
//     model: lens [1, 0, 0]: [(0, v0)] (iter_mut_non_empty)
//
// Planted bug `iter-mut-len-counts-front-only` (iter_mut's len() goes down only for entries taken from the front), found by fuzzing; shrunk from 2 to 2 operations (iter-mut-len-counts-front-only.crash).
#[test]
fn iter_mut_answer_c5db2e94() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![Put(0), IterMut(1)] });
}

// lockstep divergence at step 2 of 2, IntoIter(0): the return value differs from the model's
//     cache: lens [2]: []
//     model: lens [1]: [] (into_iter_non_empty)
//
// Planted bug `into-iter-len-is-room` (iterating by value reports the room its slots have, not how many are left, as its len()), found by fuzzing; shrunk from 2 to 2 operations (into-iter-len-is-room.crash).
#[test]
fn into_iter_answer_db15b3a0() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), IntoIter(0)] });
}

// lockstep divergence at step 2 of 2, Put(1): len(), or the iterator's length, differs from the model's
//     cache: iter().len() 1 after 2 steps from both ends
//     model: 0
//
// Planted bug `iter-len-counts-front-only` (the iterator's len() goes down only for entries taken from the front), found by fuzzing; shrunk from 2 to 2 operations (iter-len-counts-front-only.crash).
#[test]
fn put_len_cb58a716() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1)] });
}

// lockstep divergence at step 5 of 5, Put(0): the cache's own invariant check failed
//     cache: upcoming expiries: slot 0 expires at 3, before the horizon 4, but has no record
//     model: Ok(())
//
// Planted bug `moved-entry-unrecorded` (a removal that moves an entry due to expire soon into the hole gives it no record there, so it outlives its deadline), found by fuzzing; shrunk from 126 to 5 operations (024bbbdf5c7a1d6d139c0280d26f3b2af323fca9).
#[test]
fn put_invariants_4146af53() {
    check(&Case {
        capacity: 2,
        ttl: Some(2),
        start: 0,
        ops: vec![Put(0), Advance(1), Put(1), Advance(1), Put(0)],
    });
}

// lockstep divergence at step 7 of 7, Put(1): stats() differs from the model's
//     cache: Stats { hits: 0, misses: 0, evictions: 0 }
//     model: Stats { hits: 0, misses: 0, evictions: 1 }
//
// Planted bug `stale-record-drops-rewritten` (a record whose entry was written again still drops what is in its slot at the old deadline), found by fuzzing; shrunk from 167 to 7 operations (061f67b3bb9518ea200e220c58da028e4cd92809).
#[test]
fn put_stats_da5d617a() {
    check(&Case {
        capacity: 1,
        ttl: Some(2),
        start: 0,
        ops: vec![Put(0), Advance(1), Put(0), Advance(1), Put(0), Advance(1), Put(1)],
    });
}

// lockstep divergence at step 6 of 6, Put(0): the cache's own invariant check failed
//     cache: upcoming expiries: slot 1 expires at 3, before the horizon 4, but has no record
//     model: Ok(())
//
// Planted bug `horizon-past-unlisted` (a pass over the deadlines puts its horizon at the latest possible deadline, past entries it did not list), found by fuzzing; shrunk from 126 to 6 operations (024bbbdf5c7a1d6d139c0280d26f3b2af323fca9).
#[test]
fn put_invariants_2fd1e6fa() {
    check(&Case {
        capacity: 3,
        ttl: Some(2),
        start: 0,
        ops: vec![Put(0), Advance(1), Put(1), Put(2), Advance(1), Put(0)],
    });
}

// lockstep divergence at step 5 of 5, Put(0): the return value differs from the model's
//     cache: Some(v0)
//     model: None (put_inserted)
//
// Planted bug `pass-skipped-at-horizon` (when the clock lands exactly on the horizon, the entries expiring there, listed by no pass, are not dropped), found by fuzzing; shrunk from 135 to 5 operations (0679878c093431014808a0eacba4a0227b43c490).
#[test]
fn put_answer_db52a55d() {
    check(&Case {
        capacity: 3,
        ttl: Some(1),
        start: 0,
        ops: vec![Put(0), Put(1), Put(2), Advance(1), Put(0)],
    });
}

// lockstep divergence at step 5 of 5, GetMut(0): the live entries, in recency order from either end, differ from the model's
//     cache: [(0, v3), (2, v2), (1, v1)]
//     model: [(0, v3), (1, v1), (2, v2)]
//
// Planted bug `last-hit-never-settled` in its first form (calls did not first move the last hit's entry to the head: a second hit overwrote the first one's move), found by fuzzing; shrunk from 126 to 5 operations (024bbbdf5c7a1d6d139c0280d26f3b2af323fca9).
#[test]
fn get_mut_entries_bde89f60() {
    check(&Case { capacity: 3, ttl: None, start: 0, ops: vec![Put(0), Put(1), Put(2), Get(1), GetMut(0)] });
}

// lockstep divergence at step 3 of 3, Clear: the cache's own invariant check failed
//     cache: the last hit was slot 0 of 0
//     model: Ok(())
//
// Planted bug `clear-keeps-last-hit` (clear forgets to drop the last hit, whose slot a later call then moves to the head), found by fuzzing; shrunk from 136 to 3 operations (01863a435144b89e9591f6beea44b61631b4d337).
#[test]
fn clear_invariants_d8e68346() {
    check(&Case { capacity: 1, ttl: None, start: 0, ops: vec![Put(0), Get(0), Clear] });
}

// lockstep divergence at step 4 of 4, PeekLru: the return value differs from the model's
//     cache: Some((0, v0))
//     model: Some((1, v1)) (peek_lru_some)
//
// Planted bug `peek-lru-shows-last-hit` (peek_lru shows the last hit's entry while the list still holds it at the tail), found by fuzzing; shrunk from 86 to 4 operations (cbc228418312a2b682a6000eaac03913f8a6b39a).
#[test]
fn peek_lru_answer_0ac5faa2() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Get(0), PeekLru] });
}

// lockstep divergence at step 3 of 3, GetMut(0): the live entries, in recency order from either end, differ from the model's
//     cache: [(1, v1), (0, v2)]
//     model: [(0, v2), (1, v1)]
//
// Planted bug `iter-ignores-last-hit` (the iterator walks the list alone, showing the last hit's entry where it was before the hit), found by fuzzing; shrunk from 126 to 3 operations (024bbbdf5c7a1d6d139c0280d26f3b2af323fca9).
#[test]
fn get_mut_entries_9c79c466() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), GetMut(0)] });
}

// lockstep divergence at step 4 of 4, CloneCache: the live entries, in recency order from either end, differ from the model's
//     cache: [(1, v1), (0, v0)]
//     model: [(0, v0), (1, v1)]
//
// Planted bug `clone-forgets-last-hit` (a clone forgets the last hit, so its entry keeps its old place in the clone's order), found by fuzzing; shrunk from 101 to 4 operations (049de5a892f913b635bb58a20a88cb145d7bc1a5).
#[test]
fn clone_cache_entries_5efd63af() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Get(0), CloneCache] });
}

// lockstep divergence at step 4 of 4, GetMut(2): the live entries, in recency order from either end, differ from the model's
//     cache: [(1, v1), (0, v0)]
//     model: [(0, v0), (1, v1)]
//
// Planted bug `last-hit-never-settled` (settling forgets the last hit instead of moving its entry to the head), found by fuzzing; shrunk from 126 to 4 operations (024bbbdf5c7a1d6d139c0280d26f3b2af323fca9).
#[test]
fn get_mut_entries_16a8fe60() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Get(0), GetMut(2)] });
}

// lockstep divergence at step 3 of 3, Put(1): the live entries, in recency order from either end, differ from the model's
//     cache: [(0, v0), (1, v1)]
//     model: [(1, v1), (0, v0)]
//
// Planted bug `last-hit-settled-twice` (settling moves the last hit's entry but keeps it as the last hit, to be moved again after other calls), found by fuzzing; shrunk from 126 to 3 operations (024bbbdf5c7a1d6d139c0280d26f3b2af323fca9).
#[test]
fn put_entries_37b4210c() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Get(0), Put(1)] });
}

// lockstep divergence at step 5 of 5, Push(0): the cache's own invariant check failed
//     cache: index: slot 0's place is Some(17), not 16 (lane 0, 0 steps from home)
//     model: Ok(())
//
// Planted bug `eviction-keeps-old-place` (a new key written over an evicted one does not note its place, so the slot keeps the evicted key's and removing it later clears another lane), found by fuzzing; shrunk from 41 to 5 operations (eviction-keeps-old-place.crash).
#[test]
fn push_invariants_088a2fc1() {
    check(&Case {
        capacity: 2,
        ttl: None,
        start: 0,
        ops: vec![Put(0), Put(1), HashPanics(3), Resize(1), Push(0)],
    });
}
