#!/usr/bin/env bash
# Redraws the report of every committed results folder with what the
# prover established: each verdict line whose game a committed proof or
# bound valued (results/prove/*.json and lap-limit-10000/*.json,
# results/proved/proved.csv; the same
# rules and lap limit) says it, and results/opening-plies gets perfect
# play's shares from results/openings/openings.csv. It replays no game and
# changes no CSV. Run from the repository root:
#   bash scripts/reports.sh
set -euo pipefail
katro=${KATRO:-target/release/katro}
proved=()
for f in results/prove/*.json results/prove/lap-limit-10000/*.json results/proved/proved.csv; do
    proved+=(--proved "$f")
done
for dir in results/*/; do
    dir=${dir%/}
    [ -f "$dir/report.html" ] || continue
    extra=()
    if [ "$dir" = results/opening-plies ]; then
        extra=(--openings results/openings/openings.csv)
    fi
    "$katro" report "$dir" "${proved[@]}" "${extra[@]}"
done
