"""NBTree out of core: the tree grown level by level (hashed folds, two passes per level) from Parquet
files of 1M and 10M rows whose class is a rule over a few attributes (where a tree of Naive Bayes
leaves is the right model), with its passes, levels, leaves, rate and peak memory.

    python benchmarks/bench_nbtree_scale.py [--sizes 1,10] [--workdir /tmp/seminaive-bench]

The rows: 8 nominal attributes (4 values), 4 numeric ones; the class is drawn from one of three Naive
Bayes models chosen by the values of two nominal attributes (a rule), 10% noise. Each million rows is
drawn with its own seed; the Parquet file is written a million rows at a time (files that exist are
reused). Each size is fitted with ``fit_file`` (chunks of 200,000 rows) in a fresh process: its seconds,
rows per second, passes over the file, nodes, leaves and peak resident memory (the kernel's VmHWM).
At 1M rows the file fit is checked against the fit in memory on the same rows (largest difference of
probabilities on the first 100,000 rows), and the held-out accuracy of NBTree, Naive Bayes and AODE on
the next file's first 200,000 rows (another seed) is printed.
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_scale import COUNTED  # noqa: E402

CHILD = COUNTED + r"""
from seminaive import NBTree
from seminaive.scale import fit_file
path, out = sys.argv[1], sys.argv[2]
t = time.perf_counter()
m = fit_file(NBTree(numeric="equal_frequency"), path, chunksize=200_000)
dt = time.perf_counter() - t
save_model(m, out, overwrite=True)
print(json.dumps({"seconds": dt, "rows": float(m.class_count_.sum()), "peak_mb": peak_mb(), "passes": passes[0],
                  "nodes": len(m.nodes_), "leaves": m.n_leaves_}))
"""


def million(seed):
    """A million rows: the class a rule over a0 and a1 choosing among three Naive Bayes models."""
    rng = np.random.default_rng(seed)
    n = 1_000_000
    a = rng.integers(0, 4, (n, 8))
    model = (a[:, 0] + 2 * (a[:, 1] >= 2)) % 3  # which Naive Bayes the row follows
    y = np.where(model == 0, a[:, 2] >= 2, np.where(model == 1, a[:, 3] < 1, (a[:, 4] + a[:, 5]) % 2 == 0))
    y = np.where(rng.random(n) < 0.1, ~y, y).astype(int)
    frame = pd.DataFrame({f"a{j}": np.char.add("v", a[:, j].astype(str)) for j in range(8)})
    for j in range(4):
        frame[f"x{j}"] = np.round(rng.normal(y * (0.3 + 0.2 * j) * (model == j % 3), 1.0), 3)
    frame["cls"] = np.where(y == 1, "yes", "no")
    return frame


def parquet_file(workdir, m, seed0=0):
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = os.path.join(workdir, f"rule-{m}m-{seed0}.parquet")
    if not os.path.exists(path):
        writer = None
        for i in range(m):
            table = pa.Table.from_pandas(million(seed0 + i), preserve_index=False)
            writer = writer or pq.ParquetWriter(path + ".tmp", table.schema)
            writer.write_table(table, row_group_size=200_000)
        writer.close()
        os.replace(path + ".tmp", path)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,10", help="millions of rows")
    ap.add_argument("--workdir", default="/tmp/seminaive-bench")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    print(f"{'rows':>12}{'seconds':>9}{'rows/s':>10}{'passes':>8}{'nodes':>7}{'leaves':>8}{'peak MB':>9}")
    for m in [int(s) for s in args.sizes.split(",")]:
        path = parquet_file(args.workdir, m)
        out = os.path.join(args.workdir, f"nbtree-rule-{m}m.json")
        got = json.loads(subprocess.run([sys.executable, "-c", CHILD, path, out], check=True, capture_output=True,
                                        text=True).stdout.strip().splitlines()[-1])
        print(f"{int(got['rows']):>12,}{got['seconds']:>9.1f}{got['rows'] / got['seconds']:>10,.0f}{got['passes']:>8}"
              f"{got['nodes']:>7}{got['leaves']:>8}{got['peak_mb']:>9,.0f}", flush=True)
        if m == 1:
            check(path, out, args.workdir)


def check(path, saved, workdir):
    """The 1M file fit against the fit in memory; held-out accuracy beside Naive Bayes and AODE."""
    from seminaive import AODE, NBTree, NaiveBayes, load_model
    frame = pd.read_parquet(path)
    X, y = frame.drop(columns="cls"), frame["cls"]
    memory = NBTree(numeric="equal_frequency").fit(X, y)
    model = load_model(saved)
    diff = np.abs(memory.predict_proba(X.iloc[:100_000]) - model.predict_proba(X.iloc[:100_000])).max()
    print(f"1M rows: file fit against the fit in memory, largest difference of probabilities {diff:.1e}; "
          f"nodes {len(memory.nodes_)} and {len(model.nodes_)}")
    test = million(10_000).iloc[:200_000]
    Xt, yt = test.drop(columns="cls"), test["cls"].to_numpy()
    for name, fitted in (("NBTree", model), ("Naive Bayes", NaiveBayes(numeric="equal_frequency").fit(X, y)),
                         ("AODE", AODE(numeric="equal_frequency").fit(X, y))):
        p = fitted.predict_proba(Xt)
        pick = p[np.arange(len(yt)), np.searchsorted(fitted.classes_, yt)]
        print(f"  held out (200,000 rows): {name:<12} accuracy {np.mean(fitted.predict(Xt) == yt):.4f}   log loss "
              f"{-np.mean(np.log(np.maximum(pick, 1e-15))):.4f}")


if __name__ == "__main__":
    main()
