"""
A backward search's steps on chess
==================================

BSEJ starts from every attribute and at each step deletes one attribute or joins two, keeping
the change that raises the leave-one-out accuracy most. The engine scores every candidate from
held counts, without refitting. The chess endgame data (KR vs KP) has 36 nominal attributes,
several of them dependent.
"""

import matplotlib.pyplot as plt

from seminaive.datasets import load
from seminaive.search import BSEJ

chess = load("keel:chess")
search = BSEJ().fit(chess)
for h in search.history_:
    print(f"step {h['step']:2d}  {h['operator']:<6} {h['attributes']:<22} {h['score']:.4f}")
print(f"{search.n_candidates_} candidates scored in {search.search_seconds_:.2f} s")

# %%
# The leave-one-out accuracy after each step.
steps = [h["step"] for h in search.history_]
scores = [100 * h["score"] for h in search.history_]
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(steps, scores, "o-")
for h, s in zip(search.history_[1:], scores[1:]):
    ax.annotate(f"{h['operator']} {h['attributes']}", (h["step"], s), fontsize=7, rotation=30,
                xytext=(3, 3), textcoords="offset points")
ax.set_xlabel("step")
ax.set_ylabel("leave-one-out accuracy (%)")
ax.set_title("BSEJ on chess")
fig.tight_layout()
