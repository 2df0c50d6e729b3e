"""
AODE's relatives, SuperParent TAN and NBTree
============================================

AODE averages one model per super-parent attribute. WAODE (Jiang and Zhang 2006) weighs each by
its mutual information with the class; AODEsr (Zheng and Webb 2006) drops, row by row, a value that
another of the row's values specializes; hidden Naive Bayes (Zhang, Jiang and Su 2005) gives every
attribute one hidden parent, a mixture of the others weighted by conditional mutual information.
All three learn from AODE's counts and give Weka 3.6's class distributions. SuperParent TAN
(Keogh and Pazzani) grows a tree one arc at a time by held-out accuracy, and NBTree (Kohavi) is a
decision tree with Naive Bayes at its leaves. Here they meet Naive Bayes
and AODE on three nominal KEEL sets, the same 5 folds for all; then WAODE's weights and HNB's
hidden parents on tic-tac-toe.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import StratifiedKFold

from seminaive import AODE, HNB, WAODE, AODEsr, NaiveBayes, NBTree, SuperParentTAN
from seminaive.datasets import load

models = {"NB": NaiveBayes, "AODE": AODE, "WAODE": WAODE, "AODEsr": AODEsr, "HNB": HNB,
          "SP-TAN": SuperParentTAN, "NBTree": NBTree}
sets = ["keel:housevotes", "keel:tic-tac-toe", "keel:chess"]
accuracy = {name: [] for name in models}
for set_name in sets:
    d = load(set_name)
    y = np.asarray(d.y)
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(d.X, y))
    for name, make in models.items():
        right = sum(int((make().fit(d.X.iloc[tr], y[tr]).predict(d.X.iloc[te]) == y[te]).sum()) for tr, te in folds)
        accuracy[name].append(right / len(y))
    print(set_name, {name: round(100 * a[-1], 1) for name, a in accuracy.items()})

# %%
# Accuracy by data set and model (5-fold).
fig, ax = plt.subplots(figsize=(8, 3.8))
width = 0.8 / len(models)
for i, (name, acc) in enumerate(accuracy.items()):
    ax.bar(np.arange(len(sets)) + i * width, 100 * np.array(acc), width, label=name)
ax.set_xticks(np.arange(len(sets)) + 0.4 - width / 2, [s.split(":")[1] for s in sets])
ax.set_ylim(60, 100)
ax.set_ylabel("accuracy (%)")
ax.legend(ncol=3, fontsize=8)
fig.tight_layout()

# %%
# On tic-tac-toe each square's value informs the class a little; WAODE weighs the centre square
# (x5) most, and the heat map shows which squares each square's hidden parent draws on.
d = load("keel:tic-tac-toe")
waode, hnb = WAODE().fit(d), HNB().fit(d)
names = list(d.X.columns)
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.8))
left.bar(names, waode.parent_weights_, color="C2")
left.set_title("WAODE: each super-parent's weight (bits)")
left.tick_params(axis="x", rotation=60)
im = right.imshow(hnb.hidden_weights_, cmap="viridis")
right.set_xticks(range(len(names)), names, rotation=60)
right.set_yticks(range(len(names)), names)
right.set_title("HNB: hidden parent of each row's attribute")
fig.colorbar(im, ax=right, fraction=0.046)
fig.tight_layout()
plt.show()
