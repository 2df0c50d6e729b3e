"""The Gaussian attributes of a model as one block: their statistics and parameters as
(attributes, K) arrays, counted, estimated and applied without a Python step per attribute.

:class:`~seminaive.components.Gaussian` components are views of a block's rows: a model
keeps the block and makes the per-attribute components only when something asks for them
(a printout, a model file, a search); both give the same numbers, to the last bit.
"""

import numpy as np

from .._scale import column_scales, pow2_scale
from ..exceptions import DataFormatError
from ._chunks import chunks
from ._densities import normal_logpdf, student_t_logpdf
from ._moments import class_moments, raw_units_safe
from .stacked_stats import stacked, stats_scales

__all__ = ["GaussianBlock", "value_range", "merge_moments", "rescale"]

_LOG_2PI = np.log(2 * np.pi)
_KEYS = ("weight", "mean", "m2", "scale", "low", "high")


class GaussianBlock:
    """Gaussian attributes counted, estimated and applied together.

    Parameters
    ----------
    attributes : sequence of int
        The attributes' indices in the schema.
    columns : sequence of int
        Their columns of the encoded numeric block.
    stats : dict of ndarray
        Per attribute and class ``weight``, ``mean`` and ``m2`` (attributes, K), and per
        attribute ``scale``, ``low`` and ``high`` (attributes, 1): what
        :meth:`Gaussian.count <seminaive.components.Gaussian.count>` gives one attribute.

    Examples
    --------
    >>> from seminaive.data import EncodedTable
    >>> from seminaive.estimation import Frequency
    >>> x = np.array([[1.0, 5.0], [3.0, 7.0], [10.0, np.nan]])
    >>> t = EncodedTable(np.empty((3, 0), int), x, np.zeros(0))
    >>> b = GaussianBlock.count([0, 1], [0, 1], t, np.array([0, 0, 1]), 2, None)
    >>> b.stats["weight"].tolist()  # per attribute, the present values of each class
    [[2.0, 1.0], [2.0, 0.0]]
    >>> b.estimate(Frequency(ddof=0), np.full(2, 0.25), ["a", "b"])
    >>> (b.params.mu * b.stats["scale"]).tolist()  # class means (no b in class 1: b's pooled mean)
    [[2.0, 10.0], [6.0, 6.0]]
    """

    def __init__(self, attributes, columns, stats):
        self.attributes = np.asarray(attributes, dtype=np.intp)
        self.columns = np.asarray(columns, dtype=np.intp)
        self.stats = stats

    def __len__(self):
        return self.attributes.size

    @classmethod
    def count(cls, attributes, columns, table, y, n_classes, weight):
        """The moments of the ``columns`` of ``table``'s numeric block in one pass, in raw units;
        columns whose magnitudes could have overflowed or underflowed are counted again divided
        by a power of two."""
        columns = np.asarray(columns, dtype=np.intp)
        whole = columns.size == table.numeric.shape[1] and (columns == np.arange(columns.size)).all()
        X = table.numeric if whole else table.numeric[:, columns]
        w, mean, m2 = class_moments(X, y, n_classes, weight)
        safe = raw_units_safe(mean, m2)
        # keep the moments in units about 1 (exact: powers of two), as the optimizers expect
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = np.abs(mean) + np.sqrt(m2 / np.where(w > 0, w, 1.0))
        scale = np.where(safe, pow2_scale(np.nanmax(np.where(safe, spread, 0.0), axis=0, initial=0.0)), 1.0)
        mean /= scale
        m2 /= scale * scale
        redo = np.flatnonzero(~safe)
        if redo.size:
            sub = X[:, redo]
            scale[redo] = column_scales(sub)
            w[:, redo], mean[:, redo], m2[:, redo] = class_moments(sub, y, n_classes, weight, scale[redo])
        low, high = value_range(X, weight)
        low, high = low / scale, high / scale  # exact: powers of two
        # (d, K) and (d, 1) arrays of their own, so each attribute's row is one contiguous view
        stats = {"weight": w.T.copy(), "mean": mean.T.copy(), "m2": m2.T.copy(), "scale": scale[:, None].copy(),
                 "low": low[:, None].copy(), "high": high[:, None].copy()}
        return cls(attributes, columns, stats)

    @classmethod
    def of_rows(cls, attributes, columns, rows):
        """The block of per-attribute statistics dicts (their moments, scales and value ranges, stacked)."""
        stats = {key: stacked(rows, key) for key in ("weight", "mean", "m2")}
        stats["scale"] = stats_scales(rows)[:, None]
        if all("low" in r and "high" in r for r in rows):
            stats["low"], stats["high"] = stacked(rows, "low"), stacked(rows, "high")
        return cls(attributes, columns, stats)

    def merge(self, other):
        """The block of the union of two parts' data (the same attributes) from theirs."""
        return GaussianBlock(self.attributes, self.columns, merge_moments(self.stats, other.stats))

    def rows(self):
        """One statistics dict per attribute: views of the block's rows."""
        keys = [key for key in _KEYS if key in self.stats]
        return [dict(zip(keys, row)) for row in zip(*(self.stats[key] for key in keys))]

    def finite(self):
        """Whether every moment is a finite number (an infinite value in the data makes one not)."""
        return bool(np.isfinite(self.stats["mean"]).all() and np.isfinite(self.stats["m2"]).all())

    def estimate(self, estimator, floors, names):
        """Means and variances of every attribute by one call of ``estimator`` on the block
        (``floors``: each attribute's variance floor; ``names``: their names, for the message
        that refuses parameters that are not finite)."""
        weight, mean, m2 = self.stats["weight"], self.stats["mean"], self.stats["m2"]
        scale = self.stats["scale"]
        mu, var = estimator.gaussian(weight, mean, m2, np.asarray(floors, dtype=np.float64)[:, None], scale=scale)
        dof = getattr(estimator, "degrees_of_freedom", None)
        df = dof(weight, mean, m2, scale=scale) if dof else None
        bad = ~(np.isfinite(mu) & np.isfinite(var) & (var >= 0)).all(axis=1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            what = f"attribute {names[i]!r}" if names[i] is not None else f"attribute {self.attributes[i]}"
            raise DataFormatError(f"{what}: its Gaussian parameters are not finite numbers (mean "
                                  f"{(mu[i] * scale[i]).tolist()}, variance {(var[i] * scale[i] ** 2).tolist()}); "
                                  f"check the column for infinite values")
        mu, var = np.asarray(mu, dtype=np.float64), np.asarray(var, dtype=np.float64)
        self.params = Parameters(mu, var, *derived(var, scale))
        self.empty = ~(weight.sum(axis=1) > 0)
        self.df = df
        self.plain = (var > 0).all(axis=1) if df is None else np.zeros(len(self), dtype=bool)

    def install(self, comps):
        """Make ``comps`` (one Gaussian per row, in order) views of this block's parameters."""
        for row, (c, e, s, p) in enumerate(zip(comps, self.empty.tolist(), self.stats["scale"][:, 0].tolist(),
                                               self.plain.tolist())):
            c.empty_, c.scale_, c._block, c._row, c._plain = e, s, self.params, row, p
            c.df_ = None if self.df is None else self.df[row]

    def _add_specials(self, table, target):
        """Add each Student-t or point-mass attribute's log-density, one by one, to ``target(i)``
        (its row i's (n, K) array); returns which attributes have values."""
        live = ~self.empty
        scales, p = self.stats["scale"][:, 0], self.params
        for i in np.flatnonzero(live & ~self.plain).tolist():
            add_special(table.numeric[:, self.columns[i]], scales[i], p.mu[i], p.var[i],
                        None if self.df is None else self.df[i], target(i))
        return live

    def log_likelihoods(self, table):
        """Every attribute's log-density of the rows of ``table``, (n, attributes, K), as each
        attribute's component gives it alone (0 where a value is missing or the attribute has no
        values)."""
        scales, p = self.stats["scale"][:, 0], self.params
        out = np.zeros((table.numeric.shape[0], len(self), p.mu.shape[1]))
        live = self._add_specials(table, lambda i: out[:, i])
        idx = np.flatnonzero(live & self.plain)
        if not idx.size:
            return out
        # each attribute's terms as add_plain gives one attribute alone: folded where its scale allows
        s = scales[idx][:, None]
        fold = (s > 2.0 ** -500) & (s < 2.0 ** 500)
        mu = np.where(fold, p.mu[idx] * s, p.mu[idx])
        inv = np.where(fold, p.inv_sd[idx] / s, p.inv_sd[idx])
        lnorm = p.log_norm[idx]
        cols = self.columns[idx]
        for a, b in chunks(out.shape[0], max(1, (1 << 16) // (idx.size * out.shape[2]))):
            x = table.numeric[a:b, cols]
            x = np.where(fold[:, 0], x, x / s[:, 0])
            with np.errstate(over="ignore"):  # a value of no float's square: -inf, its density 0
                z = (x[:, :, None] - mu) * inv
                term = lnorm - 0.5 * (z * z)
            term[np.isnan(x)] = 0.0
            out[a:b, idx] = term
        return out

    def add_log_likelihood(self, table, out):
        """Add every attribute's log-density of the rows of ``table`` to ``out`` (n, K): those of
        Student-t or point-mass attributes one by one, then the plain normals in one pass."""
        live = self._add_specials(table, lambda i: out)
        scales, p = self.stats["scale"][:, 0], self.params
        keep = live & self.plain
        if keep.all():
            return add_plain(table.numeric, self.columns, scales, p.mu.T, p.inv_sd.T, p.log_norm.T, out)
        if not keep.any():
            return out
        idx = np.flatnonzero(keep)
        return add_plain(table.numeric, self.columns[idx], scales[idx], p.mu[idx].T, p.inv_sd[idx].T,
                         p.log_norm[idx].T, out)


def _scale(stats):
    """The power-of-two scale of statistics, as an array (1 for statistics saved before it existed)."""
    return np.atleast_1d(np.asarray(stats.get("scale", 1.0), dtype=np.float64))


def rescale(stats, scale):
    """The moments ``stats`` in the units of another power-of-two ``scale`` (an array broadcasting
    against their scale: exact)."""
    r = _scale(stats) / scale
    out = {"weight": stats["weight"], "mean": stats["mean"] * r, "m2": stats["m2"] * r * r, "scale": scale}
    if "low" in stats:
        out["low"], out["high"] = stats["low"] * r, stats["high"] * r
    return out


def merge_moments(a, b):
    """The moments of the union of two parts' data from theirs, by Chan's parallel update, after
    bringing both to the larger power-of-two scale (exact; a part without values takes the other's
    scale, so that a chunk where the attribute is all missing changes nothing). Each part is a dict of arrays: one
    attribute's (weight, mean and m2 (K,); scale, low and high (1,)) or a block's ((attributes, K)
    and (attributes, 1)), the same operations element by element.

    Examples
    --------
    >>> a = {"weight": np.array([2.0]), "mean": np.array([1.0]), "m2": np.array([2.0]), "scale": np.array([1.0])}
    >>> b = {"weight": np.array([1.0]), "mean": np.array([4.0]), "m2": np.array([0.0]), "scale": np.array([1.0])}
    >>> [merge_moments(a, b)[key].tolist() for key in ("weight", "mean", "m2")]  # of 0, 2 and 4
    [[3.0], [2.0], [8.0]]
    """
    sa, sb = _scale(a), _scale(b)
    # a part without values (a chunk where the attribute is all missing) has no units to keep
    none_a = np.sum(a["weight"], axis=-1, keepdims=True) == 0
    none_b = np.sum(b["weight"], axis=-1, keepdims=True) == 0
    s = np.where(none_a & ~none_b, sb, np.where(none_b & ~none_a, sa, np.maximum(sa, sb)))
    a, b = rescale(a, s), rescale(b, s)
    w = a["weight"] + b["weight"]
    delta = b["mean"] - a["mean"]
    safe = np.where(w > 0, w, 1.0)
    mean = a["mean"] + delta * b["weight"] / safe
    m2 = a["m2"] + b["m2"] + delta ** 2 * a["weight"] * b["weight"] / safe
    out = {"weight": w, "mean": np.where(w > 0, mean, 0.0), "m2": m2, "scale": s}
    if "low" in a and "low" in b:
        out["low"], out["high"] = np.fmin(a["low"], b["low"]), np.fmax(a["high"], b["high"])
    return out


class Parameters:
    """The parameters of Gaussian attributes estimated together, (attributes, K) arrays: means,
    variances, 1 / sd and log-normalizers; a component holds the block and its row (a wide table's
    prediction reads the block as it is, not 10,000 rows gathered again)."""

    __slots__ = ("mu", "var", "inv_sd", "log_norm")

    def __init__(self, mu, var, inv_sd, log_norm):
        self.mu, self.var, self.inv_sd, self.log_norm = mu, var, inv_sd, log_norm

    @staticmethod
    def of(comps):
        """Means, 1 / sd and log-normalizers of ``comps``, (K, components): their block's own arrays where
        they are its rows in order, else their rows gathered."""
        block = comps[0]._block
        if block.mu.shape[0] == len(comps) and all(c._block is block for c in comps) \
                and [c._row for c in comps] == list(range(len(comps))):
            return block.mu.T, block.inv_sd.T, block.log_norm.T
        return (np.array([c._mu for c in comps]).T, np.array([c._inv_sd for c in comps]).T,
                np.array([c._log_norm for c in comps]).T)


def derived(var, scale):
    """1 / sd and the log-normalizer of the density of x (not x / scale), from variances in the
    statistics' units (any shape; ``scale`` broadcast against them)."""
    with np.errstate(divide="ignore"):
        return 1.0 / np.sqrt(var), -0.5 * (_LOG_2PI + np.log(var)) - np.log(scale)


def add_special(x, scale, mu, var, df, out):
    """Add one attribute's Student-t (``df`` given) or point-mass-aware normal log-density of the
    values ``x`` to ``out`` (n, K); missing values add nothing."""
    x = x / scale
    if df is not None:  # Student t: var is the squared scale
        term = student_t_logpdf(x[:, None], mu, var, df) - np.log(scale)
    else:
        term = normal_logpdf(x[:, None], mu, var) - np.log(scale)
    term[np.isnan(x)] = 0.0
    out += term
    return out


def add_plain(X, cols, scale, mu, inv, lnorm, out):
    """Add the normal log-densities of the columns ``cols`` of ``X`` to ``out`` (n, K), chunk by
    chunk and class by class: -(z^2)/2 + log-normalizer, z = (x / scale - mean) / sd (``mu``,
    ``inv``, ``lnorm``: (K, columns)); missing values add nothing."""
    cols = np.asarray(cols, dtype=np.intp)
    whole = cols.size == X.shape[1] and (cols == np.arange(cols.size)).all()
    const = lnorm.sum(axis=1)
    # (x / s - mu) * inv == (x - mu * s) * (inv / s) bit for bit (s a power of two), while
    # neither product leaves the normal range: then the division by s folds into the parameters
    fold = bool(np.all((scale > 2.0 ** -500) & (scale < 2.0 ** 500)))
    if fold:
        mu, inv = mu * scale, inv / scale
    for s, e in chunks(X.shape[0], max(64, (1 << 16) // max(cols.size, 1))):
        xb = X[s:e] if whole else X[s:e, cols]
        if not fold:
            xb = xb / scale
        missing = np.isnan(xb)
        has_missing = missing.any()
        z = np.empty_like(xb)
        for k in range(mu.shape[0]):
            np.subtract(xb, mu[k], out=z)
            z *= inv[k]
            if has_missing:
                z[missing] = 0.0
                out[s:e, k] += (~missing) @ lnorm[k] - 0.5 * np.einsum("ij,ij->i", z, z)
            else:
                out[s:e, k] += const[k] - 0.5 * np.einsum("ij,ij->i", z, z)
    return out


def value_range(X, weight=None):
    """The smallest and largest present value of every column of ``X`` (rows of weight 0 left
    out), +inf and -inf for a column without one; no warning for an all-missing column.

    Examples
    --------
    >>> [a.tolist() for a in value_range(np.array([[1.0, np.nan], [3.0, np.nan], [-2.0, np.nan]]))]
    [[-2.0, inf], [3.0, -inf]]
    """
    X = np.asarray(X, dtype=np.float64)
    if weight is not None:
        X = X[np.asarray(weight) > 0]
    return np.fmin.reduce(X, axis=0, initial=np.inf), np.fmax.reduce(X, axis=0, initial=-np.inf)
