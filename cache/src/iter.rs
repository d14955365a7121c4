//! Iteration over the live entries, most recently used first.

use std::iter::FusedIterator;

use crate::cache::{Slot, Timer};
use crate::list::NIL;

/// An iterator over a cache's live entries, most recently used first; see
/// [`Cache::iter`](crate::Cache::iter).
///
/// The time is read once, when the iterator is made: an entry that expires while the iterator
/// is alive is still yielded.
#[derive(Debug)]
pub struct Iter<'a, K, V> {
    slots: &'a [Slot<K, V>],
    timers: &'a [Timer],
    next: u32,
    now: u64,
    /// Entries not yet visited, live or not: an upper bound for `size_hint`.
    unvisited: usize,
}

impl<'a, K, V> Iter<'a, K, V> {
    pub(crate) fn new(slots: &'a [Slot<K, V>], timers: &'a [Timer], head: u32, now: u64) -> Self {
        Self { slots, timers, next: head, now, unvisited: slots.len() }
    }
}

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        // Counting down `unvisited` bounds the walk by the number of slots, whatever the links.
        while self.next != NIL && self.unvisited > 0 {
            let i = self.next as usize;
            let slot = &self.slots[i];
            self.next = slot.recency.next;
            self.unvisited -= 1;
            // Without a ttl there are no timers and every entry is live.
            if self.timers.get(i).is_none_or(|t| self.now < t.deadline) {
                return Some((&slot.key, &slot.value));
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let lower = if self.timers.is_empty() { self.unvisited } else { 0 };
        (lower, Some(self.unvisited))
    }
}

impl<K, V> FusedIterator for Iter<'_, K, V> {}

impl<K, V> Clone for Iter<'_, K, V> {
    fn clone(&self) -> Self {
        Self { ..*self }
    }
}
