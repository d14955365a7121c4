//! Exhaustive search: every case up to a given length over a tiny alphabet, shortest first.
//!
//! Because it goes by length, the first failure it finds is as short as a failure over this
//! alphabet can be: the yardstick for the minimiser. The alphabet is small on purpose: three
//! keys (named in order of first use, so `Put(1), Put(0)` is not tried beside `Put(0), Put(1)`),
//! capacities 0 to 3, no ttl or a ttl of 2 with time steps on its boundaries, and a `Hash` or a
//! `Drop` that panics at each hash or drop the decoder can arm (the first to the fourth).
//!
//! Observers that the driver already calls after every step (`len`, `iter`, `stats`,
//! `capacity`) are left out: a case using them fails no sooner than one without.

use std::ops::ControlFlow;

use crate::driver::{Divergence, Signature, replay};
use crate::generate::FUSE_LENGTHS;
use crate::ops::{Case, Key, Op};

/// Capacities tried, smallest first.
pub const CAPACITIES: [usize; 4] = [0, 1, 2, 3];
/// Time-to-lives tried.
pub const TTLS: [Option<u64>; 2] = [None, Some(2)];
/// Keys tried.
pub const KEYS: Key = 3;

/// Where a search is: for a progress bar.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The length of the cases being checked now.
    pub length: usize,
    /// Cases checked so far, at every length.
    pub checked: u64,
    /// Cases at this length, over all configurations.
    pub at_length: u64,
    /// Cases checked at this length.
    pub done_at_length: u64,
}

/// What a search found.
#[derive(Debug)]
pub struct Outcome {
    /// The first (shortest) failure, if any.
    pub found: Option<Box<Divergence>>,
    /// How many cases were replayed.
    pub checked: u64,
}

/// The operations other than keyed ones, for a cache with this ttl.
fn keyless(ttl: Option<u64>) -> Vec<Op> {
    let mut ops =
        vec![Op::PeekLru, Op::PopLru, Op::PeekMru, Op::PopMru, Op::IsEmpty, Op::Clear, Op::CloneCache];
    ops.extend([0b000, 0b101, 0b110].map(Op::Retain));
    ops.extend([0, 1].map(Op::Resize));
    // Dropping every entry unseen; and taking three, from the front, the back, the front.
    ops.extend([0, 3].map(Op::IntoIter));
    ops.extend((1..=FUSE_LENGTHS).map(Op::HashPanics));
    ops.extend((1..=FUSE_LENGTHS).map(Op::DropPanics));
    let mut steps = vec![1];
    if let Some(ttl) = ttl {
        steps.extend([ttl.saturating_sub(1), ttl, ttl.saturating_add(1)]);
    }
    steps.retain(|&t| t > 0);
    steps.sort_unstable();
    steps.dedup();
    ops.extend(steps.into_iter().map(Op::Advance));
    ops
}

/// The keyed operations on one key.
fn keyed(key: Key) -> [Op; 13] {
    [
        Op::Put(key),
        Op::Push(key),
        Op::Get(key),
        Op::GetMut(key),
        Op::GetOrInsert(key),
        Op::TryGetOrInsertErr(key),
        Op::Peek(key),
        Op::PeekMut(key),
        Op::Contains(key),
        Op::Remove(key),
        Op::IterMut(key),
        Op::Promote(key),
        Op::Demote(key),
    ]
}

/// How many cases of `length` operations there are for this ttl, keys named in order of use.
fn count(length: usize, ttl: Option<u64>) -> u64 {
    let plain = keyless(ttl).len() as u64;
    let per_key = keyed(0).len() as u64;
    // ways[n]: cases of the length so far, when `n` keys were named before them.
    let mut ways = [1_u64; KEYS as usize + 1];
    for _ in 0..length {
        let mut longer = [0; KEYS as usize + 1];
        for (named, slot) in longer.iter_mut().enumerate() {
            let old_keys = (plain + per_key * named as u64) * ways[named];
            let new_key = ways.get(named + 1).filter(|_| named < KEYS as usize).map_or(0, |w| per_key * w);
            *slot = old_keys + new_key;
        }
        ways = longer;
    }
    ways[0]
}

/// Visits every case of `length` operations for one configuration; stops when `visit` breaks.
fn visit_cases<B>(
    case: &mut Case,
    length: usize,
    named: Key,
    visit: &mut dyn FnMut(&Case) -> ControlFlow<B>,
) -> ControlFlow<B> {
    if case.ops.len() == length {
        return visit(case);
    }
    let mut choices = keyless(case.ttl);
    for key in 0..(named + 1).min(KEYS) {
        choices.extend(keyed(key));
    }
    for op in choices {
        let named = named.max(op.key().map_or(0, |k| k + 1));
        case.ops.push(op);
        let flow = visit_cases(case, length, named, visit);
        case.ops.pop();
        flow?;
    }
    ControlFlow::Continue(())
}

/// Replays every case up to `max_length` operations, shortest first, and returns the first that
/// fails (with signature `want`, if given). `progress` is called every few thousand cases.
pub fn search(max_length: usize, want: Option<Signature>, progress: &mut dyn FnMut(Progress)) -> Outcome {
    let mut checked = 0;
    for length in 0..=max_length {
        let at_length = TTLS.iter().map(|&ttl| count(length, ttl)).sum::<u64>() * CAPACITIES.len() as u64;
        let mut done_at_length = 0;
        for capacity in CAPACITIES {
            for ttl in TTLS {
                let mut case = Case { capacity, ttl, start: 0, ops: Vec::with_capacity(length) };
                let flow = visit_cases(&mut case, length, 0, &mut |candidate| {
                    checked += 1;
                    done_at_length += 1;
                    if checked % 4096 == 0 {
                        progress(Progress { length, checked, at_length, done_at_length });
                    }
                    match replay(candidate, &mut |_| {}) {
                        Err(d) if want.is_none_or(|w| d.signature() == w) => ControlFlow::Break(d),
                        _ => ControlFlow::Continue(()),
                    }
                });
                if let ControlFlow::Break(found) = flow {
                    return Outcome { found: Some(found), checked };
                }
            }
        }
        progress(Progress { length, checked, at_length, done_at_length });
    }
    Outcome { found: None, checked }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_matches_the_enumeration() {
        for ttl in TTLS {
            for length in 0..=3 {
                let mut case = Case { capacity: 1, ttl, start: 0, ops: Vec::new() };
                let mut seen = 0;
                let _ = visit_cases::<()>(&mut case, length, 0, &mut |_| {
                    seen += 1;
                    ControlFlow::Continue(())
                });
                assert_eq!(seen, count(length, ttl), "length {length}, ttl {ttl:?}");
            }
        }
    }
}
