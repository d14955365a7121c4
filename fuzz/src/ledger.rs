//! The coverage ledger: how often a corpus takes each of the model's named transitions.
//!
//! Line coverage says which code ran; the ledger says which behaviours of the contract a corpus
//! exercised ("put evicts the LRU entry", "get exactly at the deadline", ...). A transition the
//! checked-in corpus never takes is a behaviour nobody checks.

use std::fmt;

use model::Transition;

use crate::driver::{Divergence, replay};
use crate::ops::Case;

/// Counts of transitions taken, in the order of [`Transition::ALL`].
#[derive(Clone, Debug)]
pub struct Ledger {
    counts: Vec<u64>,
    cases: usize,
}

impl Default for Ledger {
    fn default() -> Self {
        Ledger { counts: vec![0; Transition::ALL.len()], cases: 0 }
    }
}

impl Ledger {
    /// Replays `case` through the driver and counts the transitions of the steps that passed.
    ///
    /// # Errors
    ///
    /// The case's divergence, if it has one.
    pub fn replay(&mut self, case: &Case) -> Result<(), Box<Divergence>> {
        self.cases += 1;
        let counts = &mut self.counts;
        replay(case, &mut |t| {
            if let Some(i) = Transition::ALL.iter().position(|&a| a == t) {
                counts[i] += 1;
            }
        })
    }

    /// How often `transition` was taken.
    #[must_use]
    pub fn count(&self, transition: Transition) -> u64 {
        Transition::ALL.iter().position(|&t| t == transition).map_or(0, |i| self.counts[i])
    }

    /// The transitions never taken.
    #[must_use]
    pub fn missing(&self) -> Vec<Transition> {
        Transition::ALL.iter().copied().filter(|&t| self.count(t) == 0).collect()
    }
}

impl fmt::Display for Ledger {
    /// A table of every transition with its count, then the ones never taken.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (&t, n) in Transition::ALL.iter().zip(&self.counts) {
            writeln!(f, "{n:>10}  {}", t.name())?;
        }
        let missing = self.missing();
        let taken = Transition::ALL.len() - missing.len();
        write!(f, "ledger: {} cases took {taken}/{} transitions", self.cases, Transition::ALL.len())?;
        if !missing.is_empty() {
            let names: Vec<&str> = missing.iter().map(|t| t.name()).collect();
            write!(f, "; never taken: {}", names.join(", "))?;
        }
        Ok(())
    }
}
