"""katro from Python: Katro variants, game states, katro's agents and
experiments, backed by the Rust engine (python/README.md)."""

import csv
import os
import re

from katro import _katro
from katro._katro import (
    Agent,
    ExperimentError,
    IllegalMoveError,
    Report,
    State,
    Variant,
    VariantError,
    __version__,
    presets,
)

__all__ = [
    "Agent",
    "ExperimentError",
    "IllegalMoveError",
    "Report",
    "State",
    "Variant",
    "VariantError",
    "CELL",
    "presets",
    "read_comparison",
    "read_games",
    "read_lengths",
    "read_pairwise",
    "read_ratings",
    "read_summary",
    "run_experiment",
]

# The fields that name a cell in every file with a row per cell, per game
# or per (cell, length): group by all of them, never by a part, or two
# cells (say, the same agents with and without random opening plies) pool.
CELL = ["variant", "p1", "p2", "opening_plies"]

# Columns katro writes as text whatever they hold, so a variant named "1"
# or "NA" stays that name and is never a number or a missing value, and a
# game's hex `hash` that happens to be all digits is not read as one.
_TEXT = {
    "variant", "baseline", "rules", "p1", "p2", "layout", "status", "moves", "hash",
    "agent", "opponent", "estimand", "balance_verdict",
}


def run_experiment(experiment, out=None, threads=None, force=False):
    """Runs an experiment as `katro run` does and returns its summary rows.

    `experiment` is the path of an experiment file, or a dict of the keys an
    experiment file holds (docs/EXPERIMENTS.md; variant files it names are
    relative to the current folder). The files written into the output
    folder (`out`, else the experiment's `output`, else `results/<name>/`)
    have the bytes `katro run` writes. Returns `summary.csv` as a pandas
    DataFrame when pandas is installed, else as a list of dicts.
    """
    if out is not None:
        out = os.fspath(out)
    if isinstance(experiment, dict):
        text = _katro.experiment_toml(experiment)
        try:
            out_dir = _katro.run_experiment_text(text, out, threads, force)
        except ExperimentError as e:
            # Its messages' lines and columns are this text's.
            e.toml = text
            raise
    else:
        out_dir = _katro.run_experiment(os.fspath(experiment), out, threads, force)
    return read_summary(os.path.join(out_dir, "summary.csv"))


_INT = re.compile(r"-?[0-9]+")
_FLOAT = re.compile(r"-?[0-9]+\.[0-9]*(e[-+]?[0-9]+)?", re.IGNORECASE)


def _number(text):
    # Only what katro writes as numbers: a variant named "inf" stays text.
    if text == "":
        return None
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def _text(text):
    return None if text == "" else text


def _read(path):
    """A katro CSV as a pandas DataFrame when pandas is installed, else as
    a list of dicts (numbers as int or float, empty cells as None)."""
    path = os.fspath(path)
    try:
        import pandas
    except ImportError:
        with open(path, newline="", encoding="utf-8") as f:
            return [
                {k: _text(v) if k in _TEXT else _number(v) for k, v in row.items()}
                for row in csv.DictReader(f)
            ]
    with open(path, newline="", encoding="utf-8") as f:
        header = next(csv.reader(f), [])
    text = [c for c in header if c in _TEXT]
    return pandas.read_csv(
        path,
        dtype={c: str for c in text},
        keep_default_na=False,
        # Only an empty field is missing: katro writes no "NA" or "nan".
        na_values={c: [""] for c in header},
    )


def read_summary(path):
    """A summary.csv: one row per cell (docs/OUTPUTS.md), as a pandas
    DataFrame when pandas is installed, else as a list of dicts (numbers
    as int or float, empty cells as None; text columns stay text)."""
    return _read(path)


def read_games(path):
    """A games.csv: one row per game, keyed by CELL and `game`; as
    read_summary."""
    return _read(path)


def read_lengths(path):
    """A lengths.csv: one row per (cell, length), keyed by CELL and
    `length`; as read_summary."""
    return _read(path)


def read_comparison(path):
    """A comparison.csv: one row per compared pair of cells, keyed by CELL
    (the compared cell) and `baseline`; as read_summary."""
    return _read(path)


def read_ratings(path):
    """A tournament's ratings.csv: one row per (variant, agent), Elo with
    95% intervals and the variant's first-move advantage and draw term
    (docs/OUTPUTS.md); as read_summary."""
    return _read(path)


def read_pairwise(path):
    """A tournament's pairwise.csv (one row per variant and pair of agents,
    keyed by `variant`, `agent`, `opponent`) or skill-trace.csv (the pairs
    of neighbouring levels); as read_summary."""
    return _read(path)
