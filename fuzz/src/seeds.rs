//! Seed cases written by hand, one per behaviour of the contract, so that fuzzing starts from
//! every corner at once. `harness seeds corpus/lockstep` writes them there, through the encoder;
//! a test checks that together they take every transition of the model.

use crate::ops::Case;
use crate::ops::Op::{self, *};

fn case(capacity: usize, ttl: Option<u64>, ops: &[Op]) -> Case {
    Case { capacity, ttl, start: 0, ops: ops.to_vec() }
}

/// Every seed, with a name that says what it exercises.
#[must_use]
#[allow(clippy::too_many_lines, reason = "a table of data, one seed per row")]
pub fn seeds() -> Vec<(&'static str, Case)> {
    let near_the_end = Case { start: u64::MAX - 100, ..case(2, Some(u64::MAX), &[]) };
    vec![
        (
            "get-refreshes-recency",
            case(3, None, &[Put(0), Put(1), Put(2), Get(0), Put(3), Get(1), Iter, PeekLru]),
        ),
        ("overwrite-at-capacity-evicts-nothing", case(2, None, &[Put(0), Put(1), Put(0), Put(0), Len, Iter])),
        ("overwrite-with-room", case(3, None, &[Put(0), Put(0), Push(1), Push(1), Get(0)])),
        ("push-returns-what-left", case(2, None, &[Push(0), Push(1), Push(0), Push(2), Get(1), Iter])),
        (
            "removed-key-leaves-no-ghost",
            case(2, None, &[Put(0), Put(1), Remove(0), Put(2), Put(3), Get(0), Remove(5)]),
        ),
        (
            "capacity-zero-stores-nothing",
            case(
                0,
                None,
                &[Put(0), Push(0), Get(0), GetMut(0), Len, IsEmpty, PeekLru, PopLru, Iter, Capacity],
            ),
        ),
        (
            "hash-panics-inside-the-cache",
            case(3, Some(4), &[Put(0), Put(1), Put(2), HashPanics(1), Remove(0), HashPanics(1), Resize(1)]),
        ),
        (
            "drop-panics-inside-the-cache",
            case(3, Some(4), &[Put(0), Put(1), Put(2), DropPanics(2), Clear, Put(0), DropPanics(1), Put(0)]),
        ),
        (
            "get-or-insert-and-peek-mut",
            case(
                2,
                Some(5),
                &[
                    GetOrInsert(0),
                    GetOrInsert(0),
                    GetOrInsert(1),
                    GetOrInsert(2),
                    PeekMut(1),
                    PeekMut(0),
                    Advance(5),
                    PeekMut(1),
                    Get(1),
                ],
            ),
        ),
        ("get-or-insert-at-capacity-zero", case(0, None, &[GetOrInsert(0), Get(0)])),
        (
            "try-get-or-insert-fails-at-capacity",
            case(
                2,
                Some(5),
                &[
                    Put(0),
                    Put(1),
                    TryGetOrInsertErr(2),
                    TryGetOrInsertErr(0),
                    Advance(5),
                    TryGetOrInsertErr(1),
                    Stats,
                ],
            ),
        ),
        (
            "into-iter-and-start-again",
            case(
                3,
                Some(5),
                &[
                    IntoIter(0),
                    Put(0),
                    Put(1),
                    Put(2),
                    Get(0),
                    IntoIter(2),
                    Put(1),
                    Advance(5),
                    IntoIter(1),
                    Put(2),
                ],
            ),
        ),
        (
            "iter-mut-writes-in-place",
            case(
                3,
                Some(5),
                &[IterMut(0), Put(0), Put(1), Put(2), Get(0), IterMut(1), Advance(5), IterMut(2), Peek(1)],
            ),
        ),
        (
            "capacity-one",
            case(1, Some(3), &[Put(0), Put(1), Push(2), Advance(2), Put(2), Get(2), Advance(3), Get(2)]),
        ),
        (
            "ttl-boundary",
            case(
                2,
                Some(10),
                &[Put(0), Advance(9), Get(0), Advance(1), Get(0), Put(0), Advance(11), Peek(0)],
            ),
        ),
        (
            "overwrite-restarts-the-timer",
            case(2, Some(10), &[Put(0), Advance(6), Put(0), Advance(6), Get(0), Len]),
        ),
        (
            "expired-never-evicts-live",
            case(
                2,
                Some(10),
                &[Put(0), Advance(5), Put(1), Get(0), Advance(5), Put(2), Iter, Len, Push(3), Push(4)],
            ),
        ),
        (
            "expired-is-invisible",
            case(
                3,
                Some(4),
                &[Put(0), Put(1), Advance(4), Len, IsEmpty, Contains(0), Peek(1), Remove(0), GetMut(1)],
            ),
        ),
        (
            "expired-then-lru-ends",
            case(
                3,
                Some(4),
                &[Put(0), Advance(2), Put(1), Advance(2), PeekLru, PopLru, PopLru, PeekLru, Retain(0)],
            ),
        ),
        (
            "expired-then-mru-end",
            case(
                3,
                Some(4),
                &[
                    PeekMru,
                    PopMru,
                    Put(0),
                    Advance(2),
                    Put(1),
                    Get(0),
                    Advance(2),
                    PeekMru,
                    Demote(0),
                    Promote(0),
                    PopMru,
                    PopMru,
                ],
            ),
        ),
        (
            "promote-and-demote-reorder",
            case(
                3,
                None,
                &[
                    Put(0),
                    Put(1),
                    Put(2),
                    Promote(0),
                    Demote(2),
                    Put(3),
                    Iter,
                    Promote(5),
                    Demote(2),
                    PeekMru,
                    PopMru,
                ],
            ),
        ),
        (
            "a-clone-goes-on-as-the-same-cache",
            case(
                2,
                Some(4),
                &[
                    Put(0),
                    Get(0),
                    Get(1),
                    CloneCache,
                    Advance(2),
                    Put(1),
                    CloneCache,
                    Advance(2),
                    Put(2),
                    Put(3),
                    CloneCache,
                    Len,
                    Stats,
                    PopLru,
                ],
            ),
        ),
        (
            "push-into-room-of-expired",
            case(2, Some(4), &[Put(0), Put(1), Advance(4), Push(2), IsEmpty, Push(3)]),
        ),
        ("ttl-zero-never-seen", case(2, Some(0), &[Put(0), Push(1), Get(0), Contains(1), Len, Iter])),
        (
            "saturated-deadline",
            Case {
                ops: vec![Put(0), Advance(99), Get(0), Advance(1), Get(0), Put(1), Advance(u64::MAX)],
                ..near_the_end
            },
        ),
        ("clock-at-the-end", Case { start: u64::MAX, ..case(2, Some(5), &[Put(0), Push(1), Get(0), Len]) }),
        (
            "resize-evicts",
            case(3, None, &[Put(0), Put(1), Put(2), Resize(1), Get(0), Resize(5), Put(3), Resize(0), Put(4)]),
        ),
        (
            "resize-keeps",
            case(2, Some(3), &[Put(0), Resize(8), Put(1), Put(2), Capacity, Resize(usize::MAX), Put(3)]),
        ),
        (
            "retain-keeps-order",
            case(
                4,
                None,
                &[Put(0), Put(1), Put(2), Put(3), Retain(0b1010), Iter, Retain(0b1111), Retain(0), Retain(0)],
            ),
        ),
        (
            "clear-removes-everything",
            case(3, Some(5), &[Put(0), Put(1), Advance(5), Put(2), Clear, Get(0), Get(2), Len]),
        ),
        (
            "get-mut-replaces-in-place",
            case(
                2,
                Some(5),
                &[Put(0), GetMut(0), Put(1), Put(2), GetMut(0), GetMut(1), Advance(5), GetMut(1)],
            ),
        ),
        (
            "peek-and-contains-leave-order",
            case(2, None, &[Put(0), Put(1), Peek(0), Contains(0), Put(2), Peek(0), Contains(0), Contains(2)]),
        ),
        (
            "stats-count-gets",
            case(1, None, &[Get(0), Put(0), Get(0), GetMut(0), GetMut(1), Put(1), Stats, Iter]),
        ),
        (
            "huge-capacity",
            case(usize::MAX, Some(2), &[Put(0), Put(1), Put(2), Advance(1), Put(0), Advance(1), Len]),
        ),
        (
            "time-stands-still",
            case(2, Some(2), &[Put(0), Advance(0), Get(0), Advance(1), Get(0), Advance(2), Get(0)]),
        ),
        ("empty", case(2, None, &[IsEmpty, Iter, PeekLru, PopLru, Len, Stats, Get(0), Remove(0), Clear])),
    ]
}
