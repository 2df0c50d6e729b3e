"""Mutual information and conditional mutual information of coded attributes (in nats)."""

import math

import numpy as np

from ..core.counting import count_codes, joint_codes

__all__ = ["mutual_information", "conditional_mutual_information"]


def _joint_counts(a, b, z=None, weights=None):
    """(m_z, m_a, m_b) counts of the rows where a, b (and z) are present: the counting
    primitive with b the child and (z, a) the parents."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    z = np.zeros(a.size, dtype=np.int64) if z is None else np.asarray(z, dtype=np.int64)
    keep = (a >= 0) & (b >= 0) & (z >= 0)
    ma, mb, mz = (int(v[keep].max()) + 1 if keep.any() else 1 for v in (a, b, z))
    parent = np.where(keep, joint_codes([z, a], [mz, ma]), -1)
    counts = count_codes([np.where(keep, b, -1)], mb, np.zeros(a.size, dtype=np.intp), 1, parent=parent,
                         n_parent=mz * ma, weight=None if weights is None else np.asarray(weights, dtype=np.float64))
    return counts[0, 0, 0].reshape(mz, ma, mb)


def _cmi(counts):
    n = counts.sum()
    if n == 0:
        return 0.0
    pz = counts.sum(axis=(1, 2), keepdims=True)
    pa = counts.sum(axis=2, keepdims=True)
    pb = counts.sum(axis=1, keepdims=True)
    # each term symmetric in the two attributes, summed exactly rounded (math.fsum, whatever the order):
    # tables equal up to a permutation of values, classes or the two attributes give equal values to the
    # last bit, so that structure learning breaks exact ties by its rule, not by rounding noise
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = counts * (np.log(counts) + np.log(pz) - (np.log(pa) + np.log(pb)))
    return math.fsum(terms[counts > 0].tolist()) / float(n)


def mutual_information(a, b, weights=None):
    """I(A; B) from two code vectors (-1 = missing, pairs with a missing value left
    out), each pair counted with its weight (default 1).

    Examples
    --------
    >>> round(mutual_information(np.array([0, 0, 1, 1]), np.array([0, 0, 1, 1])), 4)
    0.6931
    >>> mutual_information(np.array([0, 1, 0, 1]), np.array([0, 0, 1, 1]))
    0.0
    """
    return _cmi(_joint_counts(np.asarray(a), np.asarray(b), weights=weights))


def conditional_mutual_information(a, b, z, weights=None):
    """I(A; B | Z), the TAN edge weight when Z is the class (``weights`` as in
    :func:`mutual_information`).

    Examples
    --------
    >>> a = np.array([0, 1, 0, 1, 0, 1, 0, 1]); z = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    >>> round(conditional_mutual_information(a, a ^ z, z), 4)
    0.6931
    """
    return _cmi(_joint_counts(np.asarray(a), np.asarray(b), np.asarray(z), weights))
