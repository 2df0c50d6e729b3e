"""How many members the default ESKDB needs: one 20-member fit per fold of the 23 sets of
``bench_rival.py`` (stratified 10-fold, the same folds), and every prefix of its members (the first n,
as ``ESKDB(n_estimators=n)`` fits them: the members do not depend on how many follow) scored as an
ensemble of its own; the CPU seconds of the first n members measured as they are fitted.

    python benchmarks/bench_members.py [--datasets ...] [--cv 10] [--seed 0] [--jobs 2] [--out FILE]

Prints, per prefix size, the mean accuracy and log loss on the tuning and checking halves
(``halves.py``) and the fit CPU summed over the sets (one fold each, as bench_rival's), with the
halves' verdict on each size against 20; writes the per-set figures as CSV (``--out``).
"""

import argparse
import sys
import time

import numpy as np
import pandas as pd

from bench_rival import SUITE
from halves import run_sets, verdict

SIZES = (1, 2, 3, 5, 8, 10, 12, 15, 20)


class _Clock:
    """Records the process time at each member's end (ESKDB's progress steps)."""

    def __init__(self):
        self.marks = []

    def step(self, what, done, total):
        if what == "ESKDB members":
            self.marks.append((done, time.process_time()))


def _run(job):
    """One set's folds: per prefix size, accuracy, log loss and fit CPU (per fold)."""
    import warnings
    warnings.simplefilter("ignore")
    from scipy.special import logsumexp
    from sklearn.metrics import log_loss
    from threadpoolctl import threadpool_limits
    from seminaive import ESKDB
    from seminaive import _progress
    from seminaive.datasets import load
    from seminaive.evaluation.resampling import kfold
    threadpool_limits(1)
    name, cv, seed = job
    d = load(name)
    warm = load("iris")
    ESKDB(n_estimators=2).fit(warm.X, warm.y)  # the compiled kernels loaded before any time is taken
    y = np.asarray(d.y, dtype=object)
    rows = []
    for fold, (train, test) in enumerate(kfold(y, cv, seed)):
        clock = _Clock()
        token = _progress._SINK.set(clock)
        try:
            start = time.process_time()
            m = ESKDB().fit(d.X.iloc[train], d.y.iloc[train])
        finally:
            _progress._SINK.reset(token)
        ends = dict(clock.marks)
        logs = np.stack([e.predict_log_proba(d.X.iloc[test]) for e in m.estimators_])
        for n in SIZES:
            lp = logsumexp(logs[:n], axis=0) - np.log(n)
            p = np.exp(lp - logsumexp(lp, axis=1, keepdims=True))
            truth = y[test]
            rows.append({"dataset": name, "fold": fold, "members": n,
                         "accuracy": float(np.mean(m.classes_[p.argmax(axis=1)] == truth)),
                         "log_loss": float(log_loss(truth, np.clip(p, 1e-15, 1), labels=m.classes_)),
                         "fit_cpu": ends[n] - start})
    return pd.DataFrame(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=SUITE)
    ap.add_argument("--cv", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None, help="write the per-set figures here (CSV)")
    a = ap.parse_args(argv)
    names = a.datasets.split(",")
    res = run_sets(_run, [(n, a.cv, a.seed) for n in names], a.jobs)
    per_set = res.groupby(["dataset", "members"]).agg(accuracy=("accuracy", "mean"), log_loss=("log_loss", "mean"),
                                                      fit_cpu=("fit_cpu", "mean")).reset_index()
    if a.out:
        per_set.to_csv(a.out, index=False)
    acc = per_set.pivot(index="dataset", columns="members", values="accuracy") * 100
    ll = per_set.pivot(index="dataset", columns="members", values="log_loss")
    cpu = per_set.pivot(index="dataset", columns="members", values="fit_cpu")
    acc.columns = ll.columns = cpu.columns = [f"n={n}" for n in acc.columns]
    print("| members | mean accuracy | mean log loss | fit CPU s (sum of one fold per set) |")
    print("|---|---|---|---|")
    for c in acc.columns:
        print(f"| {c} | {acc[c].mean():.2f} | {ll[c].mean():.4f} | {cpu[c].sum():.1f} |")
    print()
    for c in acc.columns[:-1]:
        print(verdict(acc, ll, c, "n=20", tol=0.05)[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
