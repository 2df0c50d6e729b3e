"""Fit and predict_proba throughput and peak memory: seminaive's NaiveBayes
against scikit-learn's CategoricalNB and GaussianNB, in the same run.

    python benchmarks/bench_core.py [--rows 1000000] [--cols 20] [--repeat 3]

Nominal data: integer codes 0..9 in a numpy array (CategoricalNB's input
format; our model is told ``nominal="all"``). Numeric data: float64 Gaussian
blobs. Classes: 3. Times are the best of ``--repeat`` runs (wall clock);
peak memory is the tracemalloc peak of one call above its input (numpy
reports its buffers to tracemalloc). Ratios > 1 mean seminaive is better.
"""

import argparse
import gc
import time
import tracemalloc

import numpy as np
from sklearn.naive_bayes import CategoricalNB, GaussianNB

from seminaive import NaiveBayes


def best_time(fn, repeat):
    best = np.inf
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def peak_mb(fn):
    gc.collect()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2 ** 20


def compare(name, ours, theirs, X, y, repeat):
    n = X.shape[0]
    rows = []
    ours.fit(X, y)
    theirs.fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X[:1000]), theirs.predict_proba(X[:1000]), atol=1e-8)
    for step, f_ours, f_theirs in (
            ("fit", lambda: ours.fit(X, y), lambda: theirs.fit(X, y)),
            ("predict_proba", lambda: ours.predict_proba(X), lambda: theirs.predict_proba(X))):
        t_o, t_t = best_time(f_ours, repeat), best_time(f_theirs, repeat)
        m_o, m_t = peak_mb(f_ours), peak_mb(f_theirs)
        rows.append((f"{name} {step}", n / t_o, n / t_t, t_t / t_o, m_o, m_t))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--cols", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    n, d = args.rows, args.cols
    y = rng.integers(0, 3, n)
    Xn = (rng.integers(0, 10, (n, d)) + y[:, None]) % 10
    Xg = rng.normal(y[:, None] * 0.3, 1.0, (n, d))
    rows = compare("nominal", NaiveBayes(priors="mle", nominal="all"), CategoricalNB(), Xn, y, args.repeat)
    rows += compare("gaussian", NaiveBayes(priors="mle", ddof=0), GaussianNB(), Xg, y, args.repeat)
    print(f"{n:,} rows x {d} attributes, 3 classes; best of {args.repeat}")
    print(f"{'step':<24}{'seminaive rows/s':>18}{'sklearn rows/s':>16}{'speed ratio':>13}"
          f"{'peak MB ours':>14}{'peak MB sk':>12}{'memory ratio':>14}")
    for step, r_o, r_t, ratio, m_o, m_t in rows:
        print(f"{step:<24}{r_o:>18,.0f}{r_t:>16,.0f}{ratio:>12.2f}x{m_o:>14.1f}{m_t:>12.1f}"
              f"{m_t / max(m_o, 1e-9):>13.2f}x")


if __name__ == "__main__":
    main()
