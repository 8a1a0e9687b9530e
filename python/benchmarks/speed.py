"""Speed of katro from Python against the command line (docs/PERFORMANCE.md,
"From Python"). Not a test: it measures.

    python python/benchmarks/speed.py playout [VARIANT] [GAMES]
    python python/benchmarks/speed.py experiment KATRO_BINARY EXPERIMENT [THREADS] [REPEATS]

`playout` plays uniform random games through the state API (a Python loop:
`legal_actions()`, `random.choice`, `apply`) and prints games and plies a
second; compare `katro bench VARIANT --threads 1`. `experiment` runs the
experiment with `katro.run_experiment` and with `KATRO_BINARY run`,
alternately, each into its own fresh folder, prints each wall time and the
median ratio, and checks that every CSV has the same bytes.
"""

import filecmp
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import katro


def playout(variant="katro-6x6", games=2000):
    v = katro.Variant(variant)
    rng = random.Random(1)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        s = v.start()
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        plies += s.plies
    seconds = time.perf_counter() - start
    print(
        f"{variant}: {games} random games through the state API in {seconds:.2f} s: "
        f"{games / seconds:,.0f} games/s, {plies / seconds:,.0f} plies/s "
        f"({plies / games:.1f} plies a game)"
    )


def experiment(binary, path, threads=2, repeats=3):
    root = Path(tempfile.mkdtemp(prefix="katro-speed-"))
    py_times, cli_times = [], []
    for i in range(repeats):
        cli_out, py_out = root / f"cli{i}", root / f"py{i}"
        start = time.perf_counter()
        subprocess.run(
            [binary, "run", path, "--out", str(cli_out), "--threads", str(threads)],
            check=True,
            capture_output=True,
        )
        cli_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        katro.run_experiment(path, out=str(py_out), threads=threads)
        py_times.append(time.perf_counter() - start)
        for name in sorted(p.name for p in cli_out.glob("*.csv")):
            if not filecmp.cmp(cli_out / name, py_out / name, shallow=False):
                sys.exit(f"{name} differs between {cli_out} and {py_out}")
    ratio = statistics.median(p / c for p, c in zip(py_times, cli_times))
    print(f"katro run:            {', '.join(f'{t:.2f}' for t in cli_times)} s")
    print(f"katro.run_experiment: {', '.join(f'{t:.2f}' for t in py_times)} s")
    print(f"median ratio Python / command line: {ratio:.3f}; every CSV identical")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "playout":
        playout(*(sys.argv[2:3] or ["katro-6x6"]), *map(int, sys.argv[3:4]))
    elif len(sys.argv) >= 4 and sys.argv[1] == "experiment":
        experiment(sys.argv[2], sys.argv[3], *map(int, sys.argv[4:6]))
    else:
        sys.exit(__doc__)
