"""The same models fitted from the same rows through each engine: a Parquet file read by seminaive
(``fit_file``), DuckDB (``fit_duckdb`` on ``read_parquet``) and Spark in local mode (``fit_spark`` on
``spark.read.parquet``, two cores): seconds, rows per second, passes and the driver's peak memory, and
the largest difference of the fitted models' probabilities (equal models: 0 up to rounding).

    python benchmarks/bench_sources.py [--sizes 1,10] [--models nb,aode,skdb] [--sources parquet,duckdb,spark]

The data are ``bench_scale.py``'s (20 attributes, 10 numeric and 10 nominal, 3 classes, each million rows
drawn afresh; the same files). Numeric attributes in ten equal-frequency intervals (a model of one size at
every number of rows). Each (model, source, size) runs in a fresh process; its peak memory is the process's
(the kernel's VmHWM): for Spark that is the Python driver's, the JVM and its Python workers apart.
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_scale import COUNTED, data_files  # noqa: E402

CHILD = COUNTED + r"""
spec, path, out = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
sys.path.insert(0, spec["here"])
from bench_sources import make_model
model = make_model(spec["model"])
if spec["source"] == "parquet":
    from seminaive.scale import fit_file
    t = time.perf_counter()
    m = fit_file(model, path, chunksize=200_000)
elif spec["source"] == "duckdb":
    import duckdb
    from seminaive.scale.duckdb import fit_duckdb
    t = time.perf_counter()
    m = fit_duckdb(model, duckdb.connect().read_parquet(path), target="cls", chunksize=200_000)
else:
    import os
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
    t = time.perf_counter()
    m = fit_spark(model, df, target="cls")
dt = time.perf_counter() - t
save_model(m, out, overwrite=True)
print(json.dumps({"seconds": dt, "rows": float(m.class_count_.sum()), "peak_mb": peak_mb(), "passes": passes[0]}))
"""


def make_model(name):
    from seminaive import AODE, NaiveBayes
    from seminaive.bayesnet.skdb import SelectiveKDB
    return {"nb": lambda: NaiveBayes(numeric="equal_frequency"), "aode": lambda: AODE(numeric="equal_frequency"),
            "skdb": lambda: SelectiveKDB(numeric="equal_frequency")}[name]()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1", help="millions of rows")
    ap.add_argument("--models", default="nb,aode,skdb")
    ap.add_argument("--sources", default="parquet,duckdb,spark")
    ap.add_argument("--workdir", default="/tmp/seminaive-bench")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    print(f"{'model':>6}{'source':>9}{'rows':>13}{'seconds':>9}{'rows/s':>10}{'passes':>8}{'peak MB':>9}"
          f"{'max diff':>10}", flush=True)
    for m in [int(s) for s in args.sizes.split(",")]:
        path = data_files(args.workdir, m)["parquet"]
        for name in args.models.split(","):
            fitted = {}
            for source in args.sources.split(","):
                out = os.path.join(args.workdir, f"sources-{name}-{source}-{m}m.json")
                spec = json.dumps({"model": name, "source": source, "here": here})
                run = subprocess.run([sys.executable, "-c", CHILD, spec, path, out], capture_output=True, text=True)
                if run.returncode:
                    print(f"{name:>6}{source:>9}  failed: {run.stderr.strip().splitlines()[-1][:100]}", flush=True)
                    continue
                got = json.loads(run.stdout.strip().splitlines()[-1])
                fitted[source] = out
                diff = _difference(fitted, path) if len(fitted) > 1 else float("nan")
                print(f"{name:>6}{source:>9}{int(got['rows']):>13,}{got['seconds']:>9.1f}"
                      f"{got['rows'] / got['seconds']:>10,.0f}{got['passes']:>8}{got['peak_mb']:>9,.0f}"
                      f"{diff:>10.1e}", flush=True)


def _difference(fitted, path):
    """The largest difference between the first source's model and the last's probabilities (100,000 rows)."""
    import pyarrow.parquet as pq
    from seminaive import load_model
    X = pq.ParquetFile(path).read_row_group(0).to_pandas().drop(columns="cls").iloc[:100_000]
    first, last = (load_model(fitted[s]) for s in (list(fitted)[0], list(fitted)[-1]))
    return float(np.abs(first.predict_proba(X) - last.predict_proba(X)).max())


if __name__ == "__main__":
    main()
