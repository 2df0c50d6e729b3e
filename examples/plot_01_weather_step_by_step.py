"""
The weather example, step by step
=================================

The slides' worked example: should we play on a sunny, cool, humid and windy day? Naive Bayes
multiplies one relative frequency per attribute with the class prior; the slides get
0.0053 for *yes* and 0.0206 for *no*, so 20.5% against 79.5%.
"""

import matplotlib.pyplot as plt
import numpy as np

from seminaive import NaiveBayes
from seminaive.datasets import load

weather = load("weather.nominal")
nb = NaiveBayes(alpha=0, priors="mle").fit(weather)  # maximum likelihood, as the slides
day = [["sunny", "cool", "high", "TRUE"]]

# %%
# The model is a table of counts per attribute; ``to_text`` prints them with the estimates.
print(nb.to_text())

# %%
# The joint probabilities and the normalized posteriors.
joint = np.exp(nb.attribute_log_likelihoods(day)[0].sum(axis=0) + nb.class_log_prior_)
print({c: round(float(v), 4) for c, v in zip(nb.classes_, joint)})  # {'yes': 0.0053, 'no': 0.0206}
print({c: round(float(v), 3) for c, v in zip(nb.classes_, nb.predict_proba(day)[0])})  # 20.5% / 79.5%

# %%
# Each attribute's share of the log-odds of *no* against *yes*: what ``explain`` prints, drawn.
parts = nb.attribute_log_likelihoods(day)[0]
no, yes = list(nb.classes_).index("no"), list(nb.classes_).index("yes")
terms = [nb.class_log_prior_[no] - nb.class_log_prior_[yes]] + list(parts[:, no] - parts[:, yes])
labels = ["prior"] + [f"{a.name} = {v}" for a, v in zip(nb.schema_.attributes, day[0])]
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.barh(labels, terms, color=["0.6"] + ["C3" if t > 0 else "C0" for t in terms[1:]])
ax.axvline(0, color="k", lw=0.8)
ax.set_xlabel("log P(x | no) - log P(x | yes)   (right: evidence for no)")
ax.set_title(f"log-odds of no: {sum(terms):+.3f}, P(no) = {nb.predict_proba(day)[0][no]:.3f}")
fig.tight_layout()
