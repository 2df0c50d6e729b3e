"""Frequency estimation: Laplace/Lidstone smoothing, maximum likelihood moments,
and class priors. These map sufficient statistics to parameters; they never
see the data, so a model can be re-estimated without rereading it."""

import numpy as np

from .._validation import check_param
from ..exceptions import ParameterError

__all__ = ["Frequency", "class_log_prior", "PRIORS"]

PRIORS = ("laplace", "mle", "uniform")


class Frequency:
    """Smoothed relative frequencies for nominal attributes and moment estimates
    for Gaussian ones.

    Parameters
    ----------
    alpha : float, default 1
        Lidstone smoothing: P(v | c) = (count + alpha) / (n_c + alpha * m), with
        ``n_c`` the class's instances whose value is present and ``m`` the number
        of values. 1 is the Laplace correction, 0 maximum likelihood.
    ddof : {0, 1}, default 1
        Variance divisor n - ddof. 1 is the sample variance used by the
        documents' worked examples; 0 is scikit-learn's choice.

    Examples
    --------
    >>> est = Frequency(alpha=1)
    >>> np.exp(est.categorical(np.array([[2.0, 0.0, 1.0]]))).round(3).tolist()
    [[0.5, 0.167, 0.333]]
    """

    def __init__(self, alpha=1.0, ddof=1):
        self.alpha = alpha
        self.ddof = ddof

    def categorical(self, counts):
        """Log P(value | class) of shape (K, m) from counts of shape (K, m).

        A class with no present value at all (n_c = 0 and alpha = 0) gets the
        uniform distribution 1/m.
        """
        counts = np.asarray(counts, dtype=np.float64)
        m = counts.shape[1]
        num = counts + self.pseudo_counts(counts)
        den = num.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            logp = np.log(num) - np.log(den)
        empty = den[:, 0] == 0
        if empty.any():
            logp[empty] = -np.log(m)
        return logp

    def pseudo_counts(self, counts):
        """What smoothing adds to each count (the estimate is (counts + a) /
        (n_c + sum a)): ``alpha`` for every value and class."""
        return np.full(np.shape(counts), float(self.alpha))

    def gaussian(self, weight, mean, m2, floor, scale=1.0):
        """Means and variances per class from (weight, mean, M2) per class.

        A class with at most ``ddof`` present values takes the pooled variance
        of the attribute (and the pooled mean if it has none); ``floor`` is
        added to every variance. Everything is in the statistics' units (the
        data divided by ``scale``), which these estimates do not depend on.
        """
        weight, mean, m2 = (np.asarray(a, dtype=np.float64) for a in (weight, mean, m2))
        w_all = weight.sum()
        mu_all = (weight * mean).sum() / w_all if w_all > 0 else 0.0
        m2_all = m2.sum() + (weight * (mean - mu_all) ** 2).sum() if w_all > 0 else 0.0
        pooled = m2_all / (w_all - self.ddof) if w_all > self.ddof else 0.0
        ok = weight > self.ddof
        var = np.where(ok, m2 / np.where(ok, weight - self.ddof, 1.0), pooled)
        mu = np.where(weight > 0, mean, mu_all)
        return mu, var + floor


def class_log_prior(class_count, priors="laplace"):
    """Log class priors from class counts.

    ``"laplace"``: (n_c + 1) / (N + K), as in the J implementation;
    ``"mle"``: n_c / N; ``"uniform"``: 1 / K; or an array of K probabilities.

    Examples
    --------
    >>> np.exp(class_log_prior(np.array([9.0, 5.0]), "laplace")).round(4).tolist()
    [0.625, 0.375]
    """
    class_count = np.asarray(class_count, dtype=np.float64)
    k = class_count.size
    if isinstance(priors, str):
        check_param("priors", priors, options=PRIORS)
        if priors == "laplace":
            p = (class_count + 1.0) / (class_count.sum() + k)
        elif priors == "mle":
            p = class_count / class_count.sum()
        else:
            p = np.full(k, 1.0 / k)
    else:
        p = np.asarray(priors, dtype=np.float64).ravel()
        if p.size != k:
            raise ParameterError(f"priors: expected {k} probabilities (one per class), got {p.size}")
        if (p < 0).any() or not np.isclose(p.sum(), 1.0):
            raise ParameterError(f"priors: expected non-negative probabilities summing to 1, "
                                 f"got {p.tolist()} (sum {p.sum():g})")
    with np.errstate(divide="ignore"):
        return np.log(p)
