"""
ESKDB against the random forest and gradient boosting
=====================================================

An ensemble of selective kDBs (ESKDB: Zhang, Petitjean and Buntine 2020) averages the
posteriors of selective kDBs whose attribute orders are drawn in proportion to their mutual
information with the class, whose numeric attributes are cut by a stochastic MDL
discretization, and whose tables are smoothed along their parents (hierarchical gradient
smoothing; the paper's hierarchical Dirichlet process with ``estimation="hdp"``, all of the
paper's settings with ``ESKDB.preset("paper")``). ``ESKDB.preset("discriminative")`` keeps at
most two parents per attribute and fits a weight per table cell by conditional log-likelihood.
``hybrid="gaussian"`` lets each member swap a numeric attribute's table for a normal density
(given the class, or the class and a parent) where its leave-one-out score improves.
Here the three meet scikit-learn's random forest (100 trees), histogram gradient boosting and a
single TAN on three KEEL data sets with numeric attributes, with the same 5 folds for all:
accuracy, log loss and fit time (CPU, one thread). ``benchmarks/bench_rival.py`` runs the full
comparison (23 data sets).
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_limits

from seminaive import ESKDB, TAN
from seminaive.datasets import load
from seminaive.drawing import plot_structure
from seminaive.models import sklearn_model

threadpool_limits(1)  # every model on one thread: CPU times compare work, not cores
models = {"ESKDB (10 members)": lambda: ESKDB(n_estimators=10),
          "ESKDB discriminative": lambda: ESKDB.preset("discriminative", n_estimators=10),
          "ESKDB normal children": lambda: ESKDB(n_estimators=10, hybrid="gaussian"),
          "random forest": lambda: sklearn_model("forest"),
          "gradient boosting": lambda: sklearn_model("boosting"),
          "TAN": lambda: TAN()}
sets = ["keel:tae", "keel:pima", "keel:vehicle"]
scores = {m: {"accuracy": [], "log loss": [], "fit seconds": []} for m in models}
for name in sets:
    d = load(name)
    X, y = d.X, np.asarray(d.y)
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    for m, make in models.items():
        acc, loss, cpu = [], [], 0.0
        for train, test in folds:
            start = time.process_time()
            model = make().fit(X.iloc[train], y[train])
            cpu += time.process_time() - start
            p = model.predict_proba(X.iloc[test])
            acc.append(np.mean(model.classes_[p.argmax(axis=1)] == y[test]))
            loss.append(log_loss(y[test], np.clip(p, 1e-15, 1), labels=model.classes_))
        scores[m]["accuracy"].append(100 * np.mean(acc))
        scores[m]["log loss"].append(np.mean(loss))
        scores[m]["fit seconds"].append(cpu / len(folds))

# %%
# The figures, per data set.
for m in models:
    print(f"{m:22s}", "  ".join(f"{s.split(':')[-1]}: {a:5.1f}% {ll:.3f} {t:.2f}s"
                                for s, a, ll, t in zip(sets, *scores[m].values())))

# %%
# Accuracy, log loss (the quality of the probabilities: lower is better) and fit time side by
# side. tae (151 rows, mostly numeric) is where the forest's thresholds keep what intervals lose;
# the full benchmark's table, in the README, says where each model leads over 23 data sets.
fig, axes = plt.subplots(1, 3, figsize=(11, 3.4))
width = 0.8 / len(models)
for ax, measure in zip(axes, ["accuracy", "log loss", "fit seconds"]):
    for i, m in enumerate(models):
        ax.bar(np.arange(len(sets)) + i * width, scores[m][measure], width, label=m)
    ax.set_xticks(np.arange(len(sets)) + width, [s.split(":")[-1] for s in sets])
    ax.set_title(measure + (" (log scale)" if measure == "fit seconds" else ""))
    if measure == "fit seconds":
        ax.set_yscale("log")
axes[0].set_ylim(30, 100)
axes[0].legend(fontsize=8, loc="lower right")
fig.tight_layout()
plt.show()

# %%
# One member of the ensemble, fitted on all of vehicle: its attributes (the selection kept
# these), each with at most k parents besides the class; "~ N" marks an attribute whose table
# the member swapped for a normal density. The ensemble averages twenty such pictures, each on
# its own drawn order and intervals.
vehicle = load("keel:vehicle")
ensemble = ESKDB(n_estimators=3, k=2, hybrid="gaussian").fit(vehicle)
print(ensemble.to_text())
plot_structure(ensemble.estimators_[0], title="ESKDB member 0 on vehicle", class_name="Class")
plt.show()
