"""
Trading accuracy for minority recall
====================================

On imbalanced data Naive Bayes favours the majority class. The constrained Naive Bayes keeps Naive
Bayes's objective but requires the minority class's training rate to reach a bound; raising the
bound buys recall of the minority class at some cost in overall accuracy. Haberman's survival
data, 10-fold cross-validation.
"""

import matplotlib.pyplot as plt

from seminaive import ConstrainedNaiveBayes, NaiveBayes
from seminaive.datasets import load
from seminaive.evaluation import evaluate

data = load("keel-imb:haberman")
minority = data.y.value_counts().idxmin()
bounds = [None, 0.5, 0.6, 0.7, 0.8, 0.9]
acc, recall = [], []
for b in bounds:
    model = NaiveBayes() if b is None else ConstrainedNaiveBayes(min_rates={"minority": b})
    r = evaluate(model, data, cv=10, random_state=0)
    acc.append(100 * r.accuracy)
    recall.append(100 * r.per_class[str(minority)])
    print(f"bound {b}: accuracy {acc[-1]:.1f}%, {minority} recall {recall[-1]:.1f}%")

# %%
fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(recall, acc, "o-")
for b, x, y in zip(bounds, recall, acc):
    ax.annotate("Naive Bayes" if b is None else f"≥ {b}", (x, y), xytext=(4, 4), textcoords="offset points")
ax.set_xlabel(f"recall of the minority class {minority!r} (%)")
ax.set_ylabel("accuracy (%)")
ax.set_title("Constrained Naive Bayes on haberman (10-fold CV)")
fig.tight_layout()
