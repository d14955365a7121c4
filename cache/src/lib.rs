/*!
A fast, safe least-recently-used cache with an optional time-to-live and an injected clock.

[`Cache`] holds at most `capacity` entries. When a new key arrives and the cache is full, the
least recently used entry makes room. With a time-to-live (ttl), every entry also vanishes a
fixed time after it was last written. Time comes from a [`Clock`] you choose: [`SystemClock`]
by default, [`CoarseClock`] where reading the system clock on every call costs too much, or a
[`ManualClock`] that tests move by hand.

# When to use it

Use it when you want the `lru` crate's API with expiry, faster and leaner than the usual LRU
crates, and without `unsafe` code. It is a single-threaded structure (`&mut self` for every
change); wrap it in a `Mutex`, or shard it, to share it between threads.

# Example

```
use cache::{Cache, ManualClock};

let clock = ManualClock::new(0);
let mut cache = Cache::with_clock(2, Some(10), clock.clone());

cache.put("a", 1);
cache.put("b", 2);
assert_eq!(cache.get(&"a"), Some(&1)); // "a" is now the most recently used
cache.put("c", 3); // full: "b", the least recently used, makes room
assert!(!cache.contains(&"b"));

clock.advance(10); // "a" and "c" were written at 0: at 10 they are gone
assert_eq!(cache.get(&"a"), None);
assert!(cache.is_empty());
```

# The contract

* **Time.** Time is whatever the clock says, in ticks; it never goes backwards (if it does,
  which entries are live is unspecified until the next write, by `put`, `push` or a missed
  `get_or_insert_with`, which caps every deadline at its own). An entry written at `w` is live
  while `now < w + ttl` (saturating) and gone from the deadline on: at exactly `w + ttl` it is
  already expired. A ttl of 0 means an entry is never seen. `put` and `push` set the write
  time, for new keys and overwrites alike; reads never move a deadline.
* **Only live entries are observable.** Every method behaves as if each entry vanished at its
  deadline: lookups miss, `len` does not count it, `iter`, `iter_mut`, `peek_lru`, `pop_lru`,
  `peek_mru`, `pop_mru` and `retain` never show it, `promote` and `demote` answer `false`, and
  `put` on its key returns `None`. (An iterator shows the entries that were live when it was
  made: it reads the clock once.)
* **Recency.** Writing an entry, or reading it with `get`, `get_mut` or
  `get_or_insert_with` (or `try_get_or_insert_with`), makes it the most recently used, and so
  does `promote`, which counts no hit; `demote` makes it the least recently used. `peek`,
  `peek_mut`, `contains`, `iter`, `iter_mut`, `len`, `peek_lru`, `peek_mru`, `retain` and misses
  leave the order alone.
* **Capacity.** A new key in a cache with `capacity` live entries evicts the least recently
  used one. An overwrite evicts nothing. An expired entry never causes a live one to be evicted.
  Capacity 0 is allowed and stores nothing. The cache never holds more than `capacity` entries,
  live or expired, so memory stays bounded whatever the clock does.
* **Ownership.** Every key and value given to the cache is either handed back (by `put`,
  `push`, `remove`, `pop_lru`, `pop_mru`, or the cache's owning iterator) or dropped by the
  cache exactly once, at the latest when the cache is dropped.
* **Robustness.** No method panics, for any capacity, ttl or clock value, unless a user
  callback (`Hash`, `Eq`, the `retain` closure, a key's or value's `Drop`) does; the cache is
  then still sound, with its invariants intact, as long as `Hash` and `Eq` give the same
  answers they gave before. A call whose `Hash` or `Eq` panics has changed nothing, or
  (`resize`, `retain`, dropping expired entries, capping deadlines after the clock went back)
  has done part of its work, never half of a step.
* **Clones.** A clone (the cache is `Clone` when its keys, values, clock and hasher are) holds
  the same entries in the same order, with the same deadlines, stats, capacity and ttl, and
  goes on independently of the original, but for the clock: it reads a clone of it, which
  for a `ManualClock` is the same time.
* **Statistics.** [`Cache::stats`] counts `get`/`get_mut`/`get_or_insert_with` hits and
  misses (a `try_get_or_insert_with` whose value fails to be made still counts its miss), and
  the live entries evicted to make room by `put`, `push`, `get_or_insert_with` and `resize`.

# Design

The layout follows the fastest peers (schnellru keeps entries in one table linked by `u32`
indices, folly's F14 finds them by one cache line of tags) while staying in safe Rust:

* **Slots.** Entries live in one densely packed `Vec`: key, value and the `u32` links of the
  recency list, 24 bytes for `u64` keys and values. Removing an entry moves the last slot into
  its place, so there are no holes, no free list and no `Option` tags. The vector grows by
  doubling but never past the capacity, and nothing is allocated before the first entry.
* **Index.** A hash index of its own maps a key's hash to its slot number, in the layout of
  folly's F14 tables: 64-byte chunks of twelve one-byte tags (seven bits of the hash) and the
  twelve `u32` slot numbers they stand for, the tags compared sixteen at a time with SIMD
  through the `wide` crate. A lookup reads one cache line and then the slot, where
  `hashbrown::HashTable<u32>` reads its control bytes, then a bucket, then the slot. Each chunk
  counts the keys that passed it full, and a removal takes its counts back: no tombstones, so a
  full cache's index is never rebuilt. Beside the chunks, one byte per slot number notes where
  its lane is (the lane, and how many probe steps from the key's home chunk), so that removing
  a slot stores into its chunk without reading it first. A rebuild notes none (noting them
  there cost a growing cache more than it saved); a slot's place is noted when it is next
  written, and until then its removal looks the lane up. It fills at most two thirds of its
  lanes, in a power of two of chunks: 9.4 bytes per entry at a million entries, the places
  included. A growing cache's index doubles as its slots do, rebuilt in slot order.
* **Expiry.** With a ttl, a parallel `Vec` holds each slot's deadline: 8 bytes per entry.
  Which entries expire next is kept for the soonest only: a pass over the deadlines lists,
  sorted, an 8-byte record (slot and deadline) for every entry whose deadline comes before a
  horizon, about one entry in eight. With one ttl and a monotonic clock, a write's deadline is
  never before the horizon, so writes list nothing; records whose entry was written again or
  removed are skipped when their time comes. Every `&mut` call compares the time with the first
  record and drops what has expired, after which every stored entry is live and lookups need no
  deadline check. When the clock reaches the horizon, the next pass lists the next entries; it
  is paid for by the listed ones, each of which has expired or been written or removed since.
  (An expiry list through every entry would find the next without a pass, for 8 bytes more
  per entry: `cache/benches/experiments.md` has the trade.) A cache without a ttl never reads
  its clock and stores no deadlines.
* **In-place eviction.** A new key in a full cache reuses the least recently used slot: one
  probe finds that the key is new, a store clears the evicted key's lane (its chunk computed
  from the key's hash and the slot's noted place, not read), and one probe puts the new key's
  in (its home chunk, just read, is in cache). Nothing is allocated.
* **A hit's relink, one call later.** A `get` that hits notes its slot and returns; the next
  `&mut` call moves that entry to the head of the recency list first (`get`, right after its
  own lookup). The relink's stores then wait on a slot number read long before, not on the
  lookup just made, and each lookup starts at once: on a Zen 3 VM this made the shared Zipf mix
  about a fifth faster at ten thousand entries. `iter`, `peek_lru` and `peek_mru` show the noted
  entry first, where it belongs.

Every single-key operation is O(1), amortised where expired entries are dropped, the deadlines
passed over or a growing index rebuilt. `len`, `is_empty`, `peek_lru` and `peek_mru` take `&self` and
cannot drop anything: `peek_lru` and `peek_mru` step over the entries that expired since the
last `&mut` call, and `len` (so `iter`) then reads every deadline to count the live ones.
`iter`, `iter_mut` and `retain` are linear; `iter_mut` also allocates a reference per entry.
Iterating the cache by value (`into_iter`) takes O(1) per entry.

# Limits

Slot indices are `u32`, one value of which means "none", so a cache stores at most `u32::MAX`
entries: a larger capacity is accepted and behaves as that many.

# Lints

`unsafe` code is forbidden, and every public item is documented. The crate reads the system
clock in one place, [`SystemClock::now`]; clippy's `disallowed-methods` keeps it that way.
*/

// Safety is the product: no `unsafe`, here or in any future change.
#![forbid(unsafe_code)]
// All APIs need docs!
#![deny(missing_docs)]

mod cache;
mod clock;
mod index;
mod invariants;
mod iter;
mod list;
mod upcoming;

pub use crate::cache::{Cache, DefaultHashBuilder, Stats};
pub use crate::clock::{Clock, CoarseClock, ManualClock, SystemClock};
pub use crate::iter::{IntoIter, Iter, IterMut};

// The README's examples compile and run as doctests, so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
