"""Speed of katro from Python against the command line (docs/PERFORMANCE.md,
"From Python"). Not a test: it measures.

    python python/benchmarks/speed.py playout [VARIANT] [GAMES]
    python python/benchmarks/speed.py experiment KATRO_BINARY EXPERIMENT [THREADS] [REPEATS]

`playout` plays uniform random games through the state API (a Python loop:
`legal_actions()`, `random.choice`, `apply`) and prints games and plies a
second; compare `katro bench VARIANT --threads 1`. `experiment` (e.g. with
python/benchmarks/speed.toml) runs the experiment with `katro.run_experiment` and with `KATRO_BINARY run`,
alternately, each into its own fresh folder, prints each wall time and the
median ratio, and checks that every CSV has the same bytes.
"""

import filecmp
import random
import resource
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
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        s = v.start()
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        plies += s.plies
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(
        f"{variant}: {games} random games through the state API in {seconds:.2f} s "
        f"({cpu:.2f} s CPU), {plies / games:.1f} plies a game: "
        f"{games / cpu:,.0f} games and {plies / cpu:,.0f} plies a CPU second"
    )


def experiment(binary, path, threads=2, repeats=3):
    root = Path(tempfile.mkdtemp(prefix="katro-speed-"))
    py_times, cli_times, py_cpu, cli_cpu = [], [], [], []

    def cpu(who):
        r = resource.getrusage(who)
        return r.ru_utime + r.ru_stime

    for i in range(repeats):
        cli_out, py_out = root / f"cli{i}", root / f"py{i}"
        start, c0 = time.perf_counter(), cpu(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [binary, "run", path, "--out", str(cli_out), "--threads", str(threads)],
            check=True,
            capture_output=True,
        )
        cli_times.append(time.perf_counter() - start)
        cli_cpu.append(cpu(resource.RUSAGE_CHILDREN) - c0)
        start, c0 = time.perf_counter(), cpu(resource.RUSAGE_SELF)
        katro.run_experiment(path, out=str(py_out), threads=threads)
        py_times.append(time.perf_counter() - start)
        py_cpu.append(cpu(resource.RUSAGE_SELF) - c0)
        for name in sorted(p.name for p in cli_out.glob("*.csv")):
            if not filecmp.cmp(cli_out / name, py_out / name, shallow=False):
                sys.exit(f"{name} differs between {cli_out} and {py_out}")
    def show(times):
        return ", ".join(f"{t:.2f}" for t in times)

    print(f"katro run:            wall {show(cli_times)} s; CPU {show(cli_cpu)} s")
    print(f"katro.run_experiment: wall {show(py_times)} s; CPU {show(py_cpu)} s")
    wall = statistics.median(py_times) / statistics.median(cli_times)
    work = statistics.median(py_cpu) / statistics.median(cli_cpu)
    print(
        f"Python / command line, medians: wall {wall:.3f}, CPU {work:.3f}; "
        "every CSV identical"
    )


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "playout":
        playout(*(sys.argv[2:3] or ["katro-6x6"]), *map(int, sys.argv[3:4]))
    elif len(sys.argv) >= 4 and sys.argv[1] == "experiment":
        experiment(sys.argv[2], sys.argv[3], *map(int, sys.argv[4:6]))
    else:
        sys.exit(__doc__)
