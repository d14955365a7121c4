//! The harness without a fuzzer: seeded random byte strings through the generator and the
//! driver, as wasmtime tests its generators. A green run means the same on every machine.

use fuzz::Case;

/// splitmix64 with a fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

const CASES: usize = 4096;

fn random_inputs() -> impl Iterator<Item = Vec<u8>> {
    let mut rng = Rng(u64::from_le_bytes(*b"testseed"));
    (0..CASES).map(move |_| {
        let len = (rng.next() % 400) as usize;
        (0..len).map(|_| rng.next() as u8).collect()
    })
}

#[test]
fn random_bytes_decode_replay_and_agree() {
    let mut ops = 0;
    for bytes in random_inputs() {
        let case = Case::from_bytes(&bytes);
        ops += case.ops.len();
        fuzz::check(&case);
    }
    println!("replayed {CASES} random cases, {ops} operations");
    assert!(ops > CASES * 50, "random inputs should decode to long cases");
}

#[test]
fn random_bytes_round_trip_through_the_encoder() {
    for bytes in random_inputs() {
        fuzz::generate::check_roundtrip(&Case::from_bytes(&bytes));
    }
}
