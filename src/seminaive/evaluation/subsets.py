"""The feature-subset study: a model on every combination of attributes, with
per-class correct classification rates summarized over repetitions (as the
constrained-NB thesis's Tables 2.1 and 2.8-2.9)."""

import itertools
import json

import numpy as np
import pandas as pd
from sklearn.base import clone

from .._progress import shown_on, step
from ..exceptions import ParameterError
from .metrics import measures, summarize

__all__ = ["subset_study", "format_subsets"]


def subset_study(model, dataset, protocol=None, test=None, max_attributes=12, max_size=None, progress=None):
    """Evaluate ``model`` on every non-empty combination of the attributes.

    Parameters
    ----------
    model : estimator
    dataset : Dataset
        Training data (or all data, split by ``protocol``).
    protocol : Protocol, optional
        Resampling of ``dataset``; ignored when ``test`` is given.
    test : Dataset, optional
        A separate validation set (the thesis's simulation: 1000 + 300).
    max_attributes : int
        Refuse more attributes than this (2^d - 1 combinations) unless ``max_size`` limits the size.
    max_size : int, optional
        Largest combination size.
    progress : file-like, optional
        Where to show the combinations done (the command line shows them on a terminal).

    Returns
    -------
    DataFrame, one row per combination: its attributes, and mean / median /
    variation coefficient of accuracy and of each class's rate.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> from seminaive.evaluation.resampling import Protocol
    >>> t = subset_study(NaiveBayes(), load("iris"), Protocol(folds=3))
    >>> len(t), t["combination"].iloc[-1]
    (15, 'sepal_length, sepal_width, petal_length, petal_width')
    """
    with shown_on(progress):  # (progress: a stream that shows the combinations done)
        return _study(model, dataset, protocol, test, max_attributes, max_size)


def _study(model, dataset, protocol, test, max_attributes, max_size):
    names = list(dataset.X.columns)
    d = len(names)
    top = max_size or d
    if d > max_attributes and max_size is None:
        raise ParameterError(f"max_attributes: {d} attributes give {2 ** d - 1} combinations, more than "
                             f"the limit of {max_attributes} attributes allows; raise it or set max_size")
    y_all = np.asarray(dataset.y, dtype=object)
    classes = [c for c in dataset.classes if c in set(y_all)]
    if test is not None:
        X_all = pd.concat([dataset.X, test.X], ignore_index=True)
        y_all = np.concatenate([y_all, np.asarray(test.y, dtype=object)])
        y_series = pd.concat([dataset.y, test.y], ignore_index=True)
        splits = [(np.arange(dataset.n_samples), np.arange(dataset.n_samples, len(y_all)))]
    else:
        X_all, y_series = dataset.X, dataset.y
        splits = protocol.splits(y_all)
    rows = []
    combos = [c for k in range(1, top + 1) for c in itertools.combinations(range(d), k)]
    for i, combo in enumerate(combos):
        cols = [names[j] for j in combo]
        accs, rates, feasible = [], {c: [] for c in classes}, []
        for tr, te in splits:
            m = clone(model).fit(X_all.iloc[tr][cols], y_series.iloc[tr])
            ms = measures(y_all[te], np.asarray(m.predict(X_all.iloc[te][cols]), dtype=object), classes)
            accs.append(ms["accuracy"])
            if hasattr(m, "feasible_"):
                feasible.append(bool(m.feasible_))
            for c in classes:
                rates[c].append(ms["recall"][str(c)])
        row = {"combination": ", ".join(cols), "size": len(cols)}
        for key, vals in [("accuracy", accs)] + [(f"rate {c}", v) for c, v in rates.items()]:
            s = summarize(vals)
            row[f"{key} mean"], row[f"{key} median"], row[f"{key} cv"] = s["mean"], s["median"], s["cv"]
        if feasible:
            row["feasible share"] = float(np.mean(feasible))
        rows.append(row)
        step("combinations", i + 1, len(combos))
    return pd.DataFrame(rows)


def format_subsets(table, fmt="text", precision=2):
    """The study as a Markdown table (percentages; cv as a fraction), CSV or JSON.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> from seminaive.evaluation.resampling import Protocol
    >>> text = format_subsets(subset_study(NaiveBayes(), load("iris"), Protocol(folds=3), max_size=1))
    >>> text.splitlines()[0].startswith("| combination")
    True
    """
    if fmt == "csv":
        return table.to_csv(index=False).rstrip("\n")
    if fmt == "json":
        return json.dumps(table.to_dict(orient="records"), indent=1)
    keys = [c[:-5] for c in table.columns if c.endswith(" mean")]
    head = ["combination"] + [f"{k} mean / median / cv" for k in keys]
    extra = "feasible share" in table.columns
    head += ["feasible share"] if extra else []
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for _, r in table.iterrows():
        cells = [r["combination"]] + [f"{100 * r[k + ' mean']:.{precision}f} / {100 * r[k + ' median']:.{precision}f}"
                                      f" / {r[k + ' cv']:.2f}" for k in keys]
        cells += [f"{r['feasible share']:.1f}"] if extra else []
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
