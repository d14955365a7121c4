//! The index from a key's hash to its slot number, laid out as folly's F14 tables are: 64-byte
//! chunks, each twelve one-byte tags and then the twelve slot numbers they stand for, so that a
//! lookup reads one cache line and then the slot. (hashbrown keeps its tags in one array and its
//! buckets in another: a lookup there reads two lines, the second after the first.)
//!
//! A key's hash picks its home chunk (the low bits) and its tag (the top seven, with the top bit
//! set, so that 0 means an empty lane). A key goes in the first chunk with an empty lane along
//! its probe, which starts at home and steps by a stride its tag picks. Each chunk counts the
//! keys that passed it full: a lookup stops at the first chunk that counts none, and a removal
//! takes its counts back, so there are no tombstones and a busy full cache never rebuilds.
//! Beside the chunks, one byte per slot number notes where that slot's lane is, so that removing
//! a slot (every eviction does) stores into its chunk without waiting to read it first.
//! Tags are compared sixteen at a time with SSE2 (or its equivalent) through the `wide` crate,
//! which keeps `unsafe` out of this one.

use wide::u8x16;

use crate::invariants::with_scratch;

/// Slot numbers per chunk.
const LANES: usize = 12;
/// How many entries a table takes, per chunk, before it is rebuilt larger: two thirds of the
/// lanes, so that few chunks overflow.
const FILL: usize = 8;
/// The tag byte that counts the keys that passed this chunk full, saturating at `u8::MAX`.
const OVERFLOW: usize = 15;
/// The lanes among a match's sixteen bits.
const LANE_BITS: u16 = (1 << LANES) - 1;
/// A slot's place when it is not noted: the lane is looked up instead.
const UNNOTED: u8 = 0;

/// Where a lane is, as one byte: one more than its probe steps from its key's home chunk in the
/// high four bits, the lane in the low four; [`UNNOTED`] fifteen steps or more away.
#[inline]
fn place(steps: usize, lane: usize) -> u8 {
    if steps < 15 { ((steps + 1) << 4 | lane) as u8 } else { UNNOTED }
}

/// One cache line of the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Chunk {
    /// Lanes 0 to 11: 0 for an empty lane, else its key's tag. Bytes 12 to 14: 0. Byte 15: overflow.
    tags: [u8; 16],
    slots: [u32; LANES],
}

impl Chunk {
    const EMPTY: Chunk = Chunk { tags: [0; 16], slots: [0; LANES] };

    /// The lanes whose tag is `tag` (0: the empty lanes), as bits.
    #[inline]
    #[expect(clippy::cast_sign_loss, reason = "`move_mask` sets the low sixteen bits only")]
    fn lanes_tagged(&self, tag: u8) -> u16 {
        let bits = u8x16::from(self.tags).cmp_eq(u8x16::splat(tag)).move_mask() as u16;
        bits & LANE_BITS
    }

    #[inline]
    fn overflow(&self) -> u8 {
        self.tags[OVERFLOW]
    }

    /// Whether no key passed this chunk full: `overflow() == 0`, read from the tags as a vector.
    /// Read as a byte, it made the compiler copy the tags to the stack on every lookup and load
    /// the byte back, a store and a load that a hit does not need (`experiments.md`).
    #[inline]
    fn overflowed_by_none(&self) -> bool {
        u8x16::from(self.tags).cmp_eq(u8x16::splat(0)).move_mask() & (1 << OVERFLOW) != 0
    }
}

/// A key's tag: the top seven bits of its hash, with the top bit set.
#[inline]
fn tag_of(hash: u64) -> u8 {
    (hash >> 57) as u8 | 0x80
}

/// The chunks a key's probe visits, in order: home, then home plus multiples of an odd stride,
/// which in a power of two of chunks reaches every one.
#[derive(Clone, Copy)]
struct Probe {
    at: usize,
    stride: usize,
    mask: usize,
}

impl Probe {
    #[inline]
    fn new(hash: u64, chunks: usize) -> Self {
        let mask = chunks.wrapping_sub(1);
        Probe { at: hash as usize & mask, stride: 2 * usize::from(tag_of(hash)) + 1, mask }
    }

    #[inline]
    fn step(&mut self) {
        self.at = (self.at + self.stride) & self.mask;
    }
}

/// Where a slot number is: its chunk and lane.
type Lane = (usize, usize);

/// A hash index of `u32` slot numbers; what it stores the caller looks up through `eq`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Index {
    /// A power of two of them, or none before the first entry.
    chunks: Vec<Chunk>,
    /// Per slot number, where its lane is (see [`place`]), one for each entry of room: written
    /// by every insert but a rebuild's, which leaves them [`UNNOTED`]. Those of slot numbers not
    /// in use are stale and never read.
    places: Vec<u8>,
    len: usize,
}

impl Index {
    /// An index with no room, which allocates nothing.
    pub(crate) const fn new() -> Self {
        Self { chunks: Vec::new(), places: Vec::new(), len: 0 }
    }

    /// An empty index with room for at least `entries`.
    pub(crate) fn with_room(entries: usize) -> Self {
        let chunks = entries.div_ceil(FILL).max(1).next_power_of_two();
        Self { chunks: vec![Chunk::EMPTY; chunks], places: vec![UNNOTED; chunks * FILL], len: 0 }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// How many entries it may hold before it is rebuilt larger (it can hold more: all but one
    /// lane may be filled, only slower).
    pub(crate) fn room(&self) -> usize {
        self.chunks.len() * FILL
    }

    /// Its size, in 64-byte chunks.
    #[cfg(test)]
    pub(crate) fn chunks(&self) -> usize {
        self.chunks.len()
    }

    /// Empties it, keeping its room. (The places all go stale: no slot is in use.)
    pub(crate) fn clear(&mut self) {
        self.chunks.fill(Chunk::EMPTY);
        self.len = 0;
    }

    /// The slot number indexed under `hash` for which `eq` holds.
    #[inline]
    pub(crate) fn find(&self, hash: u64, eq: impl FnMut(u32) -> bool) -> Option<u32> {
        let (chunk, lane) = self.lane_of(hash, eq)?;
        Some(self.chunks[chunk].slots[lane])
    }

    #[inline]
    fn lane_of(&self, hash: u64, mut eq: impl FnMut(u32) -> bool) -> Option<Lane> {
        let tag = tag_of(hash);
        let mut probe = Probe::new(hash, self.chunks.len());
        // Bounded, though a probe ends long before: some chunk always has an empty lane.
        let mut unvisited = self.chunks.len();
        loop {
            // `None` only when there are no chunks.
            let chunk = self.chunks.get(probe.at)?;
            let mut tagged = chunk.lanes_tagged(tag);
            while tagged != 0 {
                let lane = tagged.trailing_zeros() as usize;
                if eq(chunk.slots[lane]) {
                    return Some((probe.at, lane));
                }
                tagged &= tagged - 1;
            }
            unvisited -= 1;
            if chunk.overflowed_by_none() || unvisited == 0 {
                return None;
            }
            probe.step();
        }
    }

    /// Indexes `slot` under `hash`, noting its place. The caller keeps `len() < room()`, so a
    /// lane is free.
    #[inline]
    pub(crate) fn insert(&mut self, hash: u64, slot: u32) {
        self.insert_noting(hash, slot, true);
    }

    /// Indexes `slot` under `hash` for a rebuild, leaving its place unnoted: a rebuild's inserts
    /// wait on chunks read from memory, and a store of each place, which waits on its chunk too,
    /// made a growing cache's rebuilds slower by more than removals gain (`experiments.md`).
    #[inline]
    pub(crate) fn insert_unnoted(&mut self, hash: u64, slot: u32) {
        self.insert_noting(hash, slot, false);
    }

    #[inline]
    fn insert_noting(&mut self, hash: u64, slot: u32, note: bool) {
        let tag = tag_of(hash);
        let mut probe = Probe::new(hash, self.chunks.len());
        // The caller leaves a lane free, so this ends long before it has tried every chunk.
        let mut unvisited = self.chunks.len();
        while let Some(chunk) = self.chunks.get_mut(probe.at) {
            let empty = chunk.lanes_tagged(0);
            if empty != 0 {
                let lane = empty.trailing_zeros() as usize;
                chunk.tags[lane] = tag;
                chunk.slots[lane] = slot;
                self.len += 1;
                if let Some(noted) = self.places.get_mut(slot as usize).filter(|_| note) {
                    *noted = place(self.chunks.len() - unvisited, lane);
                }
                return;
            }
            // A saturated count stays: lookups then never stop early here, which is only slower.
            chunk.tags[OVERFLOW] = chunk.overflow().saturating_add(1);
            unvisited -= 1;
            if unvisited == 0 {
                return;
            }
            probe.step();
        }
    }

    /// Removes `slot`, indexed under `hash`.
    #[inline]
    pub(crate) fn remove(&mut self, hash: u64, slot: u32) {
        let Some((at, lane)) = self.lane_of_slot(hash, slot) else { return };
        self.chunks[at].tags[lane] = 0;
        self.len -= 1;
        // Every chunk before it on its probe counted it passing.
        let mut probe = Probe::new(hash, self.chunks.len());
        while probe.at != at {
            let chunk = &mut self.chunks[probe.at];
            if chunk.overflow() != u8::MAX {
                chunk.tags[OVERFLOW] -= 1;
            }
            probe.step();
        }
    }

    /// Renames slot `from`, indexed under `hash`, to `to`.
    #[inline]
    pub(crate) fn rename(&mut self, hash: u64, from: u32, to: u32) {
        if let Some((at, lane)) = self.lane_of_slot(hash, from) {
            self.chunks[at].slots[lane] = to;
            let moved = self.places.get(from as usize).copied();
            if let (Some(moved), Some(renamed)) = (moved, self.places.get_mut(to as usize)) {
                *renamed = moved;
            }
        }
    }

    /// Where `slot`, indexed under `hash`, is: from its place, without reading a chunk, unless
    /// its place is not noted, when the lookup finds it by its number.
    #[inline]
    fn lane_of_slot(&self, hash: u64, slot: u32) -> Option<Lane> {
        match self.places.get(slot as usize) {
            Some(&noted) if noted != UNNOTED => {
                let mut probe = Probe::new(hash, self.chunks.len());
                for _ in 1..noted >> 4 {
                    probe.step();
                }
                Some((probe.at, usize::from(noted & 0xf)))
            }
            _ => self.lane_of(hash, |j| j == slot),
        }
    }

    /// Checks what lookups and removals rely on, given each slot's key as its hash and a test for
    /// it, in slot order: looking up each key finds its own slot, each slot's place, if noted,
    /// names that lane, each chunk's count is the number of keys whose probe passes it, no lane
    /// holds anything else, and no byte between the tags and the count is set. (A lookup matches
    /// tags, so each key's tag is checked on the way.)
    pub(crate) fn check<E: FnMut(u32) -> bool>(
        &self,
        keys: impl IntoIterator<Item = (u64, E)>,
    ) -> Result<(), String> {
        if !self.chunks.is_empty() && !self.chunks.len().is_power_of_two() {
            return Err(format!("{} chunks, not a power of two", self.chunks.len()));
        }
        with_scratch(self.chunks.len(), |passing| self.check_counted(keys, passing))
    }

    /// [`check`](Self::check), counting in `passing` (one zero per chunk) the keys whose probe
    /// passes each chunk.
    fn check_counted<E: FnMut(u32) -> bool>(
        &self,
        keys: impl IntoIterator<Item = (u64, E)>,
        passing: &mut [usize],
    ) -> Result<(), String> {
        let mut slots = 0;
        for (slot, (hash, eq)) in (0..).zip(keys) {
            slots += 1;
            let found = self.lane_of(hash, eq).map(|(at, lane)| (at, lane, self.chunks[at].slots[lane]));
            let Some((at, lane, _)) = found.filter(|&(_, _, named)| named == slot) else {
                return Err(format!(
                    "looking up slot {slot}'s key finds {:?}",
                    found.map(|(_, _, named)| named)
                ));
            };
            // The lookup came this way, so it ends; every chunk before `at` counts the key.
            let mut probe = Probe::new(hash, self.chunks.len());
            let mut steps = 0;
            while probe.at != at {
                passing[probe.at] += 1;
                probe.step();
                steps += 1;
            }
            let kept = self.places.get(slot as usize).copied();
            if kept != Some(place(steps, lane)) && kept != Some(UNNOTED) {
                return Err(format!(
                    "slot {slot}'s place is {kept:?}, not {} (lane {lane}, {steps} steps from home)",
                    place(steps, lane)
                ));
            }
        }
        let mut used = 0;
        for (at, (chunk, &passing)) in self.chunks.iter().zip(passing.iter()).enumerate() {
            if chunk.tags[LANES..OVERFLOW].iter().any(|&byte| byte != 0) {
                return Err(format!("chunk {at} has bytes set between its tags and its count"));
            }
            used += LANES - chunk.lanes_tagged(0).count_ones() as usize;
            let expected = u8::try_from(passing).unwrap_or(u8::MAX);
            // A saturated count never comes down.
            if chunk.overflow() != expected && chunk.overflow() != u8::MAX {
                return Err(format!("chunk {at} counts {} keys passing, not {passing}", chunk.overflow()));
            }
        }
        // Each slot's key was found in a lane naming it, so `slots` lanes are accounted for.
        if used != slots {
            return Err(format!("{used} lanes in use for {slots} slots"));
        }
        if self.len != slots {
            return Err(format!("a length of {} for {slots} slots", self.len));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hash whose home is chunk `home` and whose tag is `0x80 | tag`.
    fn hash(home: u64, tag: u64) -> u64 {
        tag << 57 | home
    }

    /// The check, for keys that are their slot numbers, hashed to `of[slot]`.
    fn hashes(index: &Index, of: &[u64]) -> Result<(), String> {
        index.check((0..).zip(of).map(|(slot, &hash)| (hash, move |j| j == slot)))
    }

    #[test]
    fn finds_what_it_holds_and_nothing_else() {
        let mut index = Index::with_room(32);
        assert_eq!(index.chunks(), 4);
        let of: Vec<u64> = (0..20).map(|i| hash(i % 4, i)).collect();
        for (slot, &h) in (0..).zip(&of) {
            index.insert(h, slot);
        }
        assert_eq!(index.len(), 20);
        assert_eq!(hashes(&index, &of), Ok(()));
        for (slot, &h) in (0..).zip(&of) {
            assert_eq!(index.find(h, |j| j == slot), Some(slot));
            assert_eq!(index.find(h, |_| false), None);
        }
    }

    #[test]
    fn keys_that_overflow_their_chunk_are_found_past_it_and_their_counts_taken_back() {
        let mut index = Index::with_room(32);
        // Twenty keys at home in chunk 1, with two tags: eight must go further along.
        let of: Vec<u64> = (0..20).map(|i| hash(1, i % 2)).collect();
        for (slot, &h) in (0..).zip(&of) {
            index.insert(h, slot);
        }
        assert_eq!(hashes(&index, &of), Ok(()));
        assert_eq!(index.chunks[1].overflow(), 8);
        for (slot, &h) in (0..).zip(&of) {
            assert_eq!(index.find(h, |j| j == slot), Some(slot), "slot {slot}");
        }
        // Removing one that overflowed takes back the count it left at home.
        index.remove(of[19], 19);
        assert_eq!(index.chunks[1].overflow(), 7);
        assert_eq!(hashes(&index, &of[..19]), Ok(()));
        // Removing one at home frees a lane there, and the next key takes it.
        index.remove(of[0], 0);
        index.insert(of[19], 19);
        assert_eq!(index.chunks[1].overflow(), 7);
        assert_eq!(index.find(of[19], |j| j == 19), Some(19));
        // Renaming keeps the lane.
        index.rename(of[5], 5, 0);
        assert_eq!(index.find(of[5], |j| j == 0), Some(0));
        assert_eq!(index.find(of[5], |j| j == 5), None);
    }

    #[test]
    fn a_busy_index_comes_back_clean() {
        // Keys come and go at random homes until none is left: every count goes back to 0.
        let mut index = Index::with_room(64);
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut of: Vec<u64> = Vec::new();
        for _ in 0..10_000 {
            if of.len() < 60 && next() % 3 != 0 {
                // Homes among the first two of eight chunks, so that they overflow often.
                let h = (next() & !7) | (next() % 2);
                index.insert(h, of.len() as u32);
                of.push(h);
            } else if let Some(&h) = of.last() {
                index.remove(h, (of.len() - 1) as u32);
                of.pop();
            }
            assert_eq!(hashes(&index, &of), Ok(()));
        }
        while let Some(h) = of.pop() {
            index.remove(h, of.len() as u32);
        }
        assert_eq!(index.len(), 0);
        assert!(index.chunks.iter().all(|chunk| chunk.tags == [0; 16]));
    }

    #[test]
    fn the_check_sees_a_wrong_count_tag_length_or_place() {
        let mut index = Index::with_room(32);
        let of: Vec<u64> = (0..14).map(|i| hash(2, i)).collect();
        for (slot, &h) in (0..).zip(&of) {
            index.insert(h, slot);
        }
        assert_eq!(hashes(&index, &of), Ok(()));
        let broken = |damage: fn(&mut Index)| {
            let mut copy = index.clone();
            damage(&mut copy);
            hashes(&copy, &of).expect_err("the check must see the damage")
        };
        assert!(broken(|i| i.chunks[2].tags[OVERFLOW] = 1).contains("counts"));
        assert!(broken(|i| i.chunks[2].tags[0] ^= 1).contains("slot 0's key finds None"));
        assert!(broken(|i| i.chunks[2].tags[13] = 1).contains("bytes set"));
        assert!(broken(|i| i.len = 13).contains("length"));
        assert!(broken(|i| i.chunks[2].slots[0] = 99).contains("slot 0's key finds None"));
        assert!(broken(|i| i.chunks[2].slots[1] = 0).contains("slot 1's key finds None"));
        assert!(broken(|i| i.places[3] = place(0, 4)).contains("slot 3's place is Some(20), not 19"));
        // An unnoted place is allowed: the removal looks the lane up.
        let mut unnoted = index.clone();
        unnoted.places[3] = UNNOTED;
        assert_eq!(hashes(&unnoted, &of), Ok(()));
        // A lane no key leads to.
        assert!(broken(|i| i.chunks[0].tags[0] = 0x80).contains("lanes in use"));
    }

    #[test]
    fn a_slot_fifteen_steps_from_home_has_no_place_noted_and_is_removed_all_the_same() {
        // One home and one tag make one probe: fifteen chunks filled, then the last key.
        let mut index = Index::with_room(256);
        let of = vec![hash(3, 5); 12 * 15 + 1];
        for (slot, &h) in (0..).zip(&of) {
            index.insert(h, slot);
        }
        assert_eq!((index.places[179], index.places[180]), (place(14, 11), UNNOTED));
        assert_eq!(hashes(&index, &of), Ok(()));
        index.remove(of[180], 180);
        assert_eq!(hashes(&index, &of[..180]), Ok(()));
        // Moved into slot 0's number, it keeps its place.
        index.remove(of[0], 0);
        index.rename(of[179], 179, 0);
        assert_eq!(index.places[0], place(14, 11));
        assert_eq!(index.find(of[179], |j| j == 0), Some(0));
    }

    #[test]
    fn a_rebuild_notes_no_places_and_its_slots_are_removed_and_renamed_all_the_same() {
        let mut index = Index::with_room(32);
        // Twenty keys at home in chunk 1: eight go further along.
        let of: Vec<u64> = (0..20).map(|i| hash(1, i % 2)).collect();
        for (slot, &h) in (0..).zip(&of) {
            index.insert_unnoted(h, slot);
        }
        assert!(index.places[..20].iter().all(|&place| place == UNNOTED));
        assert_eq!(hashes(&index, &of), Ok(()));
        index.remove(of[19], 19);
        assert_eq!(hashes(&index, &of[..19]), Ok(()));
        // Slot 18 moves into slot 0's hole.
        index.remove(of[0], 0);
        index.rename(of[18], 18, 0);
        let moved: Vec<u64> = [of[18]].into_iter().chain(of[1..18].iter().copied()).collect();
        assert_eq!(hashes(&index, &moved), Ok(()));
    }

    #[test]
    fn a_lookup_ends_when_every_chunk_counts_an_overflow() {
        // Two chunks, each passed by a key that found it full, each with a lane free again.
        let mut index = Index::with_room(16);
        let mut of: Vec<u64> = (0..12).map(|i| hash(0, i)).collect();
        of.push(hash(0, 12)); // passes chunk 0, lands in chunk 1
        of.extend((13..24).map(|i| hash(1, i))); // fills chunk 1
        for (slot, &h) in (0..).zip(&of) {
            index.insert(h, slot);
        }
        index.remove(of[0], 0); // frees a lane in chunk 0
        index.insert(hash(1, 24), 0); // passes chunk 1, lands in chunk 0
        index.remove(of[1], 1); // frees another lane in chunk 0
        assert_eq!((index.chunks[0].overflow(), index.chunks[1].overflow()), (1, 1));
        // A key with a tag no lane has visits both chunks, then stops.
        assert_eq!(index.find(hash(0, 100), |_| true), None);
    }

    #[test]
    fn an_insert_into_a_full_index_gives_up_rather_than_loops() {
        // Outside what the cache asks of it (it keeps a lane free), but it must still end.
        let mut index = Index::with_room(1);
        for slot in 0..13 {
            index.insert(hash(0, u64::from(slot)), slot);
        }
        assert_eq!(index.len(), 12);
    }

    #[test]
    fn an_empty_index_finds_nothing_and_takes_room_in_powers_of_two() {
        let index = Index::new();
        assert_eq!((index.find(7, |_| true), index.room(), index.len()), (None, 0, 0));
        assert_eq!(Index::with_room(0).chunks(), 1);
        assert_eq!(Index::with_room(FILL).chunks(), 1);
        assert_eq!(Index::with_room(FILL + 1).chunks(), 2);
        assert_eq!(Index::with_room(1_000_000).chunks(), 1 << 17);
    }
}
