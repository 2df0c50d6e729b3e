"""A numeric attribute as a Gaussian kernel density estimate per class."""

import numpy as np

from .._scale import pow2_scale
from ._chunks import chunks
from .base import Component

__all__ = ["Kernel", "BANDWIDTHS", "bandwidth_rule", "weighted_quantile"]

_LOG_2PI = np.log(2 * np.pi)
BANDWIDTHS = ("silverman", "scott")


class Kernel(Component):
    """Kernel density per class: a Gaussian kernel of bandwidth ``h_c`` on every
    training value of the class (weighted by instance weight), as klaR's
    ``usekernel`` and Weka's ``-K`` offer.

    Statistics are the present values with their classes and weights (they
    merge by concatenation). The bandwidth rule, per class:

    - ``"silverman"`` (default): R's ``bw.nrd0`` (as klaR uses),
      0.9 min(sd, IQR / 1.34) n^(-1/5), the IQR from R's default (type 7)
      quantiles; where that minimum is 0, sd, then the class's first value's
      absolute value, then 1 take its place, as in R;
    - ``"scott"``: 1.06 sd n^(-1/5) (with the same fallbacks for sd = 0);
    - a number: that bandwidth for every class.

    Weighted quantiles and standard deviations treat a weight of k as k copies.
    A class with fewer than two instances (R's rule needs two) takes the rule
    on all the classes' values. Values are divided by a power of two about
    their largest magnitude while estimating (exactly), so any magnitude works.

    Examples
    --------
    >>> from seminaive.data import EncodedTable
    >>> t = EncodedTable(np.empty((3, 0), int), np.array([[0.0], [1.0], [5.0]]), np.zeros(0))
    >>> k = Kernel(attribute=0, column=0, bandwidth=1.0)
    >>> k.estimate(k.count(t, np.array([0, 0, 1]), 2, None), None)
    >>> np.exp(k.log_likelihood(t))[0].round(4).tolist()
    [0.3205, 0.0]
    >>> x = np.array([0, 1, 2, 3, 4, 5, 6, 50.0])  # R: bw.nrd0(x) = 1.550914
    >>> round(float(bandwidth_rule(x, np.ones(8), "silverman")), 6)
    1.550914
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
        self.scale_ = float(pow2_scale(np.max(np.abs(stats["x"]), initial=0.0)))
        xs_all = stats["x"] / self.scale_
        self.points_, self.log_weights_, self._h = [], [], np.zeros(k)
        pooled = bandwidth_rule(xs_all, stats["w"], self._scaled_rule()) if xs_all.size else 1.0
        for c in range(k):
            sel = y == c
            x, w = xs_all[sel], stats["w"][sel]
            self._h[c] = bandwidth_rule(x, w, self._scaled_rule()) if w.sum() >= 2 else pooled
            self.points_.append(x)
            self.log_weights_.append(np.log(w / w.sum()) if x.size else w)

    def _scaled_rule(self):
        return self.bandwidth if isinstance(self.bandwidth, str) else float(self.bandwidth) / self.scale_

    @property
    def h_(self):
        """The classes' bandwidths in the data's units."""
        return self._h * self.scale_

    def log_likelihood(self, table):
        x = table.numeric[:, self.column] / self.scale_
        out = np.zeros((x.size, len(self.points_)))
        present = ~np.isnan(x)
        xs = x[present]
        for c, (pts, lw, h) in enumerate(zip(self.points_, self.log_weights_, self._h)):
            if pts.size == 0:
                continue
            col = np.empty(xs.size)
            step = max(1, (1 << 21) // max(pts.size, 1))
            for s, e in chunks(xs.size, step):
                with np.errstate(over="ignore"):  # a value of no float's square: every kernel's density 0
                    z = (xs[s:e, None] - pts) / h
                    terms = lw - 0.5 * z * z
                top = terms.max(axis=1)
                top[top == -np.inf] = 0.0
                with np.errstate(divide="ignore"):  # a far value's terms all -inf: its sum's log is -inf
                    col[s:e] = top + np.log(np.exp(terms - top[:, None]).sum(axis=1))
            out[present, c] = col - np.log(h) - np.log(self.scale_) - 0.5 * _LOG_2PI
        return out

    def loo_log_likelihood(self, table, y):
        """Leave-one-out log-densities of the training rows (``table`` and class codes ``y`` as
        counted, unweighted): each row's own class without its own kernel, the bandwidths held
        as estimated from all the rows (n, K); 0 where the value is missing."""
        out = self.log_likelihood(table)
        x = table.numeric[:, self.column] / self.scale_
        present = ~np.isnan(x)
        for c, (pts, h) in enumerate(zip(self.points_, self._h)):
            rows = np.flatnonzero(present & (y == c))  # in order: row k is the class's point k
            if rows.size != pts.size:
                raise ValueError("leave-one-out needs the training rows the kernel was counted on")
            if pts.size < 2:
                out[rows, c] = -np.inf  # without its one value the class has no density
                continue
            step = max(1, (1 << 21) // pts.size)
            for s, e in chunks(rows.size, step):
                z = (x[rows[s:e], None] - pts) / h
                terms = -0.5 * z * z
                terms[np.arange(e - s), np.arange(s, e)] = -np.inf  # its own kernel out
                top = terms.max(axis=1)
                out[rows[s:e], c] = (top + np.log(np.exp(terms - top[:, None]).sum(axis=1)) - np.log(pts.size - 1.0)
                                     - np.log(h) - np.log(self.scale_) - 0.5 * _LOG_2PI)
        return out

    def to_dict(self):
        return {**super().to_dict(), "bandwidth": self.bandwidth}

    @classmethod
    def from_dict(cls, d):
        return cls(d["attribute"], d["column"], d["bandwidth"])


def weighted_quantile(x, w, p):
    """R's default (type 7) quantile of ``x`` where a weight of k counts as k
    copies: the value at position (N - 1) p of the sorted expanded sample, N
    the total weight, interpolated linearly between neighbours."""
    order = np.argsort(x, kind="stable")
    xs, cw = x[order], np.cumsum(w[order])
    pos = (cw[-1] - 1.0) * np.asarray(p, dtype=np.float64)
    lo = np.floor(pos)
    at = lambda i: xs[np.minimum(np.searchsorted(cw, i, side="right"), xs.size - 1)]  # noqa: E731
    a, b = at(lo), at(lo + 1)
    return a + (pos - lo) * (b - a)


def bandwidth_rule(x, w, rule):
    """The bandwidth of values ``x`` with weights ``w`` by ``rule`` ("silverman" =
    R's bw.nrd0, "scott", or a number returned as it is); see :class:`Kernel`."""
    if not isinstance(rule, str):
        return float(rule)
    n = w.sum()
    mean = np.average(x, weights=w)
    sd = float(np.sqrt(np.sum(w * (x - mean) ** 2) / (n - 1))) if n > 1 else 0.0
    if rule == "scott":
        lo, factor = sd, 1.06
    else:
        q1, q3 = weighted_quantile(x, w, [0.25, 0.75])
        lo, factor = min(sd, (q3 - q1) / 1.34), 0.9
    if not lo > 0:
        lo = sd or abs(float(x[0])) or 1.0
    return factor * lo * n ** -0.2
