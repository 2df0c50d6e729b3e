"""Streaming fits from files: throughput and peak memory as rows grow, and
the Dask overhead, measured in one run.

    python benchmarks/bench_stream.py [--sizes 1,10,50] [--workdir /tmp/seminaive-bench]

Writes a CSV of 1M rows x 20 attributes (10 numeric, 10 nominal with 6
values; with ``--nominal`` all 20 nominal) and 3 classes, and larger files by repeating its data lines (10M:
~1 GB, 50M: ~4.8 GB; existing files are reused). Each size is fitted with
``fit_file`` (chunks of 200,000 rows) in a fresh process, whose peak
resident memory is read from the kernel (VmHWM), and its throughput set against the
figure before pyarrow (190,000 rows/s on this machine) and against a bare
pyarrow streaming parse of the same file (``pyarrow.csv.open_csv``, every
batch read, nothing else) measured in the same run: a Naive Bayes fit reads
the file once (value lists growing as they appear), so a bare parse is its
floor. Each file is also written as Parquet (by pyarrow, from the CSV's
batches; reused when present) and fitted the same way from it, in a fresh
process: the ratio CSV fit / Parquet fit is printed. Then on a LocalCluster of two single-threaded workers: ``fit_dask``
and a BSE search (``search_dask``, 5 folds) of the 1M file read by
``dask.dataframe.read_csv``, against the in-process streaming fit and
``search_file`` on the same file; and ``fit_dask`` of the 1M Parquet file read
by ``dask.dataframe.read_parquet``.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import pandas as pd

BEFORE = 190_000  # rows/s of the pandas-based streaming reader this benchmark first measured

PARSE = r"""
import json, sys, time
import pyarrow.csv as pcsv
t = time.perf_counter()
rows = sum(b.num_rows for b in pcsv.open_csv(sys.argv[1], read_options=pcsv.ReadOptions(block_size=1 << 22)))
print(json.dumps({"seconds": time.perf_counter() - t, "rows": rows}))
"""

CHILD = r"""
import json, sys, time
from seminaive import NaiveBayes
from seminaive.scale import fit_file
t = time.perf_counter()
m = fit_file(NaiveBayes(), sys.argv[1], chunksize=200_000)
dt = time.perf_counter() - t
# the high-water mark of this process's own memory (ru_maxrss can carry the parent's over a fork and exec)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024
print(json.dumps({"seconds": dt, "rows": float(m.class_count_.sum()),
                  "peak_mb": peak}))
"""


def write_base(path, n=1_000_000, seed=0, nominal_only=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    frame = pd.DataFrame({} if nominal_only else
                         {f"n{j}": np.round(rng.normal(y * 0.5, 1.0), 3) for j in range(10)})
    for j in range(20 if nominal_only else 10):
        frame[f"c{j}"] = np.char.add("v", ((rng.integers(0, 6, n) + y) % 6).astype(str))
    frame["cls"] = np.char.add("k", y.astype(str))
    frame.to_csv(path + ".tmp", index=False)
    os.replace(path + ".tmp", path)


def to_parquet(csv, path):
    """The CSV file as Parquet, written batch by batch (bounded memory)."""
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq
    reader = pcsv.open_csv(csv, read_options=pcsv.ReadOptions(block_size=1 << 24))
    with pq.ParquetWriter(path + ".tmp", reader.schema) as out:
        for batch in reader:
            out.write_batch(batch)
    os.replace(path + ".tmp", path)


def grow(base, path, times):
    with open(base, "rb") as fh:
        header = fh.readline()
        body = fh.read()
    with open(path + ".tmp", "wb") as out:
        out.write(header)
        for _ in range(times):
            out.write(body)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,10,50", help="millions of rows")
    ap.add_argument("--workdir", default="/tmp/seminaive-bench")
    ap.add_argument("--nominal", action="store_true", help="all 20 attributes nominal (6 values each)")
    ap.add_argument("--no-dask", action="store_true", help="the files only")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    base = os.path.join(args.workdir, "nominal-rows-1m.csv" if args.nominal else "rows-1m.csv")
    if not os.path.exists(base):
        write_base(base, nominal_only=args.nominal)
    print(f"{'rows':>12}{'file GB':>9}{'seconds':>9}{'rows/s':>12}{'peak MB':>9}{'x before':>10}"
          f"{'parse s':>9}{'x parse':>9}{'parquet s':>11}{'pq MB':>8}{'x csv':>8}")
    results = {}

    def child(script, path):
        out = subprocess.run([sys.executable, "-c", script, path], capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    for m in (int(v) for v in args.sizes.split(",")):
        path = base if m == 1 else base.replace("-1m.csv", f"-{m}m.csv")
        if not os.path.exists(path):
            grow(base, path, m)
        parquet = path[:-4] + ".parquet"
        if not os.path.exists(parquet):
            to_parquet(path, parquet)
        r, parse, pq = child(CHILD, path), child(PARSE, path), child(CHILD, parquet)
        assert pq["rows"] == r["rows"]
        results[m] = r
        rate = r["rows"] / r["seconds"]
        print(f"{int(r['rows']):>12,}{os.path.getsize(path) / 1e9:>9.2f}{r['seconds']:>9.1f}"
              f"{rate:>12,.0f}{r['peak_mb']:>9.0f}{rate / BEFORE:>9.2f}x{parse['seconds']:>9.2f}"
              f"{r['seconds'] / parse['seconds']:>8.2f}x{pq['seconds']:>11.2f}{pq['peak_mb']:>8.0f}"
              f"{r['seconds'] / pq['seconds']:>7.1f}x", flush=True)
    if args.no_dask:
        return
    # Dask on a local cluster, against the in-process streaming fit of the same file
    import dask.dataframe as dd
    from distributed import Client, LocalCluster
    from seminaive import NaiveBayes
    from seminaive.scale.dask import fit_dask
    from seminaive.search import BSE, search_dask, search_file
    t = time.perf_counter()
    local = search_file(BSE(cv=5), base, chunksize=200_000)
    t_search = time.perf_counter() - t
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster):
        t = time.perf_counter()
        ddf = dd.read_csv(base, blocksize="32MB")
        fit_dask(NaiveBayes(), ddf.drop(columns="cls"), ddf["cls"])
        t_dask = time.perf_counter() - t
        t = time.perf_counter()
        ddf = dd.read_parquet(base[:-4] + ".parquet")
        fit_dask(NaiveBayes(), ddf.drop(columns="cls"), ddf["cls"])
        t_dask_pq = time.perf_counter() - t
        t = time.perf_counter()
        ddf = dd.read_csv(base, blocksize="32MB")
        dist = search_dask(BSE(cv=5), ddf.drop(columns="cls"), ddf["cls"])
        t_dsearch = time.perf_counter() - t
    t_stream = results.get(1, {}).get("seconds")
    print(f"dask fit (2 workers) on 1M rows: {t_dask:.1f} s" +
          (f"; in-process streaming {t_stream:.1f} s; ratio dask / in-process {t_dask / t_stream:.2f}"
           if t_stream else ""))
    print(f"dask fit (2 workers) on the 1M-row Parquet file: {t_dask_pq:.1f} s")
    print(f"BSE search, 5 folds, 1M rows: dask {t_dsearch:.1f} s ({dist.n_candidates_} candidates, "
          f"{dist.structure_.n_used} attributes kept); search_file in process {t_search:.1f} s "
          f"({local.n_candidates_} candidates, {local.structure_.n_used} kept); ratio {t_dsearch / t_search:.2f}")


if __name__ == "__main__":
    main()
