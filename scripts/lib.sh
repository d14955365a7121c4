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
# costs nine executions in ten: the main job (scripts/fuzz lockstep 120, both cores) ran 992,574
# executions with it and 8,993,873 without; one core, 20 s from the corpus, 7,360 against
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
#   found the planted bugs sooner without it (median 0.11 s against 0.21). In fork mode, as
#   scripts/fuzz runs, the gain is 3%. cache/benches/experiments.md has the runs.
MAX_LEN=512
SEARCH=(-max_len="$MAX_LEN" -entropic=0)

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

# The harness's command line (fuzz/src/bin/harness.rs), built in release mode.
harness() {
    cargo run --quiet --release -p fuzz --bin harness -- "$@"
}
