//! The generator's promise: whatever the bytes, the case they decode to encodes back to bytes
//! that decode to the same case.
#![no_main]

libfuzzer_sys::fuzz_target!(|case: fuzz::Case| fuzz::generate::check_roundtrip(&case));
