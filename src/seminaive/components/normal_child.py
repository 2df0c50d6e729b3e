"""A numeric attribute as a normal child of the class and its parents' joint value, without cuts.

The statistics are moments per (parent value, class) and, last, per class; a cell's mean and
variance are the class's shrunk by the cell's rows (``m`` rows' worth of prior:
:func:`seminaive.components._normal_given.normal_given`), so a cell with few rows keeps close to the
class's normal and an empty cell (or a row whose parents are missing) takes it. With no parents it
is Naive Bayes's Gaussian attribute. Values are divided by a power of two ``scale`` (exact) and the
variances take a ``floor`` in those units; densities are in the data's units.
"""

import math

import numpy as np

from ..core.counting import joint_codes
from ._normal_given import loo_normal_given, normal_given, normal_given_moments
from .._state import field, index, numbers
from ._densities import normal_logpdf
from .gaussian_block import merge_moments

__all__ = ["NormalChild"]

KEYS = ("weight", "mean", "m2")


MIN_M = 1e-6  # the least prior weight (in rows) a model file's normal child may give its class's normal


class NormalChild:
    """P(x | class, parents) normal, for a numeric ``attribute`` (its ``column`` in the numeric block)
    and ``parents`` that give codes (see the module's notes).

    Examples
    --------
    >>> from seminaive.components import Categorical
    >>> from seminaive.data import EncodedTable
    >>> from seminaive.estimation import Frequency
    >>> t = EncodedTable(np.array([[0], [0], [1], [1]]), np.array([[1.0], [3.0], [10.0], [12.0]]), np.zeros(2))
    >>> child = NormalChild(1, 0, [Categorical(0, 0, 2)], m=1.0, scale=16.0, floor=0.0)
    >>> s = child.count(t, np.array([0, 0, 0, 0]), 1, None)
    >>> s["weight"].ravel().tolist()  # parent value 0, parent value 1, the class
    [2.0, 2.0, 4.0]
    >>> child.estimate(s, Frequency())
    >>> (child.mean_ * 16).ravel().round(3).tolist()  # each cell's mean pulled toward the class's (6.5) by 1 row
    [3.5, 9.5, 6.5]
    """

    kind = "normal_child"

    def __init__(self, attribute, column, parents=(), m=1.0, scale=1.0, floor=0.0):
        self.attribute, self.column = int(attribute), int(column)
        self.parents = tuple(parents)
        self.m, self.scale, self.floor = float(m), float(scale), float(floor)
        self.n_configs = math.prod(int(p.n_values) for p in self.parents) if self.parents else 0

    def values(self, table):
        """The child's values in its units."""
        return table.numeric[:, self.column] / self.scale

    def parent_codes(self, table):
        """Each row's parents' joint value (``n_configs`` where one is missing; with no parents, 0 =
        ``n_configs``: the class's row)."""
        if not self.parents:
            return np.zeros(table.n_samples, dtype=np.int64)
        return joint_codes([np.asarray(p.codes(table), dtype=np.int64) for p in self.parents],
                           [p.n_values for p in self.parents], missing=self.n_configs)

    def count(self, table, y, k, weight):
        """The moments ((n_configs + 1, K) each) of the rows of ``table``."""
        return dict(zip(KEYS, normal_given_moments(self.values(table), self.parent_codes(table), y, k,
                                                   self.n_configs, weight)))

    def merge(self, a, b):
        """The moments of two parts' rows together (Chan's update)."""
        one = np.ones(1)
        out = merge_moments({**a, "scale": one}, {**b, "scale": one})
        return {key: np.asarray(out[key], dtype=np.float64) for key in KEYS}

    def estimate(self, stats, estimator):
        """Every cell's mean and variance (the last row: the class's), in the child's units."""
        top = tuple(np.asarray(stats[key][-1:], dtype=np.float64) for key in KEYS)
        cells = tuple(np.array(stats[key], dtype=np.float64) for key in KEYS)  # copies
        for a in cells:  # the class's row is the prior alone: no cell rows
            a[-1] = 0.0
        self.mean_, self.var_ = normal_given(estimator, cells, tuple(np.repeat(t, len(cells[0]), axis=0) for t in top),
                                             self.floor, self.m)

    weight_ = None  # discriminative weights per (parents' value, class), (n_configs + 1, K); None: none

    def log_likelihood(self, table):
        """log-density (n, K) of each row's value in the data's units (0 where it is missing), times
        the discriminative weight of its cell where there are weights."""
        parent = self.parent_codes(table)
        out = self.raw_log_likelihood(table, parent)
        return out if self.weight_ is None else out * self.weight_[parent]

    def raw_log_likelihood(self, table, parent=None):
        """:meth:`log_likelihood` without weights (``parent``: the rows' parent codes, if known)."""
        x = self.values(table)
        parent = self.parent_codes(table) if parent is None else parent
        present = ~np.isnan(x)
        out = normal_logpdf(np.where(present, x, 0.0)[:, None], self.mean_[parent], self.var_[parent]) - \
            math.log(self.scale)
        out[~present] = 0.0
        return out

    def loo_log_likelihood(self, stats, table, y, estimator):
        """Each training row's :meth:`log_likelihood` from the statistics less its own value."""
        x = self.values(table)
        out = loo_normal_given(estimator, stats, x, self.parent_codes(table), y, self.floor, self.m)
        out[~np.isnan(x)] -= math.log(self.scale)
        return out

    def to_dict(self, stats):
        return {"attribute": self.attribute, "parents": [p.to_dict() for p in self.parents], "m": self.m,
                "scale": self.scale, "floor": self.floor, **{key: np.asarray(stats[key]).tolist() for key in KEYS}}

    @classmethod
    def from_dict(cls, d, schema, k, readers, where):
        """A child and its statistics from a model file, every field checked: a numeric attribute of
        ``schema``, parents among the model's ``readers`` (as they read the attributes)."""
        a = index(d.get("attribute") if isinstance(d, dict) else None, f"{where}.attribute", len(schema))
        if schema.attributes[a].is_nominal:
            raise ValueError(f"{where}.attribute: expected a numeric attribute, got {schema.names[a]!r} (nominal)")
        parents = []
        for i, p in enumerate(field(d, "parents", list, where)):
            at = index(p.get("attribute") if isinstance(p, dict) else None, f"{where}.parents[{i}].attribute",
                       len(schema))
            if at == a or p != readers[at].to_dict():
                raise ValueError(f"{where}.parents[{i}]: expected another attribute as the model reads it")
            parents.append(readers[at])
        scale, m, floor = (float(numbers(d.get(key), f"{where}.{key}", (), low=0)) for key in ("scale", "m", "floor"))
        if scale <= 0 or math.frexp(scale)[0] != 0.5:
            raise ValueError(f"{where}.scale: expected a power of two, got {scale!r}")
        if m < MIN_M:  # a cell without rows takes its mean as m * mu / m: underflow makes another model
            raise ValueError(f"{where}.m: expected a prior weight of at least {MIN_M:g} rows, got {m!r}")
        child = cls(a, schema.numeric_indices.index(a), parents, m, scale, floor)
        shape = (child.n_configs + 1, k)
        stats = {key: numbers(d.get(key), f"{where}.{key}", shape, low=None if key == "mean" else 0) for key in KEYS}
        return child, stats

