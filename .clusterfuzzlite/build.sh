#!/bin/bash -eu
# ClusterFuzzLite's build: every cargo-fuzz target into $OUT, with its seed corpus
# ($OUT/TARGET_seed_corpus.zip: corpus/TARGET, plus corpus/regressions for lockstep) and its
# libFuzzer options ($OUT/TARGET.options).
#
# It runs in the image of .clusterfuzzlite/Dockerfile (nightly Rust and cargo-fuzz on PATH), from
# the repository's root (the Dockerfile's WORKDIR), with OSS-Fuzz's environment: OUT, WORK,
# SANITIZER, FUZZING_ENGINE, RUSTFLAGS (set by `compile`), and CARGO_BUILD_TARGET if set. Under
# SANITIZER=coverage the image's cargo wrapper turns `cargo fuzz build` into a coverage build.
#
# To try it without Docker, from the repository's root (nightly Rust needed):
#   OUT=/tmp/cfl/out WORK=/tmp/cfl/work SANITIZER=address FUZZING_ENGINE=libfuzzer \
#       RUSTUP_TOOLCHAIN=nightly bash .clusterfuzzlite/build.sh
set -euo pipefail

[[ -f fuzz/Cargo.toml ]] || { echo "build.sh: run from the repository's root, not $PWD" >&2; exit 1; }
[[ ${FUZZING_ENGINE:-libfuzzer} == libfuzzer ]] ||
    { echo "build.sh: cargo-fuzz targets are libFuzzer targets, not FUZZING_ENGINE=$FUZZING_ENGINE" >&2; exit 1; }
: "${OUT:?build.sh: OUT (where the fuzz targets go) is not set}"
WORK=${WORK:-$(mktemp -d)}
source scripts/lib.sh # fuzz_targets (the targets named in fuzz/Cargo.toml) and SEARCH

# cargo-fuzz's --sanitizer. RUSTFLAGS from OSS-Fuzz's `compile` already asks for the same one
# (-Zsanitizer=address); repeating it is harmless. undefined and coverage add no sanitizer.
case ${SANITIZER:-address} in
    address | memory | thread | leak) sanitizer=$SANITIZER ;;
    *) sanitizer=none ;;
esac
triple=${CARGO_BUILD_TARGET:-$(rustc -vV | sed -n 's/^host: //p')}
# Release with debug assertions and overflow checks: what `cargo fuzz run` (scripts/fuzz) builds,
# so a crash found here reproduces there. One target at a time: fuzz/ also has an ordinary binary
# (harness), which cannot link with coverage instrumentation and no sanitizer runtime.
for target in $(fuzz_targets); do
    cargo fuzz build -O --debug-assertions --sanitizer "$sanitizer" --target "$triple" "$target"
done

mkdir -p "$OUT"
for target in $(fuzz_targets); do
    cp "$(fuzz_binary "$target" "$triple")" "$OUT/"

    seeds=$WORK/seeds/$target
    rm -rf "$seeds" "$OUT/${target}_seed_corpus.zip"
    mkdir -p "$seeds"
    # Corpus files are the files that are not hidden (not .gitkeep), as for the harness.
    find "corpus/$target" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$seeds/" \; 2>/dev/null || true
    if [[ $target == lockstep ]]; then
        for file in corpus/regressions/*; do
            if [[ -f $file ]]; then cp "$file" "$seeds/regression-$(basename "$file")"; fi
        done
    fi
    count=$(find "$seeds" -type f | wc -l)
    if [[ $count -gt 0 ]]; then
        (cd "$seeds" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    fi
    echo "build.sh: $target: $OUT/$target with $count seed files"

    # The same search as scripts/fuzz (SEARCH in lib.sh: inputs of at most 512 bytes, 169
    # operations, and no entropic power schedule), each `-name=value` written as `name = value`.
    # Cases run at thousands a second under AddressSanitizer; one that takes 10 s is a hang.
    {
        echo '[libfuzzer]'
        for flag in "${SEARCH[@]}" -timeout=10; do
            flag=${flag#-}
            echo "${flag%%=*} = ${flag#*=}"
        done
    } >"$OUT/$target.options"
done
