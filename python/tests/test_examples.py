"""The scripts in python/examples/ run, so they cannot rot."""

import pathlib
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def test_the_tour_runs(tmp_path):
    out = tmp_path / "tour"
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "tour.py"), str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "status:" in done.stdout
    assert "MCTS (player 1) against katro greedy" in done.stdout
    assert (out / "summary.csv").is_file()
