//! The exhaustive search, to a small depth: every case of up to three operations over its tiny
//! alphabet agrees with the model.

#[test]
fn every_case_up_to_three_operations_agrees() {
    let outcome = fuzz::exhaustive::search(3, None, &mut |_| {});
    println!("exhaustive: {} cases checked", outcome.checked);
    assert!(outcome.checked > 70_000, "the search covers the alphabet, not a handful of cases");
    if let Some(divergence) = outcome.found {
        panic!("{divergence}");
    }
}
