#!/usr/bin/env bash
# Runs a katro study for real on a one-node SLURM cluster that this script
# sets up on localhost, through scripts/slurm/submit.sh, and checks that the
# merged result is byte for byte what one `katro run` on this machine writes.
#
#   bash tests/slurm/local-cluster.sh
#
# What it does:
#   1. installs Debian's slurm-wlm and munge if they are missing (as root);
#   2. starts munged, slurmctld and slurmd as root, with their key, sockets,
#      state and logs in a fresh temporary folder, on free ports, so it never
#      touches a system SLURM or another run of this script;
#   3. study: submits tests/slurm/experiment.toml as KATRO_SLURM_SHARDS array
#      tasks plus the dependent merge job, waits, compares with a local run;
#   4. resume: submits it again with shard 2 made to fail, checks that the
#      merge job is cancelled and writes nothing, submits shard 2 alone as
#      docs/CLUSTER.md says, and compares again;
#   5. curve: submits the tiny strength curve (experiments/strength-curve-
#      tiny.toml) with KATRO_CURVE=1, so the merge job also runs `katro
#      curve` (solving its 4x3 board for the perfect-play limit) and `katro
#      report`, and compares its summary.csv and strength-curve.csv with a
#      local run's and a local `katro curve`'s;
#   6. prove-family: submits a small `katro prove-family` family (the 4x3
#      boards, shallow searches) as array tasks and its merge, and compares
#      proved.csv and proved.svg with a local run's;
#   7. stops the daemons and removes the folder, however it ends.
#
# Settings (environment):
#   KATRO_SLURM_SHARDS    array tasks per study [4]
#   KATRO_SLURM_TIMEOUT   seconds to wait for each job [180]
#   KATRO_SLURM_KEEP=1    keep the temporary folder, to look at afterwards
#   KATRO_BIN             a katro binary to use instead of building one
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
shards=${KATRO_SLURM_SHARDS:-4}
timeout=${KATRO_SLURM_TIMEOUT:-180}
experiment=$repo/tests/slurm/experiment.toml
outputs=(summary.csv comparison.csv games.csv ratings.csv pairwise.csv skill-trace.csv)
curve=$repo/experiments/strength-curve-tiny.toml
curve_outputs=(summary.csv comparison.csv lengths.csv strength-curve.csv strength-curve.svg)

passed=0
say() { printf '[slurm-test %3ds] %s\n' "$SECONDS" "$*"; }
fail() {
    say "FAILED: $*" >&2
    exit 1
}
pass() {
    passed=$((passed + 1))
    say "ok: $*"
}

# --- 1. packages -------------------------------------------------------------

install_packages() {
    local missing=0 cmd
    for cmd in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
        command -v "$cmd" >/dev/null || missing=1
    done
    [ $missing = 1 ] || return 0
    [ "$(id -u)" = 0 ] || fail "slurm-wlm and munge are missing and installing them needs root"
    say "installing slurm-wlm and munge with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # Their post-install scripts try to start the system services; without an
    # init system that fails harmlessly ("policy-rc.d denied execution").
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
}

# --- 2. the cluster ------------------------------------------------------------

work=
daemons=(slurmd slurmctld munged)

# Stop a daemon by the id it wrote, only if that process still runs from this
# run's folder: a recycled pid of someone else's process is left alone.
stop_daemon() {
    local dir=$1 name=$2 pid i
    pid=$(cat "$dir/run/$name.pid" 2>/dev/null) || return 0
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 0
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$dir" || return 0
    kill "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 50; i++)); do
        [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
}

# A run killed with SIGKILL cannot clean up after itself: stop its daemons and
# remove its folder, so that running this script again always starts afresh.
# A run whose script is still alive is someone else's and is left alone.
clean_stale_runs() {
    local dir name owner
    for dir in "${TMPDIR:-/tmp}"/katro-slurm.*; do
        [ -f "$dir/owner.pid" ] || continue
        owner=$(cat "$dir/owner.pid")
        if [ -n "$owner" ] && [ -r "/proc/$owner/cmdline" ] &&
            tr '\0' ' ' <"/proc/$owner/cmdline" | grep -q local-cluster.sh; then
            continue
        fi
        say "cleaning up after an earlier run that was killed: $dir"
        for name in "${daemons[@]}"; do stop_daemon "$dir" "$name"; done
        rm -rf "$dir"
    done
}

show_logs() {
    local f
    for f in "$work"/log/*.log "$work"/*/slurm/*.out; do
        [ -f "$f" ] || continue
        echo "----- $f (last 80 lines)"
        tail -n 80 "$f"
    done
    if [ "${SLURM_CONF:-}" = "$work/slurm.conf" ]; then
        echo "----- squeue"
        squeue 2>&1 || true
    fi
}

cleanup() {
    local status=$? name ids
    trap - EXIT
    if [ -n "$work" ] && [ -d "$work" ]; then
        if [ $status != 0 ]; then
            say "logs and job output follow" >&2
            show_logs >&2
        fi
        # Jobs still queued or running would leave slurmstepd behind. Only
        # ever this run's own cluster: never a system one.
        ids=
        [ "${SLURM_CONF:-}" != "$work/slurm.conf" ] || ids=$(squeue -h -o %A 2>/dev/null || true)
        if [ -n "$ids" ]; then
            # shellcheck disable=SC2086
            scancel $ids 2>/dev/null || true
            sleep 1
        fi
        for name in "${daemons[@]}"; do stop_daemon "$work" "$name"; done
        if [ "${KATRO_SLURM_KEEP:-}" = 1 ]; then
            say "kept $work"
        else
            rm -rf "$work"
        fi
    fi
    if [ $status = 0 ]; then
        say "all done in ${SECONDS}s"
        echo "slurm: $passed passed, 0 failed"
    else
        echo "slurm: $passed passed, 1 failed"
    fi
    exit $status
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_cluster() {
    local node mem port i state
    clean_stale_runs
    work=$(mktemp -d "${TMPDIR:-/tmp}/katro-slurm.XXXXXX")
    echo $$ >"$work/owner.pid"
    # munged insists that everyone may traverse its socket's folders and that
    # only its owner may write them.
    chmod 755 "$work"
    mkdir -m 755 "$work/run" "$work/log" "$work/state" "$work/spool"
    mkdir -m 700 "$work/key"
    dd if=/dev/urandom of="$work/key/munge.key" bs=1024 count=1 status=none
    chmod 400 "$work/key/munge.key"
    munged --socket="$work/run/munge.socket" --key-file="$work/key/munge.key" \
        --pid-file="$work/run/munged.pid" --seed-file="$work/run/munged.seed" \
        --log-file="$work/log/munged.log" ||
        fail "munged did not start: $(tail -n 3 "$work/log/munged.log" 2>/dev/null)"
    munge -n -S "$work/run/munge.socket" | unmunge -S "$work/run/munge.socket" >/dev/null ||
        fail "munge cannot decode its own credential"
    say "munged is up"

    # Two free ports in a row, so a stale or parallel cluster cannot answer.
    port=6817
    until port_free $port && port_free $((port + 1)); do
        port=$((port + 2))
        ((port < 6917)) || fail "no two free ports between 6817 and 6917"
    done
    node=$(hostname -s)
    mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
    cat >"$work/slurm.conf" <<EOF
# Written by tests/slurm/local-cluster.sh: one node, this machine, all as root.
ClusterName=katrotest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/run/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
# No cgroups: tracking by process tree, no task binding, no accounting.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
# Start a job as soon as it may run, not in 3-second batches: halves the test.
SchedulerParameters=batch_sched_delay=0
# Jobs share the node by CPU, so two one-CPU shards run at once.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# Finished jobs stay visible to scontrol for this long (seconds).
MinJobAge=600
ReturnToService=2
# Trust the CPUs and memory written here over what slurmd detects.
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 RealMemory=$mem State=UNKNOWN
PartitionName=katro Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$work/slurm.conf
    # -f, although SLURM_CONF says the same: a stale run's daemons are known
    # by their folder on their command line.
    slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
    for ((i = 0; ; i++)); do
        scontrol ping 2>/dev/null | grep -q 'is UP' && break
        ((i < 100)) || fail "slurmctld does not answer"
        sleep 0.2
    done
    say "slurmctld is up on port $port"
    slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
    for ((i = 0; ; i++)); do
        state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
        [ "$state" = idle ] && break
        ((i < 150)) || fail "node $node is '$state', not idle"
        sleep 0.2
    done
    say "slurmd is up: node $node idle with 2 CPUs"
}

# --- 3. jobs -----------------------------------------------------------------

# The state of each task of job $1 (an array job has several) once none is
# pending or running any more; fails after $timeout seconds.
wait_for_job() {
    local id=$1 start=$SECONDS states
    while :; do
        states=$(scontrol -o show job "$id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')
        [ -n "$states" ] || fail "job $id is unknown to slurmctld"
        if ! grep -qE 'PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUE|RESIZING|SIGNALING|STAGE_OUT' <<<"$states"; then
            echo "$states"
            return
        fi
        ((SECONDS - start < timeout)) || fail "job $id still not finished after ${timeout}s: $states"
        sleep 0.5
    done
}

# Submit through scripts/slurm/submit.sh; sets array_id and merge_id.
submit() {
    local out
    out=$("$repo/scripts/slurm/submit.sh" "$@") || fail "submit.sh $* failed: $out"
    printf '    %s\n' "${out//$'\n'/$'\n'    }"
    array_id=$(sed -n 's/^submitted array job \([0-9]*\):.*/\1/p' <<<"$out")
    merge_id=$(sed -n 's/^submitted merge job \([0-9]*\):.*/\1/p' <<<"$out")
    { [ -n "$array_id" ] && [ -n "$merge_id" ]; } || fail "submit.sh printed no job ids"
}

expect_states() {
    local id=$1 want=$2 got
    got=$(wait_for_job "$id")
    [ "$got" = "$want" ] || fail "job $id ended $got, expected $want"
    pass "job $id ended $got"
}

# Every output file FILES of the local run in LOCAL, byte for byte, and no
# other; and one shard file per array task, so the work really was split.
#   compare_with_local DIR [LOCAL FILES...]
compare_with_local() {
    local dir=$1 local=${2:-$work/local} f i
    local files=("${outputs[@]}")
    [ $# -le 2 ] || files=("${@:3}")
    for ((i = 1; i <= shards; i++)); do
        compgen -G "$dir/shards/shard-$i-of-$shards.*" >/dev/null || fail "$dir/shards has no shard $i of $shards"
    done
    pass "$dir/shards holds shards 1 to $shards"
    [ -f "$local/summary.csv" ] || fail "the local run wrote no summary.csv"
    for f in "${files[@]}"; do
        if [ -f "$local/$f" ]; then
            [ -f "$dir/$f" ] || fail "$dir has no $f"
            cmp "$local/$f" "$dir/$f" || fail "$dir/$f differs from the local run's"
            pass "$f from the cluster equals the local run's ($(wc -l <"$dir/$f") lines)"
        elif [ -f "$dir/$f" ]; then
            fail "$dir/$f exists but the local run wrote none"
        fi
    done
}

prepare_workload() {
    if [ -z "${KATRO_BIN:-}" ]; then
        say "building katro (cargo build --release)"
        (cd "$repo" && cargo build --release --quiet)
        KATRO_BIN=$repo/target/release/katro
    fi
    "$KATRO_BIN" run --help | grep -q -- '--shard' ||
        fail "$KATRO_BIN has no 'run --shard'"
    export KATRO_BIN
}

main() {
    trap cleanup EXIT
    trap 'exit 130' INT TERM HUP
    { [[ $shards =~ ^[0-9]+$ ]] && ((shards >= 2)); } || fail "KATRO_SLURM_SHARDS must be 2 or more"
    install_packages
    prepare_workload
    start_cluster

    say "the same study on this machine alone"
    "$KATRO_BIN" run "$experiment" --out "$work/local" --threads 2 >/dev/null

    say "study: $shards array tasks, then the merge"
    submit "$experiment" "$shards" "$work/study"
    expect_states "$array_id" "COMPLETED x$shards"
    expect_states "$merge_id" "COMPLETED x1"
    compare_with_local "$work/study"

    say "resume: shard 2 fails, the merge is cancelled, shard 2 runs again"
    cat >"$work/fail-shard-2" <<EOF
#!/bin/sh
# Stands for a node that dies while running shard 2.
case " \$* " in *" --shard 2/"*) echo "shard 2 fails on purpose" >&2; exit 1 ;; esac
exec "$KATRO_BIN" "\$@"
EOF
    chmod +x "$work/fail-shard-2"
    KATRO_BIN=$work/fail-shard-2 submit "$experiment" "$shards" "$work/resume"
    expect_states "$array_id" "COMPLETED x$((shards - 1)), FAILED x1"
    expect_states "$merge_id" "CANCELLED x1"
    for f in "${outputs[@]}"; do
        [ ! -e "$work/resume/$f" ] || fail "$work/resume/$f exists although a shard failed"
    done
    pass "nothing merged while shard 2 was missing"
    KATRO_ARRAY=2 submit "$experiment" "$shards" "$work/resume"
    expect_states "$array_id" "COMPLETED x1"
    expect_states "$merge_id" "COMPLETED x1"
    compare_with_local "$work/resume"

    say "curve: the tiny strength curve as $shards array tasks, the merge, then katro curve"
    "$KATRO_BIN" run "$curve" --out "$work/curve-local" --threads 2 >/dev/null
    "$KATRO_BIN" curve "$work/curve-local" --threads 2 >/dev/null
    KATRO_CURVE=1 submit "$curve" "$shards" "$work/curve"
    expect_states "$array_id" "COMPLETED x$shards"
    expect_states "$merge_id" "COMPLETED x1"
    compare_with_local "$work/curve" "$work/curve-local" "${curve_outputs[@]}"
    grep -q 'strength-curve' "$work/curve/report.html" ||
        fail "$work/curve/report.html does not show the strength curve"
    pass "the merge job's report.html shows the strength curve"

    say "prove-family: a small family as $shards array tasks, then its merge"
    local prove=(--sets boards --only rows=4,holes=3 --max-depth 8 --max-memory 0.01) f
    "$KATRO_BIN" prove-family --out "$work/prove-local" --threads 2 "${prove[@]}" >/dev/null 2>&1 ||
        fail "the local prove-family run failed"
    submit prove-family "$shards" "$work/prove" "${prove[@]}"
    expect_states "$array_id" "COMPLETED x$shards"
    expect_states "$merge_id" "COMPLETED x1"
    for f in proved.csv proved.svg; do
        [ -f "$work/prove/$f" ] || fail "$work/prove has no $f"
        cmp "$work/prove-local/$f" "$work/prove/$f" || fail "$work/prove/$f differs from the local run's"
        pass "$f from the cluster equals the local run's"
    done
}

main
