//! What the speed and memory benches share: the contenders, the command line, and the results
//! file. Run both through `scripts/bench`.

// Each bench compiles this module on its own and uses a different part of it.
#![allow(dead_code)]

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use cache::{Cache, Clock, CoarseClock, ManualClock};
use hashbrown::HashMap;
use schnellru::{ByLength, LruMap};

/// One cache under test, driven one key at a time.
pub(crate) trait Subject {
    /// Whether the structure evicts. The hashbrown floor does not: the memory bench inserts
    /// only `capacity` keys into it, so it holds as many entries as the caches do.
    const BOUNDED: bool = true;

    /// The workload's step: `get`, and on a miss `put`. Returns whether it was a hit. `tick`
    /// counts operations; only the expiring contender reads it, as its clock.
    fn step(&mut self, key: u64, tick: u64) -> bool;
}

/// The step of every contender but `Expiring`: `get`, and on a miss its insert (`put` or
/// `insert`). The value is read through `black_box` so a hit cannot be reduced to a presence
/// test. Only the hashbrown floor sets `BOUNDED = false`.
macro_rules! get_or_insert {
    ($([$($generics:tt)*] $subject:ty => $insert:ident $(, BOUNDED = $bounded:literal)?;)*) => {$(
        impl<$($generics)*> Subject for $subject {
            $(const BOUNDED: bool = $bounded;)?

            #[inline]
            fn step(&mut self, key: u64, _: u64) -> bool {
                let hit = self.get(&key).map(|value| std::hint::black_box(*value)).is_some();
                if !hit {
                    self.$insert(key, key);
                }
                hit
            }
        }
    )*};
}

get_or_insert! {
    [C: Clock] Cache<u64, u64, C> => put;
    [] lru::LruCache<u64, u64> => put;
    [] hashlink::LruCache<u64, u64> => insert;
    [] LruMap<u64, u64, ByLength> => insert;
    [] quick_cache::unsync::Cache<u64, u64> => insert;
    [] HashMap<u64, u64> => insert, BOUNDED = false;
}

/// Our cache with a short ttl, so entries really expire: its `ManualClock` moves one tick per
/// operation and the ttl is `capacity / 2` ticks. The clock is set with a plain store, so the
/// cost measured is the cache's expiry work, not the clock's.
pub(crate) struct Expiring {
    cache: Cache<u64, u64, ManualClock>,
    clock: ManualClock,
}

impl Expiring {
    fn new(capacity: usize) -> Self {
        let clock = ManualClock::new(0);
        let ttl = (capacity / 2) as u64;
        Self { cache: Cache::with_clock(capacity, Some(ttl), clock.clone()), clock }
    }
}

impl Subject for Expiring {
    #[inline]
    fn step(&mut self, key: u64, tick: u64) -> bool {
        self.clock.set(tick);
        self.cache.step(key, tick)
    }
}

/// Receives every contender in turn (a visitor, so each bench gets the concrete type and its
/// measuring loop is monomorphised per contender).
pub(crate) trait Visitor {
    /// `id` is the machine-readable name (no spaces), `label` the table's.
    fn visit<S: Subject + 'static>(&mut self, id: &'static str, label: &'static str, make: fn(usize) -> S);
}

/// The id of our cache without ttl: the one every ratio is taken against.
pub(crate) const OURS: &str = "cache";
/// The ids of our cache with a ttl that never fires, one per clock.
const TTL_SYSTEM: &str = "cache_ttl_system";
const TTL_COARSE: &str = "cache_ttl_coarse";
const TTL_MANUAL: &str = "cache_ttl_manual";
/// Those ids by the clock's name, for the `ratio_ttl` lines.
pub(crate) const OURS_TTL: [(&str, &str); 3] =
    [("manual", TTL_MANUAL), ("coarse", TTL_COARSE), ("system", TTL_SYSTEM)];
/// The id of our cache whose entries expire.
pub(crate) const OURS_EXPIRING: &str = "cache_ttl_expiring";
/// Each crate's default hasher is used, as a user would get it.
pub(crate) const PEERS: [&str; 5] = ["lru", "hashlink", "schnellru", "quick_cache", "hashbrown"];

/// Every contender, ours first, in table order.
pub(crate) fn for_each_contender(v: &mut impl Visitor) {
    v.visit(OURS, "cache, no ttl", Cache::<u64, u64>::new);
    v.visit(TTL_SYSTEM, "cache, ttl 1 h, SystemClock", |capacity| {
        Cache::<u64, u64>::with_ttl(capacity, Duration::from_secs(3600))
    });
    v.visit(TTL_COARSE, "cache, ttl 1 h, CoarseClock 1 ms", |capacity| {
        let hour = Duration::from_secs(3600).as_nanos() as u64;
        Cache::<u64, u64, _>::with_clock(capacity, Some(hour), CoarseClock::new(Duration::from_millis(1)))
    });
    v.visit(TTL_MANUAL, "cache, ttl never fires, ManualClock", |capacity| {
        Cache::<u64, u64, _>::with_clock(capacity, Some(u64::MAX / 2), ManualClock::new(0))
    });
    v.visit(OURS_EXPIRING, "cache, ttl capacity/2 ticks, expiring", Expiring::new);
    v.visit("lru", "lru 0.16", |capacity| {
        lru::LruCache::<u64, u64>::new(NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN))
    });
    v.visit("hashlink", "hashlink 0.10 LruCache", hashlink::LruCache::<u64, u64>::new);
    v.visit("schnellru", "schnellru 0.2 LruMap ByLength", |capacity| {
        LruMap::<u64, u64, ByLength>::new(ByLength::new(u32::try_from(capacity).unwrap_or(u32::MAX)))
    });
    v.visit("quick_cache", "quick_cache 0.6 unsync", quick_cache::unsync::Cache::<u64, u64>::new);
    v.visit("hashbrown", "hashbrown HashMap (floor, no eviction)", |_| HashMap::<u64, u64>::default());
}

/// The command line shared by both benches (so `scripts/bench` can pass it to each).
#[derive(Debug)]
pub(crate) struct Args {
    /// Operations per timed run (speed only).
    pub(crate) ops: usize,
    /// Runs per contender in each process; the best one counts (speed only).
    pub(crate) runs: usize,
    /// Processes the runs are repeated in (speed only): on a shared VM one process can run
    /// everything 40% slower than the next, so the best over several processes counts.
    pub(crate) processes: usize,
    /// Count instructions per operation instead of timing (speed only): each contender runs
    /// each mix once under callgrind, whose counts no noisy neighbour can change.
    pub(crate) instructions: bool,
    /// Run only this contender, once per capacity, untimed: what `--instructions` runs under
    /// callgrind.
    pub(crate) instructions_of: Option<String>,
    /// The mix `--instructions-of` runs (`--mix NAME`; the Zipf mix unless told).
    pub(crate) mix: Option<String>,
    /// Cache capacities; the memory bench uses the largest.
    pub(crate) capacities: Vec<usize>,
    /// Whether to rewrite the files under `benches/results/`: only `cargo bench` runs of the
    /// default workload do.
    pub(crate) write_results: bool,
}

const USAGE: &str = "options: --quick | --ops N | --runs N | --processes N | --capacities N[,N...] \
                     | --instructions | --instructions-of ID [--mix NAME] | --help";

impl Args {
    /// Parses the process's arguments; a bad one exits with a one-line error and status 2.
    ///
    /// Without cargo's `--bench` flag (as under `cargo test --benches`), it is a smoke test: a
    /// small capacity, few operations, and nothing written.
    pub(crate) fn parse(bench: &str) -> Self {
        match Self::try_parse(std::env::args().skip(1)) {
            Ok(Some(args)) => args,
            Ok(None) => {
                println!("{bench}: {USAGE}");
                std::process::exit(0);
            }
            Err(message) => {
                eprintln!("{bench}: {message} ({USAGE})");
                std::process::exit(2);
            }
        }
    }

    fn try_parse(mut words: impl Iterator<Item = String>) -> Result<Option<Self>, String> {
        let mut args = Self {
            ops: 2_000_000,
            runs: 3,
            processes: 3,
            instructions: false,
            instructions_of: None,
            mix: None,
            capacities: vec![10_000, 1_000_000],
            write_results: true,
        };
        let (mut bench, mut quick) = (false, false);
        let (mut ops, mut runs, mut processes, mut capacities) = (None, None, None, None);
        while let Some(arg) = words.next() {
            let mut value = || words.next().ok_or_else(|| format!("{arg} needs a value"));
            match arg.as_str() {
                "--bench" => bench = true,
                "--quick" => quick = true,
                "--ops" => ops = Some(number(&value()?)?),
                "--runs" => runs = Some(number(&value()?)?),
                "--processes" => processes = Some(number(&value()?)?),
                "--instructions" => args.instructions = true,
                "--instructions-of" => args.instructions_of = Some(value()?),
                "--mix" => args.mix = Some(value()?),
                "--capacities" => {
                    capacities = Some(value()?.split(',').map(number).collect::<Result<Vec<_>, _>>()?);
                }
                "-h" | "--help" => return Ok(None),
                _ => return Err(format!("unknown argument '{arg}'")),
            }
        }
        if quick {
            (args.ops, args.runs, args.processes) = (200_000, 1, 1);
        }
        if !bench {
            (args.ops, args.runs, args.processes, args.capacities, args.write_results) =
                (20_000, 1, 1, vec![1_000], false);
        }
        // The result files show the shared workload only: any change to it writes nothing.
        args.write_results &=
            !quick && ops.is_none() && runs.is_none() && processes.is_none() && capacities.is_none();
        args.write_results &= args.instructions_of.is_none();
        args.ops = ops.unwrap_or(args.ops);
        args.runs = runs.unwrap_or(args.runs);
        args.processes = processes.unwrap_or(args.processes);
        args.capacities = capacities.unwrap_or(args.capacities);
        Ok(Some(args))
    }
}

/// A positive count; `_` may group digits.
fn number(text: &str) -> Result<usize, String> {
    match text.replace('_', "").parse() {
        Ok(0) | Err(_) => Err(format!("'{text}' is not a positive whole number")),
        Ok(n) => Ok(n),
    }
}

/// `n` as `f64`, for rates and averages.
#[expect(clippy::cast_precision_loss, reason = "counts here stay far below 2^52")]
pub(crate) fn to_f64(n: usize) -> f64 {
    n as f64
}

/// `n` with thousands separators, as the tables print capacities.
pub(crate) fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Where results are written, next to the benches.
pub(crate) fn results_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/results")
}

/// Replaces (or appends) one bench's section of `results/table.md`, so the speed and memory
/// benches each own their part of the one file the README shows.
fn write_section(section: &str, markdown: &str) -> std::io::Result<()> {
    let path = results_dir().join("table.md");
    let old = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            "# Benchmark results\n\nWritten by `scripts/bench`; do not edit by hand.\n".to_owned()
        }
        Err(e) => return Err(e),
    };
    let (begin, end) = (format!("<!-- begin {section} -->\n"), format!("<!-- end {section} -->\n"));
    let block = format!("{begin}{markdown}{end}");
    let new = match (old.find(&begin), old.find(&end)) {
        (Some(b), Some(e)) if b < e => format!("{}{block}{}", &old[..b], &old[e + end.len()..]),
        _ => format!("{old}\n{block}"),
    };
    std::fs::create_dir_all(results_dir())?;
    std::fs::write(&path, new)
}

/// Writes `section` of `results/table.md` for `bench`, or says why it cannot and exits with
/// status 1.
pub(crate) fn save_section(bench: &str, section: &str, markdown: &str) {
    if let Err(e) = write_section(section, markdown) {
        eprintln!("{bench}: cannot write benches/results/table.md: {e}");
        std::process::exit(1);
    }
    eprintln!("{bench}: wrote the {section} section of benches/results/table.md");
}
