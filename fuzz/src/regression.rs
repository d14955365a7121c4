//! Turns a shrunk divergence into a regression test a person reads in seconds.

use std::fmt::Write as _;

use crate::driver::Divergence;
use crate::ops::Case;

/// A regression test, ready to append to `fuzz/tests/regressions.rs`, and the bytes of its
/// case for `corpus/regressions/`.
#[derive(Debug, Clone)]
pub struct Regression {
    /// The test function's name, also the corpus file's name.
    pub name: String,
    /// The test's source code.
    pub test: String,
    /// The canonical bytes of the case.
    pub bytes: Vec<u8>,
}

/// FNV-1a: a short, stable name suffix from the case's bytes.
fn fingerprint(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Writes the test for `divergence` (already shrunk); `origin` says where it came from, such as
/// "shrunk from 57 to 3 operations (crash-…)".
///
/// # Errors
///
/// When the case cannot be encoded (the minimiser only produces cases that can).
pub fn regression(divergence: &Divergence, origin: &str) -> Result<Regression, String> {
    let case: &Case = &divergence.case;
    let bytes = case.to_bytes()?;
    let at = divergence.op.map_or_else(|| "drop".to_owned(), |op| snake(&format!("{:?}", op.kind())));
    let check = snake(&format!("{:?}", divergence.check));
    let name = format!("{at}_{check}_{:08x}", fingerprint(&bytes));
    let mut test = String::new();
    // Plain comments: the report quotes code (`len()`) that rustdoc lints would want in backticks.
    for line in divergence.to_string().lines().take_while(|l| !l.starts_with("the case")) {
        let _ = writeln!(test, "// {line}");
    }
    let _ = writeln!(test, "//\n// Found by fuzzing; {origin}.");
    let _ = writeln!(test, "#[test]\nfn {name}() {{");
    let body = format!("{case:?}").replace('\n', "\n    ");
    let _ = writeln!(test, "    check(&{body});\n}}");
    Ok(Regression { name, test, bytes })
}
