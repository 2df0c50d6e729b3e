"""The fixed cost of a fit and a prediction from a DataFrame against the same data as integer codes
(:class:`seminaive.data.Codes`), measured in the same run.

    python benchmarks/bench_codes.py [--datasets keel:housevotes,keel:chess] [--repeats 200]

For every data set (all-nominal ones: the codes path takes nominal data) and model (Naive Bayes,
AODE, kDB k = 1, TAN), the median wall time of ``fit`` and of ``predict_proba`` on the training
rows, from the DataFrame of categoricals and from its codes, and their ratio. The models are
checked equal before anything is timed.
"""

import argparse
import time

import numpy as np


def _median_ms(f, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return float(np.median(times)) * 1000


def main(argv=None):
    from seminaive import AODE, KDB, TAN, NaiveBayes
    from seminaive.data import Codes
    from seminaive.datasets import load_any
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="keel:housevotes,keel:tic-tac-toe,keel:chess,keel:splice")
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args(argv)
    models = {"NaiveBayes": NaiveBayes, "AODE": AODE, "KDB k=1": lambda: KDB(k=1), "TAN": TAN}
    print(f"{'data set':18s} {'model':11s} {'fit frame':>10s} {'fit codes':>10s} {'ratio':>6s} "
          f"{'pred frame':>11s} {'pred codes':>11s} {'ratio':>6s}  (ms, median of {args.repeats})")
    for name in args.datasets.split(","):
        d = load_any(name)
        X, y = d.X, np.asarray(d.y, dtype=object).astype(str)
        codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])
        held = Codes(codes, [len(X[c].cat.categories) for c in X.columns], list(X.columns),
                     [list(X[c].cat.categories) for c in X.columns])
        repeats = max(5, args.repeats * 1000 // max(len(y), 1000))
        for label, make in models.items():
            a, b = make().fit(X, y), make().fit(held, y)
            if not np.allclose(a.predict_proba(X), b.predict_proba(held), rtol=1e-12, atol=1e-12):
                raise SystemExit(f"{name} {label}: the codes path gives another model")
            fit = [_median_ms(lambda: make().fit(X, y), repeats), _median_ms(lambda: make().fit(held, y), repeats)]
            pred = [_median_ms(lambda: a.predict_proba(X), repeats), _median_ms(lambda: b.predict_proba(held), repeats)]
            print(f"{name:18s} {label:11s} {fit[0]:10.2f} {fit[1]:10.2f} {fit[0] / fit[1]:5.1f}x "
                  f"{pred[0]:11.2f} {pred[1]:11.2f} {pred[0] / pred[1]:5.1f}x", flush=True)


if __name__ == "__main__":
    main()
