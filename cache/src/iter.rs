//! Iteration over the live entries, most recently used first (or, reversed, least recently used
//! first).

use std::fmt;
use std::iter::FusedIterator;

use crate::cache::{Slot, Timer};
use crate::list::List;

/// An iterator over a cache's live entries, most recently used first; see
/// [`Cache::iter`](crate::Cache::iter).
///
/// It knows how many entries it will yield, and walks from either end: `.rev()` yields the
/// least recently used first. The time is read once, when the iterator is made: an entry that
/// expires while the iterator is alive is still yielded.
pub struct Iter<'a, K, V> {
    slots: &'a [Slot<K, V>],
    timers: &'a [Timer],
    /// The next slot from each end.
    front: u32,
    back: u32,
    now: u64,
    /// Live entries not yet yielded: the iterator's exact length.
    live: usize,
    /// Slots not yet walked from either end, live or not: bounds each walk by the number of
    /// slots, whatever the links say.
    unvisited: usize,
}

impl<'a, K, V> Iter<'a, K, V> {
    /// Walks the `recency` list through `slots`, yielding the `live` entries alive at `now`.
    pub(crate) fn new(
        slots: &'a [Slot<K, V>],
        timers: &'a [Timer],
        recency: List,
        now: u64,
        live: usize,
    ) -> Self {
        Self { slots, timers, front: recency.head, back: recency.tail, now, live, unvisited: slots.len() }
    }

    /// Steps from the front (`forward`) or the back towards the other end, past expired entries,
    /// and returns the first live one.
    #[inline]
    fn step(&mut self, forward: bool) -> Option<(&'a K, &'a V)> {
        while self.live > 0 && self.unvisited > 0 {
            let at = if forward { self.front } else { self.back };
            let slot = self.slots.get(at as usize)?;
            if forward {
                self.front = slot.recency.next;
            } else {
                self.back = slot.recency.prev;
            }
            self.unvisited -= 1;
            // Without a ttl there are no timers and every entry is live.
            if self.timers.get(at as usize).is_none_or(|t| self.now < t.deadline) {
                self.live -= 1;
                return Some((&slot.key, &slot.value));
            }
        }
        None
    }
}

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        self.step(true)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.live, Some(self.live))
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.step(false)
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

impl<K, V> FusedIterator for Iter<'_, K, V> {}

impl<K, V> Clone for Iter<'_, K, V> {
    fn clone(&self) -> Self {
        Self { ..*self }
    }
}

/// The entries still to come, as a list: not the cache's internals.
impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Iter<'_, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}
