"""A numeric attribute: a normal distribution per class."""

import numpy as np

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
    """

    kind = "gaussian"

    def count(self, table, y, n_classes, weight):
        x = table.numeric[:, self.column]
        present = ~np.isnan(x)
        if not present.all():
            x, y = x[present], y[present]
            weight = weight[present] if weight is not None else None
        w = np.bincount(y, weights=weight, minlength=n_classes).astype(np.float64)
        s = np.bincount(y, weights=x if weight is None else weight * x, minlength=n_classes)
        mean = np.divide(s, w, out=np.zeros(n_classes), where=w > 0)
        dev = x - mean[y]
        dev *= dev
        if weight is not None:
            dev *= weight
        m2 = np.bincount(y, weights=dev, minlength=n_classes)
        return {"weight": w, "mean": mean, "m2": m2}

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
        self._half_inv_var = 0.5 / self.var_
        self._log_norm = -0.5 * (_LOG_2PI + np.log(self.var_))

    def log_likelihood(self, table):
        x = table.numeric[:, self.column]
        n = x.shape[0]
        if self.empty_:
            return np.zeros((n, self.mean_.size))
        d = x[:, None] - self.mean_
        d *= d
        d *= -self._half_inv_var
        d += self._log_norm
        missing = np.isnan(x)
        if missing.any():
            d[missing] = 0.0
        return d


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
