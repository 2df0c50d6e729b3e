"""What a new process pays before it answers: the command line on a small file, against importing
pandas and scikit-learn, measured in the same run.

    python benchmarks/bench_first_use.py [--repeat 3] [--models nb,tan,kdb2,aode,eskdb]

A 100-row CSV (six nominal attributes, one numeric, two classes) is fitted by `seminaive fit
--model M` in new processes: first with an empty compile cache (``NUMBA_CACHE_DIR`` a new folder
for each model: what the first use of a model after an installation pays), then with that cache
filled (every later process; the best of --repeat runs). `seminaive search --model bse` the same
way. The floor is a process that only runs ``import pandas, sklearn.base`` (every command imports
both), timed before each model's runs; ratios are against the best floor of the run.

The package's bytecode is compiled first, as installing it does (a process started with
PYTHONDONTWRITEBYTECODE set and an editable install would otherwise compile every module anew).

Then where the compiled loops' fixed cost goes in a new process with the cache filled: numba's
import, and the first call of one compiled loop (numba loads its registries and the loop's
machine code), timed apart; and a first backward search of 5,000 x 10 rows in a process against
the second (the compiled candidate loop loaded, then reused).
"""

import argparse
import compileall
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd

NUMBA_PARTS = """
import time
t0 = time.perf_counter()
import pandas, sklearn.base
t1 = time.perf_counter()
import seminaive.models
t2 = time.perf_counter()
import numba
t3 = time.perf_counter()
import numpy as np
from seminaive.discretize.mdl import boundary_scores
t4 = time.perf_counter()
boundary_scores(np.array([[3.0, 0.0], [0.0, 3.0]]))
t5 = time.perf_counter()
boundary_scores(np.array([[2.0, 1.0], [0.0, 3.0]]))
t6 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t5 - t4, t6 - t5)
"""

SEARCHES = """
import time
import numpy as np
from seminaive.search import BSE
rng = np.random.default_rng(0)
X, y = rng.integers(0, 3, (5000, 10)).astype(str), rng.integers(0, 2, 5000)
times = []
for _ in range(3):
    t = time.perf_counter()
    BSE().fit(X, y)
    times.append(time.perf_counter() - t)
print(*times)
"""


def small_csv(path, rows=100):
    """Six nominal attributes of three values, one numeric, a class depending on the first two."""
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 3, (rows, 6))
    frame = pd.DataFrame({f"a{j}": np.array(["x", "y", "z"])[codes[:, j]] for j in range(6)})
    frame["n"] = rng.normal(size=rows)
    frame["class"] = np.where((codes[:, 0] + codes[:, 1] + rng.integers(0, 2, rows)) % 2, "p", "n")
    frame.to_csv(path, index=False)


def wall(argv, env=None):
    t = time.perf_counter()
    out = subprocess.run(argv, env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"{' '.join(argv)} failed: {out.stderr.strip().splitlines()[-1:]}")
    return time.perf_counter() - t


def timings(code, cache):
    """The seconds a new process running ``code`` prints, with the compile cache ``cache``."""
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, NUMBA_CACHE_DIR=cache),
                         capture_output=True, text=True, check=True)
    return [float(v) for v in out.stdout.split()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--models", default="nb,tan,kdb2,aode,eskdb")
    args = ap.parse_args()
    import seminaive
    compileall.compile_dir(os.path.dirname(seminaive.__file__), quiet=1)
    cli = [sys.executable, "-m", "seminaive"]
    floor_argv = [sys.executable, "-c", "import pandas, sklearn.base"]
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "small.csv")
        small_csv(data)
        commands = [(f"fit --model {m}", ["fit", data, "-m", os.path.join(tmp, f"{m}.json"), "--force"]
                     + ([] if m == "nb" else ["--model", m])) for m in args.models.split(",")]
        commands.append(("search --model bse", ["search", data, "--model", "bse"]))
        floors, rows = [], []
        print(f"100-row CSV, new processes; best of {args.repeat} with the cache filled")
        print(f"{'command':<22}{'empty cache s':>14}{'filled s':>10}{'import floor s':>16}")
        for label, argv in commands:
            cache = os.path.join(tmp, "cache-" + label.split()[-1])
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            empty = wall(cli + argv, env)
            filled = min(wall(cli + argv, env) for _ in range(args.repeat))
            floor = min(wall(floor_argv) for _ in range(args.repeat))
            floors.append(floor)
            rows.append((label, filled))
            print(f"{label:<22}{empty:>14.2f}{filled:>10.2f}{floor:>16.2f}", flush=True)
        best = min(floors)
        print(f"\nwith the cache filled, against the best import floor of the run ({best:.2f} s):")
        for label, filled in rows:
            print(f"  {label:<22}{filled / best:6.2f}x")
        parts = np.array([timings(NUMBA_PARTS, os.path.join(tmp, "cache-parts")) for _ in range(args.repeat + 1)])
        parts = parts[1:].min(axis=0)  # (the first run fills the cache)
        print(f"\na new process, cache filled (best of {args.repeat} each): import pandas, sklearn.base "
              f"{parts[0]:.2f} s; "
              f"then seminaive's models {parts[1]:.2f} s; numba {parts[2]:.2f} s; the first call of a compiled "
              f"loop {parts[3]:.3f} s (numba's registries and the loop's machine code); the second "
              f"{parts[4] * 1e3:.3f} ms")
        timings(SEARCHES, os.path.join(tmp, "cache-search"))  # fills the cache
        first, second, third = timings(SEARCHES, os.path.join(tmp, "cache-search"))
        print(f"backward search of 5,000 x 10 in one process: first {first:.3f} s, second {second:.3f} s, "
              f"third {third:.3f} s; first / second {first / second:.1f}x")


if __name__ == "__main__":
    main()
