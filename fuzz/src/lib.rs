/*!
Lockstep fuzzing of the `cache` crate against its reference `model`.

The vocabulary, used everywhere in this crate:

* a **case** ([`Case`]) is a cache configuration and a list of **operations** ([`Op`]), one per
  public method of the cache, plus the passing of time;
* the **generator** ([`generate`]) turns fuzzer bytes into a case, and a case back into bytes;
* the **driver** ([`driver::replay`]) replays a case against the cache and the model in
  lockstep; its **oracle** checks every return value and every invariant after every step and
  reports a [`Divergence`];
* every front end calls that one driver: the `lockstep` libFuzzer target in `fuzz_targets/`, the
  corpus replay and regression tests in `tests/`, the minimiser, the exhaustive search and the
  ledger. (The `roundtrip` target tests the generator alone: bytes to a case and back.)
*/

// The harness is safe Rust too; only the libFuzzer glue in `fuzz_targets/` needs `no_mangle`.
#![forbid(unsafe_code)]
// All APIs need docs!
#![deny(missing_docs)]

pub mod bugs;
pub mod corpus;
pub mod driver;
pub mod exhaustive;
pub mod generate;
pub mod ledger;
pub mod minimise;
pub mod ops;
pub mod regression;
pub mod seeds;
mod tracked;

pub use crate::driver::{Check, Divergence, Signature, check, replay};
pub use crate::ops::{Case, Key, Kind, Op};

/// The body of a libFuzzer target: replay `case`; on a divergence, print the report and abort.
///
/// Aborting, not panicking: libFuzzer records either as a crash, but a panic cannot unwind out
/// through libFuzzer's C++ frames and would add a confusing "failed to initiate panic" line.
pub fn fuzz_one(case: &Case) {
    if let Err(divergence) = replay(case, &mut |_| {}) {
        eprintln!("{divergence}");
        std::process::abort();
    }
}

/// Replaces libFuzzer's abort-on-panic hook with the default one, so that a panicking cache is
/// caught by the driver and reported as a readable divergence before the fuzzer aborts.
pub fn report_panics_readably() {
    drop(std::panic::take_hook());
}
