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
    # The prover against every board solve solved: 2 M nodes a search
    # proves every won or lost start there (the longest proof, Ludii's 4x3
    # with 1 seed, takes about 394,000); a drawn one spends them.
    "$katro" prove-family --out results/proved-solved --sets solved-family \
        --max-nodes 2000000 --max-memory 0.25 --threads "$threads"
    "$katro" prove-family --out results/proved-solved --check-solved \
        --resolve-memory 1 >results/proved-solved/check.txt
}

nearby() {
    for v in katro-4x4 katro-6x3; do
        "$katro" prove-nearby "$v" --threads "$threads"
    done
    # 992 layouts, a third of them drawn-looking: 2 M nodes each rather
    # than 10 M keeps the run near half an hour on 2 cores.
    "$katro" prove-nearby katra-boaoaka-4x8 --threads "$threads" --max-nodes 2000000
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
