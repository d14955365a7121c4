//! The harness's command line: every front end of the one driver that is not a libFuzzer
//! target. The scripts in `scripts/` call it; run it without arguments for help.

use std::collections::BTreeMap;
use std::fs;
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use fuzz::corpus;
use fuzz::driver::signature_name;
use fuzz::exhaustive;
use fuzz::ledger::Ledger;
use fuzz::minimise::minimise;
use fuzz::regression::regression;
use fuzz::{Case, Signature};

/// `println!` that stops quietly when the reader has gone (`harness ledger ... | head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

const USAGE: &str = "\
usage: harness COMMAND [ARGS]

  replay PATH...             replay corpus files or folders through the driver
  fmt FILE                   print the case a file decodes to, as Rust
  signature FILE             print how a case fails (CHECK/KIND), or 'passes'
  minimise FILE [--write]    shrink a failing case at the level of operations; with --write,
                             append a regression test to fuzz/tests/regressions.rs and its
                             bytes to corpus/regressions/
  triage FILE...             group failing inputs by how they fail and minimise the smallest
                             of each group into a proposed regression test
  exhaustive [DEPTH] [--like CHECK/KIND]
                             replay every case up to DEPTH operations (default 4) over a tiny
                             alphabet, shortest first, and report the first failure (of that
                             signature, e.g. answer/get)
  ledger PATH...             count the model transitions a corpus takes
  seeds DIR                  write the hand-written seed cases into DIR
  canon DIR                  rewrite every file in DIR in canonical form (drops duplicates)
  pin DIR                    write DIR.pins, the decoded form of every file in DIR
  bugs                       list the planted bugs, one per line: NAME  SUMMARY
  plant NAME ROOT            plant bug NAME in the copy of the repository at ROOT";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match command.as_str() {
        "replay" => replay(rest),
        "fmt" => one_path(rest).and_then(|p| fmt(&p)),
        "signature" => one_path(rest).and_then(|p| signature(&p)),
        "minimise" | "minimize" => minimise_cmd(rest),
        "triage" => triage(rest),
        "exhaustive" => exhaustive_cmd(rest),
        "ledger" => ledger(rest),
        "seeds" => one_path(rest).and_then(|p| seeds(&p)),
        "canon" => one_path(rest).and_then(|p| canon(&p)),
        "pin" => one_path(rest).and_then(|p| pin(&p)),
        "bugs" => {
            // Names in a column as wide as the longest, then at least two spaces: scripts/hunt
            // reads the first word of each line.
            let width = fuzz::bugs::BUGS.iter().map(|bug| bug.name.len()).max().unwrap_or(0) + 2;
            for bug in fuzz::bugs::BUGS {
                say!("{:<width$}{}", bug.name, bug.summary);
            }
            Ok(())
        }
        "plant" => plant(rest),
        "-h" | "--help" | "help" => {
            say!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command '{other}' (try --help)")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("harness: {message}");
            ExitCode::FAILURE
        }
    }
}

fn one_path(args: &[String]) -> Result<PathBuf, String> {
    match args {
        [path] => Ok(PathBuf::from(path)),
        _ => Err(format!("expected one path, got {}", args.len())),
    }
}

fn read_case(path: &Path) -> Result<Case, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(Case::from_bytes(&bytes))
}

fn cases(args: &[String]) -> Result<Vec<(PathBuf, Case)>, String> {
    if args.is_empty() {
        return Err("expected at least one corpus file or folder".to_owned());
    }
    let paths: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
    corpus::cases(&paths).map_err(|e| format!("cannot read the corpus ({}): {e}", args.join(", ")))
}

fn replay(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let all = cases(args)?;
    let ops: usize = all.iter().map(|(_, c)| c.ops.len()).sum();
    for (file, case) in &all {
        if let Err(divergence) = fuzz::replay(case, &mut |_| {}) {
            return Err(format!("{} diverges:\n{divergence}", file.display()));
        }
    }
    say!("replayed {} cases ({ops} operations) in {:.2?}: no divergence", all.len(), started.elapsed());
    Ok(())
}

fn fmt(path: &Path) -> Result<(), String> {
    say!("{:?}", read_case(path)?);
    Ok(())
}

fn signature(path: &Path) -> Result<(), String> {
    let case = read_case(path)?;
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = fuzz::replay(&case, &mut |_| {});
    let _ = std::panic::take_hook();
    match outcome {
        Ok(()) => say!("passes"),
        Err(divergence) => say!("{}", signature_name(divergence.signature())),
    }
    Ok(())
}

fn triage(args: &[String]) -> Result<(), String> {
    let mut groups: BTreeMap<Signature, Vec<(PathBuf, Case)>> = BTreeMap::new();
    let mut passing = 0;
    std::panic::set_hook(Box::new(|_| {}));
    for (file, case) in cases(args)? {
        match fuzz::replay(&case, &mut |_| {}) {
            Ok(()) => passing += 1,
            Err(divergence) => groups.entry(divergence.signature()).or_default().push((file, case)),
        }
    }
    let failing: usize = groups.values().map(Vec::len).sum();
    say!(
        "triage: {failing} failing inputs, {} distinct failures, {passing} inputs that pass now",
        groups.len()
    );
    for (signature, mut group) in groups {
        group.sort_by_key(|(_, case)| case.ops.len());
        let (file, case) = &group[0];
        let Some(shrunk) = minimise(case) else { continue };
        let origin = format!(
            "shrunk from {} to {} operations ({})",
            case.ops.len(),
            shrunk.case.ops.len(),
            file.display()
        );
        let test = regression(&shrunk.divergence, &origin)?;
        say!("\n=== {} ({} inputs), e.g. {}", signature_name(signature), group.len(), file.display());
        say!(
            "{}\n\nproposed regression test (scripts/promote {} adds it):\n\n{}",
            shrunk.divergence,
            file.display(),
            test.test
        );
    }
    let _ = std::panic::take_hook();
    Ok(())
}

fn minimise_cmd(args: &[String]) -> Result<(), String> {
    let (file, write) = match args {
        [file] => (file, false),
        [file, flag] if flag == "--write" => (file, true),
        _ => return Err("usage: harness minimise FILE [--write]".to_owned()),
    };
    let case = read_case(Path::new(file))?;
    // Candidates that panic are expected while shrinking; their messages would drown the result.
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let shrunk = minimise(&case).ok_or_else(|| format!("{file} does not fail: nothing to minimise"))?;
    let _ = std::panic::take_hook();
    let origin = format!("shrunk from {} to {} operations ({file})", case.ops.len(), shrunk.case.ops.len());
    let test = regression(&shrunk.divergence, &origin)?;
    say!("{}", shrunk.divergence);
    say!(
        "\nminimised {} -> {} operations with {} replays in {:.2?}",
        case.ops.len(),
        shrunk.case.ops.len(),
        shrunk.replays,
        started.elapsed()
    );
    if !write {
        say!("\nthe regression test (write it with --write):\n\n{}", test.test);
        return Ok(());
    }
    let tests = corpus::root().join("fuzz/tests/regressions.rs");
    // A case that fails another way under another bug is already guarded: its test replays it.
    if let Some(same) = regression_with_bytes(&test.bytes) {
        say!("\nthe same case is already the regression test {same}: not written again");
        return Ok(());
    }
    let bytes_file = corpus::dir("regressions").join(&test.name);
    fs::create_dir_all(corpus::dir("regressions")).map_err(|e| e.to_string())?;
    fs::write(&bytes_file, &test.bytes).map_err(|e| format!("cannot write {}: {e}", bytes_file.display()))?;
    let existing = fs::read_to_string(&tests).unwrap_or_default();
    if existing.contains(&format!("fn {}()", test.name)) {
        say!("\n{} is already in {}", test.name, tests.display());
        return Ok(());
    }
    let mut out = fs::OpenOptions::new()
        .append(true)
        .open(&tests)
        .map_err(|e| format!("cannot open {}: {e}", tests.display()))?;
    write!(out, "\n{}", test.test).map_err(|e| e.to_string())?;
    say!("\nwrote {}\nappended to {}:\n\n{}", bytes_file.display(), tests.display(), test.test);
    Ok(())
}

/// The name of the checked-in regression case whose bytes are `bytes`, if there is one.
fn regression_with_bytes(bytes: &[u8]) -> Option<String> {
    let entries = fs::read_dir(corpus::dir("regressions")).ok()?;
    entries
        .flatten()
        .find(|entry| fs::read(entry.path()).is_ok_and(|existing| existing == bytes))
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
}

fn exhaustive_cmd(args: &[String]) -> Result<(), String> {
    let mut depth = 4;
    let mut want = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--like" => {
                let signature = args.next().ok_or("--like needs CHECK/KIND")?;
                want = Some(fuzz::driver::parse_signature(signature)?);
            }
            n => depth = n.parse().map_err(|_| format!("DEPTH must be a number, not '{n}'"))?,
        }
    }
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    // A live progress line on a terminal; a line every few seconds in a log.
    let (interval, end) = if std::io::stderr().is_terminal() { (0.2, "\r") } else { (5.0, "\n") };
    let mut shown = Instant::now();
    let outcome = exhaustive::search(depth, want, &mut |p| {
        if shown.elapsed().as_secs_f64() >= interval || p.done_at_length == p.at_length {
            shown = Instant::now();
            let percent = p.done_at_length * 100 / p.at_length.max(1);
            eprint!("exhaustive: length {} {percent:>3}%, {} cases checked{end}", p.length, p.checked);
        }
    });
    let _ = std::panic::take_hook();
    eprintln!();
    let elapsed = started.elapsed();
    match outcome.found {
        Some(divergence) => {
            say!("{divergence}");
            say!(
                "\nexhaustive: shortest failure has {} operations ({} cases checked in {elapsed:.2?})",
                divergence.case.ops.len(),
                outcome.checked
            );
        }
        None => say!(
            "exhaustive: no failure up to {depth} operations ({} cases checked in {elapsed:.2?})",
            outcome.checked
        ),
    }
    Ok(())
}

fn ledger(args: &[String]) -> Result<(), String> {
    let mut ledger = Ledger::default();
    for (file, case) in cases(args)? {
        ledger.replay(&case).map_err(|d| format!("{} diverges:\n{d}", file.display()))?;
    }
    say!("{ledger}");
    Ok(())
}

fn seeds(dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for (name, case) in fuzz::seeds::seeds() {
        let path = dir.join(format!("seed-{name}"));
        fs::write(&path, case.to_bytes()?).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    say!("wrote {} seeds into {}", fuzz::seeds::seeds().len(), dir.display());
    Ok(())
}

fn canon(dir: &Path) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    let (mut rewritten, mut dropped) = (0, 0);
    let cases = corpus::cases(&[dir.to_path_buf()]).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (file, case) in cases {
        let bytes = case.to_bytes()?;
        if !seen.insert(bytes.clone()) {
            fs::remove_file(&file).map_err(|e| e.to_string())?;
            dropped += 1;
        } else if fs::read(&file).map_err(|e| e.to_string())? != bytes {
            fs::write(&file, &bytes).map_err(|e| e.to_string())?;
            rewritten += 1;
        }
    }
    say!("canon: {} files kept, {rewritten} rewritten, {dropped} duplicates removed", seen.len());
    Ok(())
}

fn pin(dir: &Path) -> Result<(), String> {
    let pins = corpus::pins(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let file = dir.with_extension("pins");
    fs::write(&file, &pins).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    say!("pinned {} files in {}", pins.lines().count(), file.display());
    Ok(())
}

fn plant(args: &[String]) -> Result<(), String> {
    let [name, root] = args else { return Err("usage: harness plant NAME ROOT".to_owned()) };
    let bug = fuzz::bugs::find(name)
        .ok_or_else(|| format!("no planted bug called '{name}' (see: harness bugs)"))?;
    let file = Path::new(root).join(bug.file);
    let source = fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    fs::write(&file, fuzz::bugs::plant(bug, &source)?)
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    say!("planted {name} in {}", file.display());
    Ok(())
}
