"""Calibration measures and reliability diagrams of predicted probabilities.

A reliability diagram puts the confidence of each prediction (the probability
of the predicted class) into equal-width bins and compares, per bin, the mean
confidence with the share of those predictions that were right: a calibrated
model lies on the diagonal. The expected calibration error (ECE) is the mean
distance from it, each bin weighted by its share of predictions. Bins are kept
as sums (count, confidence, right), so they add over folds and data sets.

Examples
--------
>>> import numpy as np
>>> p = np.array([[0.9, 0.1], [0.8, 0.2], [0.3, 0.7], [0.4, 0.6]])
>>> b = reliability_bins(p, np.array([0, 1, 1, 1]), n_bins=5)
>>> b["count"].tolist(), round(expected_calibration_error(b), 4)  # bins (0, .2], (.2, .4], ..., (.8, 1]
([0.0, 0.0, 1.0, 2.0, 1.0], 0.25)
"""

import numpy as np
from .._atomic import save_figure

__all__ = ["reliability_bins", "expected_calibration_error", "probability_measures", "add_bins",
           "plot_reliability"]

N_BINS = 10


def reliability_bins(proba, y, n_bins=N_BINS):
    """Per confidence bin (``n_bins`` equal widths over [0, 1], each closed on the right): the number of
    predictions, the sum of their confidences and how many were right (``y``: class codes).

    Examples
    --------
    >>> import numpy as np
    >>> reliability_bins(np.array([[0.9, 0.1], [0.2, 0.8]]), np.array([0, 0]), n_bins=2)["right"].tolist()
    [0.0, 1.0]
    """
    proba = np.asarray(proba, dtype=np.float64)
    pred = proba.argmax(axis=1)
    conf = proba[np.arange(len(pred)), pred]
    # bins closed on the right, (l, u], the first also holding 0: as Guo et al. (2017) and scikit-learn's
    # calibration_curve, with the same edges
    which = np.searchsorted(np.linspace(0.0, 1.0, n_bins + 1)[1:-1], conf, side="left")
    return {"count": np.bincount(which, minlength=n_bins).astype(np.float64),
            "confidence": np.bincount(which, conf, minlength=n_bins),
            "right": np.bincount(which, (pred == np.asarray(y)).astype(np.float64), minlength=n_bins)}


def add_bins(a, b):
    """The bins of the union of two sets of predictions.

    Examples
    --------
    >>> add_bins({"count": [1, 0], "confidence": [0.4, 0], "right": [0, 0]},
    ...          {"count": [0, 1], "confidence": [0, 0.9], "right": [0, 1]})["count"].tolist()
    [1, 1]
    """
    return {k: np.asarray(a[k]) + np.asarray(b[k]) for k in ("count", "confidence", "right")}


def expected_calibration_error(bins):
    """Sum over bins of (share of predictions) x abs(accuracy - mean confidence).

    Examples
    --------
    >>> expected_calibration_error({"count": [0, 2], "confidence": [0.0, 1.7], "right": [0, 1]})
    0.35
    """
    n = np.asarray(bins["count"], dtype=np.float64)
    if n.sum() == 0:
        return float("nan")
    return float(np.abs(np.asarray(bins["right"]) - np.asarray(bins["confidence"])).sum() / n.sum())


def probability_measures(proba, y, n_bins=N_BINS):
    """Log loss (probabilities clipped to [eps, 1 - eps], eps the machine epsilon, as scikit-learn's),
    Brier score (as :mod:`seminaive.scoring`: the
    multi-class score, halved for two classes), RMSE over every row and class, and ECE.

    Examples
    --------
    >>> import numpy as np
    >>> m = probability_measures(np.array([[0.5, 0.5], [0.5, 0.5]]), np.array([0, 1]))
    >>> round(m["log_loss"], 4), m["brier"], m["rmse"], m["ece"]
    (0.6931, 0.25, 0.5, 0.0)
    """
    proba = np.asarray(proba, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    k = proba.shape[1]
    rows = np.arange(len(y))
    eps = np.finfo(np.float64).eps
    clipped = np.clip(proba, eps, 1.0 - eps)  # as scikit-learn's log_loss
    diff = proba.copy()
    diff[rows, y] -= 1.0
    sq = (diff * diff).sum(axis=1)
    return {"log_loss": float(-np.mean(np.log(clipped[rows, y]))),
            "brier": float(sq.mean() / (2.0 if k == 2 else 1.0)),
            "rmse": float(np.sqrt(sq.mean() / k)),
            "ece": expected_calibration_error(reliability_bins(proba, y, n_bins))}


def plot_reliability(bins_by_model, path, overwrite=False, title=None):
    """Reliability diagrams, one panel per model (``{name: bins}``), each with the
    predictions' counts per bin beneath; written to ``path`` (PNG, atomically).

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> bins = reliability_bins(np.array([[0.9, 0.1], [0.3, 0.7]]), np.array([0, 1]))
    >>> path = plot_reliability({"model": bins}, os.path.join(tempfile.mkdtemp(), "rel.png"))
    >>> os.path.exists(path)
    True
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(bins_by_model)
    counts = [np.asarray(bins_by_model[n]["count"], dtype=np.float64) for n in names]
    # one scale for every histogram of the figure (side by side, a log axis beside a linear one misleads):
    # log where any model's counts span more than 50 to 1, the same upper limit for all
    log = any(c.max() > 50 * max(1.0, c[c > 0].min()) for c in counts if (c > 0).any())
    high = max((c.max() for c in counts if c.size), default=1.0) * (3.0 if log else 1.08)
    cols = min(4, len(names))
    rows = -(-len(names) // cols)
    fig, axes = plt.subplots(2 * rows, cols, figsize=(max(5.0, 3.4 * cols), 4.4 * rows), squeeze=False,
                             gridspec_kw={"height_ratios": [3, 1] * rows})
    for i, name in enumerate(names):
        top, bottom = axes[2 * (i // cols), i % cols], axes[2 * (i // cols) + 1, i % cols]
        b = {k: np.asarray(v, dtype=np.float64) for k, v in bins_by_model[name].items()}
        n_bins = b["count"].size
        edges = np.linspace(0, 1, n_bins + 1)
        mid = (edges[:-1] + edges[1:]) / 2
        has = b["count"] > 0
        top.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--", label="calibrated")
        top.plot(b["confidence"][has] / b["count"][has], b["right"][has] / b["count"][has], "o-", color="C0",
                 label="observed")
        top.set_xlim(0, 1)
        top.set_ylim(0, 1)
        top.set_title(f"{name}\n(pooled ECE {expected_calibration_error(b):.3f}, {int(b['count'].sum())} predictions)",
                      fontsize=9)
        top.set_ylabel("share right")
        top.legend(fontsize=7, loc="upper left")
        bottom.bar(mid, b["count"], width=1 / n_bins, color="C1", edgecolor="white")
        bottom.set_xlim(0, 1)
        bottom.set_yscale("log" if log else "linear")
        bottom.set_ylim(0.8 if log else 0.0, max(high, 1.0))
        bottom.set_xlabel("confidence: P(predicted class)", fontsize=8)
        bottom.set_ylabel("predictions (log scale)" if log else "predictions", fontsize=8)
    for j in range(len(names), rows * cols):
        axes[2 * (j // cols), j % cols].set_visible(False)
        axes[2 * (j // cols) + 1, j % cols].set_visible(False)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return save_figure(fig, path, overwrite=overwrite)
