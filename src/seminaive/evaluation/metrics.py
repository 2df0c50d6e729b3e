"""Measures of a classifier's predictions, and summaries over repetitions.

Measures that follow from the confusion matrix (accuracy, per-class rates,
precision, F1, Cohen's kappa) are computed from it, so they can be pooled
over folds; log loss (probabilities clipped to [eps, 1 - eps] as scikit-learn clips them), the Brier score, the
RMSE of the probabilities and the expected calibration error come from
:mod:`.reliability`; the area under the ROC curve comes from scikit-learn.
"""

import numpy as np
from sklearn.metrics import roc_auc_score

from .._target import class_codes
from .reliability import probability_measures

__all__ = ["confusion", "measures", "summarize", "MEASURES"]

MEASURES = ("accuracy", "kappa", "macro_precision", "macro_recall", "macro_f1", "log_loss", "brier", "rmse", "ece",
            "auc")


def confusion(y_true, y_pred, classes):
    """Confusion matrix C[i, j]: instances of class i predicted as j.

    Examples
    --------
    >>> confusion(["a", "a", "b"], ["a", "b", "b"], ["a", "b"]).tolist()
    [[1, 1], [0, 1]]
    """
    t = class_codes(y_true, classes)
    p = class_codes(y_pred, classes, strict=False)
    k = len(classes)
    ok = p >= 0
    return np.bincount(t[ok] * k + p[ok], minlength=k * k).reshape(k, k)


def _mean_present(values):
    """The mean of the values that are not NaN; NaN when none is (a fold of a tiny data set whose
    one test instance's class was never predicted: no precision to average, and no warning)."""
    present = values[~np.isnan(values)]
    return float(present.mean()) if present.size else float("nan")


def measures(y_true, y_pred, classes, proba=None):
    """A dict of measures for one test set.

    ``recall`` (the correct classification rate of each class), ``precision``
    and ``f1`` are dicts by class; a class absent from the test set has no
    recall (NaN), one never predicted has precision NaN.

    Examples
    --------
    >>> m = measures(["a", "a", "b", "b"], ["a", "b", "b", "b"], ["a", "b"])
    >>> m["accuracy"], m["recall"], round(m["kappa"], 3)
    (0.75, {'a': 0.5, 'b': 1.0}, 0.5)
    """
    classes = list(classes)
    c = confusion(y_true, y_pred, classes).astype(np.float64)
    n = c.sum()
    diag = np.diag(c)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = diag / c.sum(axis=1)
        precision = diag / c.sum(axis=0)
        f1 = 2 * precision * recall / (precision + recall)
    f1 = np.where((precision + recall) == 0, 0.0, f1)
    acc = diag.sum() / n
    expected = (c.sum(axis=0) * c.sum(axis=1)).sum() / n ** 2
    kappa = (acc - expected) / (1 - expected) if expected < 1 else 0.0
    out = {"accuracy": float(acc), "kappa": float(kappa),
           "recall": {str(k): float(v) for k, v in zip(classes, recall)},
           "precision": {str(k): float(v) for k, v in zip(classes, precision)},
           "f1": {str(k): float(v) for k, v in zip(classes, f1)},
           "macro_recall": _mean_present(recall), "macro_precision": _mean_present(precision),
           "macro_f1": _mean_present(f1), "confusion": c.astype(int).tolist(),
           **{m: float("nan") for m in ("log_loss", "brier", "rmse", "ece", "auc")}}
    if proba is not None:
        proba = np.asarray(proba, dtype=np.float64)
        index = {c: k for k, c in enumerate(classes)}
        out.update(probability_measures(proba, np.array([index[v] for v in y_true])))
        present = [k for k, cl in enumerate(classes) if cl in set(y_true)]
        try:
            if len(classes) == 2 and len(present) == 2:
                out["auc"] = float(roc_auc_score([v == classes[1] for v in y_true], proba[:, 1]))
            elif len(present) == len(classes) > 2:
                out["auc"] = float(roc_auc_score(y_true, proba, multi_class="ovr", labels=classes))
        except ValueError:
            pass
    return out


def summarize(values):
    """Mean, median, standard deviation and variation coefficient (sd / mean),
    as the thesis's tables report them (NaN values are left out).

    Examples
    --------
    >>> {k: round(v, 3) for k, v in summarize([0.9, 1.0, 0.8]).items()}
    {'mean': 0.9, 'median': 0.9, 'sd': 0.1, 'cv': 0.111, 'n': 3}
    """
    v = np.asarray(values, dtype=np.float64)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return {"mean": float("nan"), "median": float("nan"), "sd": float("nan"), "cv": float("nan"), "n": 0}
    sd = float(v.std(ddof=1)) if v.size > 1 else 0.0
    mean = float(v.mean())
    return {"mean": mean, "median": float(np.median(v)), "sd": sd,
            "cv": sd / mean if mean != 0 else float("nan"), "n": int(v.size)}
