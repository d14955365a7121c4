//! Keys and values that keep books, so the driver sees a double drop, or a live value dropped, at
//! the step that causes it, and a leak as soon as the cache holds more than its capacity, or at
//! the latest when it is dropped.

use std::borrow::Borrow;
use std::cell::{Cell, RefCell};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::ops::Key;

/// The life of one value id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Life {
    /// Handed out by [`Books::fresh_id`], but no value was made with it.
    Unused,
    /// Made, with this many copies not dropped yet: more than one only while a clone of the
    /// cache ([`Op::CloneCache`]) and the original both live.
    ///
    /// [`Op::CloneCache`]: crate::ops::Op::CloneCache
    Alive(u32),
    Dropped,
    /// Dropped more than once: a bug in whoever dropped it.
    DroppedAgain,
}

/// What was dropped twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Twice {
    /// A key (keys are counted, not named).
    Key,
    /// The value with this id.
    Value(u64),
}

/// What one replay made and dropped.
#[derive(Debug, Default)]
pub(crate) struct Books {
    values: RefCell<Vec<Life>>,
    values_alive: Cell<usize>,
    keys_alive: Cell<usize>,
    /// Set when anything was dropped twice.
    double_drop: Cell<Option<Twice>>,
    /// How many more hashes of keys the cache was given until one panics ([`Op::HashPanics`]);
    /// 0: none.
    ///
    /// [`Op::HashPanics`]: crate::ops::Op::HashPanics
    hash_fuse: Cell<u32>,
    /// How many more drops of keys and values until one panics ([`Op::DropPanics`]); 0: none.
    ///
    /// [`Op::DropPanics`]: crate::ops::Op::DropPanics
    drop_fuse: Cell<u32>,
    /// Whether hashes and drops count down the fuses: only inside the cache's own operations,
    /// never in the driver's checks or when it drops what the cache handed back.
    fuse_counts: Cell<bool>,
    /// Set when a fuse burnt down and a `Hash` or a `Drop` panicked.
    fuse_burnt: Cell<bool>,
    /// Set by the first planted panic, for good: a case plants one panic at most.
    planted: Cell<bool>,
}

impl Books {
    /// Books with room for `ids` value ids: one replay hands out at most one per operation, and
    /// growing the list on the way would cost every fuzzer execution a few reallocations.
    pub(crate) fn with_room(ids: usize) -> Self {
        Books { values: RefCell::new(Vec::with_capacity(ids)), ..Books::default() }
    }

    /// The id the next fresh value will carry, in the cache and in the model alike.
    pub(crate) fn fresh_id(&self) -> u64 {
        let mut values = self.values.borrow_mut();
        values.push(Life::Unused);
        values.len() as u64 - 1
    }

    /// The first of these entries whose value is not alive; the books are borrowed once for
    /// all of them, since the driver asks after every step.
    pub(crate) fn first_dead<K>(&self, mut entries: impl Iterator<Item = (K, u64)>) -> Option<(K, u64)> {
        let values = self.values.borrow();
        entries.find(|&(_, id)| !matches!(values.get(id as usize), Some(Life::Alive(_))))
    }

    /// Every id with its life, for the final check.
    pub(crate) fn lives(&self) -> Vec<Life> {
        self.values.borrow().clone()
    }

    pub(crate) fn values_alive(&self) -> usize {
        self.values_alive.get()
    }

    pub(crate) fn keys_alive(&self) -> usize {
        self.keys_alive.get()
    }

    pub(crate) fn double_drop(&self) -> Option<Twice> {
        self.double_drop.get()
    }

    /// Makes the `hashes`-th hash of a key the cache was given from now on panic (0: none),
    /// unless a planted panic has happened (see [`Op::HashPanics`]).
    ///
    /// [`Op::HashPanics`]: crate::ops::Op::HashPanics
    pub(crate) fn light_hash_fuse(&self, hashes: u32) {
        if !self.planted.get() {
            self.hash_fuse.set(hashes);
        }
    }

    /// Makes the `drops`-th drop of a key or value by the cache from now on panic (0: none),
    /// unless a planted panic has happened.
    pub(crate) fn light_drop_fuse(&self, drops: u32) {
        if !self.planted.get() {
            self.drop_fuse.set(drops);
        }
    }

    /// Counts one call of a user callback against `fuse`, inside the cache's own work, and
    /// panics when it burns down.
    fn burn(&self, fuse: &Cell<u32>) {
        let left = fuse.get();
        // Never while unwinding from another panic: a second one would abort the process.
        if self.fuse_counts.get() && left > 0 && !std::thread::panicking() {
            fuse.set(left - 1);
            if left == 1 {
                // The one panic of the case: the other fuse goes out, and neither is lit again.
                self.fuse_burnt.set(true);
                self.planted.set(true);
                self.hash_fuse.set(0);
                self.drop_fuse.set(0);
                // Unwinds without the panic hook: the panic is expected, so nothing is printed
                // (libFuzzer's hook would abort), and no message is formatted.
                std::panic::resume_unwind(Box::new(PLANTED_PANIC));
            }
        }
    }

    /// Runs one of the cache's operations with the fuse counting down. If the operation panics,
    /// the counting goes on until [`Books::fuse_burnt`] is asked.
    pub(crate) fn with_fuse<T>(&self, operation: impl FnOnce() -> T) -> T {
        self.fuse_counts.set(true);
        let result = operation();
        self.fuse_counts.set(false);
        result
    }

    /// Whether a fuse made a `Hash` or a `Drop` panic since the last call; clears the mark.
    pub(crate) fn fuse_burnt(&self) -> bool {
        self.fuse_counts.set(false);
        self.fuse_burnt.replace(false)
    }
}

/// What the planted `Hash` and `Drop` panics say.
pub(crate) const PLANTED_PANIC: &str = "a planted panic in a user callback (HashPanics, DropPanics)";

/// A value in the cache: an id from [`Books::fresh_id`], and the books it reports its drop to.
#[derive(Debug)]
pub(crate) struct Value {
    pub(crate) id: u64,
    books: Rc<Books>,
}

impl Value {
    pub(crate) fn new(id: u64, books: &Rc<Books>) -> Self {
        books.values.borrow_mut()[id as usize] = Life::Alive(1);
        books.values_alive.set(books.values_alive.get() + 1);
        Value { id, books: Rc::clone(books) }
    }
}

/// A copy with the same id: the books count it, and expect one more drop.
impl Clone for Value {
    fn clone(&self) -> Self {
        {
            let mut values = self.books.values.borrow_mut();
            let life = &mut values[self.id as usize];
            // Anything else is already in the books as a drop too many.
            if let Life::Alive(copies) = life {
                *copies += 1;
                self.books.values_alive.set(self.books.values_alive.get() + 1);
            }
        }
        Value { id: self.id, books: Rc::clone(&self.books) }
    }
}

impl Drop for Value {
    fn drop(&mut self) {
        {
            let mut values = self.books.values.borrow_mut();
            let life = &mut values[self.id as usize];
            if let Life::Alive(copies) = *life {
                *life = if copies > 1 { Life::Alive(copies - 1) } else { Life::Dropped };
                self.books.values_alive.set(self.books.values_alive.get() - 1);
            } else {
                *life = Life::DroppedAgain;
                self.books.double_drop.set(Some(Twice::Value(self.id)));
            }
        }
        // Only the planted panic, once the drop is in the books, and never while unwinding.
        self.books.burn(&self.books.drop_fuse);
    }
}

/// A key in the cache. It hashes and compares as its number, so the cache can be asked with a
/// plain `&Key` (`u8`) through `Borrow`.
#[derive(Debug)]
pub(crate) struct TrackedKey {
    pub(crate) key: Key,
    books: Rc<Books>,
}

impl TrackedKey {
    pub(crate) fn new(key: Key, books: &Rc<Books>) -> Self {
        books.keys_alive.set(books.keys_alive.get() + 1);
        TrackedKey { key, books: Rc::clone(books) }
    }
}

impl Clone for TrackedKey {
    fn clone(&self) -> Self {
        TrackedKey::new(self.key, &self.books)
    }
}

impl Drop for TrackedKey {
    fn drop(&mut self) {
        match self.books.keys_alive.get().checked_sub(1) {
            Some(n) => self.books.keys_alive.set(n),
            None => self.books.double_drop.set(Some(Twice::Key)),
        }
        self.books.burn(&self.books.drop_fuse);
    }
}

impl PartialEq for TrackedKey {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for TrackedKey {}

impl Hash for TrackedKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.books.burn(&self.books.hash_fuse);
        // Must hash exactly as `Key` does, for `Borrow<Key>`.
        self.key.hash(state);
    }
}

impl Borrow<Key> for TrackedKey {
    fn borrow(&self) -> &Key {
        &self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_is_one_more_copy_to_drop() {
        let books = Rc::new(Books::with_room(1));
        let id = books.fresh_id();
        let value = Value::new(id, &books);
        let copy = value.clone();
        let key = TrackedKey::new(3, &books).clone();
        let life = |id: u64| books.lives()[id as usize];
        assert_eq!((life(id), books.values_alive(), books.keys_alive()), (Life::Alive(2), 2, 1));
        drop(value);
        assert_eq!((life(id), books.values_alive()), (Life::Alive(1), 1));
        drop((copy, key));
        assert_eq!((life(id), books.values_alive(), books.keys_alive()), (Life::Dropped, 0, 0));
        assert_eq!(books.double_drop(), None);
    }
}
