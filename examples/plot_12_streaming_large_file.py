"""
Streaming a file larger than memory
===================================

Naive Bayes learning is counting, and counts add: ``fit_file`` reads a file in chunks and gives
the model one fit on the whole file gives. Here a generated file of 200,000 rows, fitted in
chunks of several sizes; memory is bounded by the chunk, and every model is the same.
"""

import os
import tempfile
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from seminaive import NaiveBayes
from seminaive.scale import fit_file

rng = np.random.default_rng(0)
n = 200_000
y = rng.integers(0, 3, n)
frame = pd.DataFrame({f"a{j}": rng.choice(list("pqrs"), n) for j in range(5)})
for j in range(5):
    frame[f"x{j}"] = rng.normal(y * (j + 1) / 5, 1.0)
frame["class"] = np.array(["low", "mid", "high"])[y]
path = os.path.join(tempfile.mkdtemp(), "big.csv")
frame.to_csv(path, index=False)
print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB")

whole = NaiveBayes().fit(frame.drop(columns="class"), frame["class"])
sizes, seconds = [5_000, 20_000, 50_000, 200_000], []
for size in sizes:
    t0 = time.perf_counter()
    model = fit_file(NaiveBayes(), path, chunksize=size)
    seconds.append(time.perf_counter() - t0)
    # the file declares its classes in order of appearance, the array sorts them: align by label
    order = [list(whole.classes_).index(c) for c in model.classes_]
    same = np.allclose(model.predict_proba(frame.iloc[:1000, :-1]),
                       whole.predict_proba(frame.iloc[:1000, :-1])[:, order], rtol=1e-9)
    print(f"chunks of {size:>7,}: {seconds[-1]:.2f} s, same model as one fit: {same}")

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(sizes, [n / s / 1e3 for s in seconds], "o-")
ax.set_xscale("log")
ax.set_xlabel("rows per chunk")
ax.set_ylabel("thousand rows per second")
ax.set_title("fit_file on a 200,000-row CSV")
fig.tight_layout()
