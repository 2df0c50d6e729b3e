"""
MDL intervals on iris
=====================

Fayyad and Irani's discretization cuts a numeric attribute where the class entropy falls most,
recursively, and stops when the minimum description length principle says a cut does not pay.
On iris's petal length it finds the cuts that separate the three species.
"""

import matplotlib.pyplot as plt
import numpy as np

from seminaive.datasets import load
from seminaive.discretize import MDLDiscretizer

iris = load("iris")
disc = MDLDiscretizer().fit(iris.X, iris.y)
for j, name in enumerate(iris.X.columns):
    print(f"{name:<14} {disc.intervals(j)}")

# %%
# The petal length of each species with the cut points.
j = list(iris.X.columns).index("petal_length")
x = iris.X["petal_length"].to_numpy()
fig, ax = plt.subplots(figsize=(7, 3.5))
for c in iris.y.cat.categories:
    ax.hist(x[np.asarray(iris.y) == c], bins=np.arange(0.9, 7.2, 0.15), alpha=0.7, label=c)
for cut in disc.cut_points_[j]:
    ax.axvline(cut, color="k", ls="--")
ax.set_xlabel("petal length (cm)")
ax.set_ylabel("flowers")
ax.legend()
ax.set_title("MDL cut points on petal length")
fig.tight_layout()
