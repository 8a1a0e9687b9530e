#!/usr/bin/env bash
# Submit a katro study to SLURM: a job array of N shards, then a merge job
# that runs only once every shard has succeeded.
#
#   scripts/slurm/submit.sh EXPERIMENT.toml N [OUT_DIR]
#   scripts/slurm/submit.sh prove-family N [OUT_DIR [OPTION...]]
#
# N is how many slices the study is cut into (one array task each); see
# docs/CLUSTER.md for how to pick it. OUT_DIR defaults to the folder a plain
# `katro run` would use: the experiment's `output`, else results/<name>/,
# relative to the directory you submit from. The finished study is
# OUT_DIR/summary.csv (and comparison.csv, games.csv); the jobs' own output
# goes to OUT_DIR/slurm/ unless KATRO_LOG_DIR says otherwise.
#
# With `prove-family` in place of the experiment, the array runs `katro
# prove-family --shard I/N --out OUT_DIR OPTION...` (OUT_DIR defaults to
# results/proved; the OPTIONs, e.g. --max-nodes 10000000 --sets boards,
# are given to every shard, and must be the same for a resubmitted one),
# and the merge job `katro prove-family --merge --out OUT_DIR`, which
# writes OUT_DIR/proved.csv, proved.svg and manifest.json.
#
# Settings, all optional, as environment variables:
#   KATRO_BIN          katro binary [target/release/katro of this checkout,
#                      else `katro` on PATH]; every node must see this path
#   KATRO_PARTITION    partition (sbatch --partition) [the cluster's default]
#   KATRO_ACCOUNT      account to charge (sbatch --account)
#   KATRO_TIME         time limit of each shard task, e.g. 02:00:00 [the
#                      partition's default]
#   KATRO_MERGE_TIME   time limit of the merge job [00:30:00]
#   KATRO_CPUS         CPUs per shard task, also katro's --threads [1]
#   KATRO_MEM          memory per shard task, e.g. 2G [the cluster's default]
#   KATRO_MAX_RUNNING  at most this many shard tasks at once (the %M of --array)
#   KATRO_ARRAY        which shards to submit [1-N]: e.g. "3" or "3,7-8" to
#                      run failed shards again (see docs/CLUSTER.md)
#   KATRO_AFTER        job ids the merge also waits for, whatever their end
#                      (with KATRO_ARRAY, the first array job still running)
#   KATRO_LOG_DIR      where the jobs' output files go [OUT_DIR/slurm]
#   KATRO_CURVE        1: the merge job then also runs `katro curve OUT_DIR`
#                      and `katro report OUT_DIR` (a strength curve,
#                      experiments/strength-curve*.toml) [0]
#   KATRO_CURVE_MEMORY GiB `katro curve` may solve in [4]
#   KATRO_SBATCH_ARGS  more sbatch options for both jobs, split on spaces
#
# Prints the two job ids; `squeue -u "$USER"` shows them while they wait or run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
    echo "submit.sh: $*" >&2
    exit 2
}

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}
[ $# -ge 2 ] || usage
experiment=$1
shards=$2
out=${3:-}
# `katro prove-family` options, given to every shard.
prove_opts=()
if [ "$experiment" = prove-family ]; then
    prove_opts=("${@:4}")
    out=${out:-results/proved}
    [ "${KATRO_CURVE:-0}" = 0 ] || die "KATRO_CURVE is for a strength curve, not prove-family"
else
    [ $# -le 3 ] || usage
    { [ -f "$experiment" ] && [ -r "$experiment" ]; } || die "cannot read the experiment file $experiment"
fi
[[ $shards =~ ^[1-9][0-9]*$ ]] || die "N must be a whole number of shards, 1 or more, not '$shards'"
command -v sbatch >/dev/null || die "sbatch not found: run this on a SLURM login node"

# The top-level string KEY of a TOML file: enough for `name` and `output`,
# which katro allows only as plain strings before the first table.
toml_top_string() {
    awk -v key="$1" '
        /^[ \t]*\[/ { exit }
        $0 ~ "^[ \t]*" key "[ \t]*=" {
            if (match($0, /"[^"]*"/)) { print substr($0, RSTART + 1, RLENGTH - 2); exit }
        }' "$2"
}

if [ -z "$out" ]; then
    out=$(toml_top_string output "$experiment")
    if [ -z "$out" ]; then
        name=$(toml_top_string name "$experiment")
        [ -n "$name" ] || die "$experiment has no top-level name = \"...\": give OUT_DIR"
        out=results/$name
    fi
fi

# Absolute paths: the jobs start elsewhere, possibly on another node.
[ "$experiment" = prove-family ] || experiment=$(realpath "$experiment")
out=$(realpath -m "$out")
if [ -z "${KATRO_BIN:-}" ]; then
    if [ -x "$here/../../target/release/katro" ]; then
        KATRO_BIN=$here/../../target/release/katro
    else
        KATRO_BIN=$(command -v katro) ||
            die "no katro binary: build it with 'cargo build --release' or set KATRO_BIN"
    fi
fi
[ -x "$KATRO_BIN" ] || die "KATRO_BIN=$KATRO_BIN is not an executable file"
KATRO_BIN=$(realpath "$KATRO_BIN")
export KATRO_BIN

array=${KATRO_ARRAY:-1-$shards}
# Each item is I or I-J with 1 <= I <= J <= N; anything else would slice the
# study into pieces that no merge accepts.
IFS=, read -r -a items <<<"$array"
for item in "${items[@]}"; do
    [[ $item =~ ^([0-9]+)(-([0-9]+))?$ ]] || die "KATRO_ARRAY: '$item' is not I or I-J"
    lo=${BASH_REMATCH[1]}
    hi=${BASH_REMATCH[3]:-$lo}
    ((1 <= lo && lo <= hi && hi <= shards)) || die "KATRO_ARRAY: '$item' is outside shards 1-$shards"
done
if [ -n "${KATRO_MAX_RUNNING:-}" ]; then
    [[ $KATRO_MAX_RUNNING =~ ^[1-9][0-9]*$ ]] || die "KATRO_MAX_RUNNING must be a whole number, 1 or more"
    array=$array%$KATRO_MAX_RUNNING
fi

case ${KATRO_CURVE:-0} in
0) merge_args=() ;;
1) merge_args=(curve) ;;
*) die "KATRO_CURVE must be 0 or 1, not '$KATRO_CURVE'" ;;
esac
[ "$experiment" != prove-family ] || merge_args=(prove-family)
if [ -n "${KATRO_CURVE_MEMORY:-}" ]; then
    [[ $KATRO_CURVE_MEMORY =~ ^[1-9][0-9]*$ ]] || die "KATRO_CURVE_MEMORY must be a whole number of GiB, 1 or more"
    export KATRO_CURVE_MEMORY
fi

logs=${KATRO_LOG_DIR:-$out/slurm}
mkdir -p "$out" "$logs"
logs=$(realpath "$logs")

common=()
[ -n "${KATRO_PARTITION:-}" ] && common+=(--partition="$KATRO_PARTITION")
[ -n "${KATRO_ACCOUNT:-}" ] && common+=(--account="$KATRO_ACCOUNT")
# Word splitting is the point here: several options in one variable.
# shellcheck disable=SC2206
[ -n "${KATRO_SBATCH_ARGS:-}" ] && common+=($KATRO_SBATCH_ARGS)

shard_opts=(--array="$array" --cpus-per-task="${KATRO_CPUS:-1}"
    --output="$logs/shard-%A_%a.out")
[ -n "${KATRO_TIME:-}" ] && shard_opts+=(--time="$KATRO_TIME")
[ -n "${KATRO_MEM:-}" ] && shard_opts+=(--mem="$KATRO_MEM")

# --parsable prints "id" or "id;cluster".
array_id=$(sbatch --parsable "${common[@]}" "${shard_opts[@]}" \
    "$here/katro-array.sbatch" "$experiment" "$shards" "$out" "${prove_opts[@]}")
array_id=${array_id%%;*}
echo "submitted array job $array_id: shards $array of $shards"

# afterok on an array job waits for every one of its tasks to succeed. If one
# fails, the merge can never run: --kill-on-invalid-dep cancels it instead of
# leaving it pending forever.
dependency=afterok:$array_id
for id in $(tr , " " <<<"${KATRO_AFTER:-}"); do
    dependency+=,afterany:$id
done
merge_id=$(sbatch --parsable "${common[@]}" --dependency="$dependency" \
    --kill-on-invalid-dep=yes --time="${KATRO_MERGE_TIME:-00:30:00}" \
    --output="$logs/merge-%j.out" "$here/katro-merge.sbatch" "$out" "${merge_args[@]}")
merge_id=${merge_id%%;*}
case ${merge_args[*]} in
curve) then_what=", then katro curve" ;;
*) then_what= ;;
esac
echo "submitted merge job $merge_id: runs after job $array_id succeeds$then_what"
echo "results: $out (job output in $logs)"
