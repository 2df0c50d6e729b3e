"""A numeric attribute: a normal distribution per class."""

import numpy as np
from scipy.special import gammaln

from ._chunks import chunks
from .base import Component

__all__ = ["Gaussian", "variance_floor"]

_LOG_2PI = np.log(2 * np.pi)


class Gaussian(Component):
    """Normal distribution of one numeric attribute in each class.

    Statistics per class, over the present values: ``weight`` (the count),
    ``mean`` and ``m2`` (the sum of squared deviations from the mean). They are
    accumulated in two passes (mean, then deviations) and merged with Chan's
    update, so they stay accurate where sums of squares would cancel.

    Examples
    --------
    >>> from seminaive.data import EncodedTable
    >>> from seminaive.estimation import Frequency
    >>> x = np.array([[1.0], [3.0], [10.0], [np.nan]])
    >>> t = EncodedTable(np.empty((4, 0), int), x, np.zeros(0))
    >>> g = Gaussian(attribute=0, column=0)
    >>> s = g.count(t, np.array([0, 0, 1, 1]), 2, None)
    >>> s["weight"].tolist(), s["mean"].tolist(), s["m2"].tolist()
    ([2.0, 1.0], [2.0, 10.0], [2.0, 0.0])
    >>> g.estimate(s, Frequency(ddof=0), floor=1e-9)
    >>> g.mean_.tolist(), g.var_.round(6).tolist()
    ([2.0, 10.0], [1.0, 0.0])
    """

    kind = "gaussian"

    def count(self, table, y, n_classes, weight):
        return self.count_many([self], table, y, n_classes, weight)[0]

    @classmethod
    def count_many(cls, comps, table, y, n_classes, weight):
        """Two chunked passes over the numeric block: per-class sums by matrix
        products with the one-hot class matrix, then squared deviations."""
        if not comps:
            return []
        cols = [c.column for c in comps]
        whole = cols == list(range(table.numeric.shape[1]))
        X = table.numeric
        n, d = X.shape[0], len(cols)
        w_tot, s_tot, m2 = (np.zeros((n_classes, d)) for _ in range(3))
        classes = np.arange(n_classes)

        def pieces():
            for s, e in chunks(n):
                xb = X[s:e] if whole else X[s:e, cols]
                onehot = (y[s:e, None] == classes).astype(np.float64)
                if weight is not None:
                    onehot *= weight[s:e, None]
                present = ~np.isnan(xb)
                yield s, e, xb, onehot, (None if present.all() else present)

        for s, e, xb, onehot, present in pieces():
            if present is None:
                w_tot += onehot.sum(axis=0)[:, None]
                s_tot += onehot.T @ xb
            else:
                w_tot += onehot.T @ present
                s_tot += onehot.T @ np.where(present, xb, 0.0)
        mean = np.divide(s_tot, w_tot, out=np.zeros_like(s_tot), where=w_tot > 0)
        for s, e, xb, onehot, present in pieces():
            dev = xb - mean[y[s:e]]
            dev *= dev
            if present is not None:
                dev[~present] = 0.0
            m2 += onehot.T @ dev
        return [{"weight": w_tot[:, k].copy(), "mean": mean[:, k].copy(), "m2": m2[:, k].copy()}
                for k in range(d)]

    @staticmethod
    def merge(a, b):
        w = a["weight"] + b["weight"]
        delta = b["mean"] - a["mean"]
        safe = np.where(w > 0, w, 1.0)
        mean = a["mean"] + delta * b["weight"] / safe
        m2 = a["m2"] + b["m2"] + delta ** 2 * a["weight"] * b["weight"] / safe
        return {"weight": w, "mean": np.where(w > 0, mean, 0.0), "m2": m2}

    def estimate(self, stats, estimator, floor=0.0, **context):
        self.empty_ = not stats["weight"].sum() > 0
        self.mean_, self.var_ = estimator.gaussian(stats["weight"], stats["mean"], stats["m2"], floor)
        dof = getattr(estimator, "degrees_of_freedom", None)
        self.df_ = dof(stats["weight"], stats["mean"], stats["m2"]) if dof else None
        self._inv_sd = 1.0 / np.sqrt(self.var_)
        self._log_norm = -0.5 * (_LOG_2PI + np.log(self.var_))
        if self.df_ is not None:  # Student t: var_ is the squared scale
            nu = self.df_
            self._log_norm = (gammaln((nu + 1) / 2) - gammaln(nu / 2) - 0.5 * np.log(nu * np.pi * self.var_))

    def log_likelihood(self, table):
        out = np.zeros((table.numeric.shape[0], self.mean_.size))
        return self.add_log_likelihood_many([self], table, out)

    @classmethod
    def add_log_likelihood_many(cls, comps, table, out):
        """Chunk by chunk and class by class: -(z^2)/2 + log-normalizer, with
        z = (x - mean) / sd; missing values add nothing."""
        comps = [c for c in comps if not c.empty_]
        for c in [c for c in comps if c.df_ is not None]:
            x = table.numeric[:, c.column]
            z = (x[:, None] - c.mean_) * c._inv_sd
            term = c._log_norm - (c.df_ + 1) / 2 * np.log1p(z * z / c.df_)
            term[np.isnan(x)] = 0.0
            out += term
        comps = [c for c in comps if c.df_ is None]
        if not comps:
            return out
        cols = [c.column for c in comps]
        whole = cols == list(range(table.numeric.shape[1]))
        mu = np.array([c.mean_ for c in comps]).T  # (K, d)
        inv = np.array([c._inv_sd for c in comps]).T
        lnorm = np.array([c._log_norm for c in comps]).T
        const = lnorm.sum(axis=1)
        X = table.numeric
        for s, e in chunks(X.shape[0]):
            xb = X[s:e] if whole else X[s:e, cols]
            missing = np.isnan(xb)
            has_missing = missing.any()
            for k in range(mu.shape[0]):
                z = xb - mu[k]
                z *= inv[k]
                z *= z
                if has_missing:
                    z[missing] = 0.0
                    out[s:e, k] += (~missing) @ lnorm[k] - 0.5 * z.sum(axis=1)
                else:
                    out[s:e, k] += const[k] - 0.5 * z.sum(axis=1)
        return out


def variance_floor(stats_list, var_smoothing):
    """The variance added to every Gaussian variance.

    ``var_smoothing`` times the largest pooled variance (divisor n, over all
    classes) of the numeric attributes, as scikit-learn's GaussianNB does; when
    every numeric attribute is constant, ``var_smoothing`` itself. It keeps a
    constant attribute (within a class) from giving an infinite density.
    """
    largest = 0.0
    for st in stats_list:
        w = st["weight"].sum()
        if w > 0:
            mu = (st["weight"] * st["mean"]).sum() / w
            m2 = st["m2"].sum() + (st["weight"] * (st["mean"] - mu) ** 2).sum()
            largest = max(largest, m2 / w)
    return var_smoothing * largest if largest > 0 else var_smoothing
