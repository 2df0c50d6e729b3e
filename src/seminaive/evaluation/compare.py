"""Comparing models on data sets over the same folds."""

import sys
import time

import numpy as np
import pandas as pd
from sklearn.base import clone

from .._target import unwrap
from .holdout import split_indices

__all__ = ["cross_validate_models", "accuracy_table"]


def cross_validate_models(models, datasets, cv=10, random_state=0, progress=None):
    """Run every model on every data set over the same stratified folds.

    Parameters
    ----------
    models : dict of name -> estimator
    datasets : list of Dataset
    cv : int
    random_state : int
        Seed of the fold shuffling (the same folds for every model).
    progress : file-like or None
        Where to write one progress line per data set and model.

    Returns
    -------
    DataFrame with one row per (dataset, model, fold): accuracy, fit and
    predict CPU seconds.
    """
    rows = []
    for d in datasets:
        X, y = unwrap(d)
        y_arr = np.asarray(y, dtype=object)
        folds = split_indices(y_arr, cv=cv, random_state=random_state)
        for name, model in models.items():
            t_start = time.perf_counter()
            for k, (tr, te) in enumerate(folds):
                m = clone(model)
                t0 = time.process_time()
                m.fit(X.iloc[tr], y.iloc[tr])
                t1 = time.process_time()
                pred = np.asarray(m.predict(X.iloc[te]), dtype=object)
                t2 = time.process_time()
                rows.append({"dataset": d.name, "model": name, "fold": k,
                             "accuracy": float(np.mean(pred == y_arr[te])),
                             "fit_cpu": t1 - t0, "predict_cpu": t2 - t1})
            if progress is not None:
                acc = np.mean([r["accuracy"] for r in rows[-len(folds):]])
                print(f"  {d.name:<16} {name:<18} {100 * acc:6.2f}%  ({time.perf_counter() - t_start:.1f} s)",
                      file=progress, flush=True)
    return pd.DataFrame(rows)


def accuracy_table(results, precision=2):
    """Markdown table: mean accuracy (%) +- sd over folds, per data set and model,
    with the best mean of each row in bold, and an average row."""
    models = list(dict.fromkeys(results["model"]))
    stats = results.groupby(["dataset", "model"], sort=False)["accuracy"].agg(["mean", "std"])
    lines = ["| data set | " + " | ".join(models) + " |", "|---" * (len(models) + 1) + "|"]
    for ds in dict.fromkeys(results["dataset"]):
        means = [stats.loc[(ds, m), "mean"] for m in models]
        best = max(means)
        cells = []
        for m, mean in zip(models, means):
            cell = f"{100 * mean:.{precision}f} ± {100 * stats.loc[(ds, m), 'std']:.{precision}f}"
            cells.append(f"**{cell}**" if mean == best else cell)
        lines.append(f"| {ds} | " + " | ".join(cells) + " |")
    avg = results.groupby("model", sort=False)["accuracy"].mean()
    lines.append("| average | " + " | ".join(f"{100 * avg[m]:.{precision}f}" for m in models) + " |")
    return "\n".join(lines)
