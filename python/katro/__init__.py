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
    "presets",
    "read_summary",
    "run_experiment",
]


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


def read_summary(path):
    """A summary.csv as a pandas DataFrame when pandas is installed, else as
    a list of dicts (numbers as int or float, empty cells as None)."""
    try:
        import pandas
    except ImportError:
        with open(path, newline="", encoding="utf-8") as f:
            return [
                {k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)
            ]
    return pandas.read_csv(path)
