#!/usr/bin/env bash
# Every fuzz target for FUZZ_SECONDS (default 30) seconds, on stable Rust,
# from its committed corpus (fuzz/corpus/<target>/) with libFuzzer's seed
# fixed (-seed=1). The targets are built as `cargo fuzz run -s none`
# builds them (docs/FUZZING.md), with the same stable code-generation
# flags for coverage and no -Z flag, but by plain cargo, so CI needs no
# cargo-fuzz. New inputs go to a temporary folder (the committed corpus is
# only read); a crash fails the script, its input is kept under
# <target dir>/fuzz/artifacts/ and its log printed. Two targets run at a
# time (FUZZ_JOBS), one per core. Runs are seeded but bounded by time, so
# how many inputs one tries depends on the machine and its load.
set -euo pipefail
cd "$(dirname "$0")"
self="$PWD/$(basename "$0")"

seconds=${FUZZ_SECONDS:-30}
out="${CARGO_TARGET_DIR:-$PWD/../target}/fuzz"
host=$(rustc -vV | sed -n 's/^host: //p')

if [ "${1:-}" = "--one" ]; then
    # One target (called by the loop below).
    t=$2
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    mkdir -p "$work/new" "$out/artifacts/$t"
    dict=()
    case $t in
        variant_parser) dict=(-dict=variant.dict) ;;
        experiment_parser) dict=(-dict=experiment.dict) ;;
    esac
    if "$out/$host/release/$t" "$work/new" "corpus/$t" -seed=1 \
        -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$t/" "${dict[@]}" >"$work/log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
        echo "fuzz $t: ${runs:-?} inputs in ${seconds} s from $(ls "corpus/$t" | wc -l) seeds, no crash"
    else
        tail -n 60 "$work/log"
        echo "fuzz $t: FAILED (input kept in $out/artifacts/$t/)"
        exit 1
    fi
    exit 0
fi

# As cargo-fuzz 0.13 passes them (with --sanitizer none): coverage for
# libFuzzer, `--cfg fuzzing`, and debug assertions with overflow checks,
# so an overflow is a crash. --target keeps them off build scripts.
export RUSTFLAGS="-Cpasses=sancov-module \
-Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
-Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares \
--cfg fuzzing -Cdebug-assertions -Coverflow-checks"
cargo build --locked --release --bins --target "$host" --target-dir "$out"

targets=$(sed -n '/^\[\[bin\]\]/{n;s/^name = "\(.*\)"$/\1/p}' Cargo.toml)
for t in $targets; do
    [ -d "corpus/$t" ] || { echo "fuzz $t: no corpus/$t" >&2; exit 1; }
done
printf '%s\n' $targets | xargs -P "${FUZZ_JOBS:-2}" -I{} bash "$self" --one {}
