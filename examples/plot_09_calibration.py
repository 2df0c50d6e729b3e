"""
Calibrating Naive Bayes from its own leave-one-out
==================================================

Naive Bayes counts dependent evidence several times, so it is often far too sure. ``Calibrated``
fits a map on the model's leave-one-out probabilities, which come from the counts without any
refit. The reliability diagrams put the test folds' confidence against how often it was right.
"""

import os
import tempfile

import matplotlib.image as mpimg
import matplotlib.pyplot as plt

from seminaive import NaiveBayes
from seminaive.calibration import Calibrated
from seminaive.datasets import load
from seminaive.evaluation import evaluate
from seminaive.evaluation.reliability import plot_reliability

credit = load("keel:australian")
bins = {}
for name, model in (("Naive Bayes", NaiveBayes()), ("sigmoid", Calibrated(method="sigmoid")),
                    ("isotonic", Calibrated(method="isotonic")), ("temperature", Calibrated(method="temperature"))):
    r = evaluate(model, credit, cv=10, random_state=0)
    loss = sum(r.fold_probability["log_loss"]) / len(r.fold_probability["log_loss"])
    print(f"{name:<12} accuracy {100 * r.accuracy:.1f}%  log loss {loss:.3f}")
    bins[f"{name}, log loss {loss:.3f}"] = r.reliability

# %%
# ``plot_reliability`` writes the diagrams to a PNG file (as ``seminaive evaluate --plot`` does); here it
# is shown again.

path = plot_reliability(bins, os.path.join(tempfile.mkdtemp(), "reliability.png"),
                        title="australian: test folds, 10-fold CV")
fig, ax = plt.subplots(figsize=(12, 4.5))
ax.imshow(mpimg.imread(path))
ax.axis("off")
fig.tight_layout()
