"""
WANBIA: weights that undo double counting
=========================================

WANBIA scales each attribute's log-likelihood by a weight in [0, 1] chosen to maximize the
conditional log-likelihood. Give Naive Bayes three copies of one attribute and it counts that
evidence three times; WANBIA's weights for the copies add up to about what one copy needs.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.metrics import log_loss

from seminaive import WANBIA, NaiveBayes

rng = np.random.default_rng(1)
n = 1000
y = rng.integers(0, 2, n)
strong = np.where(rng.random(n) < 0.8, y, 1 - y).astype(str)
X = pd.DataFrame({"strong": strong, "copy_1": strong, "copy_2": strong,
                  "weak": np.where(rng.random(n) < 0.6, y, 1 - y).astype(str),
                  "noise": rng.choice(["u", "v", "w"], n)})
w = WANBIA().fit(X, y)
nb = NaiveBayes().fit(X, y)
print(w.to_text().split("Naive Bayes:")[0])
print(f"training log loss: Naive Bayes {log_loss(y, nb.predict_proba(X)):.3f}, "
      f"WANBIA {log_loss(y, w.predict_proba(X)):.3f}")

# %%
fig, ax = plt.subplots(figsize=(6, 3.2))
ax.bar(X.columns, w.weights_, color=["C0", "C0", "C0", "C1", "C2"])
ax.axhline(1.0, color="0.5", ls="--", lw=1)
ax.set_ylabel("weight")
ax.set_title(f"WANBIA weights (the three copies sum to {w.weights_[:3].sum():.2f})")
fig.tight_layout()
