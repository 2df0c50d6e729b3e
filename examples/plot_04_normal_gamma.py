"""
Prior and posterior of the Normal-Gamma estimate
================================================

With ``estimation="map"`` each Gaussian attribute's class mean and precision get a Normal-Gamma
prior, by default empirical Bayes from the pooled training data. With few instances the
posterior stays wide and the estimate leans on the prior; with many, the data dominate. Here:
sepal width of *setosa* from 5 and from all 50 flowers.
"""

import matplotlib.pyplot as plt
import numpy as np

from seminaive import NaiveBayes
from seminaive.datasets import load
from seminaive.estimation.bayesian import normal_gamma_posterior
from seminaive.estimation.plots import normal_gamma_logpdf

iris = load("iris")
fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), sharey=True)
for ax, n in zip(axes, (5, 50)):
    rows = np.r_[np.flatnonzero(np.asarray(iris.y) == "setosa")[:n], np.flatnonzero(np.asarray(iris.y) != "setosa")]
    nb = NaiveBayes(estimation="map").fit(iris.X.iloc[rows], iris.y.iloc[rows])
    j = list(nb.schema_.names).index("sepal_width")
    st, s = nb.stats_[j], float(nb.stats_[j].get("scale", [1.0])[0])
    (mn, kn, an, bn), (m0, k0, a0, b0) = normal_gamma_posterior(st["weight"], st["mean"], st["m2"], None, s)
    c = list(nb.classes_).index("setosa")
    mu, lam = np.meshgrid(np.linspace(2.6, 4.2, 200) / s, np.linspace(0.5, 25, 200) * s * s)
    z = np.exp(normal_gamma_logpdf(mu, lam, mn[c], kn[c], an[c], bn[c]))
    ax.contourf(mu * s, lam / (s * s), z, levels=15, cmap="viridis")
    ax.plot(nb.components_[j].mean_[c], 1 / nb.components_[j].var_[c], "r+", ms=14, label="MAP estimate")
    ax.set_title(f"setosa, {n} flowers: posterior over (mean, precision)", fontsize=9)
    ax.set_xlabel("mean sepal width (cm)")
    ax.legend(fontsize=8)
    print(f"{n:2d} flowers: MAP mean {nb.components_[j].mean_[c]:.3f}, sd {nb.components_[j].sd_[c]:.3f}")
axes[0].set_ylabel("precision (1 / cm²)")
fig.tight_layout()
