"""The protocol every per-attribute distribution follows.

A component reads its column(s) of an :class:`~seminaive.data.EncodedTable`
and does three things:

1. ``count(table, y, n_classes, weight)`` returns per-class sufficient
   statistics: a dict of arrays that add (or, for moments, merge) across data;
2. ``estimate(stats, estimator, **context)`` maps statistics to parameters;
3. ``log_likelihood(table)`` returns log P(x_j | c) as an (n, n_classes)
   array, 0 where the value is missing.

Each component type also offers batched forms over several components of
that type, ``count_many`` and ``add_log_likelihood_many``, which give the same
numbers in one cache-friendly pass over the data; models use those.
"""

__all__ = ["Component", "count_components", "estimate_components"]


class Component:
    """Base class of per-attribute distributions.

    Attributes
    ----------
    attribute : int
        The attribute's index in the schema.
    column : int
        The column of the encoded block (codes or numeric) the component reads.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> nb = NaiveBayes().fit(load("weather.numeric"))
    >>> [type(c).__name__ for c in nb.components_]
    ['Categorical', 'Gaussian', 'Gaussian', 'Categorical']
    """

    kind = None

    def __init__(self, attribute, column):
        self.attribute = attribute
        self.column = column

    def count(self, table, y, n_classes, weight):  # pragma: no cover - protocol
        raise NotImplementedError

    def estimate(self, stats, estimator, **context):  # pragma: no cover - protocol
        raise NotImplementedError

    def log_likelihood(self, table):  # pragma: no cover - protocol
        raise NotImplementedError

    @classmethod
    def count_many(cls, comps, table, y, n_classes, weight):
        """Statistics of several components of this type (default: one by one)."""
        return [c.count(table, y, n_classes, weight) for c in comps]

    @classmethod
    def estimate_many(cls, comps, stats, estimator, names):
        """Estimate several components of this type with one ``estimator`` (default: one by one;
        ``names``: each one's attribute name)."""
        for c, s, name in zip(comps, stats, names):
            c.estimate(s, estimator, name=name)

    @classmethod
    def add_log_likelihood_many(cls, comps, table, out):
        """Add the log-likelihoods of several components of this type to ``out`` (n, K)."""
        for c in comps:
            out += c.log_likelihood(table)
        return out

    @staticmethod
    def merge(a, b):  # pragma: no cover - protocol
        """Statistics of the union of two data sets from theirs."""
        raise NotImplementedError

    def to_dict(self):
        """What rebuilds the (unfitted) component: kind, position, learned structure."""
        return {"kind": self.kind, "attribute": self.attribute, "column": self.column}

    @classmethod
    def from_dict(cls, d):
        return cls(d["attribute"], d["column"])


def count_components(components, table, codes, k, weight=None):
    """The statistics of every component of an encoded ``table`` with class codes ``codes``
    (``k`` classes, optional weights), each component type counted in one batched pass.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from seminaive.components import Categorical
    >>> from seminaive.data import encode, infer_schema
    >>> X = pd.DataFrame({"a": ["x", "y", "x"]})
    >>> table = encode(X, infer_schema(X))
    >>> count_components([Categorical(0, 0, 2)], table, np.array([0, 1, 1]), 2)[0]["counts"].tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    kinds = dict.fromkeys(map(type, components))
    if len(kinds) == 1:  # one kind (a wide numeric table): its statistics in order
        return list(next(iter(kinds)).count_many(list(components), table, codes, k, weight))
    stats = [None] * len(components)
    for kind in kinds:
        idx = [i for i, c in enumerate(components) if type(c) is kind]
        for i, st in zip(idx, kind.count_many([components[i] for i in idx], table, codes, k, weight)):
            stats[i] = st
    return stats


def estimate_components(components, stats, estimator, names):
    """Estimate every component from its statistics with one ``estimator``, each component type in
    one batched call (``names``: the attribute names, by attribute index).

    Examples
    --------
    >>> import numpy as np
    >>> from seminaive.components import Categorical
    >>> from seminaive.estimation import Frequency
    >>> comps = [Categorical(0, 0, 2), Categorical(1, 1, 2)]
    >>> stats = [{"counts": np.array([[3.0, 1.0]])}, {"counts": np.array([[0.0, 2.0]])}]
    >>> estimate_components(comps, stats, Frequency(alpha=1), ["a", "b"])
    >>> np.exp(comps[0].log_table_[:, 0]).round(3).tolist()  # P(a = 0), P(a = 1), missing: 1
    [0.667, 0.333, 1.0]
    """
    for kind in dict.fromkeys(map(type, components)):
        idx = [i for i, c in enumerate(components) if type(c) is kind]
        kind.estimate_many([components[i] for i in idx], [stats[i] for i in idx], estimator,
                           [names[components[i].attribute] for i in idx])
