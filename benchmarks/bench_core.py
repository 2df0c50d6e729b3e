"""Fit and predict_proba throughput and peak memory: seminaive's NaiveBayes
against scikit-learn's CategoricalNB and GaussianNB, and against a plain numpy
counting pass, all in the same run, on numpy arrays and on DataFrames.

    python benchmarks/bench_core.py [--rows 1000000] [--frame-rows 300000] [--cols 20] [--repeat 3]

Inputs (3 classes):

* nominal, numpy: integer codes 0..9 (CategoricalNB's input format; our model
  is told ``nominal="all"``); the floor is one ``np.bincount`` of class and
  value per column, the least a counting fit must do;
* nominal, DataFrame of strings as ``pd.read_csv`` gives them (pandas' ``str``
  columns, and ``object`` columns), and of categoricals; the peer is
  ``make_pipeline(OrdinalEncoder(), CategoricalNB())``, which needs the
  encoder to take strings;
* numeric: float64 Gaussian blobs, as an array and as a DataFrame.

Times are the best of ``--repeat`` runs (wall clock); peak memory is the
tracemalloc peak of one call above its input (numpy and pandas report their
buffers to tracemalloc). Ratios > 1 mean seminaive is faster or smaller.

``--small``: small data, where fixed costs rule: iris, breast cancer and
digits (numeric: against GaussianNB) and 1,000 x 20 nominal codes (against
CategoricalNB), fit and predict_proba, best of 200 calls.

``--wide``: 30 x 10,000 and 1,000 x 10,000 attributes, numeric (against
GaussianNB) and nominal codes 0..4 (against CategoricalNB): fit, and a
10-fold cross-validation (``seminaive.evaluation.evaluate`` against
scikit-learn's ``cross_val_score`` on the same folds), best of 3 calls each;
then the command line's ``fit`` and ``evaluate`` on the 30 x 10,000 numeric
data written as CSV, wall clock of the whole process (best of 3), against the
process that only imports scikit-learn (the floor of any command that uses it).
"""

import argparse
import gc
import time
import tracemalloc

import numpy as np
import pandas as pd
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

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


def numpy_counting_pass(X, y, m=10):
    """The floor: per column, one bincount of (class, value)."""
    yk = y * m
    return [np.bincount(yk + X[:, j], minlength=3 * m) for j in range(X.shape[1])]


def measure(name, ours, theirs, X, y, repeat, steps=("fit", "predict_proba")):
    """Rows (step, our rows/s, their rows/s, speed ratio, our MB, their MB)."""
    n = len(y)
    ours.fit(X, y)
    theirs.fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X[:1000]), theirs.predict_proba(X[:1000]), atol=1e-8)
    rows = []
    for step in steps:
        if step == "fit":
            f_o, f_t = (lambda: ours.fit(X, y)), (lambda: theirs.fit(X, y))
        else:
            f_o, f_t = (lambda: ours.predict_proba(X)), (lambda: theirs.predict_proba(X))
        t_o, t_t = best_time(f_o, repeat), best_time(f_t, repeat)
        rows.append((f"{name} {step}", n / t_o, n / t_t, t_t / t_o, peak_mb(f_o), peak_mb(f_t)))
    return rows


def small(repeat=200):
    """Fit and predict_proba on small data against scikit-learn's naive Bayes."""
    from sklearn.datasets import load_breast_cancer, load_digits, load_iris
    rng = np.random.default_rng(0)
    yc = rng.integers(0, 3, 1000)
    sets = [(name, loader(return_X_y=True), NaiveBayes(), GaussianNB())
            for name, loader in (("iris", load_iris), ("breast cancer", load_breast_cancer), ("digits", load_digits))]
    sets.append(("1,000 x 20 nominal", ((rng.integers(0, 10, (1000, 20)) + yc[:, None]) % 10, yc),
                 NaiveBayes(nominal="all"), CategoricalNB()))
    print(f"{'data':<22}{'step':<15}{'seminaive ms':>14}{'peer ms':>10}{'speed ratio':>13}")
    for name, (X, y), ours, theirs in sets:
        ours.fit(X, y)
        theirs.fit(X, y)
        for step in ("fit", "predict_proba"):
            call = (lambda m: m.fit(X, y)) if step == "fit" else (lambda m: m.predict_proba(X))
            t_o, t_t = best_time(lambda: call(ours), repeat), best_time(lambda: call(theirs), repeat)
            print(f"{name:<22}{step:<15}{t_o * 1e3:>14.3f}{t_t * 1e3:>10.3f}{t_t / t_o:>12.2f}x")


def wide(repeat=3):
    """Many attributes: fit and 10-fold evaluation against scikit-learn, then the command line."""
    import os
    import subprocess
    import sys
    import tempfile
    import warnings
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from seminaive.evaluation import evaluate
    from seminaive.exceptions import UnseenValueWarning
    # a fold's test rows hold values its 27 training rows never showed (30 x 10,000 nominal): read as
    # missing, as they should be; the warnings, a line naming dozens of attributes per fold, are not timed
    warnings.simplefilter("ignore", UnseenValueWarning)
    rng = np.random.default_rng(0)
    print(f"{'data':<32}{'step':<16}{'seminaive s':>12}{'peer s':>10}{'speed ratio':>13}")
    for n in (30, 1000):
        y = np.arange(n) % 2
        numeric = rng.normal(size=(n, 10_000)) + 0.3 * y[:, None]
        codes = (rng.integers(0, 5, (n, 10_000)) + y[:, None]) % 5
        for kind, X, ours, theirs in (("numeric", numeric, NaiveBayes(), GaussianNB()),
                                      ("nominal", codes, NaiveBayes(nominal="all"), CategoricalNB(min_categories=5))):
            folds = StratifiedKFold(10, shuffle=True, random_state=0)
            steps = (("fit", lambda: ours.fit(X, y), lambda: theirs.fit(X, y)),
                     ("10-fold", lambda: evaluate(ours, X, y, cv=10, random_state=0),
                      lambda: cross_val_score(theirs, X, y, cv=folds)))
            for step, f_o, f_t in steps:
                t_o, t_t = best_time(f_o, repeat), best_time(f_t, repeat)
                print(f"{n:,} x 10,000 {kind:<18}{step:<16}{t_o:>12.3f}{t_t:>10.3f}{t_t / t_o:>12.2f}x", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "wide.csv")
        y = np.arange(30) % 2
        frame = pd.DataFrame(np.round(rng.normal(size=(30, 10_000)) + 0.3 * y[:, None], 4),
                             columns=[f"f{j}" for j in range(10_000)])
        frame.assign(cls=np.where(y, "a", "b")).to_csv(path, index=False)
        cli = [sys.executable, "-m", "seminaive"]

        def wall(argv):
            t = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True)
            return time.perf_counter() - t

        floor = min(wall([sys.executable, "-c", "import sklearn.base"]) for _ in range(3))
        fit = min(wall(cli + ["fit", path, "-m", os.path.join(tmp, "m.json"), "--force"]) for _ in range(3))
        ev = min(wall(cli + ["evaluate", path]) for _ in range(3))
        print(f"command line on 30 x 10,000 numeric (CSV, whole process): fit {fit:.2f} s, evaluate (10-fold) "
              f"{ev:.2f} s; a process that only imports scikit-learn: {floor:.2f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--frame-rows", type=int, default=300_000)
    ap.add_argument("--cols", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--small", action="store_true", help="small data only (fixed costs)")
    ap.add_argument("--wide", action="store_true", help="many attributes only")
    args = ap.parse_args()
    if args.small or args.wide:
        if args.small:
            small()
        if args.wide:
            wide()
        return
    rng = np.random.default_rng(0)
    n, d, nf = args.rows, args.cols, args.frame_rows
    y = rng.integers(0, 3, n)
    Xn = (rng.integers(0, 10, (n, d)) + y[:, None]) % 10
    Xg = rng.normal(y[:, None] * 0.3, 1.0, (n, d))
    names = np.array([f"value{v}" for v in range(10)], dtype=object)
    labels = np.array(["low", "mid", "high"], dtype=object)[y[:nf]]
    strings = pd.DataFrame({f"a{j}": names[Xn[:nf, j]] for j in range(d)}, dtype="str")
    objects = strings.astype(object)
    cats = strings.astype("category")
    gframe = pd.DataFrame(Xg[:nf], columns=[f"g{j}" for j in range(d)])

    def pipeline():
        return make_pipeline(OrdinalEncoder(), CategoricalNB())

    rows = measure("nominal, numpy codes", NaiveBayes(priors="mle", nominal="all"), CategoricalNB(), Xn, y,
                   args.repeat)
    floor = best_time(lambda: numpy_counting_pass(Xn, y), args.repeat)
    rows += measure("nominal, DataFrame str", NaiveBayes(priors="mle"), pipeline(), strings, labels, args.repeat)
    rows += measure("nominal, DataFrame object", NaiveBayes(priors="mle"), pipeline(), objects, labels,
                    args.repeat, steps=("fit",))
    rows += measure("nominal, DataFrame category", NaiveBayes(priors="mle"), pipeline(), cats, labels,
                    args.repeat, steps=("fit",))
    gauss = NaiveBayes(priors="mle", ddof=0, var_smoothing_rule="largest")  # GaussianNB's variance floor rule
    rows += measure("gaussian, numpy", gauss, GaussianNB(), Xg, y, args.repeat)
    rows += measure("gaussian, DataFrame", gauss, GaussianNB(), gframe, y[:nf],
                    args.repeat)
    print(f"arrays: {n:,} rows x {d} attributes; DataFrames: {nf:,} rows x {d}; 3 classes; best of {args.repeat}")
    print(f"{'step':<38}{'seminaive rows/s':>18}{'peer rows/s':>14}{'speed ratio':>13}"
          f"{'peak MB ours':>14}{'peak MB peer':>14}{'memory ratio':>14}")
    for step, r_o, r_t, ratio, m_o, m_t in rows:
        print(f"{step:<38}{r_o:>18,.0f}{r_t:>14,.0f}{ratio:>12.2f}x{m_o:>14.1f}{m_t:>14.1f}"
              f"{m_t / max(m_o, 1e-9):>13.2f}x")
    ours_fit = n / rows[0][1]
    print(f"\nnumpy counting pass (one bincount per column): {n / floor:,.0f} rows/s; "
          f"our nominal fit takes {ours_fit / floor:.2f}x its time")
    print("peers: CategoricalNB / GaussianNB on arrays; OrdinalEncoder + CategoricalNB on nominal DataFrames")


if __name__ == "__main__":
    main()
