//! Test helpers: values that count their drops, and a seeded random source.
#![allow(dead_code, unreachable_pub)]

use std::cell::RefCell;
use std::rc::Rc;

/// Counts how often each tracked value was dropped, by id.
#[derive(Clone, Default)]
pub struct DropLog(Rc<RefCell<Vec<u32>>>);

impl DropLog {
    /// A new value with the next id; its drops are counted here.
    pub fn value(&self) -> Tracked {
        let mut drops = self.0.borrow_mut();
        drops.push(0);
        Tracked { id: drops.len() - 1, log: self.clone() }
    }
    pub fn drops(&self, id: usize) -> u32 {
        self.0.borrow()[id]
    }
    pub fn made(&self) -> usize {
        self.0.borrow().len()
    }
    /// Values made but not dropped yet.
    pub fn alive(&self) -> usize {
        self.0.borrow().iter().filter(|&&d| d == 0).count()
    }
    /// Panics unless every value was dropped exactly once.
    pub fn assert_all_dropped_once(&self) {
        for (id, &d) in self.0.borrow().iter().enumerate() {
            assert_eq!(d, 1, "value {id} dropped {d} times");
        }
    }
}

/// A value that records its drop in a [`DropLog`].
pub struct Tracked {
    pub id: usize,
    log: DropLog,
}

impl std::fmt::Debug for Tracked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}", self.id)
    }
}

impl PartialEq for Tracked {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        let mut drops = self.log.0.borrow_mut();
        drops[self.id] += 1;
        assert!(drops[self.id] == 1, "value {} dropped twice", self.id);
    }
}

/// splitmix64 with a fixed seed: the same sequence on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn seeded() -> Self {
        Self(u64::from_le_bytes(*b"testseed"))
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
