//! The planted bugs keep applying as the cache changes: every edit still finds its text, once.

use std::fs;

use fuzz::bugs::{BUGS, plant};
use fuzz::corpus;

#[test]
fn every_planted_bug_still_applies_to_the_cache() {
    for bug in BUGS {
        let source =
            fs::read_to_string(corpus::root().join(bug.file)).expect("the cache's source is readable");
        let planted =
            plant(bug, &source).unwrap_or_else(|e| panic!("{e}: rewrite this bug for the new code"));
        assert_ne!(planted, source, "bug {} changes nothing", bug.name);
    }
    assert!(BUGS.len() >= 14);
}

#[test]
fn planted_bug_names_are_unique() {
    let mut names: Vec<&str> = BUGS.iter().map(|b| b.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), BUGS.len());
}
