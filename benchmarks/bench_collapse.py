"""Where MDL finds no cut: the family with MDL intervals against MDL with an
equal-frequency fallback (``numeric="mdl_fallback"``, the candidate default), by
stratified 10-fold cross-validation with the same folds for every model.

    python benchmarks/bench_collapse.py [--datasets keel:tae,...] [--cv 10] [--seed 0] [--folder DIR]

The default sets are the three where MDL leaves every numeric attribute one
interval on small samples (KEEL tae, hayes-roth, bupa), then the demo's 20 sets
and letter, magic and satimage. Prints a Markdown table of accuracy (mean +- sd
over folds, marks against the Gaussian Naive Bayes), wins/ties/losses, then the
mean log loss of every model and the per-set accuracy change of each family
model from ``mdl`` to ``mdl_fallback``. The run's folder keeps the per-fold
results (resumable).
"""

import argparse
import sys
import tempfile

import numpy as np
import pandas as pd

from seminaive import AODE, KDB, TAN, NaiveBayes, SelectiveKDB
from seminaive.evaluation.experiment import Experiment, run_experiment
from seminaive.evaluation.report_files import comparison_table
from seminaive.evaluation.resampling import Protocol

SMALL = "keel:tae,keel:hayes-roth,keel:bupa"
SUITE = ("iris,keel:wine,keel:pima,keel:heart,keel:breast,keel:crx,keel:monk-2,keel:tic-tac-toe,keel:housevotes,"
         "keel:sonar,keel:ionosphere,keel:led7digit,keel:wdbc,keel:german,keel:australian,keel:vehicle,"
         "keel:mushroom,keel:splice,keel:chess,keel:letter,keel:magic,keel:satimage")
FAMILY = {"tan": TAN, "kdb1": lambda numeric: KDB(k=1, numeric=numeric), "aode": AODE, "skdb": SelectiveKDB}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=f"{SMALL},{SUITE}")
    ap.add_argument("--cv", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--folder", default=None, help="keep (and resume) the per-fold results here")
    args = ap.parse_args()
    models = {"nb": NaiveBayes()}
    for name, make in FAMILY.items():
        models[f"{name} mdl"] = make(numeric="mdl")
        models[f"{name} mdl_fallback"] = make(numeric="mdl_fallback")
    exp = Experiment(models, args.datasets.split(","), Protocol("kfold", args.cv, seed=args.seed), baseline="nb")
    print(exp.protocol.describe(), file=sys.stderr)
    folder = args.folder or tempfile.mkdtemp(prefix="bench-collapse-")
    res = run_experiment(exp, folder)
    print(comparison_table(res, "nb"))
    frame = res
    print()
    print("mean log loss over sets:")
    if "log_loss" in frame:
        print(frame.groupby("model")["log_loss"].mean().round(4).to_string())
    acc = frame.groupby(["dataset", "model"])["accuracy"].mean().unstack()
    print()
    print("accuracy change mdl -> mdl_fallback (percentage points), per set:")
    change = pd.DataFrame({name: 100 * (acc[f"{name} mdl_fallback"] - acc[f"{name} mdl"]) for name in FAMILY})
    print(change.round(2).to_string())
    print("\nsets better / equal / worse: " + ", ".join(
        f"{n} {int((change[n] > 1e-9).sum())}/{int((np.abs(change[n]) <= 1e-9).sum())}/{int((change[n] < -1e-9).sum())}"
        for n in FAMILY))


if __name__ == "__main__":
    main()
