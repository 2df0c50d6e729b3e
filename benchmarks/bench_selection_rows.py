"""What scoring a selection on a sample of the rows costs in accuracy (``selection_rows``): selective kDB
(k = 5) fitted from a Parquet file of 10M rows whose attributes do depend on each other, its candidates
scored on every row (``selection_rows=None``) and on the drawn rows (the default 1M, and fewer), each
scored on 1M other rows drawn from the same network.

    python benchmarks/bench_selection_rows.py [--millions 10] [--rows none,1000000,200000] [--parents 3]
                                              [--workdir /tmp/seminaive-bench]

The data: 20 nominal attributes of 4 values and 3 classes from a network in which attribute i
depends on up to ``--parents`` earlier attributes and, a little, on the class (drawn once, seeded); each row drawn
afresh (its own seed per million). Each fit runs in a fresh process: its seconds, CPU seconds, peak
memory (VmHWM), the chosen attributes and k', and its held-out accuracy and log loss. Lines are
appended to ``selection_rows.jsonl`` in the work directory (a fit found there is not run again).
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

D, VALUES, CLASSES, MOST_PARENTS = 20, 4, 3, 3
CLASS_SHARE = 0.12  # how much of each table depends on the class


def network(most=MOST_PARENTS, seed=20261207):
    """Each attribute's parents (up to ``most`` earlier ones) and its table P(x | class, parents), drawn once."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(D):
        parents = sorted(rng.choice(i, min(i, int(rng.integers(0, most + 1))), replace=False).tolist())
        shape = (VALUES,) * len(parents)
        base = rng.dirichlet(np.full(VALUES, 0.4), size=shape)  # peaked: the parents matter
        by_class = rng.dirichlet(np.full(VALUES, 1.0), size=(CLASSES,) + shape)  # the class, a little
        table = (1 - CLASS_SHARE) * base[None] + CLASS_SHARE * by_class
        out.append((parents, table))
    return out


def draw(n, seed, net):
    """``n`` rows of the network (a frame of string columns, and the classes)."""
    import pandas as pd
    rng = np.random.default_rng(seed)
    y = rng.choice(CLASSES, n, p=[0.4, 0.35, 0.25])
    codes = np.empty((n, D), dtype=np.int64)
    for i, (parents, table) in enumerate(net):
        p = table[(y,) + tuple(codes[:, j] for j in parents)]  # (n, VALUES)
        u = rng.random(n)[:, None]
        codes[:, i] = np.minimum((u > np.cumsum(p, axis=1)).sum(axis=1), VALUES - 1)
    frame = pd.DataFrame({f"a{i}": pd.Categorical.from_codes(codes[:, i], [f"v{v}" for v in range(VALUES)])
                          for i in range(D)})
    return frame, np.array([f"k{c}" for c in y], dtype=object)


def parquet(path, millions, first_seed, most=MOST_PARENTS):
    """A Parquet file of ``millions`` million rows (a row group per million), written once."""
    if os.path.exists(path):
        return path
    import pyarrow as pa
    import pyarrow.parquet as pq
    net, writer = network(most), None
    for m in range(millions):
        frame, y = draw(1_000_000, first_seed + m, net)
        table = pa.Table.from_pandas(frame.assign(cls=y), preserve_index=False)
        writer = writer or pq.ParquetWriter(path + ".part", table.schema)
        writer.write_table(table)
    writer.close()
    os.replace(path + ".part", path)
    return path


CHILD = r"""
import json, resource, sys, time
import numpy as np, pandas as pd
from sklearn.metrics import log_loss
from seminaive import SelectiveKDB
from seminaive.scale import fit_file
path, held, rows = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
t, c = time.perf_counter(), time.process_time()
m = fit_file(SelectiveKDB(k=5, selection_rows=rows), path, chunksize=200_000)
dt, cpu = time.perf_counter() - t, time.process_time() - c
test = pd.read_parquet(held)
p = m.predict_proba(test.drop(columns="cls"))
y = test["cls"].to_numpy()
peak = next(int(l.split()[1]) / 1024 for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"seconds": dt, "cpu": cpu, "peak_mb": peak, "attributes": m.n_attributes_, "k": m.k_,
                  "accuracy": float(np.mean(m.classes_[p.argmax(axis=1)] == y)),
                  "log_loss": float(log_loss(y, p, labels=m.classes_))}))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--millions", type=int, default=10)
    ap.add_argument("--rows", default="none,1000000,200000", help="selection_rows values (none: every row)")
    ap.add_argument("--parents", type=int, default=MOST_PARENTS, help="the most parents an attribute has")
    ap.add_argument("--workdir", default="/tmp/seminaive-bench")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    tag = "" if args.parents == MOST_PARENTS else f"-{args.parents}p"
    train = parquet(os.path.join(args.workdir, f"network{tag}-{args.millions}m.parquet"), args.millions, 1000,
                    args.parents)
    held = parquet(os.path.join(args.workdir, f"network{tag}-held-out-1m.parquet"), 1, 999, args.parents)
    log = os.path.join(args.workdir, "selection_rows.jsonl")
    done = {}
    if os.path.exists(log):
        for line in open(log):
            r = json.loads(line)
            done[(r["millions"], r.get("parents", MOST_PARENTS), r["selection_rows"])] = r
    print(f"{'selection_rows':>15} {'seconds':>8} {'CPU s':>7} {'peak MB':>8} {'attrs':>5} {'k':>2} "
          f"{'accuracy':>8} {'log loss':>8}")
    for text in args.rows.split(","):
        rows = None if text.strip().lower() == "none" else int(text)
        r = done.get((args.millions, args.parents, rows))
        if r is None:
            out = subprocess.run([sys.executable, "-c", CHILD, train, held, json.dumps(rows)], check=True,
                                 capture_output=True, text=True).stdout
            r = {**json.loads(out.strip().splitlines()[-1]), "millions": args.millions, "parents": args.parents,
                 "selection_rows": rows}
            with open(log, "a") as fh:
                fh.write(json.dumps(r) + "\n")
        print(f"{'every row' if rows is None else f'{rows:,}':>15} {r['seconds']:8.1f} {r['cpu']:7.0f} "
              f"{r['peak_mb']:8,.0f} {r['attributes']:5d} {r['k']:2d} {r['accuracy']:8.2%} {r['log_loss']:8.4f}",
              flush=True)


if __name__ == "__main__":
    main()
