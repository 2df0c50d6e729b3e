"""What the scoring engine reads: its attributes, the terms it scores (a group
of attributes, or a group given parents) and data in memory as its one chunk."""

from typing import NamedTuple

import numpy as np

__all__ = ["BaseAttribute", "Given", "NormalGiven", "ArraySource"]


class BaseAttribute:
    """One attribute as the engine sees it: its ``name``, ``m`` values (of its
    codes: nominal, or its intervals when numeric), whether it is ``gaussian``
    when alone, with its variance ``floor``, the power of two ``scale`` its
    values are divided by (the Gaussian component's units) and its
    ``estimator`` (None: the engine's); for data in memory also its ``codes``
    and values ``x`` (in those units)."""

    def __init__(self, name, codes, m, x=None, floor=0.0, scale=1.0, estimator=None, gaussian=None):
        self.name, self.m, self.x = name, int(m), x
        self.codes = None if codes is None else np.asarray(codes, dtype=np.int64)
        self.floor, self.scale, self.estimator = floor, scale, estimator
        self.gaussian = x is not None if gaussian is None else gaussian

    @property
    def numeric(self):
        return self.gaussian


class Given(NamedTuple):
    """A conditional term: the attribute group ``child`` given the attributes ``parents``
    (a kDB table, P(x_child | class, x_parents)); rows whose parents are missing take
    the child's distribution in the class alone."""

    child: tuple
    parents: tuple


class NormalGiven(NamedTuple):
    """A numeric attribute ``child`` (a 1-tuple) normal in each class and joint value of ``parents``,
    its mean and variance in a cell shrunk toward the class's by ``m`` rows' worth
    (:func:`seminaive.components._normal_given.normal_given`); rows whose parents are missing take the
    class's."""

    child: tuple
    parents: tuple
    m: float


def _key(g):
    return g if isinstance(g, (Given, NormalGiven)) else tuple(g)


def _weight(chunk):
    """A chunk's instance weights (None: every instance once)."""
    return chunk[5] if len(chunk) > 5 else None


class ArraySource:
    """Data in memory as the one chunk an engine reads: ``(first row, codes per
    attribute, values per attribute, class codes, folds, weights)``. An engine
    over a single chunk keeps every contribution it computes."""

    single = True

    def __init__(self, attributes, y, weight=None):
        self.attributes, self.y, self.weight = attributes, y, weight

    def __iter__(self):
        yield 0, [a.codes for a in self.attributes], [a.x for a in self.attributes], self.y, None, self.weight
