"""The family out of core: AODE, selective kDB, ESKDB and NBTree (hashed folds, level by level) fitted
from Parquet and CSV files of 1M to 30M rows (100M by the measured rate), with their passes, rate and
peak memory.

    python benchmarks/bench_scale.py [--sizes 1,10,30] [--models aode,skdb,eskdb,nbtree]
                                     [--members 2] [--k 2] [--workdir /tmp/seminaive-bench]

The data are ``bench_stream.py``'s kind: rows of 20 attributes (10 numeric, 10 nominal with 6
values) and 3 classes, but every million rows drawn afresh (its own seed), not the first million
repeated: a file of repeated rows multiplies every count, and MDL's cuts with them (564-822
intervals per numeric attribute at 10M repeated rows, 24-29 at 1M), so the model would grow with
the copies. Each file is also written as Parquet (files that exist are reused). Each (model, size,
format) is fitted with ``fit_file`` (chunks of 200,000 rows) in a fresh process: its seconds, rows
per second, passes over the file (``DataSource.map_reduce_rows`` calls) and peak resident memory
(the kernel's VmHWM). Memory flat in the rows shows as the same peak at every size; the rate gives
the time of 100M rows (the passes are the same at every size).

At 1M rows, each file fit is checked against the fit in memory on the same rows (``load_file``,
then ``fit``) and against ``fit_dask`` on the Parquet file's partitions with a LocalCluster of two
single-threaded workers: the largest difference of their probabilities on the first 100,000 rows
is printed (equal models: 0 up to rounding). ``--dask-sizes 10`` fits ``fit_dask`` at 10M rows the same
way and compares it with the file fits of that size saved (by this run or an earlier one).

ESKDB is ``ESKDB(n_estimators=--members, k=--k)``: its members are fitted one after the other,
each in its own passes, so its time is the members' times added (the default ensemble of 20
members takes 20 / members times as long, with the same peak memory: one member's statistics are
held at a time, beside the fitted members' tables). ``--k 5`` is the paper's k: on these data its
candidate tables hold one cell per distinct configuration of five 25-30 interval parents met,
which grows with the rows (about 5 GB at 1M rows with MDL's intervals), so its memory is not flat; with
``--numeric equal_frequency`` the configurations are bounded and the peak levels off once nearly all
are met (2 members: 2.1, 2.8 and 2.8 GB at 1M, 10M and 30M Parquet rows).

The default discretizers (MDL) cut finer as the rows grow (24-29 intervals per numeric attribute at
1M rows, 60-65 at 10M), so the models' tables grow with the data; ``--numeric equal_frequency``
fixes ten intervals per attribute, a model of one size at every number of rows.
"""

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_stream import to_parquet, write_base  # noqa: E402

# a child process's first lines: passes over the data counted (every source's passes are map_reduce_rows
# calls), and its peak resident memory (the kernel's VmHWM) as a function
COUNTED = r"""
import json, sys, time
from seminaive.learning.data_source import DataSource
from seminaive.persistence import save_model
passes = [0]
inner = DataSource.map_reduce_rows
def counted(self, *a, **k):
    passes[0] += 1
    return inner(self, *a, **k)
DataSource.map_reduce_rows = counted
def peak_mb():
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024
"""

CHILD = COUNTED + r"""
from seminaive.scale import fit_file
spec, path, out = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
sys.path.insert(0, spec["here"])
from bench_scale import make_model
t = time.perf_counter()
m = fit_file(make_model(spec), path, chunksize=200_000)
dt = time.perf_counter() - t
rows = float(m.class_count_.sum()) if hasattr(m, "class_count_") else float(m.estimators_[0].class_count_.sum())
save_model(m, out, overwrite=True)
print(json.dumps({"seconds": dt, "rows": rows, "peak_mb": peak_mb(), "passes": passes[0]}))
"""


def make_model(spec):
    """The benchmark's model of a name (``spec``: name, members, k)."""
    from seminaive import AODE, ESKDB, NBTree
    from seminaive.bayesnet.skdb import SelectiveKDB
    name, numeric = spec["name"], {"numeric": spec["numeric"]} if spec.get("numeric") else {}
    if name == "aode":
        return AODE(**numeric)
    if name == "nbtree":
        return NBTree(folds="hashed", **numeric)
    if name == "skdb":
        return SelectiveKDB(**numeric)
    return ESKDB(n_estimators=spec["members"], k=spec["k"], **numeric)


def data_files(workdir, m):
    """The CSV and Parquet files of ``m`` million rows, each million drawn with its own seed (written
    when absent, a million at a time: memory bounded)."""
    path = os.path.join(workdir, f"fresh-{m}m.csv")
    if not os.path.exists(path):
        part = path + ".part"
        with open(path + ".tmp", "wb") as out:
            for i in range(m):
                write_base(part, seed=i)
                with open(part, "rb") as fh:
                    if i:
                        fh.readline()  # the header once
                    out.write(fh.read())
        os.remove(part)
        os.replace(path + ".tmp", path)
    parquet = path[:-4] + ".parquet"
    if not os.path.exists(parquet):
        to_parquet(path, parquet)
    return {"csv": path, "parquet": parquet}


def cluster():
    """The LocalCluster of the Dask fits: two single-threaded worker processes, with a client."""
    from distributed import Client, LocalCluster
    warnings.filterwarnings("ignore", message=".*large graph")  # the model's tables sent to the workers
    stack = contextlib.ExitStack()
    c = stack.enter_context(LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None))
    stack.enter_context(Client(c))
    return stack


def fit_on_dask(spec, parquet):
    """``fit_dask`` of the model on the Parquet file's row groups as partitions: the model, its seconds."""
    import dask.dataframe as dd
    from seminaive.scale.dask import fit_dask
    ddf = dd.read_parquet(parquet, split_row_groups=True)  # a partition per row group
    t = time.perf_counter()
    model = fit_dask(make_model(spec), ddf.drop(columns="cls"), ddf["cls"])
    return model, time.perf_counter() - t


def checks(specs, files, formats, workdir):
    """At 1M rows: each model's file fits against its fit in memory and ``fit_dask`` on the Parquet
    partitions, as the largest difference of probabilities on the first 100,000 rows."""
    import numpy as np
    from seminaive.data.io import load_file
    from seminaive.persistence import load_model
    d = load_file(files["parquet"])
    head = d.X.iloc[:100_000]
    with cluster():
        for spec in specs:
            t = time.perf_counter()
            memory = make_model(spec).fit(d.X, d.y)
            t_memory = time.perf_counter() - t
            p = memory.predict_proba(head)
            diffs = {fmt: float(np.abs(load_model(model_path(workdir, spec, 1, fmt)).predict_proba(head) - p).max())
                     for fmt in formats}
            dask, t_dask = fit_on_dask(spec, files["parquet"])
            diffs["dask"] = float(np.abs(dask.predict_proba(head) - p).max())
            print(f"{label(spec)} at 1M rows: in memory {t_memory:.1f} s, dask (2 workers) {t_dask:.1f} s; largest "
                  f"difference of probabilities from the fit in memory: " +
                  ", ".join(f"{k} {v:.1e}" for k, v in diffs.items()), flush=True)


def dask_check(specs, files, formats, workdir, m):
    """At ``m`` million rows: ``fit_dask`` on the Parquet file's row groups as partitions (a LocalCluster
    of two single-threaded workers) against this size's file fits saved by this run or an earlier one (their
    model files), as the largest difference of probabilities on the first 100,000 rows; its seconds
    and the workers' peak resident memory."""
    import resource
    import dask.dataframe as dd
    import numpy as np
    from distributed import get_client
    from seminaive.persistence import load_model
    with cluster():
        for spec in specs:
            head = dd.read_parquet(files["parquet"]).head(100_000, npartitions=-1).drop(columns="cls")
            dask, seconds = fit_on_dask(spec, files["parquet"])
            peaks = get_client().run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
            p = dask.predict_proba(head)
            diffs = {fmt: float(np.abs(load_model(path).predict_proba(head) - p).max()) for fmt in formats
                     if os.path.exists(path := model_path(workdir, spec, m, fmt))}
            print(f"{label(spec)} at {m}M rows: dask (2 workers) {seconds:.1f} s ({m * 1e6 / seconds:,.0f} rows/s), "
                  f"workers' peak {', '.join(f'{v:,.0f}' for v in peaks.values())} MB; largest difference of "
                  f"probabilities from the file fit: " + (", ".join(f"{k} {v:.1e}" for k, v in diffs.items())
                                                           or "no file fit of this size saved"), flush=True)


def label(spec):
    name = f"eskdb({spec['members']} members, k={spec['k']})" if spec["name"] == "eskdb" else spec["name"]
    return name + (f" {spec['numeric']}" if spec.get("numeric") else "")


def model_path(workdir, spec, m, fmt):
    return os.path.join(workdir, f"model-{label(spec)}-{m}m-{fmt}.json")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,10,30", help="millions of rows")
    ap.add_argument("--models", default="aode,skdb,eskdb")
    ap.add_argument("--formats", default="parquet,csv")
    ap.add_argument("--members", type=int, default=2, help="ESKDB's members")
    ap.add_argument("--k", type=int, default=2, help="ESKDB's k")
    ap.add_argument("--numeric", default=None, help="the models' discretizer (default: each model's own)")
    ap.add_argument("--no-checks", action="store_true", help="skip the 1M checks (memory, dask)")
    ap.add_argument("--dask-sizes", default="", help="millions of rows: fit_dask against the file fits saved")
    ap.add_argument("--workdir", default="/tmp/seminaive-bench")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    specs = [{"name": n, "members": args.members, "k": args.k, "here": here, "numeric": args.numeric}
             for n in args.models.split(",")]
    sizes = [int(v) for v in args.sizes.split(",") if v]
    print(f"{'model':>24}{'rows':>12}{'format':>9}{'seconds':>9}{'rows/s':>12}{'passes':>8}{'peak MB':>9}"
          f"{'100M s (rate)':>15}", flush=True)
    rates = {}
    for m in sizes:
        files = data_files(args.workdir, m)
        for spec in specs:
            for fmt in args.formats.split(","):
                out = model_path(args.workdir, spec, m, fmt)
                run = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec), files[fmt], out],
                                     capture_output=True, text=True)
                if run.returncode:
                    print(f"{label(spec):>24}{m * 1_000_000:>12,}{fmt:>9}  failed: "
                          f"{(run.stderr.strip().splitlines() or ['?'])[-1]}", flush=True)
                    continue
                r = json.loads(run.stdout.strip().splitlines()[-1])
                rate = r["rows"] / r["seconds"]
                rates[(label(spec), m, fmt)] = (rate, r["peak_mb"])
                print(f"{label(spec):>24}{int(r['rows']):>12,}{fmt:>9}{r['seconds']:>9.1f}{rate:>12,.0f}"
                      f"{r['passes']:>8}{r['peak_mb']:>9.0f}{1e8 / rate:>15,.0f}", flush=True)
        if m == 1 and not args.no_checks:
            checks(specs, files, args.formats.split(","), args.workdir)
    for m in [int(v) for v in args.dask_sizes.split(",") if v]:
        dask_check(specs, data_files(args.workdir, m), args.formats.split(","), args.workdir, m)
    for (name, m, fmt), (rate, peak) in rates.items():
        if m == max(sizes) and (name, min(sizes), fmt) in rates and m > min(sizes):
            low = rates[(name, min(sizes), fmt)]
            print(f"{name} {fmt}: peak memory {low[1]:.0f} MB at {min(sizes)}M rows, {peak:.0f} MB at {m}M "
                  f"(x{peak / low[1]:.2f}); rate {low[0]:,.0f} -> {rate:,.0f} rows/s")


if __name__ == "__main__":
    main()
