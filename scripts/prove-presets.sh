#!/usr/bin/env bash
# Proves (or bounds) the start of every preset and writes
# results/prove/PRESET.json (`katro prove --json`), with the certificate of
# each proven start beside it (PRESET.cert.gz, checked by `katro
# check-proof PRESET FILE`). Node budgets, not seconds, bound the unproven
# searches, so the same command gives the same file on any machine (only
# `seconds` and `peak_memory_bytes` differ). Run from the repository root:
#   bash scripts/prove-presets.sh [STREAM]
# STREAM `a` runs the two 6x6 presets, `b` the rest, `laps` the proven
# three at lap limit 10,000; none runs all three in turn.
set -euo pipefail
katro=${KATRO:-target/release/katro}
out=results/prove
mkdir -p "$out"

prove() {
    local variant=$1
    shift
    "$katro" prove "$variant" --json --max-memory 4 "$@" >"$out/$variant.json.tmp"
    mv "$out/$variant.json.tmp" "$out/$variant.json"
}

stream_a() {
    prove katro-6x6 --max-nodes 140000000
    prove katro-6x6-diagonal --max-nodes 140000000
}

stream_b() {
    for v in katro-4x4 katro-6x3; do
        prove "$v" --certificate "$out/$v.cert.gz"
    done
    # 32 first moves, some of them long or drawn: a budget for each.
    prove katra-boaoaka-4x8 --certificate "$out/katra-boaoaka-4x8.cert.gz" --max-nodes 5000000
    prove katro-4x6 --max-nodes 200000000
    prove katro-ludii --max-nodes 100000000
    # Wikipedia's moves relay for long: from its start the prover made
    # about 2,400 nodes/s here (3,839,610 nodes in 1,624 s, the machine
    # shared; results/prove/katro-wikipedia.json), against 63,000 from the
    # shorter positions of random games (`katro bench --prove 20000
    # katro-wikipedia`), so 2 M nodes a search is the budget that fits.
    prove katro-wikipedia --max-nodes 2000000
    prove katra-boaoaka-ludii --max-nodes 100000
}

# The three proven starts again at the lap limit of the strong-play,
# opening-plies and strength-curve runs (10,000), whose verdict lines
# `katro report --proved` matches only by the same lap limit: each preset's
# settings as `katro show` prints them, the lap limit changed, proven with
# its certificate into results/prove/lap-limit-10000/.
stream_laps() {
    local dir=$out/lap-limit-10000 tmp
    mkdir -p "$dir"
    tmp=$(mktemp -d)
    for v in katro-4x4 katro-6x3 katra-boaoaka-4x8; do
        "$katro" show "$v" | sed 's/^lap_limit = .*/lap_limit = 10000/' >"$tmp/$v.toml"
        "$katro" prove "$tmp/$v.toml" --json --max-memory 4 --max-nodes 5000000 \
            --certificate "$dir/$v.cert.gz" >"$dir/$v.json.tmp"
        mv "$dir/$v.json.tmp" "$dir/$v.json"
    done
    rm -r "$tmp"
}

case ${1:-} in
    a) stream_a ;;
    b) stream_b ;;
    laps) stream_laps ;;
    *) stream_a; stream_b; stream_laps ;;
esac
