//! The vocabulary: a test case is a configuration and a list of operations, one per public
//! method of the cache that reads or changes its entries, plus a clone of the whole cache, the
//! passing of time, and a `Hash` or a `Drop` that panics.
//!
//! `Debug` prints both as Rust code, so a failing case pastes straight into a regression test
//! (with `use fuzz::ops::{Case, Op::*}` in scope).

use std::fmt;

/// Keys are small numbers, so that overwrites, evictions and re-inserts happen within a few
/// operations.
pub type Key = u8;

/// How many keys the fuzzer's decoder draws from: `0..KEYS`.
pub const KEYS: Key = 10;

/// One call on the cache (and the same call on the model), or the passing of time.
///
/// Values are not part of an operation: the driver gives every write a fresh, unique value, so a
/// stale value or a double drop shows up at the step that causes it (a leak at the latest when
/// the cache is dropped).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `put(key, fresh value)`.
    Put(Key),
    /// `push(key, fresh value)`.
    Push(Key),
    /// `get(key)`.
    Get(Key),
    /// `get_mut(key)`, then replace the value found with a fresh one through the reference.
    GetMut(Key),
    /// `get_or_insert_with(key, fresh value)`.
    GetOrInsert(Key),
    /// `try_get_or_insert_with(key, a maker that fails)`. A maker that succeeds takes the path
    /// of [`Op::GetOrInsert`]: `get_or_insert_with` is `try_get_or_insert_with` with a maker
    /// that cannot fail.
    TryGetOrInsertErr(Key),
    /// `peek(key)`.
    Peek(Key),
    /// `peek_mut(key)`, then replace the value found with a fresh one through the reference.
    PeekMut(Key),
    /// `contains(key)`.
    Contains(Key),
    /// `remove(key)`.
    Remove(Key),
    /// `peek_lru()`.
    PeekLru,
    /// `pop_lru()`.
    PopLru,
    /// `peek_mru()`.
    PeekMru,
    /// `pop_mru()`.
    PopMru,
    /// `promote(key)`.
    Promote(Key),
    /// `demote(key)`.
    Demote(Key),
    /// `len()`.
    Len,
    /// `is_empty()`.
    IsEmpty,
    /// `capacity()`.
    Capacity,
    /// `resize(capacity)`.
    Resize(usize),
    /// `clear()`.
    Clear,
    /// `retain(..)` keeping the keys whose bit is set in the mask.
    Retain(u16),
    /// `iter()`, walked from both ends in turn, front first, its `len()` read at every step.
    Iter,
    /// `iter_mut()`, walked from both ends in turn (from the front first for an even key, from
    /// the back for an odd one), replacing the value of `key`, if it is yielded, with a fresh one
    /// through the reference.
    IterMut(Key),
    /// Iterates the cache by value (`into_iter()`): takes this many entries from both ends in
    /// turn, front first, and drops the iterator with the rest. The case goes on with a new,
    /// empty cache of the same capacity, ttl and clock (and a new model).
    IntoIter(u8),
    /// `stats()`.
    Stats,
    /// Replaces the cache with its `clone()`, dropping the original: the case goes on with the
    /// copy, which must be the same cache. (The clock is shared, as a `ManualClock`'s clones
    /// share one time.)
    CloneCache,
    /// Moves the clock forward by this many ticks (saturating).
    Advance(u64),
    /// Makes the n-th `Hash` of a key the cache was given, from here on, panic: a user callback
    /// that panics inside the cache's own work (probing, evicting, moving a slot). The contract
    /// leaves the cache's contents after that unspecified, so from the panic on the driver
    /// stops comparing with the model and checks what is still promised: no other panic, the
    /// cache's invariants, and every value dropped exactly once.
    ///
    /// A case plants one panic at most: after it, this and [`Op::DropPanics`] do nothing. What
    /// matters, that the cache stays sound and usable after a panic, the rest of the case
    /// checks; each further panic would cost about as much as the rest of an execution.
    HashPanics(u8),
    /// Makes the n-th drop of a key or value by the cache, from here on, panic: a user's `Drop`
    /// that panics inside the cache's own work (clearing, evicting, dropping expired entries).
    /// Checked from then on as after [`Op::HashPanics`].
    DropPanics(u8),
}

/// What kind of operation an [`Op`] is, without its argument: how the minimiser tells that two
/// failures happen "at the same kind of operation".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // each variant is the `Op` of the same name
pub enum Kind {
    Put,
    Push,
    Get,
    GetMut,
    Peek,
    Contains,
    Remove,
    PeekLru,
    PopLru,
    Len,
    IsEmpty,
    Capacity,
    Resize,
    Clear,
    Retain,
    Iter,
    Stats,
    Advance,
    HashPanics,
    DropPanics,
    GetOrInsert,
    PeekMut,
    IterMut,
    IntoIter,
    TryGetOrInsertErr,
    PeekMru,
    PopMru,
    Promote,
    Demote,
    CloneCache,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 30] = [
        Kind::Put,
        Kind::Push,
        Kind::Get,
        Kind::GetMut,
        Kind::Peek,
        Kind::Contains,
        Kind::Remove,
        Kind::PeekLru,
        Kind::PopLru,
        Kind::Len,
        Kind::IsEmpty,
        Kind::Capacity,
        Kind::Resize,
        Kind::Clear,
        Kind::Retain,
        Kind::Iter,
        Kind::Stats,
        Kind::Advance,
        Kind::HashPanics,
        Kind::DropPanics,
        Kind::GetOrInsert,
        Kind::PeekMut,
        Kind::IterMut,
        Kind::IntoIter,
        Kind::TryGetOrInsertErr,
        Kind::PeekMru,
        Kind::PopMru,
        Kind::Promote,
        Kind::Demote,
        Kind::CloneCache,
    ];
}

impl Op {
    /// The kind of this operation.
    #[must_use]
    pub fn kind(self) -> Kind {
        match self {
            Op::Put(_) => Kind::Put,
            Op::Push(_) => Kind::Push,
            Op::Get(_) => Kind::Get,
            Op::GetMut(_) => Kind::GetMut,
            Op::Peek(_) => Kind::Peek,
            Op::Contains(_) => Kind::Contains,
            Op::Remove(_) => Kind::Remove,
            Op::PeekLru => Kind::PeekLru,
            Op::PopLru => Kind::PopLru,
            Op::Len => Kind::Len,
            Op::IsEmpty => Kind::IsEmpty,
            Op::Capacity => Kind::Capacity,
            Op::Resize(_) => Kind::Resize,
            Op::Clear => Kind::Clear,
            Op::Retain(_) => Kind::Retain,
            Op::Iter => Kind::Iter,
            Op::Stats => Kind::Stats,
            Op::Advance(_) => Kind::Advance,
            Op::HashPanics(_) => Kind::HashPanics,
            Op::DropPanics(_) => Kind::DropPanics,
            Op::GetOrInsert(_) => Kind::GetOrInsert,
            Op::PeekMut(_) => Kind::PeekMut,
            Op::IterMut(_) => Kind::IterMut,
            Op::IntoIter(_) => Kind::IntoIter,
            Op::TryGetOrInsertErr(_) => Kind::TryGetOrInsertErr,
            Op::PeekMru => Kind::PeekMru,
            Op::PopMru => Kind::PopMru,
            Op::Promote(_) => Kind::Promote,
            Op::Demote(_) => Kind::Demote,
            Op::CloneCache => Kind::CloneCache,
        }
    }

    /// The key this operation names, if any.
    #[must_use]
    pub fn key(self) -> Option<Key> {
        match self {
            Op::Put(k)
            | Op::Push(k)
            | Op::Get(k)
            | Op::GetMut(k)
            | Op::GetOrInsert(k)
            | Op::TryGetOrInsertErr(k)
            | Op::Peek(k)
            | Op::PeekMut(k)
            | Op::Contains(k)
            | Op::Remove(k)
            | Op::Promote(k)
            | Op::Demote(k)
            | Op::IterMut(k) => Some(k),
            _ => None,
        }
    }

    /// The same operation on another key (operations without a key are returned unchanged).
    #[must_use]
    pub fn with_key(self, key: Key) -> Op {
        match self {
            Op::Put(_) => Op::Put(key),
            Op::Push(_) => Op::Push(key),
            Op::Get(_) => Op::Get(key),
            Op::GetMut(_) => Op::GetMut(key),
            Op::GetOrInsert(_) => Op::GetOrInsert(key),
            Op::TryGetOrInsertErr(_) => Op::TryGetOrInsertErr(key),
            Op::Peek(_) => Op::Peek(key),
            Op::PeekMut(_) => Op::PeekMut(key),
            Op::Contains(_) => Op::Contains(key),
            Op::Remove(_) => Op::Remove(key),
            Op::IterMut(_) => Op::IterMut(key),
            Op::Promote(_) => Op::Promote(key),
            Op::Demote(_) => Op::Demote(key),
            other => other,
        }
    }
}

/// A test case: the cache's configuration and what to do with it.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Case {
    /// The cache's capacity.
    pub capacity: usize,
    /// The time-to-live in ticks, or none.
    pub ttl: Option<u64>,
    /// The clock's time when the cache is made.
    pub start: u64,
    /// The operations, in order.
    pub ops: Vec<Op>,
}

/// Prints a `u64` or `usize` the way a person would write it near the top of the range.
struct Num(u64, &'static str);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Num(n, ty) = *self;
        match u64::MAX - n {
            0 => write!(f, "{ty}::MAX"),
            gap if gap <= 1 << 16 => write!(f, "{ty}::MAX - {gap}"),
            _ => write!(f, "{n}"),
        }
    }
}

fn size(n: usize) -> Num {
    if n == usize::MAX { Num(u64::MAX, "usize") } else { Num(n as u64, "usize") }
}

impl fmt::Debug for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Op::Resize(c) => write!(f, "Resize({})", size(c)),
            Op::Retain(mask) => write!(f, "Retain({mask:#b})"),
            Op::Advance(t) => write!(f, "Advance({})", Num(t, "u64")),
            Op::HashPanics(n) => write!(f, "HashPanics({n})"),
            Op::DropPanics(n) => write!(f, "DropPanics({n})"),
            Op::IntoIter(n) => write!(f, "IntoIter({n})"),
            op => {
                write!(f, "{:?}", op.kind())?;
                match op.key() {
                    Some(k) => write!(f, "({k})"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl fmt::Debug for Case {
    /// Rust code that builds this case: paste it into a test.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ttl = match self.ttl {
            Some(t) => format!("Some({})", Num(t, "u64")),
            None => "None".to_owned(),
        };
        writeln!(f, "Case {{")?;
        writeln!(f, "    capacity: {},", size(self.capacity))?;
        writeln!(f, "    ttl: {ttl},")?;
        writeln!(f, "    start: {},", Num(self.start, "u64"))?;
        let ops: Vec<String> = self.ops.iter().map(|op| format!("{op:?}")).collect();
        if ops.join(", ").len() <= 80 {
            writeln!(f, "    ops: vec![{}],", ops.join(", "))?;
        } else {
            writeln!(f, "    ops: vec![")?;
            for line in ops.chunks(8) {
                writeln!(f, "        {},", line.join(", "))?;
            }
            writeln!(f, "    ],")?;
        }
        write!(f, "}}")
    }
}
