"""
Gaussian, kernel or intervals?
==============================

Three ways to model a numeric attribute within a class: one normal distribution, a kernel
density (a small normal on every training value), or a categorical distribution over learned
intervals. On a bimodal attribute the normal misses the shape; all three separate the classes about
equally well here, but the probabilities (log loss) tell them apart.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.metrics import log_loss

from seminaive import NaiveBayes

rng = np.random.default_rng(3)
n = 600
y = rng.integers(0, 2, n)
x = np.where(y == 1, np.where(rng.random(n) < 0.5, rng.normal(-2, 0.5, n), rng.normal(2, 0.5, n)),
             rng.normal(0, 0.7, n))
X = pd.DataFrame({"x": x})
grid = pd.DataFrame({"x": np.linspace(-4, 4, 400)})
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.hist(x[y == 1], bins=40, density=True, alpha=0.3, color="k", label="class 1 data")
for numeric in ("gaussian", "kernel", "mdl"):
    nb = NaiveBayes(numeric=numeric).fit(X, y)
    dens = np.exp(nb.attribute_log_likelihoods(grid)[:, 0, 1])
    if numeric == "mdl":  # a probability per interval: spread over each interval's width for a density
        cuts = nb.components_[0].cuts
        edges = np.r_[-4, cuts, 4]
        dens = dens / np.diff(edges)[np.searchsorted(cuts, grid["x"], side="right")]
    loss = log_loss(y, nb.predict_proba(X))
    ax.plot(grid["x"], dens, label=f"{numeric} (training log loss {loss:.3f})")
ax.set_xlabel("x")
ax.set_ylabel("P(x | class 1)")
ax.legend(fontsize=8)
fig.tight_layout()
