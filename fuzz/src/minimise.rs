//! The minimiser: shrinks a failing case at the level of operations.
//!
//! `cargo fuzz tmin` shrinks bytes, which neither knows what an operation is nor stays on one
//! failure. This works on the decoded case and keeps a candidate only if it fails **the same
//! way**: the same check, at the same kind of operation ([`Signature`]). Passes, repeated until
//! none makes progress:
//!
//! 1. cut everything after the failing step;
//! 2. drop chunks of operations, halving the chunk size down to single operations;
//! 3. simplify each operation: smaller keys, simpler kinds (`Push` to `Put`, `GetMut` and
//!    `TryGetOrInsertErr` to `Get`, `GetOrInsert` to `Get` or `Put`, `PeekMut` to `Peek`),
//!    smaller or boundary time steps, smaller capacities, sparser retain masks, shorter fuses,
//!    a `Hash` fuse for a `Drop` one;
//! 4. simplify the configuration: a smaller capacity, no ttl or a smaller one, time from 0;
//! 5. fold a `Resize` into the capacity the case starts with, one operation fewer;
//! 6. drop an operation and take one from the capacity: a write that only filled the cache;
//! 7. drop an operation and change another to make up for it: the dropped time step added to
//!    another, a shorter fuse (`HashPanics`, `DropPanics`), another key for a read (the
//!    dropped one only set up an order that the read shows), a `retain` that keeps one key
//!    more or one fewer;
//! 8. rename keys in order of first use, so the result reads `0, 1, 2`.
//!
//! Every candidate stays encodable, so the result can be written to the corpus.

use crate::driver::{Divergence, Signature, replay};
use crate::generate::FUSE_LENGTHS;
use crate::ops::{Case, KEYS, Op};

/// A shrunk failing case.
#[derive(Debug)]
pub struct Shrunk {
    /// The smallest case found that fails the same way as the input.
    pub case: Case,
    /// How it fails.
    pub divergence: Box<Divergence>,
    /// How many candidates were replayed.
    pub replays: usize,
}

struct Shrinker<'a> {
    /// Replays a case: the driver, or in tests a stand-in with a bug of its own.
    run: &'a mut dyn FnMut(&Case) -> Result<(), Box<Divergence>>,
    target: Signature,
    best: Case,
    divergence: Box<Divergence>,
    replays: usize,
}

impl Shrinker<'_> {
    /// Keeps `candidate` if it fails the same way and can be written to the corpus.
    fn try_candidate(&mut self, candidate: Case) -> bool {
        if candidate == self.best || candidate.to_bytes().is_err() {
            return false;
        }
        self.replays += 1;
        match (self.run)(&candidate) {
            Err(divergence) if divergence.signature() == self.target => {
                self.best = candidate;
                self.divergence = divergence;
                true
            }
            _ => false,
        }
    }

    fn truncate(&mut self) -> bool {
        let mut candidate = self.best.clone();
        candidate.ops.truncate(self.divergence.step);
        self.try_candidate(candidate)
    }

    fn drop_chunks(&mut self) -> bool {
        let mut progress = false;
        let mut size = self.best.ops.len().div_ceil(2);
        while size > 0 {
            let mut start = 0;
            while start < self.best.ops.len() {
                let mut candidate = self.best.clone();
                let end = (start + size).min(candidate.ops.len());
                candidate.ops.drain(start..end);
                // On success the next chunk has moved into `start`; try there again.
                if self.try_candidate(candidate) {
                    progress = true;
                } else {
                    start += size;
                }
            }
            size /= 2;
        }
        progress
    }

    fn simplify_ops(&mut self) -> bool {
        let mut progress = false;
        for i in 0..self.best.ops.len() {
            for simpler in simpler_ops(self.best.ops[i], self.best.ttl) {
                let mut candidate = self.best.clone();
                candidate.ops[i] = simpler;
                if self.try_candidate(candidate) {
                    progress = true;
                    break;
                }
            }
        }
        progress
    }

    fn simplify_config(&mut self) -> bool {
        let Case { capacity, ttl, start, .. } = self.best;
        let mut candidates: Vec<Case> = Vec::new();
        let with = |f: &dyn Fn(&mut Case)| {
            let mut c = self.best.clone();
            f(&mut c);
            c
        };
        for smaller in smaller_sizes(capacity) {
            candidates.push(with(&|c| c.capacity = smaller));
        }
        if ttl.is_some() {
            candidates.push(with(&|c| c.ttl = None));
        }
        for smaller in ttl.map(smaller_ticks).unwrap_or_default() {
            // Time steps on the old ttl's boundaries move to the new ttl's, or the case would
            // usually stop failing.
            candidates.push(with(&|c| {
                let old = c.ttl.unwrap_or(0);
                c.ttl = Some(smaller);
                for op in &mut c.ops {
                    if let Op::Advance(t) = op {
                        *t = match *t {
                            t if t == old => smaller,
                            t if t == old.saturating_add(1) => smaller.saturating_add(1),
                            t if t == old.saturating_sub(1) => smaller.saturating_sub(1),
                            t => t,
                        };
                    }
                }
            }));
            candidates.push(with(&|c| c.ttl = Some(smaller)));
        }
        if start != 0 {
            candidates.push(with(&|c| c.start = 0));
        }
        // Each candidate is built from the same starting point: stop at the first that works.
        candidates.into_iter().any(|c| self.try_candidate(c))
    }

    /// Starting at the capacity a `Resize` sets often fails the same way without it: the
    /// other passes, which only shrink the capacity, cannot find that.
    fn fold_resizes(&mut self) -> bool {
        self.at_each_op(|best, i| {
            let Op::Resize(capacity) = best.ops[i] else { return Vec::new() };
            let mut candidate = best.clone();
            candidate.ops.remove(i);
            candidate.capacity = capacity;
            vec![candidate]
        })
    }

    /// A write that only filled the cache up to where the failure needs it full: without it,
    /// one entry less fills the cache. The other passes change one of the two at a time.
    fn drop_with_smaller_capacity(&mut self) -> bool {
        self.at_each_op(|best, i| {
            let Some(smaller) = best.capacity.checked_sub(1) else { return Vec::new() };
            let mut candidate = best.clone();
            candidate.ops.remove(i);
            candidate.capacity = smaller;
            vec![candidate]
        })
    }

    /// Drops an operation and changes another one to make up for it, where each change alone
    /// would stop the failure: see [`adjusted`].
    fn drop_and_adjust(&mut self) -> bool {
        self.at_each_op(|best, i| {
            let dropped = best.ops[i];
            (0..best.ops.len())
                .filter(|&j| j != i)
                .flat_map(|j| adjusted(best.ops[j], dropped).into_iter().map(move |op| (j, op)))
                .map(|(j, op)| {
                    let mut candidate = best.clone();
                    candidate.ops[j] = op;
                    candidate.ops.remove(i);
                    candidate
                })
                .collect()
        })
    }

    /// For each operation in turn, keeps the first of `candidates(best, i)` that fails the same
    /// way; after a success, tries the same position again (it holds the next operation now, if
    /// the candidate dropped one).
    fn at_each_op(&mut self, candidates: impl Fn(&Case, usize) -> Vec<Case>) -> bool {
        let mut progress = false;
        let mut i = 0;
        while i < self.best.ops.len() {
            if candidates(&self.best, i).into_iter().any(|c| self.try_candidate(c)) {
                progress = true;
            } else {
                i += 1;
            }
        }
        progress
    }

    fn rename_keys(&mut self) -> bool {
        let mut order: Vec<u8> = Vec::new();
        for key in self.best.ops.iter().filter_map(|op| op.key()) {
            if !order.contains(&key) {
                order.push(key);
            }
        }
        let rename = |key: u8| order.iter().position(|&k| k == key).map_or(key, |p| p as u8);
        let mut candidate = self.best.clone();
        for op in &mut candidate.ops {
            *op = op.with_key(op.key().map_or(0, rename));
            if let Op::Retain(mask) = *op {
                // Bits of keys no operation names do not matter: drop them.
                let kept = (0..KEYS).filter(|&k| u32::from(mask) >> k & 1 == 1 && order.contains(&k));
                *op = Op::Retain(kept.map(|k| 1 << rename(k)).sum());
            }
        }
        self.try_candidate(candidate)
    }
}

/// Smaller capacities worth trying, smallest first (all of them: capacities are small).
fn smaller_sizes(size: usize) -> Vec<usize> {
    (0..size.min(9)).collect()
}

/// Smaller time steps worth trying, smallest first.
fn smaller_ticks(ticks: u64) -> Vec<u64> {
    let mut all: Vec<u64> = if ticks <= 256 {
        (0..ticks).collect()
    } else {
        [0, 1, 2, ticks / 2, ticks - 1].into_iter().chain(0..=255).collect()
    };
    all.sort_unstable();
    all.dedup();
    all
}

/// Simpler versions of `op`, simplest first.
fn simpler_ops(op: Op, ttl: Option<u64>) -> Vec<Op> {
    let mut all: Vec<Op> = match op {
        Op::Push(k) => vec![Op::Put(k)],
        // A failing `try_get_or_insert_with` is a `get` but for what a miss answers.
        Op::GetMut(k) | Op::TryGetOrInsertErr(k) => vec![Op::Get(k)],
        Op::GetOrInsert(k) => vec![Op::Get(k), Op::Put(k)],
        Op::PeekMut(k) => vec![Op::Peek(k)],
        Op::IterMut(_) => vec![Op::Iter],
        Op::IntoIter(n) => (0..n).map(Op::IntoIter).collect(),
        Op::Resize(c) => smaller_sizes(c).into_iter().map(Op::Resize).collect(),
        Op::Retain(mask) => {
            let bits = (0..16).filter(|b| mask >> b & 1 == 1);
            bits.map(|b| Op::Retain(mask & !(1 << b))).collect()
        }
        Op::HashPanics(n) => (1..n).map(Op::HashPanics).collect(),
        // A panicking `Hash` counts as simpler than a panicking `Drop`: the call it stops has
        // changed nothing. Where both fail the same way, the minimiser can then move on from a
        // `Hash` fuse, as it could not from the `Drop` one.
        Op::DropPanics(n) => {
            (1..n).map(Op::DropPanics).chain((1..=FUSE_LENGTHS).map(Op::HashPanics)).collect()
        }
        Op::Advance(t) => {
            // The ttl's boundaries first, where the interesting failures are.
            let ttl = ttl.unwrap_or(0);
            let boundaries =
                [ttl.saturating_sub(1), ttl, ttl.saturating_add(1)].into_iter().filter(|&b| b < t);
            boundaries.chain(smaller_ticks(t)).map(Op::Advance).collect()
        }
        _ => Vec::new(),
    };
    if let Some(key) = op.key() {
        all.extend((0..key).map(|k| op.with_key(k)));
    }
    all
}

/// What `other` can become when `dropped` goes:
/// - a time step takes a dropped one's ticks too (two in a row merge);
/// - a fuse gets shorter: the dropped operation's hashes or drops no longer count towards the
///   planted panic;
/// - a read takes another key: in `Put(0), Put(1), Get(0), Peek(1)` (a `Peek` that promotes),
///   the `Get` only sets up the order that `Peek(0)` shows without it;
/// - a `retain` keeps one key more or one fewer: in `Put(0), HashPanics(4), Put(1), Get(0),
///   Retain(0b0)` the `Get` only sets up the order in which removing both keys reaches the
///   panicking hash, which `Retain(0b10)`, removing key 0 alone, reaches without it.
fn adjusted(other: Op, dropped: Op) -> Vec<Op> {
    match (other, dropped) {
        (Op::Advance(t), Op::Advance(dropped)) => vec![Op::Advance(t.saturating_add(dropped))],
        (Op::HashPanics(_) | Op::DropPanics(_), _) => simpler_ops(other, None),
        (Op::Retain(mask), _) => (0..KEYS).map(|k| Op::Retain(mask ^ 1 << k)).collect(),
        _ => other
            .key()
            .map(|key| (0..KEYS).filter(|&k| k != key).map(|k| other.with_key(k)).collect())
            .unwrap_or_default(),
    }
}

/// Shrinks a failing `case`; `None` if it does not fail.
#[must_use]
pub fn minimise(case: &Case) -> Option<Shrunk> {
    minimise_with(case, &mut |case| replay(case, &mut |_| {}))
}

fn minimise_with(case: &Case, run: &mut dyn FnMut(&Case) -> Result<(), Box<Divergence>>) -> Option<Shrunk> {
    let divergence = run(case).err()?;
    let mut shrinker =
        Shrinker { run, target: divergence.signature(), best: case.clone(), divergence, replays: 1 };
    loop {
        // Cheap passes that remove the most come first; repeat until nothing helps.
        let progress = shrinker.truncate()
            | shrinker.drop_chunks()
            | shrinker.simplify_ops()
            | shrinker.simplify_config()
            | shrinker.fold_resizes()
            | shrinker.drop_with_smaller_capacity()
            | shrinker.drop_and_adjust()
            | shrinker.rename_keys();
        if !progress {
            break;
        }
    }
    Some(Shrunk { case: shrinker.best, divergence: shrinker.divergence, replays: shrinker.replays })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::Check;
    use crate::ops::Kind;
    use crate::ops::Op::*;

    fn diverged(
        case: &Case,
        step: usize,
        op: Op,
        check: Check,
        cache: String,
        model: String,
    ) -> Box<Divergence> {
        Box::new(Divergence { step, op: Some(op), check, cache, model, case: case.clone() })
    }

    /// Replays `Put`, `Get` and `Peek` (and nothing else) on two tiny LRU lists, one of whose
    /// `Peek`s promotes, and fails where their orders first differ: a planted bug the
    /// minimiser can be tested on without planting it in the cache.
    fn peek_promotes(case: &Case) -> Result<(), Box<Divergence>> {
        let (mut right, mut wrong): (Vec<u8>, Vec<u8>) = (Vec::new(), Vec::new());
        for (step, &op) in (1..).zip(&case.ops) {
            for (order, promotes) in [(&mut right, false), (&mut wrong, true)] {
                let found = op.key().and_then(|key| order.iter().position(|&k| k == key));
                match (op, found) {
                    (Put(key), None) => {
                        order.truncate(case.capacity.saturating_sub(1));
                        order.insert(0, key);
                    }
                    (Put(_) | Get(_), Some(at)) => order[..=at].rotate_right(1),
                    (Peek(_), Some(at)) if promotes => order[..=at].rotate_right(1),
                    _ => {}
                }
            }
            if right != wrong {
                return Err(diverged(
                    case,
                    step,
                    op,
                    Check::Entries,
                    format!("{wrong:?}"),
                    format!("{right:?}"),
                ));
            }
        }
        Ok(())
    }

    /// Replays `Put`, `Advance` and `Len` with a `len` that counts expired entries too, and fails
    /// at the first `Len` where that differs from the live count.
    fn len_counts_expired(case: &Case) -> Result<(), Box<Divergence>> {
        let (mut now, mut deadlines) = (case.start, Vec::new());
        for (step, &op) in (1..).zip(&case.ops) {
            match op {
                Put(_) => {
                    let deadline = case.ttl.map_or(u64::MAX, |ttl| now.saturating_add(ttl));
                    // Dead on arrival, or no room at all: nothing is stored.
                    if now < deadline && case.capacity > 0 {
                        deadlines.truncate(case.capacity - 1);
                        deadlines.push(deadline);
                    }
                }
                Advance(ticks) => now = now.saturating_add(ticks),
                Len => {
                    let live = deadlines.iter().filter(|&&deadline| now < deadline).count();
                    if live != deadlines.len() {
                        let (cache, model) = (deadlines.len().to_string(), live.to_string());
                        return Err(diverged(case, step, op, Check::Len, cache, model));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn case(capacity: usize, ttl: Option<u64>, start: u64, ops: Vec<Op>) -> Case {
        Case { capacity, ttl, start, ops }
    }

    #[test]
    fn a_case_that_passes_has_nothing_to_minimise() {
        let passes = case(2, None, 0, vec![Put(0), Put(1), Peek(1), Get(0)]);
        assert!(minimise_with(&passes, &mut peek_promotes).is_none());
    }

    #[test]
    fn a_read_that_only_set_up_the_order_goes_with_the_key_it_fixed() {
        // Neither dropping the `Get` nor re-keying the `Peek` alone still fails.
        let found = case(2, None, 0, vec![Put(0), Put(1), Get(0), Peek(1)]);
        let shrunk = minimise_with(&found, &mut peek_promotes).expect("the case fails");
        assert_eq!(shrunk.case, case(2, None, 0, vec![Put(0), Put(1), Peek(0)]));
        assert_eq!(shrunk.divergence.signature(), (Check::Entries, Some(Kind::Peek)));
    }

    #[test]
    fn noise_goes_and_what_is_left_reads_from_key_zero() {
        let found = case(
            5,
            Some(40),
            7,
            vec![Len, Put(7), Advance(3), Put(4), Get(9), Put(7), Stats, Get(7), Peek(4), Put(2), Peek(4)],
        );
        let shrunk = minimise_with(&found, &mut peek_promotes).expect("the case fails");
        assert_eq!(shrunk.case, case(2, None, 0, vec![Put(0), Put(1), Peek(0)]));
        assert!(shrunk.replays > 1);
    }

    #[test]
    fn a_retain_may_keep_one_key_more_or_fewer_when_another_operation_goes() {
        // From `moved-slot-hashed-late`'s hunt: `Put(0), HashPanics(4), Put(1), Get(0),
        // Retain(0b0)` shrinks to 4 operations only as `Retain(0b10)` without the `Get`.
        let retains = adjusted(Retain(0b0), Get(0));
        assert!(retains.contains(&Retain(0b10)) && !retains.contains(&Retain(0b0)), "{retains:?}");
        assert!(adjusted(Retain(0b101), Put(3)).contains(&Retain(0b100)));
        assert_eq!(retains.len(), usize::from(KEYS));
    }

    #[test]
    fn a_dropped_time_step_is_added_to_the_next() {
        // Dropping the first `Advance` alone makes the entry live at the `Len`; so does
        // shortening the other. Moving the tick from one to the other keeps the failure.
        let found = case(1, Some(u64::MAX), 0, vec![Advance(1), Put(0), Advance(u64::MAX - 1), Len]);
        let shrunk = minimise_with(&found, &mut len_counts_expired).expect("the case fails");
        assert_eq!(shrunk.case.ops.len(), 3, "{:?}", shrunk.case);
    }
}
