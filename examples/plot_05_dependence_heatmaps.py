"""
Which attributes depend on each other?
======================================

Naive Bayes's assumption fails where attributes depend on each other given the class. The
conditional mutual information I(Xi; Xj | C) measures it; it is what TAN and kDB build their
structures from, and what the searches' ``candidate_pairs`` ranks joins by. The thesis's
simulation makes two attributes dependent on purpose.
"""

import matplotlib.pyplot as plt

from seminaive.datasets import load
from seminaive.dependence import dependence_matrices

data = load("thesis-simulation")
mats = dependence_matrices(data, measures=("mi", "cmi"))
names = list(data.X.columns)
fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
for ax, key, title in ((axes[0], "mi", "I(Xi; Xj)"), (axes[1], "cmi", "I(Xi; Xj | C)")):
    m = mats[key]
    im = ax.imshow(m, cmap="magma")
    ax.set_xticks(range(len(names)), names, rotation=45)
    ax.set_yticks(range(len(names)), names)
    ax.set_title(title)
    fig.colorbar(im, ax=ax, shrink=0.8)
fig.tight_layout()
