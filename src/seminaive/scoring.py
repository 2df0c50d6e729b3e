"""Scoring rules: how a search or a selection judges a model's out-of-sample predictions.

Every rule is computed from joint log-likelihoods (n, K) and the true classes
as *sums over rows* (:func:`score_sums`), which add over chunks, folds and
workers, and then turned into its value (:func:`score_value`):

- ``accuracy``: the share of rows decided right (decisions as the classifiers
  make them, :func:`seminaive.base.decide`);
- ``balanced_accuracy``: the mean over the classes present of each class's
  share decided right (per-class recall);
- ``log_loss``: the mean of -log P(y | x), from the log-probabilities
  themselves (no clipping: a probability of 0 for the true class, possible
  with ``alpha=0``, makes it infinite);
- ``brier``: the mean over rows of the squared distance between the
  posterior vector and the 0/1 class indicators, halved for two classes (so it
  is scikit-learn's ``brier_score_loss`` of the second class's probability);
- ``rmse``: the root of the mean squared difference between the posteriors and
  the indicators over every row and class (the selective kDB's and AnDE
  papers' RMSE).

Rows impossible under every class take the class priors, as in prediction.

Examples
--------
>>> import numpy as np
>>> jll = np.log([[0.8, 0.2], [0.4, 0.6], [0.9, 0.1]])
>>> y = np.array([0, 0, 1])
>>> [round(score_value(score_sums(jll, y, s, np.log([0.5, 0.5])), s, 2), 4) for s in SCORINGS]
[0.3333, 0.25, 1.1473, 0.4033, 0.6351]
"""

import numpy as np

from ._names import SCORINGS
from .base import decide, resolve_degenerate
from .exceptions import ParameterError

__all__ = ["SCORINGS", "score_sums", "score_value", "score_values", "score_of", "greater_is_better", "check_scoring",
           "log_posteriors"]

_GREATER = {"accuracy": True, "balanced_accuracy": True, "log_loss": False, "brier": False, "rmse": False}


def check_scoring(name, value):
    """A parameter naming a scoring rule: one of :data:`SCORINGS`.

    Examples
    --------
    >>> check_scoring("scoring", "rmse")  # nothing to say
    >>> check_scoring("scoring", "mse")
    Traceback (most recent call last):
    ...
    seminaive.exceptions.ParameterError: scoring: expected one of 'accuracy', 'balanced_accuracy', 'log_loss', 'brier', 'rmse', got 'mse'
    """
    if not isinstance(value, str) or value not in SCORINGS:
        raise ParameterError(f"{name}: expected one of {', '.join(map(repr, SCORINGS))}, got {value!r}")


def greater_is_better(scoring):
    """True for the accuracies, False for the losses.

    Examples
    --------
    >>> greater_is_better("accuracy"), greater_is_better("brier")
    (True, False)
    """
    return _GREATER[scoring]


def log_posteriors(jll, log_prior):
    """Normalized log-posteriors (n, K) of joint log-likelihoods, degenerate rows resolved
    as the classifiers resolve them.

    Examples
    --------
    >>> import numpy as np
    >>> np.exp(log_posteriors(np.log([[2.0, 6.0]]), np.zeros(2))).round(2).tolist()
    [[0.25, 0.75]]
    """
    jll = np.asarray(jll, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        if not np.isfinite(jll.max(axis=1)).all():
            jll = resolve_degenerate(jll, log_prior)
    top = jll.max(axis=1, keepdims=True)
    with np.errstate(divide="ignore"):
        return jll - top - np.log(np.exp(jll - top).sum(axis=1, keepdims=True))


def score_sums(jll, y, scoring, log_prior, weight=None):
    """The sums over rows a rule's value comes from (they add over chunks): for
    ``balanced_accuracy`` the per-class weights decided right then the per-class
    weights (2K numbers), otherwise (sum, total weight).

    Examples
    --------
    >>> import numpy as np
    >>> score_sums(np.log([[0.8, 0.2], [0.4, 0.6]]), np.array([0, 0]), "accuracy", np.zeros(2)).tolist()
    [1.0, 2.0]
    """
    y = np.asarray(y, dtype=np.int64)
    k = jll.shape[1]
    w = np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)
    if scoring in ("accuracy", "balanced_accuracy"):
        with np.errstate(invalid="ignore"):
            if not np.isfinite(jll.max(axis=1)).all():
                jll = resolve_degenerate(jll, log_prior)
        ok = decide(jll) == y
        if scoring == "accuracy":
            return np.array([np.dot(w, ok), w.sum()])
        return np.concatenate([np.bincount(y, w * ok, k), np.bincount(y, w, k)])
    log_p = log_posteriors(jll, log_prior)
    rows = np.arange(y.size)
    if scoring == "log_loss":
        own = -log_p[rows, y]
        return np.array([np.dot(w[w > 0], own[w > 0]), w.sum()])
    p = np.exp(log_p)
    p[rows, y] -= 1.0
    return np.array([np.dot(w, np.einsum("ij,ij->i", p, p)), w.sum()])


def score_value(sums, scoring, n_classes):
    """A rule's value from its sums (:func:`score_sums`, possibly added over parts).

    Examples
    --------
    >>> import numpy as np
    >>> score_value(np.array([1.0, 2.0]), "accuracy", 2)
    0.5
    """
    sums = np.asarray(sums, dtype=np.float64)
    if scoring == "balanced_accuracy":
        right, total = sums[:n_classes], sums[n_classes:]
        present = total > 0
        return float(np.mean(right[present] / total[present])) if present.any() else float("nan")
    total, weight = sums
    if weight <= 0:
        return float("nan")
    mean = total / weight
    if scoring == "rmse":
        return float(np.sqrt(mean / n_classes))
    if scoring == "brier" and n_classes == 2:
        return float(mean / 2.0)
    return float(mean)


def score_values(sums, scoring, n_classes):
    """:func:`score_value` of every row of ``sums`` (candidates, sums), as an array: the same
    numbers, one array operation rather than one call per candidate.

    Examples
    --------
    >>> import numpy as np
    >>> score_values(np.array([[1.0, 2.0], [3.0, 4.0], [1.0, 0.0]]), "accuracy", 2).tolist()
    [0.5, 0.75, nan]
    """
    sums = np.asarray(sums, dtype=np.float64).reshape(len(sums), -1)
    if scoring == "balanced_accuracy" or not len(sums):
        return np.array([score_value(s, scoring, n_classes) for s in sums])
    total, weight = sums[:, 0], sums[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(weight > 0, total / weight, np.nan)
    if scoring == "rmse":
        return np.sqrt(mean / n_classes)
    if scoring == "brier" and n_classes == 2:
        return mean / 2.0
    return mean


def score_of(jll, y, scoring, log_prior, weight=None):
    """A rule's value of joint log-likelihoods ``jll`` (n, K) against classes ``y``.

    Examples
    --------
    >>> import numpy as np
    >>> round(score_of(np.log([[0.8, 0.2], [0.4, 0.6]]), np.array([0, 0]), "log_loss", np.zeros(2)), 4)
    0.5697
    """
    return score_value(score_sums(jll, y, scoring, log_prior, weight), scoring, jll.shape[1])


def gain(value, scoring):
    """The value as "higher is better" (a loss negated), for choosing."""
    return value if _GREATER[scoring] else -value
