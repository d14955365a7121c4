//! Speed, side by side in one run: our cache (without ttl, with ttls that never fire, with a
//! ttl that does) against lru, hashlink, schnellru, `quick_cache` and a hashbrown `HashMap` floor.
//!
//! The workload is the one in `../shared/anchors.md` (beside the repository): u64 keys and
//! values, keys drawn from Zipf(s = 1.0) over 10 × capacity keys with a fixed seed, generated
//! before timing; each key is a `get`, and on a miss a `put`. Three more mixes use the same step:
//! the same keys on a cache pre-filled with twice its capacity in others (a full cache's steady
//! state, where every miss evicts, which the shared workload, from empty, reaches at ten thousand
//! entries but not at a million), read-heavy (the cache is pre-filled and keys come from the
//! resident set) and write-heavy (every key is new, in a cache already full). The best of
//! several runs counts; runs of the contenders interleave, so a slow spell on the machine hits
//! them all alike, and the runs repeat in fresh processes (on a shared VM one process can run
//! everything 40% slower than the next).
//!
//! Prints markdown tables, then `ratio CAPACITY PEER X` and `ratio_ttl CAPACITY CLOCK X` lines
//! and, over several processes, each of those ratios' range from one process to another
//! (`ratio_range CAPACITY PEER LOW HIGH`, `ratio_ttl_range CAPACITY CLOCK LOW HIGH`), and what
//! the machine gave the run before and after it (`page_touch_us BEFORE AFTER`, `load_ns MIB
//! BEFORE AFTER`: see [`Machine`]); a full run also writes `results/table.md` (its speed
//! section) and `results/ns-per-op.svg`, and a `--instructions` run (every mix, counted by
//! callgrind) writes that file's instructions section.

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Args, OURS, OURS_TTL, PEERS, Subject, Visitor, grouped, to_f64};
use rand::SeedableRng as _;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom as _;
use rand_distr::{Distribution as _, Zipf};

/// The seed of every key stream.
const SEED: u64 = u64::from_le_bytes(*b"testseed");

/// One mix at one capacity: what is inserted untimed first, then the timed keys.
struct Workload {
    mix: Mix,
    capacity: usize,
    prefill: Vec<u64>,
    keys: Vec<u64>,
}

#[derive(Clone, Copy)]
enum Mix {
    Zipf,
    ZipfFull,
    ReadHeavy,
    WriteHeavy,
}

impl Mix {
    const ALL: [Self; 4] = [Self::Zipf, Self::ZipfFull, Self::ReadHeavy, Self::WriteHeavy];

    /// The name `--mix` takes.
    fn id(self) -> &'static str {
        match self {
            Self::Zipf => "zipf",
            Self::ZipfFull => "zipf-full",
            Self::ReadHeavy => "read-heavy",
            Self::WriteHeavy => "write-heavy",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Self::Zipf => "Zipf (the shared workload): Zipf(s = 1.0) over 10 × capacity keys, from empty",
            Self::ZipfFull => {
                "Zipf, full: pre-filled with twice the capacity in keys the Zipf mix never draws (the second half evicts the first), then that mix (a full cache's steady state: every miss evicts)"
            }
            Self::ReadHeavy => {
                "Read-heavy: pre-filled with keys 1..=capacity, then Zipf(s = 1.0) over those keys (all hits for a strict LRU)"
            }
            Self::WriteHeavy => {
                "Write-heavy: pre-filled to capacity, then every key new (all misses, each `put` evicts; the hashbrown \"floor\" keeps every key and grows); the keys are 1, 2, 3, ... scrambled by a bijection"
            }
        }
    }

    fn workload(self, capacity: usize, ops: usize) -> Workload {
        let cap = capacity as u64;
        let (prefill, keys) = match self {
            Self::Zipf => (Vec::new(), zipf_keys(10 * capacity, ops)),
            // Keys the Zipf stream never draws (it draws from `1..=10 × capacity`), scrambled as
            // the write-heavy mix's are; the Zipf mix evicts them as it runs. Twice the capacity
            // of them, so that every entry was written by an eviction, as in a cache that has
            // been full for a while, not by the growth that filled it (the cache's index notes
            // where an evicted entry is only for entries written since its last rebuild).
            Self::ZipfFull => {
                let others = (10 * cap + 1..).map(scramble).filter(|&k| k > 10 * cap);
                (others.take(2 * capacity).collect(), zipf_keys(10 * capacity, ops))
            }
            Self::ReadHeavy => ((1..=cap).collect(), zipf_keys(capacity, ops)),
            Self::WriteHeavy => {
                ((1..=cap).map(scramble).collect(), (cap + 1..=cap + ops as u64).map(scramble).collect())
            }
        };
        Workload { mix: self, capacity, prefill, keys }
    }
}

/// A bijection on `u64` (splitmix64's finaliser), so distinct keys stay distinct.
///
/// The write-heavy mix scrambles its consecutive keys with it: through a per-process random
/// seed, foldhash sends consecutive integers into neighbouring buckets in some processes and not
/// in others, and the contenders that use it then ran this mix twice as fast in one process as
/// in the next (see `experiments.md`).
fn scramble(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// `len` keys drawn from Zipf(s = 1.0) over the keys `1..=n` (key 1 the most frequent).
#[expect(
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "Zipf samples are whole numbers in 1..=n, n < 2^52"
)]
fn zipf_keys(n: usize, len: usize) -> Vec<u64> {
    let zipf = Zipf::new(n as f64, 1.0).expect("n >= 1 and s = 1 are valid Zipf parameters");
    let mut rng = SmallRng::seed_from_u64(SEED);
    (0..len).map(|_| zipf.sample(&mut rng) as u64).collect()
}

/// One timed run's outcome.
#[derive(Clone, Copy)]
struct Sample {
    elapsed: Duration,
    hits: usize,
}

/// Builds a fresh `S`, pre-fills it untimed, then times the workload's keys through it.
///
/// Never inlined, so that `scripts/bench --instructions` can count what runs inside it (but for
/// `prefill`).
#[inline(never)]
fn run_once<S: Subject>(make: fn(usize) -> S, workload: &Workload) -> Sample {
    let mut subject = make(workload.capacity);
    let first_tick = prefill(&mut subject, &workload.prefill);
    // The wall clock is the point of a benchmark; the crate's ban on it is for the cache.
    #[allow(clippy::disallowed_methods)]
    let start = Instant::now();
    let mut hits = 0;
    for (tick, &key) in (first_tick..).zip(&workload.keys) {
        hits += usize::from(subject.step(key, tick));
    }
    let elapsed = start.elapsed();
    // Keep the final state observable, and drop it (untimed) here.
    black_box(&subject);
    Sample { elapsed, hits }
}

/// Steps `keys` through `subject`, untimed, and returns the next tick. Never inlined, so that
/// `scripts/bench --instructions` can leave it out of the count.
#[inline(never)]
fn prefill<S: Subject>(subject: &mut S, keys: &[u64]) -> u64 {
    let mut tick = 0;
    for &key in keys {
        subject.step(key, tick);
        tick += 1;
    }
    tick
}

type Runner = Box<dyn Fn(&Workload) -> Sample>;

/// A contender's name and a type-erased handle on its monomorphised `run_once`.
struct Contender {
    id: &'static str,
    label: &'static str,
    run: Runner,
}

struct Collect(Vec<Contender>);

impl Visitor for Collect {
    fn visit<S: Subject + 'static>(&mut self, id: &'static str, label: &'static str, make: fn(usize) -> S) {
        self.0.push(Contender { id, label, run: Box::new(move |workload| run_once(make, workload)) });
    }
}

/// The best run of each contender on one workload, in contender order.
fn measure(contenders: &[Contender], workload: &Workload, runs: usize) -> Vec<Sample> {
    let mut best: Vec<Option<Sample>> = vec![None; contenders.len()];
    // One untimed run first, so the first contender does not pay for a cold CPU and cache.
    if let Some(first) = contenders.first() {
        black_box((first.run)(workload));
    }
    for round in 1..=runs {
        eprintln!(
            "speed: {} at capacity {}: run {round}/{runs}",
            workload.mix.title().split(':').next().unwrap_or_default(),
            grouped(workload.capacity)
        );
        for (contender, best) in contenders.iter().zip(&mut best) {
            let sample = (contender.run)(workload);
            if best.is_none_or(|b| sample.elapsed < b.elapsed) {
                *best = Some(sample);
            }
        }
    }
    best.into_iter().flatten().collect()
}

/// Results for every mix × capacity: `results[mix][capacity][contender]`, as ns/op and hit rate.
struct Results {
    capacities: Vec<usize>,
    ops: usize,
    ns: Vec<Vec<Vec<f64>>>,
    hit_rate: Vec<Vec<Vec<f64>>>,
    /// The machine before the runs and after them.
    machine: [Machine; 2],
}

impl Results {
    /// ns/op on the Zipf mix, by index into `capacities` and into the contenders.
    fn zipf_ns(&self, capacity: usize, contender: usize) -> f64 {
        self.ns[0][capacity][contender]
    }
}

/// Set in the processes the bench starts itself: they only measure, and print `sample` lines.
const CHILD: &str = "CACHE_BENCH_SPEED_CHILD";

/// The best run of every contender, as `samples[mix][capacity][contender]`.
type Samples = Vec<Vec<Vec<Sample>>>;

/// Every mix at every capacity, in this process.
fn measure_all(contenders: &[Contender], args: &Args) -> Samples {
    Mix::ALL
        .into_iter()
        .map(|mix| {
            let workloads = args.capacities.iter().map(|&capacity| mix.workload(capacity, args.ops));
            workloads.map(|workload| measure(contenders, &workload, args.runs)).collect()
        })
        .collect()
}

/// This bench's own binary, to run again in a child process.
fn this_bench() -> Result<std::path::PathBuf, String> {
    std::env::current_exe().map_err(|e| format!("cannot find the bench binary: {e}"))
}

/// The environment's glibc tunables, with malloc's mmap threshold fixed at its default, 128 KiB.
///
/// glibc raises the threshold to the size of each large block freed (up to 32 MiB): after the
/// first contender drops a million-entry cache, the next one's growing arrays come from the heap
/// instead of fresh mappings, and each reallocation copies where it would have remapped. Two
/// builds of the same code, one after the other in each process, then timed 1.08 (0.99 to 1.12)
/// at a million entries, the second over the first, and the cache with a ttl 1.20 over the one
/// without; with the threshold fixed, 1.01 and 1.07. Set, it no longer moves, so no contender's
/// allocations depend on which ran before it. (Other C libraries ignore the variable.)
fn fixed_mmap_threshold() -> String {
    const FIXED: &str = "glibc.malloc.mmap_threshold=131072";
    match std::env::var("GLIBC_TUNABLES") {
        Ok(others) if !others.is_empty() => format!("{others}:{FIXED}"),
        _ => FIXED.to_owned(),
    }
}

/// Runs this bench again in `args.processes` (at least one) fresh processes: each one's best
/// run of every contender, in process order.
fn run_processes(args: &Args, contenders: usize) -> Result<Vec<Samples>, String> {
    let exe = this_bench()?;
    (1..=args.processes)
        .map(|p| {
            eprintln!("speed: process {p}/{}", args.processes);
            let out = Command::new(&exe)
                .args(std::env::args_os().skip(1))
                .env(CHILD, "1")
                .env("GLIBC_TUNABLES", fixed_mmap_threshold())
                .stderr(Stdio::inherit())
                .output()
                .map_err(|e| format!("cannot start process {p}: {e}"))?;
            if !out.status.success() {
                return Err(format!("process {p} failed: {}", out.status));
            }
            parse_samples(&String::from_utf8_lossy(&out.stdout), args, contenders)
        })
        .collect()
}

/// Each contender's best run over all the processes' (`processes` is not empty).
fn best_over(processes: &[Samples]) -> Samples {
    let (first, rest) = processes.split_first().expect("`Args` asks for at least one process");
    let mut best = first.clone();
    for samples in rest {
        for (best, new) in best.iter_mut().flatten().flatten().zip(samples.iter().flatten().flatten()) {
            if new.elapsed < best.elapsed {
                *best = *new;
            }
        }
    }
    best
}

/// `--instructions`: every contender's instructions per operation on each mix, each counted by
/// callgrind in a child process, inside `run_once` but outside `prefill` (so neither making the
/// keys nor filling the cache counts).
fn count_instructions(contenders: &[Contender], args: &Args) -> Result<(String, String), String> {
    let exe = this_bench()?;
    let mut table = format!(
        "## Instructions\n\nInstructions per operation ({} operations; a pre-filled cache's filling \
         not counted), counted by callgrind: unlike time, no other tenant of the machine can change \
         them.\n",
        grouped(args.ops)
    );
    let mut lines = String::new();
    for mix in Mix::ALL {
        let _ = write!(table, "\n### {}\n\n| contender |", mix.title());
        for &capacity in &args.capacities {
            let _ = write!(table, " {} |", grouped(capacity));
        }
        table.push_str("\n| --- |");
        table.push_str(&" ---: |".repeat(args.capacities.len()));
        for contender in contenders {
            let _ = write!(table, "\n| {} |", contender.label);
            for &capacity in &args.capacities {
                eprintln!(
                    "speed: counting the instructions of {} on the {} mix at capacity {}",
                    contender.id,
                    mix.id(),
                    grouped(capacity)
                );
                let per_op = instructions_per_op(&exe, contender.id, mix, capacity, args.ops)?;
                let _ = write!(table, " {per_op:.0} |");
                let _ = writeln!(
                    lines,
                    "instructions_per_op {} {capacity} {} {per_op:.1}",
                    mix.id(),
                    contender.id
                );
            }
        }
        table.push('\n');
    }
    Ok((table, lines))
}

/// One contender's instructions per operation on one mix, counted by callgrind in a child.
fn instructions_per_op(
    exe: &std::path::Path,
    id: &str,
    mix: Mix,
    capacity: usize,
    ops: usize,
) -> Result<f64, String> {
    // Collection toggles on entering and on leaving each matching function: on in `run_once`,
    // off again inside its `prefill`.
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .args(["--toggle-collect=*run_once*", "--toggle-collect=*speed::prefill*"])
        .arg(exe)
        .args(["--bench", "--instructions-of", id, "--mix", mix.id()])
        .args(["--capacities", &capacity.to_string(), "--ops", &ops.to_string()])
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    let log = String::from_utf8_lossy(&out.stderr);
    let collected = log
        .lines()
        .find_map(|line| line.split_once("Collected :").map(|(_, n)| n.trim().parse::<usize>()))
        .and_then(Result::ok)
        .filter(|_| out.status.success())
        .ok_or_else(|| format!("callgrind failed on {id}: {log}"))?;
    Ok(to_f64(collected) / to_f64(ops))
}

/// What a child prints: `sample NANOSECONDS HITS` per mix, capacity and contender, in order.
fn print_samples(samples: &Samples) {
    for sample in samples.iter().flatten().flatten() {
        println!("sample {} {}", sample.elapsed.as_nanos(), sample.hits);
    }
}

/// A child's samples, in the shape `args` and the contender count give.
fn parse_samples(text: &str, args: &Args, contenders: usize) -> Result<Samples, String> {
    let mut lines = text.lines().map(|line| {
        let bad = || format!("a child printed '{line}'");
        let (nanos, hits) = line.strip_prefix("sample ").and_then(|l| l.split_once(' ')).ok_or_else(bad)?;
        let elapsed = Duration::from_nanos(nanos.parse().map_err(|_| bad())?);
        Ok(Sample { elapsed, hits: hits.parse().map_err(|_| bad())? })
    });
    let mut next = || lines.next().unwrap_or_else(|| Err("a child printed too few samples".to_owned()));
    Mix::ALL
        .iter()
        .map(|_| args.capacities.iter().map(|_| (0..contenders).map(|_| next()).collect()).collect())
        .collect()
}

fn main() {
    let args = Args::parse("speed");
    let mut collect = Collect(Vec::new());
    common::for_each_contender(&mut collect);
    let contenders = collect.0;

    if let Some(id) = &args.instructions_of {
        let Some(contender) = contenders.iter().find(|c| c.id == id) else {
            let ids: Vec<&str> = contenders.iter().map(|c| c.id).collect();
            eprintln!("speed: no contender '{id}' (there are {})", ids.join(", "));
            std::process::exit(2);
        };
        let mix = args.mix.as_deref().unwrap_or("zipf");
        let Some(mix) = Mix::ALL.into_iter().find(|m| m.id() == mix) else {
            let ids: Vec<&str> = Mix::ALL.iter().map(|m| m.id()).collect();
            eprintln!("speed: no mix '{mix}' (there are {})", ids.join(", "));
            std::process::exit(2);
        };
        for &capacity in &args.capacities {
            black_box((contender.run)(&mix.workload(capacity, args.ops)));
        }
        return;
    }
    if args.instructions {
        let (table, lines) = count_instructions(&contenders, &args).unwrap_or_else(|e| {
            eprintln!("speed: {e}");
            std::process::exit(1);
        });
        print!("{table}\n{lines}");
        if args.write_results {
            common::save_section("speed", "instructions", &table);
        }
        return;
    }
    if std::env::var_os(CHILD).is_some() {
        print_samples(&measure_all(&contenders, &args));
        return;
    }
    // Even a single process is a child, so that it starts with the malloc settings above.
    let before = Machine::measure();
    let processes = run_processes(&args, contenders.len()).unwrap_or_else(|e| {
        eprintln!("speed: {e}");
        std::process::exit(1);
    });
    let samples = best_over(&processes);
    let after = Machine::measure();
    // Totals per run, divided into per-operation figures.
    let per_op = |total: fn(&Sample) -> f64| -> Vec<Vec<Vec<f64>>> {
        let by_contender = |k: &Vec<Sample>| k.iter().map(|s| total(s) / to_f64(args.ops)).collect();
        samples.iter().map(|m| m.iter().map(by_contender).collect()).collect()
    };
    let results = Results {
        capacities: args.capacities.clone(),
        ops: args.ops,
        ns: per_op(|s| s.elapsed.as_secs_f64() * 1e9),
        hit_rate: per_op(|s| to_f64(s.hits)),
        machine: [before, after],
    };

    let table = table(&contenders, &results, &args);
    println!("{table}");
    print!("{}", ratio_lines(&contenders, &results));
    print!("{}", ratio_range_lines(&contenders, &processes, &args.capacities));
    print!("{}", Machine::lines(&results.machine));

    if args.write_results {
        common::save_section("speed", "speed", &table);
        let svg = svg(&contenders, &results, &args);
        if let Err(e) = std::fs::write(common::results_dir().join("ns-per-op.svg"), svg) {
            eprintln!("speed: cannot write benches/results/ns-per-op.svg: {e}");
            std::process::exit(1);
        }
        eprintln!("speed: wrote benches/results/ns-per-op.svg");
    }
}

/// "5 runs" or "3 runs in each of 3 processes", as the table and plot say it.
fn best_of(args: &Args) -> String {
    let runs = if args.runs == 1 { "1 run".to_owned() } else { format!("{} runs", args.runs) };
    if args.processes == 1 { runs } else { format!("{runs} in each of {} processes", args.processes) }
}

/// What the guest gets from the machine at one moment; the table reports it before and after
/// the runs, so that a run's ratios at a million entries can be read against it.
#[derive(Clone, Copy)]
struct Machine {
    /// [`page_touch_us`].
    page_touch_us: f64,
    /// [`load_ns`] over each of [`LOAD_MIB`].
    load_ns: [f64; LOAD_MIB.len()],
}

/// The sizes, in MiB, that [`load_ns`] runs over: schnellru's control bytes at a million entries
/// take 2, the cache's index 8, and 32 is this kind of machine's whole L3.
const LOAD_MIB: [usize; 3] = [2, 8, 32];

impl Machine {
    fn measure() -> Self {
        Self { page_touch_us: page_touch_us(), load_ns: LOAD_MIB.map(|mib| load_ns(mib << 20)) }
    }

    /// `page_touch_us BEFORE AFTER`, then `load_ns MIB BEFORE AFTER` for each size.
    fn lines([before, after]: &[Machine; 2]) -> String {
        let mut out = format!("page_touch_us {:.2} {:.2}\n", before.page_touch_us, after.page_touch_us);
        for (i, mib) in LOAD_MIB.iter().enumerate() {
            let _ = writeln!(out, "load_ns {mib} {:.1} {:.1}", before.load_ns[i], after.load_ns[i]);
        }
        out
    }

    /// The loads, as the table's header says them: "20.1, 150.2 and 187.2 ns".
    fn loads(&self) -> String {
        format!("{} ns", listed(self.load_ns.map(|ns| format!("{ns:.1}"))))
    }
}

/// "a, b and c".
fn listed([a, b, c]: [String; 3]) -> String {
    format!("{a}, {b} and {c}")
}

/// Nanoseconds per load that depends on the one before, over `bytes`: one 8-byte word per
/// 64-byte line, in a random cycle through every line (after one lap to bring them in).
///
/// A million-entry cache's lookups read lines from a few MB at random, and whether those stay in
/// the L3 depends on what else runs on the host: on the Zen 3 VM the same chase over 4 MB took
/// 18 ns a load at one time and 209 ten minutes before (`experiments.md`, "A contended L3").
fn load_ns(bytes: usize) -> f64 {
    const LINE: usize = 64 / size_of::<usize>();
    const LOADS: usize = 2_000_000;
    let lines = bytes / 64;
    let mut order: Vec<usize> = (0..lines).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(SEED));
    let mut next = vec![0_usize; lines * LINE];
    for (i, &line) in order.iter().enumerate() {
        next[line * LINE] = order[(i + 1) % lines] * LINE;
    }
    let mut at = order[0] * LINE;
    for _ in 0..lines {
        at = next[at];
    }
    #[allow(clippy::disallowed_methods)]
    let start = Instant::now();
    for _ in 0..LOADS {
        at = next[at];
    }
    let elapsed = start.elapsed();
    black_box(at);
    elapsed.as_secs_f64() * 1e9 / to_f64(LOADS)
}

/// Microseconds per 4 KiB page that the first write to fresh memory costs now, over 256 MiB.
///
/// A growing contender pays it for every page it fills, so at a million entries it weighs on
/// whoever keeps more bytes, such as the cache with a ttl. On a VM it is the hypervisor's price as
/// much as the kernel's, and it moves from run to run (`experiments.md`, "The ttl's gap is its
/// pages"): the table reports it so that a run's ratios at a million entries can be read against it.
fn page_touch_us() -> f64 {
    const BYTES: usize = 256 << 20;
    const PAGE: usize = 4096;
    // Zeroed memory this large comes from a fresh mapping whose pages are not yet backed.
    let mut fresh = vec![0_u8; BYTES];
    #[allow(clippy::disallowed_methods)]
    let start = Instant::now();
    for byte in fresh.iter_mut().step_by(PAGE) {
        *byte = 1;
    }
    let elapsed = start.elapsed();
    black_box(&fresh);
    elapsed.as_secs_f64() * 1e6 / to_f64(BYTES / PAGE)
}

/// One markdown table per mix: ns/op and hit rate per contender and capacity.
fn table(contenders: &[Contender], results: &Results, args: &Args) -> String {
    let mut out = format!(
        "## Speed\n\nns per operation (`get`, and `put` on a miss), best of {}; runs of {} operations; \
         u64 keys and values; each crate's default hasher. Keys from a fixed seed. The expiring \
         variant's `ManualClock` moves 1 tick per operation and its ttl is capacity/2 ticks. \
         \"hits\" is the share of `get`s that hit. A first write to a fresh 4 KiB page took \
         {:.2} µs before the runs and {:.2} µs after them; a load that depends on the one before, \
         at random over {} MiB, {} before and {} after.\n",
        best_of(args),
        grouped(results.ops),
        results.machine[0].page_touch_us,
        results.machine[1].page_touch_us,
        listed(LOAD_MIB.map(|mib| mib.to_string())),
        results.machine[0].loads(),
        results.machine[1].loads(),
    );
    for (m, mix) in Mix::ALL.into_iter().enumerate() {
        let _ = write!(out, "\n### {}\n\n| contender |", mix.title());
        for &capacity in &results.capacities {
            let _ = write!(out, " {}: ns/op | hits |", grouped(capacity));
        }
        out.push_str("\n| --- |");
        out.push_str(&" ---: | ---: |".repeat(results.capacities.len()));
        out.push('\n');
        for (c, contender) in contenders.iter().enumerate() {
            let _ = write!(out, "| {} |", contender.label);
            for k in 0..results.capacities.len() {
                let _ =
                    write!(out, " {:.1} | {:.1}% |", results.ns[m][k][c], 100.0 * results.hit_rate[m][k][c]);
            }
            out.push('\n');
        }
    }
    out
}

/// One ratio of the Zipf mix: its line's name (`ratio` or `ratio_ttl`), capacity, the peer or
/// clock it names, and its figure.
type Ratio = (&'static str, usize, &'static str, f64);

/// Every ratio, from `time(capacity index, contender index)` on the Zipf mix: our no-ttl speed
/// over each peer's (> 1: we are faster), and each never-firing ttl's speed over no ttl (> 0.9:
/// within the 10% the ttl may cost). One definition for the best runs and for each process's.
fn ratios(contenders: &[Contender], capacities: &[usize], time: impl Fn(usize, usize) -> f64) -> Vec<Ratio> {
    let index = |id: &str| contenders.iter().position(|c| c.id == id).expect("every id is registered");
    let ours = index(OURS);
    let mut out = Vec::new();
    for (k, &capacity) in capacities.iter().enumerate() {
        let our_time = time(k, ours);
        for peer in PEERS {
            out.push(("ratio", capacity, peer, time(k, index(peer)) / our_time));
        }
        for (clock, id) in OURS_TTL {
            out.push(("ratio_ttl", capacity, clock, our_time / time(k, index(id))));
        }
    }
    out
}

/// `ratio CAPACITY PEER X` and `ratio_ttl CAPACITY CLOCK X` lines, from the best runs.
fn ratio_lines(contenders: &[Contender], results: &Results) -> String {
    let mut out = String::new();
    for (name, capacity, of, x) in ratios(contenders, &results.capacities, |k, c| results.zipf_ns(k, c)) {
        let _ = writeln!(out, "{name} {capacity} {of} {x:.2}");
    }
    out
}

/// `ratio_range CAPACITY PEER LOW HIGH` and `ratio_ttl_range CAPACITY CLOCK LOW HIGH`, when the
/// runs took several processes: the lowest and the highest figure of the matching `ratio` or
/// `ratio_ttl` line as each process measured it alone, from its own best runs. On a shared VM
/// one process can run everything much slower than the next; the range says how far the
/// best-of-all ratio can be read as the machine's rather than one lucky process's.
fn ratio_range_lines(contenders: &[Contender], processes: &[Samples], capacities: &[usize]) -> String {
    let mut out = String::new();
    if processes.len() < 2 {
        return out;
    }
    // Every process runs the same operations, so its times give the same ratios as ns/op. The
    // Zipf mix comes first, as in `Results::zipf_ns`.
    let per_process: Vec<Vec<Ratio>> = processes
        .iter()
        .map(|samples| ratios(contenders, capacities, |k, c| samples[0][k][c].elapsed.as_secs_f64()))
        .collect();
    for (i, &(name, capacity, of, _)) in per_process[0].iter().enumerate() {
        let figures = per_process.iter().map(|ratios| ratios[i].3);
        let (low, high) = figures.fold((f64::INFINITY, 0.0_f64), |(low, high), x| (low.min(x), high.max(x)));
        let _ = writeln!(out, "{name}_range {capacity} {of} {low:.2} {high:.2}");
    }
    out
}

/// A hand-written horizontal bar chart of Zipf ns/op: one row per contender, one bar per
/// capacity.
fn svg(contenders: &[Contender], results: &Results, args: &Args) -> String {
    const COLOURS: [&str; 4] = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1"];
    const LABEL_W: f64 = 270.0;
    const BAR_W: f64 = 480.0;
    const BAR_H: f64 = 14.0;
    const TOP: f64 = 58.0;
    let caps = results.capacities.len();
    let group_h = BAR_H * to_f64(caps) + 10.0;
    let max =
        (0..caps).flat_map(|k| (0..contenders.len()).map(move |c| results.zipf_ns(k, c))).fold(1.0, f64::max);
    let width = LABEL_W + BAR_W + 70.0;
    let height = TOP + group_h * to_f64(contenders.len()) + 30.0;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="10" y="20" font-size="14" font-weight="bold">Zipf(s = 1.0) workload: ns per operation (lower is better), best of {}</text>"#,
        best_of(args)
    );
    for (k, &capacity) in results.capacities.iter().enumerate() {
        let x = LABEL_W + 160.0 * to_f64(k);
        let _ = writeln!(
            out,
            r#"<rect x="{x}" y="30" width="12" height="12" fill="{}"/><text x="{}" y="40">capacity {}</text>"#,
            COLOURS[k % COLOURS.len()],
            x + 16.0,
            grouped(capacity)
        );
    }
    for (c, contender) in contenders.iter().enumerate() {
        let y0 = TOP + group_h * to_f64(c);
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            LABEL_W - 8.0,
            y0 + BAR_H * to_f64(caps) / 2.0 + 4.0,
            contender.label
        );
        for k in 0..caps {
            let ns = results.zipf_ns(k, c);
            let (y, w) = (y0 + BAR_H * to_f64(k), BAR_W * ns / max);
            let _ = writeln!(
                out,
                r#"<rect x="{LABEL_W}" y="{y}" width="{w:.1}" height="{}" fill="{}"/><text x="{:.1}" y="{}" font-size="11">{ns:.1}</text>"#,
                BAR_H - 2.0,
                COLOURS[k % COLOURS.len()],
                LABEL_W + w + 4.0,
                y + BAR_H - 4.0
            );
        }
    }
    let axis_y = height - 24.0;
    let _ = writeln!(
        out,
        r##"<line x1="{LABEL_W}" y1="{TOP}" x2="{LABEL_W}" y2="{axis_y}" stroke="black"/><text x="{LABEL_W}" y="{}" font-size="11" fill="#555">{} operations per run; expiring: ttl capacity/2 ticks, 1 tick per operation</text>"##,
        axis_y + 16.0,
        grouped(results.ops)
    );
    out.push_str("</svg>\n");
    out
}
