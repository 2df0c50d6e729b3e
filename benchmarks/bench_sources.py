"""The same models fitted from the same rows through each engine, 1M to 100M rows: a Parquet file read by
seminaive (``fit_file``), DuckDB (``fit_duckdb`` on ``read_parquet``) and Spark in local mode (``fit_spark``
on ``spark.read.parquet``, two cores); beside them LightGBM and scikit-learn's HistGradientBoosting fitted in
memory on the same rows (``--rivals``, at sizes up to ``--rival-max``).

    python benchmarks/bench_sources.py [--sizes 1,10,100] [--models nb,aode,skdb,eskdb]
                                       [--sources parquet,duckdb,spark] [--rivals lightgbm,hgb]
                                       [--members 20] [--k 5] [--workdir /tmp/seminaive-bench]

For each (model, source, size), in a fresh process: wall seconds, rows per second, passes over the data,
the driver's CPU seconds and peak memory (the kernel's VmHWM); for Spark also its JVM's and its Python
workers' peak memory and CPU seconds (read from /proc before the session stops), and each pass's
partitions done as it runs in ``<model file>.progress``; then the fitted model's
accuracy and log loss on 1M other rows (drawn with their own seed), and the largest difference of its
probabilities from the Parquet reader's model of that size (of this run or an earlier one; else the first
source's; equal models: 0 up to rounding). Every line is
also appended to ``sources.jsonl`` in the work directory, and a (model, source, size) found there is not
run again (``--again`` runs it anyway).

The data are ``bench_scale.py``'s (20 attributes, 10 numeric and 10 nominal, 3 classes, each million rows
drawn afresh with its own seed); a size without a file is written straight to Parquet, a row group per
million (the same rows as the CSV route gives). Numeric attributes in ten equal-frequency intervals (a model
of one size at every number of rows). ESKDB is ``ESKDB(n_estimators=--members, k=--k)`` (k = 5, its default,
unless told): its members after the first read every pass together (as many as memory holds), each scoring its
candidates on its own 1M drawn rows (``selection_rows``) beyond 1M rows.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_scale import COUNTED  # noqa: E402

CHILD = COUNTED + r"""
import os
spec, path, out = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
sys.path.insert(0, spec["here"])
from bench_sources import make_model, spark_processes
model = make_model(spec) if spec["model"] != spec["source"] else None
extra = {}
if spec["source"] == "parquet":
    from seminaive.scale import fit_file
    t, c = time.perf_counter(), time.process_time()
    m = fit_file(model, path, chunksize=200_000)
elif spec["source"] == "duckdb":
    import duckdb
    from seminaive.scale.duckdb import DuckDBSource, fit_duckdb
    for name in ("grouped_triples", "grouped_values"):  # a GROUP BY DuckDB counts is a pass too
        def grouped(self, *a, _inner=getattr(DuckDBSource, name)):
            found = _inner(self, *a)
            passes[0] += found is not None
            return found
        setattr(DuckDBSource, name, grouped)
    t, c = time.perf_counter(), time.process_time()
    m = fit_duckdb(model, duckdb.connect().read_parquet(path), target="cls", chunksize=200_000)
elif spec["source"] == "spark":
    from pyspark.sql import SparkSession
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.driver.memory", "4g").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    from seminaive.scale.spark import SparkSource, fit_spark
    spark_inner = SparkSource.map_reduce_rows  # (its own passes: Spark jobs, not DataSource's)
    def spark_counted(self, *a, **k):
        passes[0] += 1
        return spark_inner(self, *a, **k)
    SparkSource.map_reduce_rows = spark_counted
    df = spark.read.parquet(path)
    t, c = time.perf_counter(), time.process_time()
    with open(out + ".progress", "w", buffering=1) as shown:  # each pass's partitions done, as it runs
        m = fit_spark(model, df, target="cls", progress=shown)
    extra = spark_processes()
else:  # a rival in memory: the rows loaded, then fitted
    from bench_sources import fit_rival
    t, c = time.perf_counter(), time.process_time()
    m, extra = fit_rival(spec["source"], path)
dt, cpu = time.perf_counter() - t - extra.get("load_seconds", 0.0), time.process_time() - c
if spec["source"] in ("lightgbm", "hgb"):
    import pickle
    with open(out, "wb") as fh:
        pickle.dump(m, fh)
    rows = extra.pop("rows")
else:
    save_model(m, out, overwrite=True)
    first = m.estimators_[0] if hasattr(m, "estimators_") else m
    rows = float(first.class_count_.sum())
print(json.dumps({"seconds": dt, "cpu": cpu, "rows": rows, "peak_mb": peak_mb(), "passes": passes[0], **extra}))
"""


def make_model(spec):
    from seminaive import AODE, ESKDB, NaiveBayes
    from seminaive.bayesnet.skdb import SelectiveKDB
    return {"nb": lambda: NaiveBayes(numeric="equal_frequency"), "aode": lambda: AODE(numeric="equal_frequency"),
            "skdb": lambda: SelectiveKDB(numeric="equal_frequency"),
            "eskdb": lambda: ESKDB(n_estimators=spec["members"], k=spec["k"], numeric="equal_frequency")}[spec["model"]]()


def spark_processes():
    """Spark's JVM and its Python workers on this machine: peak memory (VmHWM, MB) and CPU seconds, each."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {"jvm_peak_mb": 0.0, "jvm_cpu": 0.0, "workers_peak_mb": [], "workers_cpu": 0.0}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
            status = open(f"/proc/{pid}/status").read()
            stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        peak = next((int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmHWM:")), 0.0)
        cpu = (int(stat[11]) + int(stat[12])) / tick  # utime + stime
        if "org.apache.spark.deploy.SparkSubmit" in cmd:
            found["jvm_peak_mb"], found["jvm_cpu"] = peak, cpu
        elif "pyspark.daemon" in cmd or "pyspark.worker" in cmd:
            found["workers_peak_mb"].append(peak)
            found["workers_cpu"] += cpu
    return found


def rows_of(path, limit=None):
    """A Parquet file's attributes as a float frame (the nominal ones as pandas categories) and its classes."""
    import pandas as pd
    import pyarrow.parquet as pq
    table = pq.read_table(path)
    if limit:
        table = table.slice(0, limit)
    frame = table.to_pandas()
    y = frame.pop("cls").to_numpy()
    for c in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[c]):  # text (object, or pandas's str)
            frame[c] = frame[c].astype("category")
    return frame, y


def fit_rival(name, path):
    """LightGBM or HistGradientBoosting (their defaults; nominal columns as categories) on the file's rows, and
    the seconds the rows took to load (not counted in the fit's)."""
    t = time.perf_counter()
    X, y = rows_of(path)
    loaded = time.perf_counter() - t
    if name == "lightgbm":
        from lightgbm import LGBMClassifier
        model = LGBMClassifier(n_jobs=2, verbose=-1).fit(X, y)
    else:
        from sklearn.ensemble import HistGradientBoostingClassifier
        model = HistGradientBoostingClassifier(categorical_features="from_dtype", random_state=0).fit(X, y)
    return model, {"rows": float(len(y)), "load_seconds": loaded}


def parquet_file(workdir, m):
    """``fresh-{m}m.parquet``: m million rows, million i drawn with seed i (``bench_stream.write_base``'s
    rows), written a row group per million when absent."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = os.path.join(workdir, f"fresh-{m}m.parquet")
    if os.path.exists(path):
        return path
    writer = None
    for i in range(m):
        table = pa.Table.from_pandas(draw(1_000_000, seed=i, pd=pd), preserve_index=False)
        writer = writer or pq.ParquetWriter(path + ".tmp", table.schema)
        writer.write_table(table)
        print(f"  writing {path}: {i + 1} of {m} million rows", file=sys.stderr, flush=True)
    writer.close()
    os.replace(path + ".tmp", path)
    return path


def draw(n, seed, pd):
    """``bench_stream.write_base``'s rows (10 numeric, 10 nominal attributes, 3 classes) as a frame."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    frame = pd.DataFrame({f"n{j}": np.round(rng.normal(y * 0.5, 1.0), 3) for j in range(10)})
    for j in range(10):
        frame[f"c{j}"] = np.char.add("v", ((rng.integers(0, 6, n) + y) % 6).astype(str)).astype(object)
    frame["cls"] = np.char.add("k", y.astype(str)).astype(object)
    return frame


def held_out(workdir):
    """1M rows drawn with a seed no training million uses: the held-out part every model is scored on."""
    import pandas as pd
    path = os.path.join(workdir, "held-out-1m.parquet")
    if not os.path.exists(path):
        draw(1_000_000, seed=10**6, pd=pd).to_parquet(path + ".tmp", index=False)
        os.replace(path + ".tmp", path)
    return path


def scores(out, source, held):
    """Accuracy and log loss of the fitted model (its file ``out``) on the held-out rows; its probabilities."""
    from sklearn.metrics import log_loss
    X, y = held
    if source in ("lightgbm", "hgb"):
        import pickle
        with open(out, "rb") as fh:
            model = pickle.load(fh)
    else:
        from seminaive import load_model
        model = load_model(out)
        X = X.astype({c: object for c in X.columns if str(X[c].dtype) == "category"})
    p = model.predict_proba(X)
    classes = [str(c) for c in model.classes_]
    accuracy = float((np.asarray(classes, dtype=object)[p.argmax(axis=1)] == y).mean())
    return accuracy, float(log_loss(y, p, labels=classes)), p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1", help="millions of rows")
    ap.add_argument("--models", default="nb,aode,skdb,eskdb")
    ap.add_argument("--sources", default="parquet,duckdb,spark")
    ap.add_argument("--rivals", default="lightgbm,hgb")
    ap.add_argument("--rival-max", type=int, default=10, help="the largest size (millions) the rivals fit")
    ap.add_argument("--members", type=int, default=20, help="ESKDB's members")
    ap.add_argument("--k", type=int, default=5, help="ESKDB's k")
    ap.add_argument("--again", action="store_true", help="run what sources.jsonl holds already")
    ap.add_argument("--workdir", default="/tmp/seminaive-bench")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    log = os.path.join(args.workdir, "sources.jsonl")
    done = {}
    if os.path.exists(log):
        for line in open(log):
            r = json.loads(line)
            done[(r["model"], r["source"], r["millions"], r.get("members"), r.get("k"))] = r
    held = rows_of(held_out(args.workdir))
    print(f"{'model':>8}{'source':>9}{'rows':>13}{'seconds':>9}{'rows/s':>10}{'passes':>7}{'CPU s':>8}"
          f"{'peak MB':>9}{'accuracy':>9}{'log loss':>9}{'max diff':>9}  other processes", flush=True)
    for m in [int(s) for s in args.sizes.split(",")]:
        path = parquet_file(args.workdir, m)
        runs = [(name, source) for name in args.models.split(",") if name for source in args.sources.split(",")]
        runs += [(r, r) for r in args.rivals.split(",") if r and m <= args.rival_max]
        first = {}
        for name, source in runs:
            key = (name, source, m, args.members if name == "eskdb" else None, args.k if name == "eskdb" else None)
            out = os.path.join(args.workdir, f"sources-{name}-{source}-{m}m" + (
                f"-{args.members}x{args.k}" if name == "eskdb" else "") + (".pkl" if name == source else ".json"))
            if key in done and not args.again and os.path.exists(out):
                got = done[key]
            else:
                spec = json.dumps({"model": name, "source": source, "here": here, "members": args.members,
                                   "k": args.k})
                t = time.perf_counter()
                run = subprocess.run([sys.executable, "-c", CHILD, spec, path, out], capture_output=True, text=True)
                if run.returncode:
                    print(f"{name:>8}{source:>9}  failed after {time.perf_counter() - t:.0f} s: "
                          f"{run.stderr.strip().splitlines()[-1][:100]}", flush=True)
                    continue
                got = json.loads(run.stdout.strip().splitlines()[-1])
                got["accuracy"], got["log_loss"], _ = scores(out, source, held)
                got.update(model=name, source=source, millions=m, members=key[3], k=key[4])
                with open(log, "a") as fh:
                    fh.write(json.dumps(got) + "\n")
            diff = float("nan")
            if name != source:  # against the Parquet reader's model of this size (of an earlier run too)
                p = scores(out, source, held)[2]
                reference = out.replace(f"-{source}-", "-parquet-")
                if name not in first and os.path.exists(reference):
                    first[name] = scores(reference, "parquet", held)[2]
                first.setdefault(name, p)
                diff = float(np.abs(first[name] - p).max())
            others = "" if "jvm_peak_mb" not in got else (
                f"JVM {got['jvm_peak_mb']:,.0f} MB / {got['jvm_cpu']:,.0f} s CPU, Python workers "
                f"{'+'.join(f'{v:,.0f}' for v in got['workers_peak_mb'])} MB / {got['workers_cpu']:,.0f} s CPU")
            print(f"{name:>8}{source:>9}{int(got['rows']):>13,}{got['seconds']:>9.1f}"
                  f"{got['rows'] / got['seconds']:>10,.0f}{got['passes']:>7}{got['cpu']:>8.0f}{got['peak_mb']:>9,.0f}"
                  f"{100 * got['accuracy']:>8.2f}%{got['log_loss']:>9.4f}{diff:>9.1e}  {others}", flush=True)


if __name__ == "__main__":
    main()
