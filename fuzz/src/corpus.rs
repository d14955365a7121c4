//! The checked-in corpus: where it lives, how to read it, and its pinned decoded form.
//!
//! `corpus/TARGET/` holds a target's corpus and `corpus/regressions/` the shrunk cases of every
//! divergence ever found. `corpus/TARGET.pins` holds one line per file with the case it decodes
//! to: if a change to the generator changes what a checked-in file means, the pin test fails
//! and the diff shows which files moved.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::ops::Case;

/// The repository's root.
#[must_use]
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `corpus/NAME` under the repository's root.
#[must_use]
pub fn dir(name: &str) -> PathBuf {
    root().join("corpus").join(name)
}

/// The files `path` names: itself if it is a file, else the files in it (not hidden ones), in
/// name order.
///
/// # Errors
///
/// When `path` cannot be read.
pub fn files(path: &Path) -> io::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in fs::read_dir(path)? {
        let entry = entry?;
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if entry.file_type()?.is_file() && !hidden {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// Every case under `paths` (files, or folders of files), with the file it came from.
///
/// # Errors
///
/// When a path cannot be read.
pub fn cases(paths: &[PathBuf]) -> io::Result<Vec<(PathBuf, Case)>> {
    let mut all = Vec::new();
    for path in paths {
        for file in files(path)? {
            let bytes = fs::read(&file)?;
            all.push((file, Case::from_bytes(&bytes)));
        }
    }
    Ok(all)
}

/// One pin line: the file's name and the case it decodes to, on one line.
#[must_use]
pub fn pin(file: &Path, case: &Case) -> String {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let ops: Vec<String> = case.ops.iter().map(|op| format!("{op:?}")).collect();
    let ttl = case.ttl.map_or_else(|| "none".to_owned(), |t| t.to_string());
    format!("{name}: capacity {} ttl {ttl} start {}: {}", case.capacity, case.start, ops.join(" "))
}

/// The pins of every file in `dir`, one line each, in name order.
///
/// # Errors
///
/// When `dir` cannot be read.
pub fn pins(dir: &Path) -> io::Result<String> {
    let lines: Vec<String> = cases(&[dir.to_path_buf()])?.iter().map(|(f, c)| pin(f, c) + "\n").collect();
    Ok(lines.concat())
}
