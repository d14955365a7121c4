//! Iteration over the live entries, most recently used first (or, reversed, least recently used
//! first): by reference, by mutable reference, and by value.

use std::fmt;
use std::iter::FusedIterator;
use std::mem;

use crate::cache::Slot;
use crate::list::{Links, List, NIL};

/// An iterator over a cache's live entries, most recently used first; see
/// [`Cache::iter`](crate::Cache::iter).
///
/// It knows how many entries it will yield, and walks from either end: `.rev()` yields the
/// least recently used first. The time is read once, when the iterator is made: an entry that
/// expires while the iterator is alive is still yielded.
pub struct Iter<'a, K, V> {
    slots: &'a [Slot<K, V>],
    deadlines: &'a [u64],
    /// The slot of the cache's last hit, first in the order but not yet at the list's head
    /// (see `Cache::pending`), until it is yielded from either end; else `NIL`.
    first: u32,
    /// That slot, skipped where the list still holds it.
    skip: u32,
    /// The next slot of the list from each end.
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
    /// Walks `pending` (`NIL` for none), then the `recency` list without it, through `slots`,
    /// yielding the `live` entries alive at `now`.
    pub(crate) fn new(
        slots: &'a [Slot<K, V>],
        deadlines: &'a [u64],
        recency: List,
        pending: u32,
        now: u64,
        live: usize,
    ) -> Self {
        let (front, back, unvisited) = (recency.head, recency.tail, slots.len());
        Self { slots, deadlines, first: pending, skip: pending, front, back, now, live, unvisited }
    }

    /// Steps from the front (`forward`) or the back towards the other end, past expired entries,
    /// and returns the first live one.
    #[inline]
    fn step(&mut self, forward: bool) -> Option<(&'a K, &'a V)> {
        while self.live > 0 {
            // The last hit's slot comes first from the front (`walk` waits for it), and last
            // from the back.
            let at = self.walk(forward).unwrap_or_else(|| mem::replace(&mut self.first, NIL));
            let slot = self.slots.get(at as usize)?;
            // Without a ttl there are no deadlines and every entry is live.
            if self.deadlines.get(at as usize).is_none_or(|&deadline| self.now < deadline) {
                self.live -= 1;
                return Some((&slot.key, &slot.value));
            }
        }
        None
    }

    /// The list's next slot from the front or the back, past the last hit's, or `None` at the
    /// end. From the front, it is not walked while the last hit's slot is still to come.
    fn walk(&mut self, forward: bool) -> Option<u32> {
        if forward && self.first != NIL {
            return None;
        }
        while self.unvisited > 0 {
            let at = if forward { self.front } else { self.back };
            let slot = self.slots.get(at as usize)?;
            if forward {
                self.front = slot.recency.next;
            } else {
                self.back = slot.recency.prev;
            }
            self.unvisited -= 1;
            if at != self.skip {
                return Some(at);
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

/// A mutable iterator over a cache's live entries, most recently used first; see
/// [`Cache::iter_mut`](crate::Cache::iter_mut).
///
/// Like [`Iter`], it knows its length and walks from either end.
pub struct IterMut<'a, K, V> {
    /// Every entry by slot number, with its recency links, until it is yielded. Safe Rust cannot
    /// follow links through a slice while handing out mutable references into it, so the
    /// references are all taken at once, in slot order, and given out in list order.
    entries: Vec<Option<(&'a K, &'a mut V, Links)>>,
    /// The next slot from each end.
    front: u32,
    back: u32,
    /// Entries not yet yielded.
    left: usize,
}

impl<'a, K, V> IterMut<'a, K, V> {
    /// Walks the `recency` list through `slots`, every one of which is live.
    pub(crate) fn new(slots: &'a mut [Slot<K, V>], recency: List) -> Self {
        let left = slots.len();
        let entries = slots.iter_mut().map(|slot| Some((&slot.key, &mut slot.value, slot.recency))).collect();
        Self { entries, front: recency.head, back: recency.tail, left }
    }

    /// Takes the next entry from the front (`forward`) or the back.
    #[inline]
    fn step(&mut self, forward: bool) -> Option<(&'a K, &'a mut V)> {
        if self.left == 0 {
            return None;
        }
        let at = if forward { self.front } else { self.back };
        // Each entry can be taken once only, whatever the links say.
        let (key, value, links) = self.entries.get_mut(at as usize)?.take()?;
        if forward {
            self.front = links.next;
        } else {
            self.back = links.prev;
        }
        self.left -= 1;
        Some((key, value))
    }
}

impl<'a, K, V> Iterator for IterMut<'a, K, V> {
    type Item = (&'a K, &'a mut V);

    fn next(&mut self) -> Option<Self::Item> {
        self.step(true)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<K, V> DoubleEndedIterator for IterMut<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.step(false)
    }
}

impl<K, V> ExactSizeIterator for IterMut<'_, K, V> {}

impl<K, V> FusedIterator for IterMut<'_, K, V> {}

/// The entries still to come, as a list.
impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for IterMut<'_, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        let mut at = self.front;
        for _ in 0..self.left {
            let Some(Some((key, value, links))) = self.entries.get(at as usize) else { break };
            list.entry(&(key, value));
            at = links.next;
        }
        list.finish()
    }
}

/// An iterator that moves the live entries out of a cache, most recently used first; see the
/// cache's [`IntoIterator`] implementation.
///
/// Like [`Iter`], it knows its length and walks from either end. The entries it does not yield
/// are dropped with it.
pub struct IntoIter<K, V> {
    slots: Vec<Slot<K, V>>,
    recency: List,
}

impl<K, V> IntoIter<K, V> {
    /// Takes the `slots`, every one of which is live, in the order of the `recency` list.
    pub(crate) fn new(slots: Vec<Slot<K, V>>, recency: List) -> Self {
        Self { slots, recency }
    }

    /// Takes slot `i` out, moving the last slot into its place.
    fn take(&mut self, i: u32) -> Option<(K, V)> {
        if i == NIL {
            return None;
        }
        self.recency.unlink(&mut self.slots, i);
        let slot = self.slots.swap_remove(i as usize);
        if (i as usize) < self.slots.len() {
            self.recency.relocate(&mut self.slots, i);
        }
        Some((slot.key, slot.value))
    }
}

impl<K, V> Iterator for IntoIter<K, V> {
    type Item = (K, V);

    fn next(&mut self) -> Option<Self::Item> {
        self.take(self.recency.head)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.slots.len(), Some(self.slots.len()))
    }
}

impl<K, V> DoubleEndedIterator for IntoIter<K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.take(self.recency.tail)
    }
}

impl<K, V> ExactSizeIterator for IntoIter<K, V> {}

impl<K, V> FusedIterator for IntoIter<K, V> {}

/// The entries still to come, as a list.
impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for IntoIter<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        let mut at = self.recency.head;
        for _ in 0..self.slots.len() {
            let Some(slot) = self.slots.get(at as usize) else { break };
            list.entry(&(&slot.key, &slot.value));
            at = slot.recency.next;
        }
        list.finish()
    }
}
