#!/usr/bin/env bash
# A stand-in for the katro binary's `run --shard` and `merge`, used by
# tests/slurm/local-cluster.sh with KATRO_SLURM_WORKLOAD=standin to test the
# SLURM scripts before (or apart from) katro's own shard support. It plays no
# Katro: each "game" g of the experiment's `games` is a line g,<hash of the
# experiment's seed and g>, and shard I/N owns the games with g % N == I - 1.
# Like katro, a merge refuses missing or foreign shards, so a merge job that
# ran too early or on a partial study fails here too.
#
#   standin-katro.sh run EXPERIMENT.toml [--shard I/N] [--out DIR] [--threads T]
#   standin-katro.sh merge DIR
set -euo pipefail

die() {
    echo "standin-katro: $*" >&2
    exit 2
}

top_value() {
    awk -v key="$1" '/^[ \t]*\[/ { exit } $0 ~ "^[ \t]*" key "[ \t]*=" { sub(/^[^=]*=[ \t]*/, ""); print; exit }' "$2"
}

game_line() {
    printf '%s,%s\n' "$2" "$(printf '%s:%s' "$1" "$2" | sha256sum | cut -c1-16)"
}

header=game,hash

cmd_run() {
    local experiment=$1 shard="" out="" seed games i n g tmp
    shift
    while [ $# -gt 0 ]; do
        case $1 in
        --shard) shard=$2 ;;
        --out) out=$2 ;;
        --threads) ;;
        *) die "unknown argument $1" ;;
        esac
        shift 2
    done
    seed=$(top_value seed "$experiment")
    games=$(top_value games "$experiment")
    [[ $seed =~ ^[0-9]+$ && $games =~ ^[0-9]+$ ]] || die "$experiment needs top-level seed and games"
    [ -n "$out" ] || die "--out is required"
    mkdir -p "$out"
    if [ -z "$shard" ]; then
        tmp=$(mktemp "$out/.summary.XXXXXX")
        { echo "$header"; for ((g = 0; g < games; g++)); do game_line "$seed" "$g"; done; } >"$tmp"
        mv "$tmp" "$out/summary.csv"
        return
    fi
    [[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] || die "--shard must be I/N"
    i=${BASH_REMATCH[1]}
    n=${BASH_REMATCH[2]}
    ((1 <= i && i <= n)) || die "--shard $shard: I must be between 1 and N"
    mkdir -p "$out/shards"
    tmp=$(mktemp "$out/shards/.part.XXXXXX")
    # The first line names the experiment, so a merge can refuse foreign shards.
    { echo "seed=$seed games=$games"; for ((g = i - 1; g < games; g += n)); do game_line "$seed" "$g"; done; } >"$tmp"
    mv "$tmp" "$out/shards/shard-$i-of-$n.csv"
}

cmd_merge() {
    local out=$1 files n i first f tmp
    shopt -s nullglob
    files=("$out"/shards/shard-*-of-*.csv)
    [ ${#files[@]} -gt 0 ] || die "no shards in $out/shards"
    n=${files[0]##*-of-}
    n=${n%.csv}
    first=$(head -n1 "${files[0]}")
    for f in "${files[@]}"; do
        [[ $f == *-of-$n.csv ]] || die "$f was cut into another number of shards than ${files[0]}"
        [ "$(head -n1 "$f")" = "$first" ] || die "$f is from another experiment than ${files[0]}"
    done
    for ((i = 1; i <= n; i++)); do
        [ -f "$out/shards/shard-$i-of-$n.csv" ] || die "shard $i of $n is missing from $out/shards"
    done
    tmp=$(mktemp "$out/.summary.XXXXXX")
    { echo "$header"; for f in "${files[@]}"; do tail -n +2 "$f"; done | sort -t, -k1,1n; } >"$tmp"
    mv "$tmp" "$out/summary.csv"
}

[ $# -ge 2 ] || die "usage: $0 run EXPERIMENT.toml [--shard I/N] [--out DIR] | merge DIR"
case $1 in
run) shift && cmd_run "$@" ;;
merge) cmd_merge "$2" ;;
*) die "unknown command $1" ;;
esac
