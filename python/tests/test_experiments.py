"""Experiments from Python: the same bytes on disk as `katro run`."""

import filecmp
import os
import subprocess
import sys

import pytest

import katro

EXPERIMENT = """\
name = "py-small"
seed = 5
variants = ["katro-4x4", "katro-6x3"]
games = 60
per_game_rows = true

[[matchups]]
p1 = "random"
p2 = "greedy"

[[matchups]]
p1 = "greedy"
p2 = "random"
"""

AS_DICT = {
    "name": "py-small",
    "seed": 5,
    "variants": ["katro-4x4", "katro-6x3"],
    "games": 60,
    "per_game_rows": True,
    "matchups": [{"p1": "random", "p2": "greedy"}, {"p1": "greedy", "p2": "random"}],
}


def katro_binary():
    path = os.environ.get("KATRO_BIN")
    if not path:
        pytest.skip("KATRO_BIN is not set: no katro binary to compare with")
    assert os.path.isfile(path), f"KATRO_BIN={path} is not a file"
    return path


def csvs(folder):
    return sorted(p for p in os.listdir(folder) if p.endswith(".csv"))


def test_a_file_and_a_dict_write_the_bytes_katro_run_writes(tmp_path):
    binary = katro_binary()
    exp = tmp_path / "small.toml"
    exp.write_text(EXPERIMENT)
    subprocess.run(
        [binary, "run", str(exp), "--out", str(tmp_path / "cli"), "--threads", "2"],
        check=True,
        capture_output=True,
    )
    rows = katro.run_experiment(str(exp), out=str(tmp_path / "file"), threads=1)
    katro.run_experiment(AS_DICT, out=str(tmp_path / "dict"), threads=2)
    names = csvs(tmp_path / "cli")
    assert {"summary.csv", "games.csv"} <= set(names)
    for other in ("file", "dict"):
        assert csvs(tmp_path / other) == names
        for n in names:
            assert filecmp.cmp(tmp_path / "cli" / n, tmp_path / other / n, shallow=False), (
                other,
                n,
            )
    assert len(rows) == 4


def test_summary_rows_as_dicts_without_pandas(tmp_path):
    # A fresh interpreter where pandas cannot be imported.
    code = (
        "import sys; sys.modules['pandas'] = None\n"
        "import katro\n"
        f"rows = katro.run_experiment({AS_DICT!r}, out={str(tmp_path / 'out')!r})\n"
        "assert isinstance(rows, list) and len(rows) == 4, rows\n"
        "r = rows[0]\n"
        "assert r['variant'] == 'katro-4x4' and r['p1'] == 'random', r\n"
        "assert r['games'] == 60 and isinstance(r['p1_win_rate'], float), r\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_dataframe_columns_match_the_file(tmp_path):
    pandas = pytest.importorskip("pandas")
    df = katro.run_experiment(AS_DICT, out=str(tmp_path / "out"))
    assert isinstance(df, pandas.DataFrame)
    with open(tmp_path / "out" / "summary.csv", encoding="utf-8") as f:
        header = f.readline().strip().split(",")
    assert list(df.columns) == header
    assert list(df["games"]) == [60] * 4


def test_a_bad_experiment_raises_with_the_cli_message(tmp_path):
    with pytest.raises(katro.ExperimentError) as info:
        katro.run_experiment(dict(AS_DICT, games=0), out=str(tmp_path / "out"))
    e = info.value
    assert e.exit_code == 2
    assert str(e).startswith("<experiment dict>:") and "`games`" in str(e)
    assert not (tmp_path / "out" / "summary.csv").exists()
    # The same text as a file gets the same message from `katro run`.
    bad = tmp_path / "bad.toml"
    bad.write_text(e.toml)
    done = subprocess.run(
        [katro_binary(), "run", str(bad), "--out", str(tmp_path / "cli")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "error: " + str(e).replace("<experiment dict>", str(bad))
    with pytest.raises(katro.ExperimentError, match="`seed`: expected an integer"):
        katro.run_experiment(dict(AS_DICT, seed="x"), out=str(tmp_path / "out"))
    with pytest.raises(TypeError, match="matchups"):
        katro.run_experiment(dict(AS_DICT, matchups=[{"p1": object()}]))


def test_a_missing_experiment_file_raises_exit_code_2(tmp_path):
    with pytest.raises(katro.ExperimentError, match="cannot read the experiment file") as info:
        katro.run_experiment(str(tmp_path / "none.toml"))
    assert info.value.exit_code == 2


OPENINGS = {
    "name": "py-openings",
    "seed": 9,
    "variants": ["katro-4x4", "katro-6x3"],
    "games": 30,
    "per_game_rows": True,
    "matchups": [
        {"p1": "greedy", "p2": "greedy"},
        {"p1": "greedy", "p2": "greedy", "opening_plies": 4},
    ],
}


def test_every_frame_keeps_cells_that_differ_only_in_their_opening(tmp_path):
    pandas = pytest.importorskip("pandas")
    out = tmp_path / "out"
    summary = katro.run_experiment(OPENINGS, out=str(out))
    games = katro.read_games(out / "games.csv")
    lengths = katro.read_lengths(out / "lengths.csv")
    comparison = katro.read_comparison(out / "comparison.csv")
    for df in (summary, games, lengths, comparison):
        assert isinstance(df, pandas.DataFrame)
        assert set(katro.CELL) <= set(df.columns), list(df.columns)
    cells = summary.set_index(katro.CELL)["games"]
    assert len(cells) == 4 and set(cells) == {30}
    assert games.groupby(katro.CELL).size().sort_index().equals(cells.sort_index())
    per_cell = lengths.groupby(katro.CELL)["games"].sum().sort_index()
    assert per_cell.equals(cells.sort_index())
    # Deterministic agents: the opening is what makes the two cells differ.
    distinct = summary[summary["variant"] == "katro-4x4"]["distinct_games"]
    assert len(set(distinct)) == 2, summary
    assert set(comparison["opening_plies"]) == {0, 4}


def test_text_columns_stay_text_without_pandas(tmp_path):
    out = tmp_path / "out"
    katro.run_experiment(OPENINGS, out=str(out))
    code = (
        "import sys; sys.modules['pandas'] = None\n"
        "import katro\n"
        f"rows = katro.read_games({str(out / 'games.csv')!r})\n"
        "assert len(rows) == 120, len(rows)\n"
        "keys = {tuple(r[k] for k in katro.CELL) for r in rows}\n"
        "assert len(keys) == 4, keys\n"
        "assert all(isinstance(r['variant'], str) for r in rows)\n"
        "assert {r['opening_plies'] for r in rows} == {0, 4}\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_a_tournament_is_rated_and_read_back(tmp_path):
    out = tmp_path / "out"
    katro.run_experiment(
        {
            "name": "py-tournament",
            "seed": 3,
            "variants": ["katro-4x4"],
            "games": 20,
            "opening_plies": 2,
            "tournament": {"agents": ["random", "greedy"]},
        },
        out=str(out),
    )
    ratings = katro.read_ratings(out / "ratings.csv")
    rows = ratings if isinstance(ratings, list) else ratings.to_dict("records")
    assert [r["agent"] for r in rows] == ["random", "greedy"]
    assert rows[0]["rating"] == 0 and rows[1]["rating"] > 0
    assert rows[1]["rating_low"] < rows[1]["rating"] < rows[1]["rating_high"]
    trace = katro.read_pairwise(out / "skill-trace.csv")
    trace = trace if isinstance(trace, list) else trace.to_dict("records")
    assert [(r["agent"], r["opponent"], r["games"]) for r in trace] == [("greedy", "random", 40)]
