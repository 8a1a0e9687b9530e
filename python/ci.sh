#!/usr/bin/env bash
# Builds the katro wheel, installs it into a fresh virtual environment with
# the versions the tests are written against, and runs the Python tests
# (which run python/examples/ too). Run from anywhere; .ci/run runs it with
# CARGO_TARGET_DIR set to the root's target folder, so the katro binary
# is the one `cargo test --profile checked` built.
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
phase() { echo "python/ci.sh: $1 done at ${SECONDS} s"; }
python3 -m venv "$work/venv"
py="$work/venv/bin/python"
"$py" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.9,<2" "open_spiel==2.0.2" numpy pandas pytest
phase "virtual environment"
"$work/venv/bin/maturin" build --release --quiet --interpreter "$py" --out "$work/dist"
"$py" -m pip install --quiet --disable-pip-version-check "$work"/dist/katro-*.whl
phase "wheel"
# The katro binary, to compare run_experiment's files with `katro run`'s.
(cd .. && cargo build --profile checked --quiet --bin katro)
# From outside python/, so `import katro` finds the installed wheel and not
# the source folder (which lacks the compiled module).
cd "$work"
KATRO_BIN="${CARGO_TARGET_DIR:-$here/../target}/checked/katro" "$work/venv/bin/pytest" -q -p no:cacheprovider "$here/tests"
phase "tests"
