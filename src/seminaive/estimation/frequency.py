"""Frequency estimation: Laplace/Lidstone smoothing, maximum likelihood moments,
and class priors. These map sufficient statistics to parameters; they never
see the data, so a model can be re-estimated without rereading it."""

import numpy as np

from .._validation import check_param
from ..exceptions import ParameterError
from .family import TableEstimation, declare

__all__ = ["Frequency", "class_log_prior", "loo_class_log_prior", "laplace_log_prior", "lidstone_log",
           "pooled_moments", "PRIORS"]

PRIORS = ("laplace", "mle", "uniform", "m-estimate")


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

    def categorical(self, counts, n_values=None):
        """Log P(value | class) of shape (K, width) from counts of shape (K, width).

        ``n_values`` (default: the width) is the number of values smoothing
        spreads over, when the counts hold only some of them, or one per row
        (an array (K, 1): stacked attributes padded to one width). A class with no
        present value at all (n_c = 0 and alpha = 0) gets the uniform
        distribution 1/m.
        """
        counts = np.asarray(counts, dtype=np.float64)
        m = counts.shape[1] if n_values is None else n_values
        a, total = self._pseudo(counts, m)
        num = counts + a
        den = counts.sum(axis=1, keepdims=True) + total
        with np.errstate(divide="ignore", invalid="ignore"):
            logp = np.log(num) - np.log(den)
        empty = den[:, 0] == 0
        if empty.any() and np.any(m > 0):  # (an attribute without values has no entries to fill)
            with np.errstate(divide="ignore"):
                logp[empty] = -np.log(m if np.ndim(m) == 0 else np.asarray(m)[empty])
        return logp

    def conditional(self, counts, n_values=None, backoff=None):
        """Log P(value | class, parents) of shape (K, P, width) from a conditional table's counts
        (K, P, width), parent axis kept; ``backoff``: the counts (K, width) of the table it may back off
        to (the class alone). These estimates smooth every (class, parent value) row by itself
        (:meth:`categorical`); an estimator that smooths a row toward its parent table overrides this.

        Examples
        --------
        >>> counts = np.array([[[2.0, 0.0], [1.0, 1.0]]])  # one class, two parent values, two child values
        >>> np.exp(Frequency(alpha=1).conditional(counts, backoff=counts.sum(axis=1))).round(3).tolist()
        [[[0.75, 0.25], [0.5, 0.5]]]
        """
        counts = np.asarray(counts, dtype=np.float64)
        k, p, m = counts.shape
        return self.categorical(counts.reshape(k * p, m), n_values).reshape(k, p, m)

    def _pseudo(self, counts, n_values):
        """The pseudo-counts of the counted values (K, width) and their total over all n_values (K, 1)."""
        return np.full(counts.shape, float(self.alpha)), np.full((counts.shape[0], 1), self.alpha * n_values)

    def pseudo_counts(self, counts):
        """What smoothing adds to each count (the estimate is (counts + a) /
        (n_c + sum a)): ``alpha`` for every value and class."""
        return self._pseudo(np.asarray(counts, dtype=np.float64), np.shape(counts)[1])[0]

    def loo_categorical(self, counts, codes, y, n_values=None):
        """Leave-one-out log P(value | class), (n, K): each instance's estimate
        from the counts (K, width) of all the data less its own; 0 where its
        code is missing (-1). :meth:`loo_conditional` with one parent value."""
        return self.loo_conditional(np.asarray(counts)[:, None, :], codes, np.zeros(np.size(codes), dtype=np.intp), y,
                                    n_values)

    def loo_conditional(self, counts, child, parent, y, n_values=None):
        """Leave-one-out log P(child | class, parent value) of each row, (n, K): the
        estimate :meth:`conditional` makes from a conditional table's counts (K, P, m)
        of all the data less the row's own; 0 where the child is missing (-1).

        Examples
        --------
        >>> counts = np.array([[[2.0, 0.0], [1.0, 1.0]]])  # one class, two parent values
        >>> np.exp(Frequency(alpha=1).loo_conditional(counts, np.array([0]), np.array([0]), np.array([0])))
        array([[0.66666667]])
        """
        counts = np.asarray(counts, dtype=np.float64)
        child, parent = np.asarray(child, dtype=np.intp), np.asarray(parent, dtype=np.intp)
        m = counts.shape[2] if n_values is None else n_values
        out = np.zeros((child.size, counts.shape[0]))
        idx = np.flatnonzero(child >= 0)
        if idx.size:
            c, q = child[idx], parent[idx]
            overall = counts.sum(axis=(0, 1))
            out[idx] = self.loo_estimate(counts[:, q, c].T, counts.sum(axis=2)[:, q].T, y[idx], m, overall[c],
                                         overall.sum())
        return out

    def loo_estimate(self, num, den, y, n_values, overall, total):
        """Leave-one-out log-probabilities of each row's value, (rows, K), from the
        counts of that value per class ``num`` and the classes' totals ``den``
        (both of all the data, the row's own included: it is taken out of its
        class ``y``), the value's overall count ``overall`` and the grand
        ``total`` (for estimators whose pseudo-counts depend on them)."""
        num, den = np.array(num, dtype=np.float64), np.array(den, dtype=np.float64)
        rows = np.arange(y.size)
        num[rows, y] -= 1.0
        den[rows, y] -= 1.0
        a, a_total = self.loo_pseudo(n_values, overall - 1.0, total - 1.0)
        den += a_total
        with np.errstate(divide="ignore", invalid="ignore"):
            val = np.log(num + a) - np.log(den)
        return np.where(den > 0, val, -np.log(n_values))

    def loo_pseudo(self, n_values, overall, total):
        """The pseudo-count of each row's value (rows, 1) and the total pseudo-count, given
        the value's overall count and the grand total without the row."""
        return self.alpha, self.alpha * n_values

    def gaussian(self, weight, mean, m2, floor, scale=1.0):
        """Means and variances per class from (weight, mean, M2) per class.

        A class with at most ``ddof`` present values takes the pooled variance
        of the attribute (and the pooled mean if it has none); ``floor`` is
        added to every variance. Everything is in the statistics' units (the
        data divided by ``scale``), which these estimates do not depend on.
        The classes are the last axis: rows of statistics (as leave-one-out
        gives them) are estimated row by row.
        """
        weight, mean, m2 = (np.asarray(a, dtype=np.float64) for a in (weight, mean, m2))
        w_all, mu_all, m2_all = pooled_moments(weight, mean, m2)
        pooled = np.divide(m2_all, w_all - self.ddof, out=np.zeros_like(m2_all), where=w_all > self.ddof)
        ok = weight > self.ddof
        var = np.where(ok, m2 / np.where(ok, weight - self.ddof, 1.0), pooled)
        mu = np.where(weight > 0, mean, mu_all)
        return mu, var + floor


def pooled_moments(weight, mean, m2):
    """Over the classes (the last axis, kept): the total weight, the overall mean
    and the total sum of squared deviations (within plus between classes)."""
    w_all = weight.sum(axis=-1, keepdims=True)
    safe = np.where(w_all > 0, w_all, 1.0)
    mu_all = np.where(w_all > 0, (weight * mean).sum(axis=-1, keepdims=True) / safe, 0.0)
    m2_all = np.where(w_all > 0, m2.sum(axis=-1, keepdims=True)
                      + (weight * (mean - mu_all) ** 2).sum(axis=-1, keepdims=True), 0.0)
    return w_all, mu_all, m2_all


def class_log_prior(class_count, priors="laplace"):
    """Log class priors from class counts.

    ``"laplace"``: (n_c + 1) / (N + K), as in the J implementation;
    ``"mle"``: n_c / N; ``"uniform"``: 1 / K; ``"m-estimate"``: (n_c + 1/K) / (N + 1), the m-estimate
    with m = 1 toward uniform (the ESKDB and HDP authors' code); or an array of K probabilities.

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
        elif priors == "m-estimate":
            p = (class_count + 1.0 / k) / (class_count.sum() + 1.0)
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


def loo_class_log_prior(counts, y, priors):
    """Leave-one-out log class priors, (n, K): the instance's own class loses one count
    (:func:`class_log_prior` with the instance left out).

    Examples
    --------
    >>> np.exp(loo_class_log_prior(np.array([2.0, 1.0]), np.array([0, 1]), "laplace")).round(3).tolist()
    [[0.5, 0.5], [0.75, 0.25]]
    """
    k = counts.size
    own = np.zeros((y.size, k))
    own[np.arange(y.size), y] = 1.0
    n = counts.sum() - 1.0
    c = counts[None, :] - own
    with np.errstate(divide="ignore"):
        if isinstance(priors, str) and priors == "laplace":
            return np.log(c + 1.0) - np.log(n + k)
        if isinstance(priors, str) and priors == "mle":
            return np.log(c) - np.log(n)
        if isinstance(priors, str) and priors == "m-estimate":
            return np.log(c + 1.0 / k) - np.log(n + 1.0)
    return np.tile(class_log_prior(counts, priors), (y.size, 1))


def laplace_log_prior(class_count):
    """Log (n_c + 1) / (N + K) of class counts, as a difference of logs (selective kDB's prior for its
    scores, on counts rounded to whole instances by the caller).

    Examples
    --------
    >>> np.exp(laplace_log_prior(np.array([9.0, 5.0]))).round(4).tolist()
    [0.625, 0.375]
    """
    class_count = np.asarray(class_count, dtype=np.float64)
    return np.log(class_count + 1.0) - np.log(class_count.sum() + class_count.size)


def lidstone_log(counts, alpha, n_values):
    """Log (count + alpha) / (n + alpha m) along the last axis of ``counts`` (any leading axes: parents,
    classes, stacked tables), ``n_values`` (m) broadcast against the leading axes; where n + alpha m is 0
    the uniform 1/m. The formula of :meth:`Frequency.categorical`, for many tables at once.

    Examples
    --------
    >>> np.exp(lidstone_log(np.array([[2.0, 0.0, 1.0], [0.0, 0.0, 0.0]]), 0.0, 3)).round(3).tolist()
    [[0.667, 0.0, 0.333], [0.333, 0.333, 0.333]]
    """
    counts = np.asarray(counts, dtype=np.float64)
    m = np.asarray(n_values, dtype=np.float64)
    den = counts.sum(axis=-1, keepdims=True) + alpha * m
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, -np.log(m), np.log(counts + alpha) - np.log(den))


declare("frequency", "Lidstone's (count + alpha) / (n + alpha m)",
        TableEstimation(make=lambda m: Frequency(alpha=m.alpha), describe=lambda m: f"alpha={m.alpha:g}", rank=0))
