//! The checked-in corpus, replayed through the driver on stable Rust, with the checks that keep
//! it meaningful: pinned decoding, canonical bytes, and every model transition taken.

use std::fs;
use std::path::PathBuf;

use fuzz::corpus;
use fuzz::ledger::Ledger;
use fuzz::{Case, replay};

/// The corpus folders: one per fuzz target, and the regressions.
const FOLDERS: [&str; 3] = ["lockstep", "roundtrip", "regressions"];

fn all_cases() -> Vec<(PathBuf, Case)> {
    let dirs: Vec<PathBuf> = FOLDERS.iter().map(|f| corpus::dir(f)).collect();
    corpus::cases(&dirs).expect("the corpus folders are readable")
}

#[test]
fn every_corpus_file_replays_without_divergence() {
    let cases = all_cases();
    let ops: usize = cases.iter().map(|(_, c)| c.ops.len()).sum();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(file, case)| {
            replay(case, &mut |_| {}).err().map(|d| format!("{}:\n{d}", file.display()))
        })
        .collect();
    println!(
        "replayed {} corpus files ({ops} operations) from corpus/{{{}}}",
        cases.len(),
        FOLDERS.join(",")
    );
    assert!(
        failures.is_empty(),
        "{} of {} corpus files diverge; the first:\n{}",
        failures.len(),
        cases.len(),
        failures[0]
    );
    assert!(cases.len() >= 26, "the corpus holds at least the seeds");
}

#[test]
fn every_corpus_file_decodes_as_pinned() {
    for folder in FOLDERS {
        let dir = corpus::dir(folder);
        let pinned = fs::read_to_string(dir.with_extension("pins")).unwrap_or_default();
        let now = corpus::pins(&dir).expect("the corpus folder is readable");
        let moved: Vec<(&str, &str)> = pinned.lines().zip(now.lines()).filter(|(a, b)| a != b).collect();
        assert!(
            pinned == now,
            "corpus/{folder}: the decoded corpus differs from corpus/{folder}.pins ({} pinned, {} files; first change: \
             {:?}).\nA change to the generator changed what checked-in files mean. If that is intended, re-pin \
             with `cargo run -p fuzz --bin harness -- pin corpus/{folder}` and say why in the commit.",
            pinned.lines().count(),
            now.lines().count(),
            moved.first()
        );
    }
}

#[test]
fn every_corpus_file_is_canonical_so_new_operations_cannot_change_it() {
    for (file, case) in all_cases() {
        let bytes = fs::read(&file).expect("readable");
        let canonical = case.to_bytes().expect("decoded cases encode");
        assert!(
            bytes == canonical,
            "{} is not in canonical form: run `cargo run -p fuzz --bin harness -- canon DIR` (scripts/merge does)",
            file.display()
        );
    }
}

#[test]
fn the_corpus_takes_every_model_transition() {
    let mut ledger = Ledger::default();
    for (file, case) in all_cases() {
        ledger.replay(&case).unwrap_or_else(|d| panic!("{} diverges:\n{d}", file.display()));
    }
    println!("{ledger}");
    let missing: Vec<&str> = ledger.missing().iter().map(|t| t.name()).collect();
    assert!(missing.is_empty(), "transitions the corpus never takes: {}", missing.join(", "));
}

#[test]
fn the_seeds_pass_encode_and_take_every_model_transition() {
    let mut ledger = Ledger::default();
    for (name, case) in fuzz::seeds::seeds() {
        ledger.replay(&case).unwrap_or_else(|d| panic!("seed {name}:\n{d}"));
        assert_eq!(Case::from_bytes(&case.to_bytes().expect("seeds encode")), case, "seed {name}");
    }
    let missing: Vec<&str> = ledger.missing().iter().map(|t| t.name()).collect();
    assert!(missing.is_empty(), "transitions no seed takes: {}", missing.join(", "));
}
