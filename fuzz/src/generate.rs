//! The generator: fuzzer bytes to a [`Case`] and back.
//!
//! The format is the contract between the fuzzer, the checked-in corpus and this code:
//!
//! * **Total.** Every byte string decodes to a case; missing bytes read as zero.
//! * **Mutation-friendly.** A 4-byte header, then one 3-byte record per operation
//!   (`tag, a, b`). Changing a byte changes one operation; the records after it keep their
//!   meaning, except that a key byte that picks from the keys written so far (the bundle,
//!   below) may pick another key when the change adds or removes a written key.
//! * **Stable.** Each operation owns a fixed range of tag bytes ([`TAGS`]). The last tag,
//!   [`ESCAPE`], had to serve more operations than one: after it the `a` byte picks one from
//!   [`EXTENDED`] the same way, and the operation's arguments move one byte on. `a` bytes from
//!   [`RESERVED`] up decode to nothing today; a new operation takes its range from there, so
//!   no file written by [`Case::to_bytes`] changes meaning when operations are added.
//! * **Invertible.** [`Case::to_bytes`] writes the canonical bytes of a case, which decode back
//!   to it. Cases the format cannot express (say, a capacity of 100) are refused with a reason.
//!
//! Draws are biased to where bugs live: capacities 0 to 8, ten keys, keys already written (the
//! "bundle" of Hypothesis's state machines) half of the time, and time steps that land on the
//! ttl's boundaries: 0, ttl − 1, ttl, ttl + 1.

use arbitrary::{Arbitrary, Unstructured};

use crate::ops::{Case, KEYS, Key, Kind, Op};

/// Bytes before the first operation: capacity, ttl selector, ttl value, start selector.
pub const HEADER: usize = 4;
/// Bytes per operation: tag, then two argument bytes.
pub const RECORD: usize = 3;

/// The first tag of each kind's range; a range ends where the next begins. Wider ranges make
/// an operation more frequent in random input. **Never change these**: corpus files depend on
/// them.
pub const TAGS: [(u8, Kind); 25] = [
    (0, Kind::Put),
    (48, Kind::Push),
    (64, Kind::Get),
    (100, Kind::GetMut),
    (112, Kind::Peek),
    (124, Kind::Contains),
    (132, Kind::Remove),
    (148, Kind::PeekLru),
    (154, Kind::PopLru),
    (162, Kind::Len),
    (168, Kind::IsEmpty),
    (172, Kind::Capacity),
    (174, Kind::Resize),
    (182, Kind::Clear),
    (185, Kind::Retain),
    (191, Kind::Iter),
    (197, Kind::Stats),
    (201, Kind::Advance),
    (240, Kind::HashPanics),
    (242, Kind::DropPanics),
    (244, Kind::GetOrInsert),
    (248, Kind::PeekMut),
    (251, Kind::IterMut),
    (253, Kind::IntoIter),
    (254, Kind::TryGetOrInsertErr),
];

/// The last tag: its `a` byte picks the operation from [`EXTENDED`], and the `b` byte is that
/// operation's first argument.
pub const ESCAPE: u8 = 255;

/// The operations after [`ESCAPE`]: the first `a` byte of each one's range, as in [`TAGS`].
/// **Never change these** either.
pub const EXTENDED: [(u8, Kind); 5] = [
    (0, Kind::PeekMru),
    (48, Kind::PopMru),
    (96, Kind::Promote),
    (160, Kind::Demote),
    (224, Kind::CloneCache),
];

/// `a` bytes after [`ESCAPE`] from here up belong to operations not invented yet; they decode
/// to nothing.
pub const RESERVED: u8 = 240;

/// `HashPanics(n)` arms the n-th hash, 1 to this many: enough to reach every hash an operation
/// on a small cache makes (the new key, the evicted one, the one a removal moves).
/// `DropPanics(n)` arms the n-th drop, within the same range.
pub const FUSE_LENGTHS: u8 = 4;

/// `IntoIter(n)` takes 0 to this many minus one entries: up to one step past the end of a cache
/// that holds every key.
pub const INTO_ITER_TAKES: u8 = KEYS + 2;

/// A key byte with this bit set picks a key already written (if there is one).
const FROM_BUNDLE: u8 = 0x80;

/// The retain mask keeps the bits of real keys only, so every decoded mask is canonical.
const KEY_BITS: u16 = (1 << KEYS) - 1;

/// Time-step selectors, in the `a` byte of an `Advance` record (modulo 8).
mod step {
    pub(super) const ZERO: u8 = 0;
    pub(super) const TTL_MINUS_ONE: u8 = 1;
    pub(super) const TTL: u8 = 2;
    pub(super) const TTL_PLUS_ONE: u8 = 3;
    /// 4 and 5: the `b` byte, literally.
    pub(super) const LITERAL: u8 = 4;
    pub(super) const ONE: u8 = 6;
    pub(super) const TO_THE_END: u8 = 7;
}

/// Where the clock starts, by the header's start selector (modulo 4): 0 twice as often.
const STARTS: [u64; 4] = [0, 0, u64::MAX - 100, u64::MAX];

fn capacity_of(byte: u8) -> usize {
    if byte == u8::MAX { usize::MAX } else { usize::from(byte % 9) }
}

fn capacity_byte(capacity: usize) -> Result<u8, String> {
    match capacity {
        usize::MAX => Ok(u8::MAX),
        c if c <= 8 => Ok(c as u8),
        c => Err(format!("capacity {c} is not 0..=8 or usize::MAX")),
    }
}

/// The kind each byte decodes to, by the ranges of `starts`, the last of which ends at `end`;
/// worked out at compile time: decoding runs once per operation in every fuzzer execution, and
/// a lookup has no loop whose edges the fuzzer would count as coverage.
const fn decoding_table(starts: &[(u8, Kind)], end: u8) -> [Option<Kind>; 256] {
    let mut table = [None; 256];
    let mut range = 0;
    while range < starts.len() {
        let (first, kind) = starts[range];
        let end = if range + 1 < starts.len() { starts[range + 1].0 } else { end };
        let mut byte = first;
        while byte < end {
            table[byte as usize] = Some(kind);
            byte += 1;
        }
        range += 1;
    }
    table
}

const KIND_OF_TAG: [Option<Kind>; 256] = decoding_table(&TAGS, ESCAPE);
const KIND_AFTER_ESCAPE: [Option<Kind>; 256] = decoding_table(&EXTENDED, RESERVED);

/// The kind of a record, and its two argument bytes.
fn decode_record([tag, a, b]: [u8; RECORD]) -> Option<(Kind, u8, u8)> {
    if tag == ESCAPE {
        Some((KIND_AFTER_ESCAPE[usize::from(a)]?, b, 0))
    } else {
        Some((KIND_OF_TAG[usize::from(tag)]?, a, b))
    }
}

/// The record of an operation of `kind` with these argument bytes: the inverse of
/// [`decode_record`].
fn encode_record(kind: Kind, [a, b]: [u8; 2]) -> Result<[u8; RECORD], String> {
    let first = |table: &[(u8, Kind)]| table.iter().find(|(_, k)| *k == kind).map(|&(first, _)| first);
    match (first(&TAGS), first(&EXTENDED)) {
        (Some(tag), _) => Ok([tag, a, b]),
        (None, Some(pick)) => Ok([ESCAPE, pick, a]),
        (None, None) => Err(format!("{kind:?} has neither a tag nor a pick after the escape tag")),
    }
}

/// Decoding state: the bundle of keys written so far, for key bytes that pick from it.
struct Decoder {
    ttl: u64,
    bundle: Vec<Key>,
}

impl Decoder {
    fn key(&self, byte: u8) -> Key {
        if byte & FROM_BUNDLE != 0 && !self.bundle.is_empty() {
            self.bundle[usize::from(byte & !FROM_BUNDLE) % self.bundle.len()]
        } else {
            (byte & !FROM_BUNDLE) % KEYS
        }
    }

    fn ticks(&self, selector: u8, literal: u8) -> u64 {
        match selector % 8 {
            step::ZERO => 0,
            step::TTL_MINUS_ONE => self.ttl.saturating_sub(1),
            step::TTL => self.ttl,
            step::TTL_PLUS_ONE => self.ttl.saturating_add(1),
            step::ONE => 1,
            step::TO_THE_END => u64::MAX,
            _ => u64::from(literal),
        }
    }

    fn op(&mut self, record: [u8; RECORD]) -> Option<Op> {
        let (kind, a, b) = decode_record(record)?;
        let op = match kind {
            Kind::Put => Op::Put(self.key(a)),
            Kind::Push => Op::Push(self.key(a)),
            Kind::Get => Op::Get(self.key(a)),
            Kind::GetMut => Op::GetMut(self.key(a)),
            Kind::Peek => Op::Peek(self.key(a)),
            Kind::Contains => Op::Contains(self.key(a)),
            Kind::Remove => Op::Remove(self.key(a)),
            Kind::PeekLru => Op::PeekLru,
            Kind::PopLru => Op::PopLru,
            Kind::Len => Op::Len,
            Kind::IsEmpty => Op::IsEmpty,
            Kind::Capacity => Op::Capacity,
            Kind::Resize => Op::Resize(capacity_of(a)),
            Kind::Clear => Op::Clear,
            Kind::Retain => Op::Retain(u16::from_le_bytes([a, b]) & KEY_BITS),
            Kind::Iter => Op::Iter,
            Kind::Stats => Op::Stats,
            Kind::Advance => Op::Advance(self.ticks(a, b)),
            Kind::HashPanics => Op::HashPanics(1 + a % FUSE_LENGTHS),
            Kind::DropPanics => Op::DropPanics(1 + a % FUSE_LENGTHS),
            Kind::GetOrInsert => Op::GetOrInsert(self.key(a)),
            Kind::PeekMut => Op::PeekMut(self.key(a)),
            Kind::IterMut => Op::IterMut(self.key(a)),
            Kind::IntoIter => Op::IntoIter(a % INTO_ITER_TAKES),
            Kind::TryGetOrInsertErr => Op::TryGetOrInsertErr(self.key(a)),
            Kind::PeekMru => Op::PeekMru,
            Kind::PopMru => Op::PopMru,
            Kind::Promote => Op::Promote(self.key(a)),
            Kind::Demote => Op::Demote(self.key(a)),
            Kind::CloneCache => Op::CloneCache,
        };
        if let Op::Put(k) | Op::Push(k) | Op::GetOrInsert(k) = op {
            if !self.bundle.contains(&k) {
                self.bundle.push(k);
            }
        }
        Some(op)
    }
}

impl Case {
    /// Decodes fuzzer bytes; every byte string is a case.
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Case {
        // Missing header bytes read as zero. (Read by hand rather than through `Unstructured`:
        // this runs in every fuzzer execution, and the slice is all there is to it.)
        let (head, body) = bytes.split_at(bytes.len().min(HEADER));
        let mut header = [0; HEADER];
        header[..head.len()].copy_from_slice(head);
        let [capacity, ttl_selector, ttl_value, start] = header;
        let ttl = match ttl_selector % 4 {
            0 => None,
            1 | 2 => Some(u64::from(ttl_value)),
            _ => Some(u64::MAX),
        };
        let mut decoder = Decoder { ttl: ttl.unwrap_or(0), bundle: Vec::with_capacity(usize::from(KEYS)) };
        // Whole records only: a trailing partial record is no operation.
        let records = body.chunks_exact(RECORD);
        let mut ops = Vec::with_capacity(records.len());
        for record in records {
            if let &[tag, a, b] = record {
                ops.extend(decoder.op([tag, a, b]));
            }
        }
        Case { capacity: capacity_of(capacity), ttl, start: STARTS[usize::from(start % 4)], ops }
    }

    /// The canonical bytes of this case, which [`Case::from_bytes`] decodes back to it.
    ///
    /// # Errors
    ///
    /// Says which part of the case the format cannot express.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let ttl = match self.ttl {
            None => [0, 0],
            Some(t) if t <= 255 => [1, t as u8],
            Some(u64::MAX) => [3, 0],
            Some(t) => return Err(format!("ttl {t} is not 0..=255 or u64::MAX")),
        };
        let start = STARTS.iter().position(|&s| s == self.start);
        let start = start.ok_or_else(|| format!("start {} is not one of {STARTS:?}", self.start))?;
        let mut bytes = vec![capacity_byte(self.capacity)?, ttl[0], ttl[1], start as u8];
        let ttl = self.ttl.unwrap_or(0);
        for (step, &op) in self.ops.iter().enumerate() {
            let args = match op {
                Op::Resize(c) => [capacity_byte(c).map_err(|e| format!("step {step}: {e}"))?, 0],
                Op::Retain(mask) if mask & !KEY_BITS == 0 => mask.to_le_bytes(),
                Op::Advance(t) if t <= 255 => [step::LITERAL, t as u8],
                Op::Advance(u64::MAX) => [step::TO_THE_END, 0],
                Op::Advance(t) if t == ttl.saturating_sub(1) => [step::TTL_MINUS_ONE, 0],
                Op::Advance(t) if t == ttl => [step::TTL, 0],
                Op::Advance(t) if t == ttl.saturating_add(1) => [step::TTL_PLUS_ONE, 0],
                Op::HashPanics(n) | Op::DropPanics(n) if (1..=FUSE_LENGTHS).contains(&n) => [n - 1, 0],
                Op::IntoIter(n) if n < INTO_ITER_TAKES => [n, 0],
                Op::Retain(_) | Op::Advance(_) | Op::HashPanics(_) | Op::DropPanics(_) | Op::IntoIter(_) => {
                    return Err(format!("step {step}: {op:?} cannot be encoded"));
                }
                _ => match op.key() {
                    Some(k) if k < KEYS => [k, 0],
                    Some(k) => return Err(format!("step {step}: key {k} is not below {KEYS}")),
                    None => [0, 0],
                },
            };
            bytes.extend(encode_record(op.kind(), args)?);
        }
        Ok(bytes)
    }
}

/// Panics unless `case` encodes to bytes that decode back to it: the generator's promise for
/// every decoded case, checked by the `roundtrip` fuzz target.
///
/// # Panics
///
/// When the promise is broken.
pub fn check_roundtrip(case: &Case) {
    let bytes = case.to_bytes().unwrap_or_else(|e| panic!("a decoded case must encode: {e}\n{case:?}"));
    assert_eq!(&Case::from_bytes(&bytes), case, "the bytes {bytes:?} decode to another case");
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Self::arbitrary_take_rest(std::mem::replace(u, Unstructured::new(&[])))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(Case::from_bytes(u.take_rest()))
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        // Even the empty input is a case: libFuzzer must not skip short inputs.
        (0, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_range_and_the_ranges_are_ordered() {
        assert!(TAGS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(EXTENDED.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(TAGS.last().is_some_and(|&(first, _)| first < ESCAPE));
        assert!(EXTENDED.last().is_some_and(|&(first, _)| first < RESERVED));
        for kind in Kind::ALL {
            let ranges = TAGS.iter().chain(&EXTENDED).filter(|(_, k)| *k == kind).count();
            assert_eq!(ranges, 1, "{kind:?}");
            let record = encode_record(kind, [5, 6]).unwrap();
            assert_eq!(decode_record(record), Some((kind, 5, if record[0] == ESCAPE { 0 } else { 6 })));
        }
        assert_eq!(decode_record([ESCAPE, RESERVED, 0]), None);
    }

    #[test]
    fn the_decoding_tables_agree_with_the_ranges() {
        fn by_range(table: &[(u8, Kind)], byte: u8) -> Option<Kind> {
            table.iter().rev().find(|(first, _)| *first <= byte).map(|&(_, kind)| kind)
        }
        for byte in 0..=u8::MAX {
            if byte < ESCAPE {
                assert_eq!(decode_record([byte, 0, 0]).map(|d| d.0), by_range(&TAGS, byte), "tag {byte}");
            }
            let pick = by_range(&EXTENDED, byte).filter(|_| byte < RESERVED);
            assert_eq!(decode_record([ESCAPE, byte, 0]).map(|d| d.0), pick, "escaped pick {byte}");
        }
    }

    #[test]
    fn escaped_operations_take_their_key_from_the_third_byte() {
        let bytes = [2, 0, 0, 0, 0, 7, 0, ESCAPE, 160, 0x80, ESCAPE, 0, 3, ESCAPE, 96, 4];
        assert_eq!(Case::from_bytes(&bytes).ops, [Op::Put(7), Op::Demote(7), Op::PeekMru, Op::Promote(4)]);
    }

    #[test]
    fn missing_bytes_read_as_zero() {
        assert_eq!(Case::from_bytes(&[]), Case::default());
        assert_eq!(Case::from_bytes(&[3, 1]).ttl, Some(0));
        assert_eq!(Case::from_bytes(&[0, 0, 0, 0, 0, 5]).ops, [], "a partial record is no op");
    }

    #[test]
    fn bundle_bytes_pick_keys_already_written() {
        let bytes = [2, 0, 0, 0, 0, 7, 0, 0, 3, 0, 64, 0x80, 0, 64, 0x81, 0];
        assert_eq!(Case::from_bytes(&bytes).ops, [Op::Put(7), Op::Put(3), Op::Get(7), Op::Get(3)]);
    }

    #[test]
    fn advance_lands_on_the_ttl_boundaries() {
        let ticks = |a| Case::from_bytes(&[1, 1, 10, 0, 201, a, 99]).ops[0];
        let all: Vec<Op> = (0..8).map(ticks).collect();
        let want = [0, 9, 10, 11, 99, 99, 1, u64::MAX].map(Op::Advance);
        assert_eq!(all, want);
    }
}
