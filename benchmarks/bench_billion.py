"""A billion rows through DuckDB: ``bench_sources.py``'s 100M-row Parquet file read ten times in one
DuckDB query (``read_parquet([file] * 10)``: 1,000,000,000 rows, 20 attributes, 3 classes), fitted by
Naive Bayes and AODE (ten equal-frequency intervals): wall and CPU time, rows/s, passes, peak memory;
then the check that a billion rows were counted, each of them: every count of the model is exactly ten
times the 100M-row model's (the same rows ten times), and the cut points are the same.

    python benchmarks/bench_billion.py --models nb,aode

Each model runs in its own process (its peak memory its own); needs ``bench_sources.py --sizes 100`` run
first (the file and the 100M models, in the work directory).
"""

import argparse
import json
import os
import subprocess
import sys
import time

CHILD = r"""
import json, sys, time
spec = json.loads(sys.argv[1])
sys.path.insert(0, spec["here"])
import duckdb
from bench_sources import make_model
from seminaive.persistence import save_model
from seminaive.scale.duckdb import DuckDBSource, fit_duckdb
passes = [0]
for name in ("grouped_triples", "grouped_values"):  # a GROUP BY DuckDB counts is a pass
    def grouped(self, *a, _inner=getattr(DuckDBSource, name)):
        found = _inner(self, *a)
        passes[0] += found is not None
        return found
    setattr(DuckDBSource, name, grouped)
from seminaive.learning.data_source import DataSource
inner = DataSource.map_reduce_rows
def counted(self, *a, **k):
    passes[0] += 1
    return inner(self, *a, **k)
DataSource.map_reduce_rows = counted
con = duckdb.connect()
relation = con.read_parquet([spec["path"]] * spec["times"])
t, c = time.perf_counter(), time.process_time()
m = fit_duckdb(make_model(spec), relation, target="cls", chunksize=200_000)
dt, cpu = time.perf_counter() - t, time.process_time() - c
save_model(m, spec["out"], overwrite=True)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024
print(json.dumps({"seconds": dt, "cpu": cpu, "rows": float(m.class_count_.sum()), "peak_mb": peak,
                  "passes": passes[0]}))
"""


def counts_of(d, path=""):
    """Every count array of a model file's dict, by where it lies (keys ``counts`` and ``class_count``)."""
    out = {}
    if isinstance(d, dict):
        for k, v in d.items():
            if k in ("counts", "class_count") and isinstance(v, list):
                out[f"{path}/{k}"] = v
            else:
                out.update(counts_of(v, f"{path}/{k}"))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            out.update(counts_of(v, f"{path}[{i}]"))
    return out


def cuts_of(d, path=""):
    """Every list of cut points of a model file's dict."""
    out = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update({f"{path}/{k}": v} if k == "cuts" else cuts_of(v, f"{path}/{k}"))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            out.update(cuts_of(v, f"{path}[{i}]"))
    return out


def check(out, reference, times):
    """Whether every count of the model file ``out`` is ``times`` the reference's, and the cuts are its."""
    import numpy as np
    with open(out) as fh:
        big = json.load(fh)
    with open(reference) as fh:
        small = json.load(fh)
    a, b = counts_of(big), counts_of(small)
    same_counts = a.keys() == b.keys() and all(
        np.array_equal(np.asarray(a[k], dtype=float), times * np.asarray(b[k], dtype=float)) for k in a)
    return {"count_arrays": len(a), "counts_times": bool(same_counts) and len(a) > 0,
            "cuts_equal": cuts_of(big) == cuts_of(small)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="nb,aode")
    ap.add_argument("--times", type=int, default=10, help="reads of the 100M-row file")
    ap.add_argument("--workdir", default="/tmp/seminaive-bench")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(args.workdir, "fresh-100m.parquet")
    print(f"{'model':>6}{'rows':>16}{'seconds':>9}{'rows/s':>11}{'passes':>7}{'CPU s':>8}{'peak MB':>9}"
          f"  counts = {args.times} x 100M's, cuts the same", flush=True)
    for name in args.models.split(","):
        out = os.path.join(args.workdir, f"billion-{name}-{args.times}x100m.json")
        spec = {"model": name, "here": here, "path": path, "times": args.times, "out": out}
        t = time.perf_counter()
        run = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], capture_output=True, text=True)
        if run.returncode:
            print(f"{name:>6}  failed after {time.perf_counter() - t:.0f} s: {run.stderr.strip()[-300:]}", flush=True)
            continue
        got = json.loads(run.stdout.strip().splitlines()[-1])
        got.update(model=name, times=args.times,
                   **check(out, os.path.join(args.workdir, f"sources-{name}-parquet-100m.json"), args.times))
        with open(os.path.join(args.workdir, "billion.jsonl"), "a") as fh:
            fh.write(json.dumps(got) + "\n")
        print(f"{name:>6}{int(got['rows']):>16,}{got['seconds']:>9.1f}{got['rows'] / got['seconds']:>11,.0f}"
              f"{got['passes']:>7}{got['cpu']:>8.0f}{got['peak_mb']:>9,.0f}  {got['counts_times']} "
              f"({got['count_arrays']} arrays), {got['cuts_equal']}", flush=True)


if __name__ == "__main__":
    main()
