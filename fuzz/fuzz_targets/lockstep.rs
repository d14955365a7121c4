//! The main target: every public method of the cache, time included, against the model.
#![no_main]

libfuzzer_sys::fuzz_target!(init: fuzz::report_panics_readably(), |case: fuzz::Case| fuzz::fuzz_one(&case));
