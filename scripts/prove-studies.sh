#!/usr/bin/env bash
# The proof studies beyond each preset's start (docs/SOLVED.md): the board
# family (results/proved, checked against solve in results/proved/check.txt),
# the nearby starts (results/nearby) and the openings under perfect play
# (results/openings). Every budget is in nodes, so the same command gives the
# same CSV on any machine. Run from the repository root:
#   bash scripts/prove-studies.sh [STREAM]
# STREAM `family` runs the board family, `nearby` the nearby starts,
# `openings` the openings; none runs all three in turn. Each job resumes:
# run it again after an interruption.
set -euo pipefail
katro=${KATRO:-target/release/katro}
threads=${THREADS:-2}

family() {
    "$katro" prove-family --out results/proved --threads "$threads"
    "$katro" prove-family --out results/proved --check-solved >results/proved/check.txt
}

nearby() {
    for v in katro-4x4 katro-6x3 katra-boaoaka-4x8; do
        "$katro" prove-nearby "$v" --threads "$threads"
    done
}

openings() {
    # The lap limit of the strength curve's runs, so that `katro curve
    # --openings` finds the rules of its summary.csv.
    for v in katro-4x4 katro-6x3; do
        "$katro" prove-openings "$v" --plies 0,1,2,4 --lap-limit 10000 \
            --threads "$threads" --max-nodes 200000000 --max-memory 1
    done
    "$katro" prove-openings katra-boaoaka-4x8 --plies 0,1,2 --lap-limit 10000 \
        --threads "$threads" --max-nodes 200000000 --max-memory 1
}

case ${1:-} in
    family) family ;;
    nearby) nearby ;;
    openings) openings ;;
    *) family; nearby; openings ;;
esac
