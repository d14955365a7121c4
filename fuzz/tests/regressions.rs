//! Every divergence found, shrunk to its shortest form, as a test that reads in seconds (sled's
//! `00_regression.rs` style). `scripts/promote ARTIFACT` appends here and writes the case's
//! bytes to `corpus/regressions/` under the test's name.

use fuzz::check;
use fuzz::ops::Case;
use fuzz::ops::Op::*;

// The three classic bugs of model-based testing, written by hand before any fuzzing.

/// `get` must make the entry the most recently used: `1`, not `0`, is evicted by `Put(3)`.
#[test]
fn classic_get_refreshes_recency() {
    check(&Case { capacity: 3, ttl: None, start: 0, ops: vec![Put(0), Put(1), Put(2), Get(0), Put(3)] });
}

/// Overwriting a live key in a full cache must evict nothing.
#[test]
fn classic_overwrite_at_capacity_evicts_nothing() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Put(0), Get(1)] });
}

/// A removed key must leave no ghost that is later evicted in place of a live entry.
#[test]
fn classic_removed_key_leaves_no_ghost() {
    check(&Case { capacity: 2, ttl: None, start: 0, ops: vec![Put(0), Put(1), Remove(0), Put(2), Get(1)] });
}
