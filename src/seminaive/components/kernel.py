"""A numeric attribute as a Gaussian kernel density estimate per class."""

import numpy as np

from ._chunks import chunks
from .base import Component

__all__ = ["Kernel", "BANDWIDTHS"]

_LOG_2PI = np.log(2 * np.pi)
BANDWIDTHS = ("silverman", "scott")


class Kernel(Component):
    """Kernel density per class: a Gaussian kernel of bandwidth ``h_c`` on every
    training value of the class (weighted by instance weight), as klaR's
    ``usekernel`` and Weka's ``-K`` offer.

    Statistics are the present values with their classes and weights (they
    merge by concatenation). The bandwidth rule, per class:

    - ``"silverman"`` (default, R's ``bw.nrd0`` as klaR uses):
      0.9 min(sd, IQR / 1.34) n^(-1/5), with sd when the IQR is 0;
    - ``"scott"``: 1.06 sd n^(-1/5);
    - a number: that bandwidth for every class.

    Quantiles use the inverted-CDF rule, so weights act exactly like copies.
    A class whose rule gives 0 (a single or constant value) takes the rule on
    the pooled values, then ``floor``.

    Examples
    --------
    >>> from seminaive.data import EncodedTable
    >>> t = EncodedTable(np.empty((3, 0), int), np.array([[0.0], [1.0], [5.0]]), np.zeros(0))
    >>> k = Kernel(attribute=0, column=0, bandwidth=1.0)
    >>> k.estimate(k.count(t, np.array([0, 0, 1]), 2, None), None)
    >>> np.exp(k.log_likelihood(t))[0].round(4).tolist()
    [0.3205, 0.0]
    """

    kind = "kernel"

    def __init__(self, attribute, column, bandwidth="silverman"):
        super().__init__(attribute, column)
        self.bandwidth = bandwidth

    def count(self, table, y, n_classes, weight):
        x = table.numeric[:, self.column]
        keep = ~np.isnan(x)
        w = np.ones(x.size) if weight is None else np.asarray(weight, dtype=np.float64)
        keep &= w > 0
        return {"x": x[keep].copy(), "y": y[keep].astype(np.float64), "w": w[keep].copy(),
                "n_classes": np.array([float(n_classes)])}

    @staticmethod
    def merge(a, b):
        return {k: (np.concatenate([a[k], b[k]]) if k != "n_classes" else a[k]) for k in a}

    def estimate(self, stats, estimator, floor=0.0, **context):
        k = int(stats["n_classes"][0])
        y = stats["y"].astype(np.intp)
        self.points_, self.log_weights_, self.h_ = [], [], np.zeros(k)
        pooled = self._rule(stats["x"], stats["w"])
        for c in range(k):
            sel = y == c
            x, w = stats["x"][sel], stats["w"][sel]
            h = self._rule(x, w) if x.size else 0.0
            if not h > 0:
                h = pooled if pooled > 0 else np.sqrt(floor) if floor > 0 else 1.0
            self.h_[c] = h
            self.points_.append(x)
            self.log_weights_.append(np.log(w / w.sum()) if x.size else w)

    def _rule(self, x, w):
        if not isinstance(self.bandwidth, str):
            return float(self.bandwidth)
        n = w.sum()
        if n <= 1:
            return 0.0
        mean = np.average(x, weights=w)
        sd = np.sqrt(np.sum(w * (x - mean) ** 2) / (n - 1))
        if self.bandwidth == "scott":
            return 1.06 * sd * n ** -0.2
        q1, q3 = np.quantile(x, [0.25, 0.75], method="inverted_cdf", weights=w)
        spread = min(sd, (q3 - q1) / 1.34) if q3 > q1 else sd
        return 0.9 * spread * n ** -0.2

    def log_likelihood(self, table):
        x = table.numeric[:, self.column]
        out = np.zeros((x.size, len(self.points_)))
        present = ~np.isnan(x)
        xs = x[present]
        for c, (pts, lw, h) in enumerate(zip(self.points_, self.log_weights_, self.h_)):
            if pts.size == 0:
                continue
            col = np.empty(xs.size)
            step = max(1, (1 << 21) // max(pts.size, 1))
            for s, e in chunks(xs.size, step):
                z = (xs[s:e, None] - pts) / h
                terms = lw - 0.5 * z * z
                top = terms.max(axis=1)
                col[s:e] = top + np.log(np.exp(terms - top[:, None]).sum(axis=1))
            out[present, c] = col - np.log(h) - 0.5 * _LOG_2PI
        return out

    def to_dict(self):
        return {**super().to_dict(), "bandwidth": self.bandwidth}

    @classmethod
    def from_dict(cls, d):
        return cls(d["attribute"], d["column"], d["bandwidth"])
