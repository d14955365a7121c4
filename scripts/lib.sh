# shellcheck shell=bash disable=SC2034 # FUZZ and SANITIZER are for the scripts that source this.
# Shared by the scripts in this folder (sourced, not run): finding the repository, choosing a
# toolchain for cargo-fuzz, installing what is missing, and calling the harness.

# Every script works from the repository's root, wherever it is called from; paths given on
# its command line are relative to where it was called (see from_caller).
CALLER_DIR=$PWD
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

# A path from the command line, made absolute against the directory the script was called from.
from_caller() {
    if [[ $1 == /* ]]; then echo "$1"; else echo "$CALLER_DIR/$1"; fi
}

die() {
    echo "$(basename "$0"): $*" >&2
    exit 2
}

# cargo-fuzz, installed on first use (about a minute).
ensure_cargo_fuzz() {
    if ! cargo fuzz --version >/dev/null 2>&1; then
        echo "$(basename "$0"): installing cargo-fuzz (once, about a minute)" >&2
        cargo install cargo-fuzz --locked >&2
    fi
}

# FUZZ: how to call cargo-fuzz; TOOLCHAIN: the toolchain it runs on; SANITIZER: its --sanitizer;
# BUILD: the build flags every script passes to `cargo fuzz run/build/tmin`. cargo-fuzz runs on
# nightly if there is one; without one, stable pretends to be nightly (RUSTC_BOOTSTRAP=1).
#
# No sanitizer, unless the caller asks for one (`select_toolchain address`: scripts/smoke) and
# nightly is there to build it. The cache, the model and the harness have no unsafe code, so
# AddressSanitizer can only find memory errors in dependencies (hashbrown's raw table), and it
# costs nine executions in ten: the main job (scripts/fuzz lockstep 30, both cores) ran 542,061
# executions with it and 5,216,545 without; one core, 20 s from the corpus, 7,360 against
# 59,207 exec/s. So the long runs go without it, at the speed scripts/hunt's times assume, and
# CI's short smoke runs (and ClusterFuzzLite) keep it. FUZZ_SANITIZER overrides the choice
# (e.g. FUZZ_SANITIZER=address scripts/fuzz).
#
# Comparisons are not traced (--no-trace-compares; FUZZ_TRACE_COMPARES=1 brings it back): the
# format has no magic values for them to find, and without the hooks the lockstep target runs
# 2.3 times as many executions a second with the same edge coverage (measured: 48,973 against
# 21,358 exec/s over 20 s from the corpus, both at 617 edges).
select_toolchain() {
    local wanted=${1:-none}
    # Not `grep -q`: it exits at the first match, and under pipefail the writer's SIGPIPE then
    # fails the whole pipeline now and then. Here and in the other scripts, grep reads it all.
    if rustup toolchain list 2>/dev/null | grep '^nightly' >/dev/null; then
        TOOLCHAIN=nightly
        FUZZ=(cargo +nightly fuzz)
        SANITIZER=${FUZZ_SANITIZER:-$wanted}
    else
        TOOLCHAIN=stable
        FUZZ=(env RUSTC_BOOTSTRAP=1 cargo fuzz)
        SANITIZER=${FUZZ_SANITIZER:-none}
    fi
    BUILD=(--sanitizer "$SANITIZER")
    [[ ${FUZZ_TRACE_COMPARES:-0} == 1 ]] || BUILD+=(--no-trace-compares)
    # RUST_LIB_BACKTRACE=0: cargo-fuzz reports libFuzzer's exit on Ctrl-C as an error, and with
    # RUST_BACKTRACE set it would add its own stack trace; a panic in a target keeps its trace.
    FUZZ=(env RUSTFLAGS="${RUSTFLAGS:-} $FUZZ_RUSTFLAGS" RUST_LIB_BACKTRACE=0 "${FUZZ[@]}")
}

# Instrumentation cargo-fuzz adds that costs time in every execution and finds nothing here
# (cargo-fuzz appends RUSTFLAGS after its own flags, so these win):
# - level 3 instead of 4: edges without the indirect-call hooks, which only feed libFuzzer's
#   value profile, and that is off (-use_value_profile=0);
# - no stack-depth tracking: a check of a thread-local at every instrumented function entry, for
#   one "deepest stack" feature that means nothing for code without recursion.
# Measured (callgrind, the lockstep target replaying the corpus): 29,989 -> 28,118 instructions
# per execution; with the tag table in generate.rs, the planted bugs were found after as many
# executions (scripts/hunt's 16 bugs, 5 seeds: geometric mean 5,932 before, 5,734 after).
FUZZ_RUSTFLAGS="-Cllvm-args=-sanitizer-coverage-level=3 -Cllvm-args=-sanitizer-coverage-stack-depth=false"

# How libFuzzer searches, in every script that fuzzes (ClusterFuzzLite's options say the same):
# - MAX_LEN, the longest input it makes: 512 bytes is 169 operations. Every planted bug needs
#   at most 5 (scripts/hunt), and short inputs run faster, so the fuzzer explores more.
# - -entropic=0: the plain power schedule. Entropic books every feature of every execution to
#   find the rare ones, which cost a single fuzzing process nearly a fifth of its executions
#   here (76,449 exec/s without it, 62,961 with), for no more features in 600 s; scripts/hunt
#   found the planted bugs sooner without it (median 0.11 s against 0.21).
#   cache/benches/experiments.md has the runs.
MAX_LEN=512
SEARCH=(-max_len="$MAX_LEN" -entropic=0)

# The main job's way of fuzzing on every core (scripts/fuzz, and scripts/bench's measure of it):
# one plain libFuzzer process per core. All of them write new inputs into one folder, WORK/new,
# and read each other's from there (libFuzzer's -reload, every 10 s); each is started again
# after a divergence while time is left, so the run goes on past it. Not libFuzzer's -fork
# mode, whose jobs run 1, 2, 3... seconds each (up to 300) and start from a sample of the
# corpus: in five minutes it ran 39% fewer executions (cache/benches/experiments.md).
#
#   start_workers FUZZER WORK DEADLINE FLAG... -- CORPUS...
#
# DEADLINE is a time in seconds since the epoch (0: none; the workers stop when WORK/stop
# exists, or on Ctrl-C). Sets WORKERS to the workers' process ids; each writes the logs of its
# runs to WORK/logs/WORKER.RUN.log, and the process id of the run in progress to WORK/pid.WORKER.
start_workers() {
    local fuzzer=$1 work=$2 deadline=$3 worker
    shift 3
    mkdir -p "$work/new" "$work/logs"
    WORKERS=()
    for ((worker = 1; worker <= $(nproc); worker++)); do
        fuzz_worker "$fuzzer" "$work" "$worker" "$deadline" "$@" &
        WORKERS+=($!)
    done
}

# After a divergence a worker starts again, until this many of its runs diverged (then it gives
# up, leaving WORK/gave-up.WORKER): a cache that diverges within a second would otherwise fill
# the artifacts folder overnight.
MAX_DIVERGENCES=100

# One worker of start_workers: runs of FUZZER until the deadline, the stop file, or Ctrl-C.
fuzz_worker() {
    local fuzzer=$1 work=$2 worker=$3 deadline=$4 run=0 left status log
    shift 4
    local flags=() per_run seed=
    while [[ $1 != -- ]]; do
        # A seed given (-seed=N) is where the workers' seeds start: each run gets its own, or
        # every worker would search alike, and a run after a divergence would find it again.
        if [[ $1 =~ ^-seed=([1-9][0-9]*)$ ]]; then seed=${BASH_REMATCH[1]}; else flags+=("$1"); fi
        shift
    done
    shift
    # Ctrl-C reaches the runs (the terminal signals the whole process group, and the script
    # passes it on): this loop, in the background, ignores it and sees how the run ended.
    while [[ ! -e $work/stop ]]; do
        # Every run after the first began after a divergence.
        if ((run == MAX_DIVERGENCES)); then
            : >"$work/gave-up.$worker"
            break
        fi
        per_run=()
        if ((deadline > 0)); then
            left=$((deadline - $(date +%s)))
            ((left > 0)) || break
            per_run+=(-max_total_time="$left")
        fi
        [[ -z $seed ]] || per_run+=(-seed=$((seed + run * $(nproc) + worker - 1)))
        run=$((run + 1))
        log=$work/logs/$worker.$run.log
        # Final stats: fuzz_totals reads a finished run's executions from them. -reload=10:
        # each reload lists and stats every file in WORK/new, tens of thousands overnight.
        "$fuzzer" -print_final_stats=1 -reload=10 "${flags[@]}" "${per_run[@]}" "$@" >"$log" 2>&1 &
        echo $! >"$work/pid.$worker"
        status=0
        wait $! || status=$?
        # 0: its time is up; 72: interrupted (libFuzzer's -interrupted_exitcode).
        ((status != 0 && status != 72)) || break
        # Anything else is a divergence (a crash, a timeout, out of memory), kept as an
        # artifact. One before fuzzing began came from the corpus itself, and would end every
        # run the same way.
        if ! grep -E '^#[0-9]+[[:space:]]+INITED' "$log" >/dev/null; then
            cp "$log" "$work/failed-at-start.log"
            break
        fi
    done
    rm -f "$work/pid.$worker"
}

# Stops the workers of WORK: no more runs, and Ctrl-C for the ones in progress.
stop_workers() {
    local work=$1 file pid
    : >"$work/stop"
    for file in "$work"/pid.*; do
        # A run may have ended, and its file gone, since: a Ctrl-C reaches the runs too. Under
        # `set -e` a failed kill here ended the script before it merged what the runs found.
        if read -r pid 2>/dev/null <"$file"; then
            kill -INT "$pid" 2>/dev/null || true
        fi
    done
}

# Whether any of WORKERS is still running.
workers_running() {
    local pid
    for pid in "${WORKERS[@]}"; do
        kill -0 "$pid" 2>/dev/null && return 0
    done
    return 1
}

# What the runs of WORK did so far, as "EXECUTIONS COV FT": executions summed over every run
# (its final count if it ended, else its latest status line), coverage and features the most
# any run reached.
fuzz_totals() {
    local logs=("$1"/logs/*.log)
    [[ -e ${logs[0]} ]] || { echo "0 0 0"; return; }
    awk 'FNR == 1 { total += runs; runs = 0 }
        /^#[0-9]+/ { runs = substr($1, 2) + 0 }
        /^stat::number_of_executed_units:/ { runs = $2 + 0 }
        / cov: [0-9]+ ft: [0-9]+/ {
            for (i = 1; i < NF; i++) {
                if ($i == "cov:" && $(i + 1) + 0 > cov) cov = $(i + 1) + 0
                if ($i == "ft:" && $(i + 1) + 0 > ft) ft = $(i + 1) + 0
            }
        }
        END { print total + runs, cov + 0, ft + 0 }' "${logs[@]}"
}

# The libFuzzer targets, one per line.
fuzz_targets() {
    sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -vx fuzz
}

# is_target NAME: whether NAME is one of them (taken literally, even if it starts with '-').
is_target() {
    fuzz_targets | grep -xF -- "$1" >/dev/null
}

# The targets on one line, for messages.
target_list() {
    fuzz_targets | paste -sd ' '
}

require_target() {
    is_target "$1" || die "unknown fuzz target '$1' (targets: $(target_list))"
}

# require_count WHAT VALUE: dies unless VALUE is a positive whole number, naming WHAT.
require_count() {
    [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 must be a positive whole number, not '$2'"
}

# Where cargo-fuzz has libFuzzer write TARGET's failing inputs (`cargo fuzz run` passes it as
# -artifact_prefix), and where scripts/promote and the triage look for them.
fuzz_artifacts() {
    echo "fuzz/artifacts/$1"
}

# Where `cargo fuzz build` puts TARGET's binary, for TRIPLE (default: this machine's). cargo-fuzz
# builds into the workspace's target folder (CARGO_TARGET_DIR, if set), under the triple.
fuzz_binary() {
    local triple=${2:-$(rustc -vV | sed -n 's/^host: //p')}
    echo "$(target_dir)/$triple/release/$1"
}

# The folder cargo builds into: the workspace's target folder, or CARGO_TARGET_DIR if set.
target_dir() {
    cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p'
}

# report_divergences SCRIPT TARGET FILE...: what scripts/fuzz and scripts/merge print of the
# failing inputs they found. The triage and scripts/promote replay through the lockstep
# driver, so only that target's inputs are grouped, minimised and proposed as regression tests;
# another target's are listed, with the command that runs one again.
report_divergences() {
    local script=$1 target=$2
    shift 2
    echo
    if [[ $target == lockstep ]]; then
        harness triage "$@"
        echo
        echo "$script: to turn one into a regression test: scripts/promote $1"
    else
        printf '  %s\n' "$@"
        echo "$script: to see one fail again: $(fuzz_binary "$target") $1"
    fi
}

# The harness's command line (fuzz/src/bin/harness.rs), built in release mode.
harness() {
    cargo run --quiet --release -p fuzz --bin harness -- "$@"
}
