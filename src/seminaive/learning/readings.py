"""A Naive Bayes's reading of a column of few distinct values: its Gaussian, or one interval per value
(:mod:`seminaive.discretize.few_values`), whichever gives the higher exact leave-one-out
log-likelihood of the class given that attribute alone (the model's own term for it). The Gaussian's
leave-one-out is the engine's (each row's class moments downdated by its own value, the model's
estimator and variance floor); the values' is the family's Laplace table less the row's own count.
Both read only the table of distinct values and their class counts, gathered in one pass over any
source, so memory, files, Parquet and Dask choose alike.
"""

import numpy as np

from .._scale import pow2_scale
from ..components.gaussian import variance_floor
from ..discretize.few_values import MAX_VALUES, reading_score, value_cuts, value_table, few_values
from ..estimation import loo_class_log_prior
from .held_out import _moments, loo_gaussian

__all__ = ["gaussian_score", "gaussian_or_values"]


def gaussian_score(table, estimator, var_smoothing=None, rule="range", priors="laplace"):
    """Exact leave-one-out log-likelihood of the class given one numeric attribute modelled by a
    normal density per class (``estimator``'s, with the variance floor of ``rule``), from ``table``
    (sorted distinct values, class counts): each row's class moments less its own value.

    Examples
    --------
    >>> from seminaive.estimation import Frequency
    >>> t = (np.array([0.0, 1.0, 5.0, 6.0]), np.array([[2.0, 0.0], [2.0, 0.0], [0.0, 2.0], [0.0, 2.0]]))
    >>> round(gaussian_score(t, Frequency()), 6) > -0.01  # two well-separated classes
    True
    """
    values, counts = table
    k = counts.shape[1]
    scale = float(pow2_scale(np.array([np.abs(values).max()]))[0])
    v, c = np.nonzero(counts)
    n = counts[v, c]
    x = values[v] / scale
    w, mean, m2 = _moments(x, c, k, n)
    stats = {"weight": w, "mean": mean, "m2": m2, "scale": np.array([scale]),
             "low": np.array([values[0] / scale]), "high": np.array([values[-1] / scale])}
    floor = float(variance_floor([stats], var_smoothing, rule)[0])
    joint = loo_gaussian(estimator, w, mean, m2, x, c, floor) + loo_class_log_prior(counts.sum(axis=0), c, priors)
    top = joint.max(axis=1, keepdims=True)
    log_post = joint[np.arange(c.size), c] - (top[:, 0] + np.log(np.exp(joint - top).sum(axis=1)))
    return float(np.dot(n, log_post))


def gaussian_or_values(x, y, weight, estimator, var_smoothing=None, rule="range", alpha=1.0, codes="auto",
                       priors="laplace", most=MAX_VALUES):
    """One interval per value's cut points for a column of few distinct values ``x`` (classes ``y``)
    that ``codes`` reads so: "values" always, "auto" where its leave-one-out beats the Gaussian's;
    None where it stays a Gaussian."""
    values = few_values(x, most)
    if values is None or codes == "numbers" or y is None:
        return None
    if codes == "values":
        return value_cuts(values)
    table = value_table(x, y, weight)
    if table[0].size < 2:
        return None
    mine = value_cuts(values)
    better = reading_score(table, mine, alpha, priors) > gaussian_score(table, estimator, var_smoothing, rule, priors)
    return mine if better else None
