//! The driver, and the oracle inside it: the one function that replays a case against the cache
//! and the model in lockstep and decides whether they agree.
//!
//! Every front end calls [`replay`] (or [`check`], which panics with the report): the `lockstep`
//! fuzz target, the corpus replay in `cargo test`, the minimiser, the exhaustive search and the
//! ledger. After every operation it compares the return values (the postcondition), then the
//! invariants: the same length, the same live entries in the same recency order, the same
//! stats, nothing held beyond the capacity, the cache's own invariant check, and every value
//! dropped exactly once, never while the model still holds it. After a planted `Hash` or `Drop`
//! panic ([`Op::HashPanics`], [`Op::DropPanics`]) it checks, to the end of the case, only what
//! the contract still promises then: no other panic, nothing beyond the capacity, the
//! invariants, no value dropped twice or while held.

use std::any::Any;
use std::fmt;
use std::mem;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use cache::{Cache, ManualClock};
use foldhash::fast::FixedState;
use model::{Model, Transition};

use crate::ops::{Case, KEYS, Key, Kind, Op};
use crate::tracked::{Books, Life, TrackedKey, Twice, Value};

/// Which check failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Check {
    /// The operation returned something else than the model.
    Answer,
    /// The cache panicked.
    Panic,
    /// `len()`, or the length `iter()` reports, differs from the model's.
    Len,
    /// The live entries, in recency order from either end, differ from the model's.
    Entries,
    /// `stats()` differs from the model's.
    Stats,
    /// `ttl()` differs from the model's.
    Ttl,
    /// The cache holds more entries, keys or values than its capacity.
    Capacity,
    /// The cache's own `check_invariants` failed.
    Invariants,
    /// A key or value was dropped twice, while the model still held it, or never.
    Drops,
}

impl Check {
    /// Every check, in the order the driver runs them.
    pub const ALL: [Check; 9] = [
        Check::Answer,
        Check::Panic,
        Check::Len,
        Check::Entries,
        Check::Stats,
        Check::Ttl,
        Check::Capacity,
        Check::Invariants,
        Check::Drops,
    ];

    fn describe(self) -> &'static str {
        match self {
            Check::Answer => "the return value differs from the model's",
            Check::Panic => "the cache panicked",
            Check::Len => "len(), or the iterator's length, differs from the model's",
            Check::Entries => "the live entries, in recency order from either end, differ from the model's",
            Check::Stats => "stats() differs from the model's",
            Check::Ttl => "ttl() differs from the model's",
            Check::Capacity => "the cache holds more than its capacity",
            Check::Invariants => "the cache's own invariant check failed",
            Check::Drops => "a key or value was dropped twice, too early, or never",
        }
    }
}

/// How a case fails: the check, and the kind of operation it failed at (`None`: when the cache
/// was dropped at the end). The minimiser keeps only candidates that fail the same way.
pub type Signature = (Check, Option<Kind>);

/// Writes a signature as `check/kind`, such as `answer/get`, or `drops/drop` for a failure
/// when the cache was dropped.
#[must_use]
pub fn signature_name((check, kind): Signature) -> String {
    let kind = kind.map_or_else(|| "drop".to_owned(), |k| format!("{k:?}"));
    format!("{check:?}/{kind}").to_lowercase()
}

/// Reads a signature written by [`signature_name`] (case and underscores do not matter).
///
/// # Errors
///
/// When the text names no check or no operation kind.
pub fn parse_signature(text: &str) -> Result<Signature, String> {
    let (check_name, kind_name) =
        text.split_once('/').ok_or("a signature reads CHECK/KIND, e.g. answer/get")?;
    let same = |a: String, b: &str| a.eq_ignore_ascii_case(&b.replace('_', ""));
    let check = Check::ALL.into_iter().find(|c| same(format!("{c:?}"), check_name));
    let check = check.ok_or_else(|| format!("unknown check '{check_name}'"))?;
    if kind_name == "drop" {
        return Ok((check, None));
    }
    let kind = Kind::ALL.into_iter().find(|k| same(format!("{k:?}"), kind_name));
    Ok((check, Some(kind.ok_or_else(|| format!("unknown operation kind '{kind_name}'"))?)))
}

/// A disagreement between the cache and the model, with everything needed to reproduce it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// How many operations ran, counting the failing one (1-based).
    pub step: usize,
    /// The failing operation; `None` when the failure showed as the cache was dropped.
    pub op: Option<Op>,
    /// Which check failed.
    pub check: Check,
    /// What the cache did.
    pub cache: String,
    /// What the model expected.
    pub model: String,
    /// The case that failed.
    pub case: Case,
}

impl Divergence {
    /// How this case fails, for comparing failures.
    #[must_use]
    pub fn signature(&self) -> Signature {
        (self.check, self.op.map(Op::kind))
    }
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (step, steps) = (self.step, self.case.ops.len());
        match self.op {
            Some(op) => write!(f, "lockstep divergence at step {step} of {steps}, {op:?}: ")?,
            None => write!(f, "lockstep divergence when the cache was dropped after the last step: ")?,
        }
        writeln!(f, "{}", self.check.describe())?;
        writeln!(f, "    cache: {}", self.cache)?;
        writeln!(f, "    model: {}", self.model)?;
        writeln!(f, "the case, as Rust:")?;
        write!(f, "{:?}", self.case)
    }
}

/// What an operation returned, in a form both sides share: values as their ids.
#[derive(PartialEq, Eq)]
enum Answer {
    Nothing,
    Flag(bool),
    Count(usize),
    Value(Option<u64>),
    /// `try_get_or_insert_with`'s `Err`.
    Failed,
    Pair(Option<(Key, u64)>),
    Walk(Box<Walked>),
    Stats {
        hits: u64,
        misses: u64,
        evictions: u64,
    },
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Nothing => write!(f, "()"),
            Answer::Flag(b) => write!(f, "{b}"),
            Answer::Count(n) => write!(f, "{n}"),
            Answer::Value(None) | Answer::Pair(None) => write!(f, "None"),
            Answer::Value(Some(v)) => write!(f, "Some(v{v})"),
            Answer::Failed => write!(f, "Err(())"),
            Answer::Pair(Some((k, v))) => write!(f, "Some(({k}, v{v}))"),
            Answer::Walk(walked) => write!(f, "lens {:?}: {}", walked.lens(), Shown(walked.entries())),
            Answer::Stats { hits, misses, evictions } => {
                write!(f, "Stats {{ hits: {hits}, misses: {misses}, evictions: {evictions} }}")
            }
        }
    }
}

/// The most steps a walk takes: one more than the entries of a cache that holds every key.
const WALK_STEPS: usize = KEYS as usize + 1;

/// What a walk saw: an iterator's `len()` before each step and at the end, and what it yielded,
/// front to back. A tenth of the corpus's operations walk, and their answers, in two `Vec`s each,
/// made most of a replay's allocations: this is one, boxed so that the other answers, moved
/// several times a step, stay a few words wide.
#[derive(Eq)]
struct Walked {
    lens: [usize; WALK_STEPS + 1],
    entries: [(Key, u64); WALK_STEPS],
    lens_len: u8,
    entries_len: u8,
}

impl Walked {
    fn lens(&self) -> &[usize] {
        &self.lens[..usize::from(self.lens_len)]
    }

    fn entries(&self) -> &[(Key, u64)] {
        &self.entries[..usize::from(self.entries_len)]
    }
}

impl PartialEq for Walked {
    fn eq(&self, other: &Self) -> bool {
        self.lens() == other.lens() && self.entries() == other.entries()
    }
}

/// Entries as a report shows them: `[(1, v3), (0, v2)]`.
struct Shown<'a>(&'a [(Key, u64)]);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: Vec<String> = self.0.iter().map(|(k, v)| format!("({k}, v{v})")).collect();
        write!(f, "[{}]", shown.join(", "))
    }
}

/// The cache's own default hasher, with a fixed seed instead of a random one per cache: the same
/// bytes then run the same code on every replay (the index's probes included), so a failure
/// found once is found again, and libFuzzer sees the same coverage for the same input.
type TestCache = Cache<TrackedKey, Value, ManualClock, FixedState>;
type TestModel = Model<Key, u64>;

/// Does `retain` keep this key? The mask's bit `key` says.
fn keeps(mask: u16, key: Key) -> bool {
    u32::from(mask) >> key & 1 == 1
}

/// Applies `op` to the model; `None` for an operation the contract says nothing about
/// ([`Op::CloneCache`] leaves the same cache; [`Op::HashPanics`] and [`Op::DropPanics`] only arm
/// the cache's keys and values).
fn on_model(model: &mut TestModel, op: Op, fresh: u64) -> (Answer, Option<Transition>) {
    // Each turns a model method's answer into the driver's.
    let owned_value = |(v, t)| (Answer::Value(v), t);
    let owned_pair = |(p, t)| (Answer::Pair(p), t);
    let value = |(v, t): (Option<&u64>, Transition)| (Answer::Value(v.copied()), t);
    let pair = |(p, t): (Option<(&Key, &u64)>, Transition)| (Answer::Pair(p.map(|(k, v)| (*k, *v))), t);
    let flag = |(b, t)| (Answer::Flag(b), t);
    let count = |(n, t)| (Answer::Count(n), t);
    let replaced =
        |(v, t): (Option<&mut u64>, Transition)| (Answer::Value(v.map(|v| mem::replace(v, fresh))), t);
    let (answer, transition) = match op {
        Op::Put(k) => owned_value(model.put(k, fresh)),
        Op::Push(k) => owned_pair(model.push(k, fresh)),
        Op::Get(k) => value(model.get(&k)),
        Op::GetMut(k) => replaced(model.get_mut(&k)),
        Op::GetOrInsert(k) => {
            let (v, t) = model.get_or_insert_with(k, || fresh);
            (Answer::Value(v.map(|v| *v)), t)
        }
        Op::TryGetOrInsertErr(k) => {
            let (v, t) = model.try_get_or_insert_with(k, || Err(()));
            (v.map_or(Answer::Failed, |v| Answer::Value(v.map(|v| *v))), t)
        }
        Op::Peek(k) => value(model.peek(&k)),
        Op::PeekMut(k) => replaced(model.peek_mut(&k)),
        Op::Contains(k) => flag(model.contains(&k)),
        Op::Remove(k) => owned_value(model.remove(&k)),
        Op::PeekLru => pair(model.peek_lru()),
        Op::PeekMru => pair(model.peek_mru()),
        Op::PopLru => owned_pair(model.pop_lru()),
        Op::PopMru => owned_pair(model.pop_mru()),
        Op::Promote(k) => flag(model.promote(&k)),
        Op::Demote(k) => flag(model.demote(&k)),
        Op::Len => count(model.len()),
        Op::IsEmpty => flag(model.is_empty()),
        Op::Capacity => count(model.capacity()),
        Op::Resize(c) => (Answer::Nothing, model.resize(c)),
        Op::Clear => (Answer::Nothing, model.clear()),
        Op::Retain(mask) => (Answer::Nothing, model.retain(|k, _| keeps(mask, *k))),
        Op::Iter => {
            let (all, t) = model.iter();
            let steps = all.len() + 1;
            (walk(all.into_iter(), steps, false, |(k, v)| (*k, *v)), t)
        }
        Op::IntoIter(n) => {
            let new = Model::new(model.capacity().0, model.ttl(), model.now());
            let (all, t) = mem::replace(model, new).into_entries();
            let steps = usize::from(n).min(all.len() + 1);
            (walk(all.into_iter(), steps, false, |entry| entry), t)
        }
        Op::IterMut(k) => {
            let (all, t) = model.iter_mut();
            let steps = all.len() + 1;
            let written =
                |(key, v): (&Key, &mut u64)| (*key, if *key == k { mem::replace(v, fresh) } else { *v });
            (walk(all.into_iter(), steps, k % 2 == 1, written), t)
        }
        Op::Stats => {
            let (s, t) = model.stats();
            (Answer::Stats { hits: s.hits, misses: s.misses, evictions: s.evictions }, t)
        }
        Op::Advance(ticks) => (Answer::Nothing, model.advance(ticks)),
        // A clone is the same cache: the model goes on as it is.
        Op::CloneCache | Op::HashPanics(_) | Op::DropPanics(_) => return (Answer::Nothing, None),
    };
    (answer, Some(transition))
}

/// Applies `op` to the cache. `bound` caps how many entries an iterator is walked for: one more
/// than the model held before the step shows a difference, and a buggy cache's iterator may
/// never end.
///
/// The calls that may hash or drop keys and values run with the fuses counting
/// ([`Books::with_fuse`]); what they hand back is dropped here, after, by the driver.
fn on_cache(
    cache: &mut TestCache,
    clock: &ManualClock,
    books: &Rc<Books>,
    op: Op,
    fresh: u64,
    bound: usize,
) -> Answer {
    let key = |k| TrackedKey::new(k, books);
    let value = || Value::new(fresh, books);
    let pair = |p: Option<(&TrackedKey, &Value)>| Answer::Pair(p.map(|(k, v)| (k.key, v.id)));
    let handed_back = |p: Option<(TrackedKey, Value)>| Answer::Pair(p.map(|(k, v)| (k.key, v.id)));
    // Values handed back are dropped right here, once their id is read.
    match op {
        Op::Put(k) => Answer::Value(books.with_fuse(|| cache.put(key(k), value())).map(|v| v.id)),
        Op::Push(k) => handed_back(books.with_fuse(|| cache.push(key(k), value()))),
        Op::Get(k) => Answer::Value(books.with_fuse(move || cache.get(&k)).map(|v| v.id)),
        Op::GetMut(k) => {
            let found = books.with_fuse(move || cache.get_mut(&k));
            Answer::Value(found.map(|v| mem::replace(v, value()).id))
        }
        Op::GetOrInsert(k) => {
            let found = books.with_fuse(move || cache.get_or_insert_with(key(k), value));
            Answer::Value(found.map(|v| v.id))
        }
        Op::TryGetOrInsertErr(k) => {
            let found = books.with_fuse(move || cache.try_get_or_insert_with(key(k), || Err(())));
            found.map_or(Answer::Failed, |v| Answer::Value(v.map(|v| v.id)))
        }
        Op::Peek(k) => Answer::Value(cache.peek(&k).map(|v| v.id)),
        Op::PeekMut(k) => {
            let found = books.with_fuse(move || cache.peek_mut(&k));
            Answer::Value(found.map(|v| mem::replace(v, value()).id))
        }
        Op::Contains(k) => Answer::Flag(cache.contains(&k)),
        Op::Remove(k) => Answer::Value(books.with_fuse(|| cache.remove(&k)).map(|v| v.id)),
        Op::PeekLru => pair(cache.peek_lru()),
        Op::PopLru => handed_back(books.with_fuse(|| cache.pop_lru())),
        Op::PeekMru => pair(cache.peek_mru()),
        Op::PopMru => handed_back(books.with_fuse(|| cache.pop_mru())),
        Op::Promote(k) => Answer::Flag(books.with_fuse(|| cache.promote(&k))),
        Op::Demote(k) => Answer::Flag(books.with_fuse(|| cache.demote(&k))),
        Op::Len => Answer::Count(cache.len()),
        Op::IsEmpty => Answer::Flag(cache.is_empty()),
        Op::Capacity => Answer::Count(cache.capacity()),
        Op::Resize(c) => {
            books.with_fuse(|| cache.resize(c));
            Answer::Nothing
        }
        Op::Clear => {
            books.with_fuse(|| cache.clear());
            Answer::Nothing
        }
        Op::Retain(mask) => {
            books.with_fuse(|| cache.retain(|k, _| keeps(mask, k.key)));
            Answer::Nothing
        }
        Op::Iter => walk(cache.iter(), bound, false, |(k, v)| (k.key, v.id)),
        Op::IterMut(k) => {
            let iter = books.with_fuse(|| cache.iter_mut());
            // One fresh value, written into the first entry of key `k` the walk meets.
            let mut write = Some(value);
            let written = |(key, v): (&TrackedKey, &mut Value)| match write.take_if(|_| key.key == k) {
                Some(value) => (key.key, mem::replace(v, value()).id),
                None => (key.key, v.id),
            };
            // Three entries make two steps from the end walked first: an odd key starts at the back.
            walk(iter, bound, k % 2 == 1, written)
        }
        Op::IntoIter(n) => {
            let old = mem::replace(cache, new_cache(cache.capacity(), cache.ttl(), clock));
            let mut iter = books.with_fuse(|| old.into_iter());
            let taken = walk(iter.by_ref(), usize::from(n).min(bound), false, |(k, v)| (k.key, v.id));
            // What it did not yield, the iterator drops: the cache's own work.
            books.with_fuse(|| drop(iter));
            taken
        }
        Op::Stats => {
            let s = cache.stats();
            Answer::Stats { hits: s.hits, misses: s.misses, evictions: s.evictions }
        }
        Op::Advance(ticks) => {
            clock.advance(ticks);
            Answer::Nothing
        }
        Op::CloneCache => {
            // The original is dropped here, with its keys and values: what the copy holds
            // must be its own.
            *cache = cache.clone();
            Answer::Nothing
        }
        Op::HashPanics(n) => {
            books.light_hash_fuse(n.into());
            Answer::Nothing
        }
        Op::DropPanics(n) => {
            books.light_drop_fuse(n.into());
            Answer::Nothing
        }
    }
}

/// Walks `iter` from both ends in turn, front first, and returns the first step at which its
/// `len()` is not the number of the `len` items still to come, with what it said. The items
/// themselves are compared elsewhere; this allocates nothing.
fn miscounted_step<I: DoubleEndedIterator + ExactSizeIterator>(
    mut iter: I,
    len: usize,
) -> Option<(usize, usize)> {
    for step in 0..=len {
        let said = iter.len();
        if said != len - step {
            return Some((step, said));
        }
        if step_from_both_ends(&mut iter, step, false).1.is_none() {
            break;
        }
    }
    None
}

/// Step `step` of a walk from both ends in turn: from the front on even steps, unless
/// `back_first`. Says whether it stepped from the front, and what it got.
fn step_from_both_ends<I: DoubleEndedIterator>(
    iter: &mut I,
    step: usize,
    back_first: bool,
) -> (bool, Option<I::Item>) {
    let from_front = (step % 2 == 1) == back_first;
    (from_front, if from_front { iter.next() } else { iter.next_back() })
}

/// Walks `iter` from both ends in turn, starting from the back if `back_first`, `bound` steps
/// at most (a few: one more than the model's length), and answers with its `len()` before each
/// step and at the end, and what it yielded, front to back, each item as `seen` makes it.
fn walk<I, F>(mut iter: I, bound: usize, back_first: bool, mut seen: F) -> Answer
where
    I: DoubleEndedIterator + ExactSizeIterator,
    F: FnMut(I::Item) -> (Key, u64),
{
    debug_assert!(bound <= WALK_STEPS, "a walk of {bound} steps");
    let bound = bound.min(WALK_STEPS);
    let mut walked = Box::new(Walked {
        lens: [0; WALK_STEPS + 1],
        entries: [(0, 0); WALK_STEPS],
        lens_len: 0,
        entries_len: 0,
    });
    // Items from the front fill `entries` from its start, items from the back from `bound` down.
    let (mut front, mut back, mut steps) = (0, bound, 0);
    for step in 0..bound {
        walked.lens[steps] = iter.len();
        steps += 1;
        let (from_front, item) = step_from_both_ends(&mut iter, step, back_first);
        let Some(item) = item else { break };
        if from_front {
            walked.entries[front] = seen(item);
            front += 1;
        } else {
            back -= 1;
            walked.entries[back] = seen(item);
        }
    }
    walked.lens[steps] = iter.len();
    walked.entries.copy_within(back..bound, front);
    // At most WALK_STEPS + 1 and WALK_STEPS, twelve and eleven: each fits in a byte.
    walked.lens_len = (steps + 1) as u8;
    walked.entries_len = (front + bound - back) as u8;
    Answer::Walk(walked)
}

/// An empty cache under test, hashing with a fixed seed and reading `clock`.
fn new_cache(capacity: usize, ttl: Option<u64>, clock: &ManualClock) -> TestCache {
    Cache::with_clock_and_hasher(capacity, ttl, clock.clone(), FixedState::default())
}

/// A failed check: which, what the cache showed, what the model expected. Boxed: every step
/// passes an `Ok(())` up through several calls, and a boxed failure keeps that result one word
/// wide (2% fewer instructions per replay than the failure inline).
struct Failure(Box<(Check, String, String)>);

fn differ(check: Check, cache: impl fmt::Display, model: impl fmt::Display) -> Failure {
    Failure(Box::new((check, cache.to_string(), model.to_string())))
}

/// The invariants, checked after every operation.
fn check_state(cache: &TestCache, model: &TestModel, books: &Books) -> Result<(), Failure> {
    let (len, _) = model.len();
    let cache_len = cache.len();
    if cache_len != len {
        return Err(differ(Check::Len, cache_len, len));
    }
    // Compared without collecting (this runs after every step), and only as far as one entry
    // past the model's: a buggy cache's iterator may not end. From the front, then from the back,
    // then from both ends in turn; each walk a copy of one iterator, made once.
    let live = cache.iter();
    let expected = || model.live().map(|(&k, &v)| (k, v));
    let actual = || live.clone().take(len + 1).map(|(k, v)| (k.key, v.id));
    if !actual().eq(expected()) {
        return Err(differ(
            Check::Entries,
            Shown(&actual().collect::<Vec<_>>()),
            Shown(&expected().collect::<Vec<_>>()),
        ));
    }
    let actual_back = || live.clone().rev().take(len + 1).map(|(k, v)| (k.key, v.id));
    if !actual_back().eq(expected().rev()) {
        return Err(differ(
            Check::Entries,
            format_args!("{} from the back", Shown(&actual_back().collect::<Vec<_>>())),
            Shown(&expected().rev().collect::<Vec<_>>()),
        ));
    }
    if let Some((step, said)) = miscounted_step(live, len) {
        let shown = format_args!("iter().len() {said} after {step} steps from both ends");
        return Err(differ(Check::Len, shown, len - step));
    }
    let (s, m) = (cache.stats(), model.stats().0);
    if (s.hits, s.misses, s.evictions) != (m.hits, m.misses, m.evictions) {
        let show = |h, mi, e| Answer::Stats { hits: h, misses: mi, evictions: e };
        return Err(differ(
            Check::Stats,
            show(s.hits, s.misses, s.evictions),
            show(m.hits, m.misses, m.evictions),
        ));
    }
    if cache.ttl() != model.ttl() {
        let show = |ttl: Option<u64>| format!("ttl {ttl:?}");
        return Err(differ(Check::Ttl, show(cache.ttl()), show(model.ttl())));
    }
    let capacity = model.capacity().0;
    if cache.capacity() != capacity {
        return Err(differ(Check::Capacity, format!("capacity {}", cache.capacity()), capacity));
    }
    check_held(cache, len, books)?;
    // The entries check passed: the cache's live values are the model's, id for id, and a walk
    // through the model's costs less than a third one through the cache.
    check_alive(expected(), books)
}

/// What the contract promises even after a user callback panicked: nothing held beyond the
/// capacity, the cache's own invariants, and no value dropped twice or while still in the
/// cache.
fn check_sound(cache: &TestCache, books: &Books) -> Result<(), Failure> {
    let len = cache.len();
    check_held(cache, len, books)?;
    // The invariants hold, so the cache's iterator ends; the bound is for a cache that lies.
    check_alive(cache.iter().take(len + 1).map(|(k, v)| (k.key, v.id)), books)
}

/// Nothing held beyond the capacity, the cache's own invariants, and no key or value dropped
/// twice; `len` is the cache's.
fn check_held(cache: &TestCache, len: usize, books: &Books) -> Result<(), Failure> {
    let capacity = cache.capacity();
    let held = len.max(books.values_alive()).max(books.keys_alive());
    if held > capacity {
        let shown = format!(
            "capacity {capacity}, {len} live entries, {} values and {} keys not dropped",
            books.values_alive(),
            books.keys_alive()
        );
        return Err(differ(Check::Capacity, shown, format!("at most {capacity} of each")));
    }
    cache.check_invariants().map_err(|e| differ(Check::Invariants, e, "Ok(())"))?;
    if let Some(what) = books.double_drop() {
        let what = match what {
            Twice::Key => "a key".to_owned(),
            Twice::Value(id) => format!("value v{id}"),
        };
        return Err(differ(
            Check::Drops,
            format!("dropped {what} twice"),
            "every key and value dropped once",
        ));
    }
    Ok(())
}

/// No value of these live entries has been dropped.
fn check_alive(live: impl Iterator<Item = (Key, u64)>, books: &Books) -> Result<(), Failure> {
    match books.first_dead(live) {
        Some((k, v)) => {
            Err(differ(Check::Drops, format!("dropped v{v} of live key {k}"), "live values are not dropped"))
        }
        None => Ok(()),
    }
}

/// After the cache is dropped: every value made was dropped exactly once, and every key.
fn check_dropped(books: &Books) -> Result<(), Failure> {
    let lives = books.lives();
    let leaked: Vec<String> = (0..)
        .zip(&lives)
        .filter(|(_, l)| matches!(l, Life::Alive(_)))
        .map(|(id, _)| format!("v{id}"))
        .collect();
    if !leaked.is_empty() {
        return Err(differ(
            Check::Drops,
            format!("never dropped {}", leaked.join(", ")),
            "all values dropped",
        ));
    }
    if let Some(id) = (0..).zip(&lives).find(|(_, l)| **l == Life::DroppedAgain).map(|(id, _)| id) {
        return Err(differ(Check::Drops, format!("dropped v{id} twice"), "every value dropped once"));
    }
    if books.keys_alive() != 0 || books.double_drop().is_some() {
        return Err(differ(
            Check::Drops,
            format!("{} keys never dropped, or one dropped twice", books.keys_alive()),
            "all keys dropped once",
        ));
    }
    Ok(())
}

/// The failure for a panic where none belongs, with what it said if it said it in text (as
/// `panic!` does).
fn panicked(payload: &(dyn Any + Send)) -> Failure {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    differ(Check::Panic, format!("panicked: {}", text.unwrap_or("(a non-string payload)")), "no panic")
}

/// A fresh value id for an operation that writes a value, else an id no value carries.
fn fresh_value(books: &Books, op: Op) -> u64 {
    let writes = matches!(
        op,
        Op::Put(_) | Op::Push(_) | Op::GetMut(_) | Op::GetOrInsert(_) | Op::PeekMut(_) | Op::IterMut(_)
    );
    if writes { books.fresh_id() } else { u64::MAX }
}

/// The checks of one step that ran under `catch_unwind`, and whether it ended in a planted
/// `Hash` or `Drop` panic. That panic is no failure in itself (the contract lets a user's
/// callback panic); after it, only what the contract still promises is checked, and a cache
/// the panic left broken may panic in those checks too: that is a failure like any other.
fn settle(
    outcome: std::thread::Result<Result<(), Failure>>,
    cache: &TestCache,
    books: &Books,
) -> (Result<(), Failure>, bool) {
    match outcome {
        Ok(checked) => (checked, false),
        Err(_) if books.fuse_burnt() => {
            let checked = catch_unwind(AssertUnwindSafe(|| check_sound(cache, books)));
            (checked.unwrap_or_else(|panic| Err(panicked(&*panic))), true)
        }
        Err(panic) => (Err(panicked(&*panic)), false),
    }
}

/// Replays `case` against the cache and the model in lockstep, checking after every step, and
/// tells `observe` the model's transition for each operation that passed.
///
/// # Errors
///
/// The first divergence.
pub fn replay(case: &Case, observe: &mut dyn FnMut(Transition)) -> Result<(), Box<Divergence>> {
    let books = Rc::new(Books::with_room(case.ops.len()));
    let clock = ManualClock::new(case.start);
    let mut cache = new_cache(case.capacity, case.ttl, &clock);
    let mut model: TestModel = Model::new(case.capacity, case.ttl, case.start);
    let diverged = |step, op, failure: Failure| {
        let (check, cache, model) = *failure.0;
        Box::new(Divergence { step, op, check, cache, model, case: case.clone() })
    };

    let mut steps = (1..).zip(&case.ops);
    for (step, &op) in steps.by_ref() {
        let fresh = fresh_value(&books, op);
        // Taken before the model moves on: `IntoIter` leaves it empty.
        let bound = model.len().0 + 1;
        let (expected, transition) = on_model(&mut model, op, fresh);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let answer = on_cache(&mut cache, &clock, &books, op, fresh, bound);
            if answer != expected {
                let name = transition.map_or("no transition", Transition::name);
                return Err(differ(Check::Answer, answer, format!("{expected} ({name})")));
            }
            check_state(&cache, &model, &books)
        }));
        let (checked, planted_panic) = settle(outcome, &cache, &books);
        checked.map_err(|failure| diverged(step, Some(op), failure))?;
        if planted_panic {
            break;
        }
        if let Some(transition) = transition {
            observe(transition);
        }
    }
    // After a planted panic, if there was one, the cache's contents are unspecified: the rest of
    // the case runs on the cache alone, checked for what the contract still promises.
    for (step, &op) in steps {
        let fresh = fresh_value(&books, op);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            on_cache(&mut cache, &clock, &books, op, fresh, usize::from(KEYS) + 1);
            check_sound(&cache, &books)
        }));
        settle(outcome, &cache, &books).0.map_err(|failure| diverged(step, Some(op), failure))?;
    }

    let dropped = catch_unwind(AssertUnwindSafe(|| drop(cache)));
    dropped.map_err(|panic| diverged(case.ops.len(), None, panicked(&*panic)))?;
    check_dropped(&books).map_err(|failure| diverged(case.ops.len(), None, failure))
}

/// Replays `case` and panics with a readable report on the first divergence.
///
/// # Panics
///
/// When the cache and the model disagree: that is the point.
pub fn check(case: &Case) {
    if let Err(divergence) = replay(case, &mut |_| {}) {
        panic!("{divergence}");
    }
}
