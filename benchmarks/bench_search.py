"""Backward elimination: seminaive's incremental engine against the search a
user would assemble today, mlxtend's SequentialFeatureSelector(forward=False)
around scikit-learn's CategoricalNB, with the same folds, in one run.

    pip install mlxtend   # a benchmark-only peer, not a seminaive dependency
    python benchmarks/bench_search.py [--datasets chess,mushroom,splice] [--cv 5]

Both run the same exhaustive backward path (eliminate down to one attribute);
ours is BSE(tol=-inf, min_attributes=1) with maximum-likelihood
priors and alpha=1, as CategoricalNB. CategoricalNB needs min_categories (a
value missing from a training part otherwise crashes it) and mlxtend hands it
column subsets, so it gets one number, the largest value count M; the
equality check builds our engine with that same M for every attribute. For
every subset mlxtend records (its subsets_), the
engine's per-fold accuracies are compared with mlxtend's cv_scores. Then the time per candidate
(ours: the search's own time, ``search_seconds_``, whose first step counts every attribute and
makes its contributions; then with the engine's construction from codes added too; reading the
strings left out) and for the whole search (everything, setup and final model included), and the
ratios (ours: the median of three runs, mlxtend's one run taking seconds); and the time of BSEJ
(leave-one-out) for reference. The compiled candidate loop is loaded (numba's cache) by a first
search on 5,000 random rows, timed apart: a process pays it once (a search of fewer candidates x
classes x rows than ``engine.COMPILED_FROM`` never loads it).

Our searches are given the data as users have them from ``pd.read_csv``: a
DataFrame of strings (pandas' ``str`` columns) and string class labels, so
their time includes reading the values into codes. mlxtend is given what
CategoricalNB needs, integer codes, encoded outside its timing.
"""

import argparse
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import CategoricalNB

from seminaive.datasets import load
from seminaive.estimation import Frequency
from seminaive.search import BSE, BSEJ
from seminaive.learning.engine import BaseAttribute, Engine


def fold_scores(engine, groups):
    ok = engine.correct(engine.joint(groups))
    return np.array([ok[engine.fold == f].mean() for f in range(engine.n_folds)])


def main():
    from mlxtend.feature_selection import SequentialFeatureSelector as SFS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="chess,mushroom,splice")
    ap.add_argument("--cv", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)  # a search large enough to take the compiled loop (engine.COMPILED_FROM)
    t0 = time.perf_counter()
    BSE().fit(rng.integers(0, 3, (5000, 10)).astype(str), rng.integers(0, 2, 5000))
    print(f"first search in this process (loading the compiled loops): {time.perf_counter() - t0:.2f} s")
    print(f"{'data set':<10}{'attrs':>6}{'cands':>7}{'mlxtend s':>11}{'ours s':>9}{'search x':>10}"
          f"{'per cand. x':>13}{'+ set-up x':>13}{'subsets equal':>15}{'BSEJ loo s':>12}")
    for name in args.datasets.split(","):
        d = load("keel:" + name)
        strings, labels = d.X.astype("str"), d.y.astype("str")  # missing values stay missing
        X = np.column_stack([d.X[c].cat.codes.to_numpy() for c in d.X.columns])
        y = d.y.cat.codes.to_numpy()
        m = np.array([len(d.X[c].cat.categories) for c in d.X.columns])
        folds = list(StratifiedKFold(args.cv, shuffle=True, random_state=0).split(X, y))
        t0 = time.perf_counter()
        M = int(m.max())
        sfs = SFS(CategoricalNB(alpha=1.0, min_categories=M), k_features=1, forward=False, floating=False,
                  scoring="accuracy", cv=folds, n_jobs=1, verbose=0).fit(X, y)
        t_mlx = time.perf_counter() - t0
        n_mlx = sum(k for k in range(2, X.shape[1] + 1)) + 1
        runs = []
        for _ in range(3):  # ours three times (milliseconds, where one run is noisy): the median run
            t0 = time.perf_counter()
            ours = BSE(cv=folds, priors="mle", alpha=1.0, tol=-np.inf, min_attributes=1).fit(strings, labels)
            runs.append((time.perf_counter() - t0, ours.search_seconds_))
        t_ours, search_seconds = sorted(runs)[1]
        builds = []
        for _ in range(3):  # the engine's construction from codes (its counts are made by a search's first step)
            t0 = time.perf_counter()
            attrs = [BaseAttribute(f"x{j}", X[:, j], M) for j in range(X.shape[1])]
            engine = Engine(attrs, y, int(y.max()) + 1, Frequency(alpha=1.0), priors="mle", splits=folds)
            builds.append(time.perf_counter() - t0)
        t_setup = sorted(builds)[1]
        equal = all(np.array_equal(fold_scores(engine, [(j,) for j in s["feature_idx"]]), np.asarray(s["cv_scores"]))
                    for s in sfs.subsets_.values())
        t0 = time.perf_counter()
        BSEJ().fit(strings, labels)
        t_bsej = time.perf_counter() - t0
        per_mlx, per_ours = t_mlx / n_mlx, search_seconds / ours.n_candidates_
        per_set_up = (search_seconds + t_setup) / ours.n_candidates_
        print(f"{name:<10}{X.shape[1]:>6}{ours.n_candidates_:>7}{t_mlx:>11.2f}{t_ours:>9.3f}{t_mlx / t_ours:>10.0f}"
              f"{per_mlx / per_ours:>13.0f}{per_mlx / per_set_up:>13.0f}{str(equal) + f' ({len(sfs.subsets_)})':>15}"
              f"{t_bsej:>12.2f}")


if __name__ == "__main__":
    main()
