//! Which entries expire next, for a cache with a ttl.
//!
//! Each entry's deadline sits in a `Vec<u64>` beside its slot. Keeping every entry in deadline
//! order as well, in an expiry list, would cost as much again (two `u32` links). Instead this
//! lists only the entries that expire soonest: after a pass over the deadlines, a sorted list of
//! records, one for every entry whose deadline comes before the `horizon`, about one entry in
//! eight. A write never needs a record: with one ttl and a clock that does not go back, its
//! deadline is at or after the horizon. When the clock reaches the horizon, another pass lists
//! the next entries; that pass is paid for by the listed ones, each of which has expired or been
//! written or removed since the last.
//!
//! A record names a slot and when to look at it: its entry's deadline. Records are never taken
//! out when their entry changes. An overwrite or an eviction gives the slot a later deadline, a
//! removal moves another entry into the slot (or none), and when the record's time comes, the
//! slot is looked at all the same: whatever entry is there is dropped if it has expired by then,
//! and left alone if not. A listed entry that moves to another slot gets a new record there.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::mem;

use crate::invariants::with_scratch;

/// A pass lists at most one entry in four, and aims for about one in eight: a record takes 8
/// bytes, so one byte per entry, and a pass reads about eight deadlines per record it lists.
const LISTED_AT_MOST: usize = 4;

/// ... or this many: few enough that the fuzzer's caches (ten keys at most) list only some of
/// their entries, so that what happens at the horizon is tested.
const LISTED_AT_LEAST: usize = 2;

/// A pass keeps a buffer of records this large or smaller for the next, instead of fitting it
/// to what it lists: 512 bytes at most.
const KEPT_ROOM: usize = 64;

/// A record: the slot in the low 32 bits, and above them when its entry expires, as ticks
/// after the `base` of the pass that listed it (0: at or before it). Records sort by deadline.
type Record = u64;

/// The soonest deadlines and their slots; see the [module documentation](self).
#[derive(Clone, Debug)]
pub(crate) struct Upcoming {
    /// The records listed by the last pass, by deadline; those before `next` are used up.
    listed: Vec<Record>,
    next: usize,
    /// Records of listed entries that moved to another slot since the last pass, soonest on top.
    moved: BinaryHeap<Reverse<Record>>,
    /// The time the last pass was made at: every record's deadline is after it by less than
    /// 2^32 ticks, or was at or before it.
    base: u64,
    /// Every entry whose deadline is before this has a record naming its slot and deadline.
    horizon: u64,
}

impl Upcoming {
    /// Lists nothing: no entry may expire before `horizon`, which is `u64::MAX` for a cache
    /// without a ttl and 0 for one that must pass over its deadlines before it knows.
    pub(crate) const fn new(horizon: u64) -> Self {
        Self { listed: Vec::new(), next: 0, moved: BinaryHeap::new(), base: 0, horizon }
    }

    /// Every entry whose deadline is before this has a record.
    #[inline]
    pub(crate) fn horizon(&self) -> u64 {
        self.horizon
    }

    /// The soonest record, stale or not, as the time to look at its slot, and the slot.
    #[inline]
    pub(crate) fn first(&self) -> Option<(u64, u32)> {
        self.first_record().map(|record| (self.base + (record >> 32), record as u32))
    }

    #[inline]
    fn first_record(&self) -> Option<Record> {
        if self.listed_first() {
            self.listed.get(self.next).copied()
        } else {
            self.moved.peek().map(|&Reverse(moved)| moved)
        }
    }

    /// Uses up the record [`first`](Self::first) returns.
    #[inline]
    pub(crate) fn pop_first(&mut self) {
        if self.listed_first() {
            self.next += 1;
        } else {
            self.moved.pop();
        }
    }

    /// Whether the soonest record is the next listed one rather than a moved one (`false` when
    /// there is none): the one choice that `first` and `pop_first` must agree on.
    #[inline]
    fn listed_first(&self) -> bool {
        match (self.listed.get(self.next), self.moved.peek()) {
            (Some(listed), Some(Reverse(moved))) => listed <= moved,
            (listed, None) => listed.is_some(),
            (None, Some(_)) => false,
        }
    }

    /// The earliest time at which an entry may have expired: the soonest record's, or the
    /// horizon, where the entries without records begin.
    #[inline]
    pub(crate) fn next_check(&self) -> u64 {
        self.first().map_or(self.horizon, |(deadline, _)| deadline.min(self.horizon))
    }

    /// The entry expiring at `deadline` moved into slot `to`: if it is listed, it gets a record
    /// there. If more have moved than were listed, the records are given up instead and the
    /// next call passes over the deadlines again, so that they take no more memory than that:
    /// then it returns true, as `next_check` has come down to 0. (A new record never brings it
    /// down otherwise: the entry's old record is no later.)
    #[inline]
    pub(crate) fn moved(&mut self, deadline: u64, to: u32) -> bool {
        if deadline >= self.horizon {
            return false;
        }
        self.moved.push(Reverse(record(deadline.saturating_sub(self.base), to)));
        if self.moved.len() <= self.listed.len().max(LISTED_AT_LEAST) {
            return false;
        }
        *self = Self::new(0);
        true
    }

    /// At time `now`, lists the soonest of `deadlines` (slot `i` expires at `deadlines[i]`),
    /// none at or after `latest`, the earliest deadline a write can give from now on. The
    /// horizon becomes the earliest deadline left out.
    pub(crate) fn rebuild(&mut self, deadlines: &[u64], now: u64, latest: u64) {
        const CHUNK: usize = 16;
        let most = (deadlines.len() / LISTED_AT_MOST).max(LISTED_AT_LEAST);
        // A record holds a deadline up to 2^32 - 1 ticks after now.
        let latest = latest.min(now.saturating_add(1 << 32));
        // Every deadline before `cut` is in `found`, and `cut` only comes down: if `found`
        // holds more than `most`, it keeps the soonest half and `cut` becomes the earliest of
        // the rest. A first guess from a sample keeps that rare.
        let mut cut = guess_cut(deadlines, most).min(latest);
        // The last pass's buffer, grown if it must: a small cache with a short ttl passes often.
        let mut found = mem::take(&mut self.listed);
        found.clear();
        found.reserve(most + CHUNK);
        let chunks = deadlines.chunks_exact(CHUNK);
        // The last few, padded with deadlines that are never before the cut.
        let mut rest = [u64::MAX; CHUNK];
        rest[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        let full = chunks.map(|chunk| <&[u64; CHUNK]>::try_from(chunk).unwrap_or(&[u64::MAX; CHUNK]));
        for (chunk, first) in full.chain([&rest]).zip((0..).step_by(CHUNK)) {
            // Which of the chunk are before the cut, one bit each, found without branching on
            // the data: only about one in eight is.
            let mut before = 0_u32;
            for (j, &deadline) in chunk.iter().enumerate() {
                before |= u32::from(deadline < cut) << j;
            }
            while before != 0 {
                let j = before.trailing_zeros();
                found.push(record(chunk[j as usize].saturating_sub(now), first + j));
                before &= before - 1;
            }
            if found.len() > most {
                let (soonest, kept) = keep_soonest(&mut found, most / 2);
                found.truncate(kept);
                cut = now + soonest;
            }
        }
        sort_by_deadline(&mut found, cut.saturating_sub(now));
        // A large cache keeps only the room its records take (a byte per entry, not the two a
        // pass may need); a small one keeps its buffer for the next pass.
        if found.capacity() > KEPT_ROOM {
            found.shrink_to_fit();
        }
        *self = Self { listed: found, next: 0, moved: BinaryHeap::new(), base: now, horizon: cut };
    }

    /// Checks that the records left are in deadline order and before the horizon, that every
    /// entry expiring before the horizon has one with its deadline, and that they take no more
    /// room than allowed.
    pub(crate) fn check(&self, deadlines: &[u64]) -> Result<(), String> {
        let left = &self.listed[self.next.min(self.listed.len())..];
        if let Some((a, b)) = left.iter().zip(left.iter().skip(1)).find(|(a, b)| a > b) {
            return Err(format!("the records {a:#x} and {b:#x} are out of order"));
        }
        if self.moved.len() > self.listed.len().max(LISTED_AT_LEAST) {
            return Err(format!("{} moved records for {} listed", self.moved.len(), self.listed.len()));
        }
        let records = || left.iter().chain(self.moved.iter().map(|Reverse(record)| record));
        let decode = |&record: &Record| (self.base + (record >> 32), record as u32);
        if let Some((deadline, slot)) = records().map(decode).find(|&(deadline, _)| deadline >= self.horizon)
        {
            return Err(format!(
                "slot {slot} is listed at {deadline}, at or after the horizon {}",
                self.horizon
            ));
        }
        let unrecorded = with_scratch(deadlines.len(), |recorded: &mut [bool]| {
            for (deadline, slot) in records().map(decode) {
                if deadlines.get(slot as usize).is_some_and(|&actual| actual.max(self.base) == deadline) {
                    recorded[slot as usize] = true;
                }
            }
            (0..).zip(deadlines).find(|&(slot, &deadline)| deadline < self.horizon && !recorded[slot])
        });
        if let Some((slot, deadline)) = unrecorded {
            return Err(format!(
                "slot {slot} expires at {deadline}, before the horizon {}, but has no record",
                self.horizon
            ));
        }
        Ok(())
    }
}

/// The record of slot `slot`, which expires `after` ticks after the base (`after < 2^32`).
#[inline]
fn record(after: u64, slot: u32) -> Record {
    (after << 32) | u64::from(slot)
}

/// Of `found`, which holds more than `room` records, keeps at most `room` of the soonest: moves
/// them to the front, and returns how many ticks after the base the earliest of the rest
/// expires, and how many it kept. Ties with that one go too, so that every record kept is
/// sooner.
fn keep_soonest(found: &mut [Record], room: usize) -> (u64, usize) {
    let (_, pivot, _) = found.select_nth_unstable(room);
    let cut = *pivot >> 32;
    let mut kept = 0;
    for i in 0..room {
        if found[i] >> 32 < cut {
            found.swap(kept, i);
            kept += 1;
        }
    }
    (cut, kept)
}

/// Sorts `records`, whose deadlines are less than `span` ticks after the base: into buckets by
/// deadline first, one or two records to a bucket, then by insertion, which only moves records
/// within a bucket. That takes a few steps per record where a comparison sort takes one per
/// halving; should the deadlines crowd into a few buckets, a comparison sort finishes instead.
fn sort_by_deadline(records: &mut Vec<Record>, span: u64) {
    const CROWDED: u32 = 16;
    if records.len() <= 32 {
        records.sort_unstable();
        return;
    }
    // Buckets `2^shift` ticks wide, at most as many as records.
    let bucket_bits = records.len().ilog2();
    let span_bits = 64 - span.saturating_sub(1).leading_zeros();
    let shift = 32 + span_bits.saturating_sub(bucket_bits);
    let bucket = |record: Record| (record >> shift) as usize;
    let mut ends = vec![0_u32; (1 << bucket_bits) + 1];
    for &record in records.iter() {
        ends[bucket(record) + 1] += 1;
    }
    let mut crowded = false;
    for i in 1..ends.len() {
        crowded |= ends[i] > CROWDED;
        ends[i] += ends[i - 1];
    }
    // `ends[b]` is where bucket `b` starts; filling it moves that to where it ends.
    let mut sorted = vec![0; records.len()];
    for &record in records.iter() {
        let at = &mut ends[bucket(record)];
        sorted[*at as usize] = record;
        *at += 1;
    }
    if crowded {
        sorted.sort_unstable();
    } else {
        for i in 1..sorted.len() {
            let record = sorted[i];
            // Mostly in order already: a record moves only past the few of its bucket.
            if sorted[i - 1] > record {
                let mut j = i;
                while j > 0 && sorted[j - 1] > record {
                    sorted[j] = sorted[j - 1];
                    j -= 1;
                }
                sorted[j] = record;
            }
        }
    }
    *records = sorted;
}

/// A deadline about half of `most` of `deadlines` are before, read off a sample of them: where
/// `rebuild` starts its cut. Any value would do; a good one saves selecting among the records.
fn guess_cut(deadlines: &[u64], most: usize) -> u64 {
    const SAMPLE: usize = 64;
    if deadlines.len() <= most {
        return u64::MAX;
    }
    let step = deadlines.len().div_ceil(SAMPLE);
    let mut sample: Vec<u64> = deadlines.iter().step_by(step).copied().collect();
    // `most` is a quarter of the deadlines (or 2 of fewer than 12): aim for half of it. The rank
    // is then at most an eighth of the sample, or 1 of 3 or more; the `min` only makes sure.
    let rank = (most * sample.len() / deadlines.len() / 2).min(sample.len() - 1);
    *sample.select_nth_unstable(rank).1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deadlines from a fixed-seed generator over few distinct values, so that many are equal.
    fn deadlines(len: usize, spread: u64) -> Vec<u64> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        (0..len).map(|_| 100 + xorshift(&mut state) % spread).collect()
    }

    /// The next number of a fixed-seed xorshift generator (Marsaglia's 13, 7, 17).
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// An `Upcoming` listing `records`, `(deadline, slot)` pairs in deadline order, made at 0.
    fn listing(records: &[(u64, u32)], horizon: u64) -> Upcoming {
        let listed = records.iter().map(|&(deadline, slot)| record(deadline, slot)).collect();
        Upcoming { listed, next: 0, moved: BinaryHeap::new(), base: 0, horizon }
    }

    #[test]
    fn a_rebuild_lists_exactly_the_soonest_deadlines() {
        for (len, spread, latest) in
            [(0, 1, 50), (1, 1, 50), (5, 3, 200), (100, 7, 200), (1000, 50, 120), (5000, 1000, 2000)]
        {
            let deadlines = deadlines(len, spread);
            let mut upcoming = Upcoming::new(0);
            upcoming.rebuild(&deadlines, 0, latest);
            assert_eq!(upcoming.check(&deadlines), Ok(()), "{len} deadlines over {spread}");
            let horizon = upcoming.horizon();
            assert!(horizon <= latest);
            // At most one in four, and exactly the entries before the first deadline left out.
            let listed = upcoming.listed.len();
            assert!(listed <= (len / LISTED_AT_MOST).max(LISTED_AT_LEAST), "{len}: {listed} listed");
            assert_eq!(listed, deadlines.iter().filter(|&&d| d < horizon).count());
            assert!(horizon == latest || deadlines.contains(&horizon));
        }
    }

    /// `len` distinct deadlines from 100 on, in a fixed-seed shuffled order.
    fn shuffled(len: u64) -> Vec<u64> {
        let mut deadlines: Vec<u64> = (100..100 + len).collect();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for i in (1..deadlines.len()).rev() {
            deadlines.swap(i, (xorshift(&mut state) % (i as u64 + 1)) as usize);
        }
        deadlines
    }

    /// The records left, as `(deadline, slot)` pairs, in order.
    fn left(upcoming: &Upcoming) -> Vec<(u64, u32)> {
        let mut copy = upcoming.clone();
        std::iter::from_fn(|| copy.first().inspect(|_| copy.pop_first())).collect()
    }

    #[test]
    fn a_pass_lists_about_one_entry_in_eight_in_deadline_order() {
        for len in [40, 1000, 4096] {
            let deadlines = shuffled(len);
            let mut upcoming = Upcoming::new(0);
            upcoming.rebuild(&deadlines, 0, u64::MAX);
            assert_eq!(upcoming.check(&deadlines), Ok(()));
            let listed = left(&upcoming);
            // The soonest, every one of them before the horizon, sorted.
            let expected: Vec<(u64, u32)> = (0..listed.len() as u64)
                .map(|i| (100 + i, deadlines.iter().position(|&d| d == 100 + i).unwrap() as u32))
                .collect();
            assert_eq!(listed, expected, "{len} deadlines");
            assert_eq!(upcoming.horizon(), 100 + listed.len() as u64);
            // Aimed at one in eight, never more than one in four.
            let n = len as usize;
            assert!(
                n / 32 <= listed.len() && listed.len() <= n / LISTED_AT_MOST,
                "{len}: {} listed",
                listed.len()
            );
        }
    }

    #[test]
    fn a_pass_fits_a_large_caches_records_and_keeps_a_small_ones_buffer() {
        let mut upcoming = Upcoming::new(0);
        let large = shuffled(4096);
        upcoming.rebuild(&large, 0, u64::MAX);
        assert_eq!(upcoming.listed.capacity(), upcoming.listed.len());
        // The first pass over a small cache fits the large buffer it was left; the second
        // makes the room a pass needs, and from then on that buffer is kept, room and all.
        let small = shuffled(40);
        upcoming.rebuild(&small, 0, u64::MAX);
        upcoming.rebuild(&small, 0, u64::MAX);
        let buffer = (upcoming.listed.as_ptr(), upcoming.listed.capacity());
        assert!(upcoming.listed.len() < buffer.1 && buffer.1 <= KEPT_ROOM, "{buffer:?}");
        upcoming.rebuild(&small, 0, u64::MAX);
        let again = (upcoming.listed.as_ptr(), upcoming.listed.capacity());
        assert_eq!(again, buffer, "a small cache's next pass allocates again");
        assert_eq!(upcoming.check(&small), Ok(()));
    }

    #[test]
    fn keeping_the_soonest_drops_the_ties_with_the_cut() {
        let mut found: Vec<Record> =
            [5, 3, 3, 3, 9, 1].iter().zip(0..).map(|(&d, slot)| record(d, slot)).collect();
        // The third soonest is 3, and so are the second and the fourth: only the 1 is kept.
        assert_eq!(keep_soonest(&mut found, 2), (3, 1));
        assert_eq!(found[0], record(1, 5));
    }

    #[test]
    fn a_misleading_sample_still_lists_at_most_a_quarter() {
        // The sample reads every sixteenth deadline: all late ones, so the first guess of the cut
        // lets every other deadline in, and the pass must keep selecting the soonest. Most
        // deadlines come twice, so that the cut ties with others.
        let deadlines: Vec<u64> = shuffled(1024)
            .into_iter()
            .enumerate()
            .map(|(i, d)| if i % 16 == 0 { d + 10_000 } else { d / 2 })
            .collect();
        let mut upcoming = Upcoming::new(0);
        upcoming.rebuild(&deadlines, 0, u64::MAX);
        assert_eq!(upcoming.check(&deadlines), Ok(()));
        let listed = left(&upcoming);
        assert!(
            1024 / 32 <= listed.len() && listed.len() <= 1024 / LISTED_AT_MOST,
            "{} listed",
            listed.len()
        );
        assert!(listed.windows(2).all(|pair| pair[0].0 <= pair[1].0));
        let horizon = upcoming.horizon();
        assert_eq!(listed.len(), deadlines.iter().filter(|&&d| d < horizon).count());
        assert!(deadlines.contains(&horizon));
    }

    #[test]
    fn a_rebuild_lists_the_expired_first_and_nothing_past_its_reach() {
        let mut upcoming = Upcoming::new(0);
        // At 10, slot 0 has expired, and slot 1 expires too far off for a record.
        upcoming.rebuild(&[7, 1 << 40], 10, u64::MAX);
        assert_eq!((upcoming.first(), upcoming.horizon()), (Some((10, 0)), 10 + (1 << 32)));
        assert_eq!(upcoming.check(&[7, 1 << 40]), Ok(()));
        upcoming.pop_first();
        assert_eq!(upcoming.first(), None);
    }

    #[test]
    fn the_soonest_record_comes_first_whether_listed_or_moved() {
        let mut upcoming = listing(&[(10, 1), (11, 3)], 20);
        // The entry at slot 3 moves to slot 0: a record there, sooner than slot 1's among
        // equal deadlines. An entry that is not listed gets none.
        upcoming.moved(10, 0);
        upcoming.moved(20, 2);
        assert_eq!(upcoming.first(), Some((10, 0)));
        upcoming.pop_first();
        assert_eq!(upcoming.first(), Some((10, 1)));
        upcoming.pop_first();
        assert_eq!((upcoming.first(), upcoming.next_check()), (Some((11, 3)), 11));
        upcoming.pop_first();
        assert_eq!((upcoming.first(), upcoming.next_check()), (None, 20));
        upcoming.pop_first();
        assert_eq!(upcoming.next_check(), 20);
    }

    #[test]
    fn a_listed_record_sooner_than_a_moved_one_goes_first() {
        let mut upcoming = listing(&[(10, 1), (12, 3)], 20);
        upcoming.moved(11, 0);
        assert_eq!(left(&upcoming), [(10, 1), (11, 0), (12, 3)]);
    }

    #[test]
    fn too_many_moves_give_the_records_up() {
        let mut upcoming = listing(&[(10, 0), (11, 1)], 12);
        upcoming.moved(10, 3);
        upcoming.moved(11, 2);
        assert_eq!(upcoming.horizon(), 12);
        // As many moved as listed is allowed.
        assert_eq!(upcoming.check(&[10, 11, 11, 10]), Ok(()));
        upcoming.moved(11, 1);
        assert_eq!((upcoming.horizon(), upcoming.first(), upcoming.next_check()), (0, None, 0));
    }

    #[test]
    fn the_check_sees_an_entry_without_a_record() {
        let mut upcoming = listing(&[(10, 0), (11, 1)], 30);
        assert_eq!(upcoming.check(&[10, 11, 30]), Ok(()));
        // Slot 0's entry left and slot 1's moved into its place, but no record says so.
        let err = upcoming.check(&[11]).unwrap_err();
        assert!(err.contains("slot 0 expires at 11"), "{err}");
        upcoming.moved(11, 0);
        assert_eq!(upcoming.check(&[11]), Ok(()));
        // A record out of order, or at or after the horizon, is a broken list.
        upcoming.listed.push(record(5, 0));
        assert!(upcoming.check(&[11]).unwrap_err().contains("out of order"));
        upcoming.listed.pop();
        upcoming.horizon = 11;
        assert!(upcoming.check(&[11]).unwrap_err().contains("at or after the horizon"));
    }
}
