"""Every pair of attribute values counted by class, as one dense array, from AODE's counts: what
the one-dependence models that weigh or prune super-parents per row (WAODE, AODEsr, hidden Naive
Bayes) read. Their counting is AODE's (one pass; partial fits, merges, files, Parquet and Dask
for free); this module lays the counts out and gives the references' estimates and weights.

Layout: attribute ``a`` takes the slots ``start[a] .. start[a] + m_a`` (its values, then one slot
for "missing"). ``counts[c, u, v]`` is the (weighted) number of training rows of class ``c`` with
slot ``u`` and slot ``v`` (Weka's ``m_CondiCounts``); ``counts[c, u, u]`` the rows of class ``c``
with slot ``u``.
"""

from collections import namedtuple

import numpy as np

from .._memory import check_memory

__all__ = ["PairCounts", "pair_counts", "smoothed", "mutual_information", "conditional_mutual_information",
           "WEKA_SMALL"]

WEKA_SMALL = 1e-6  # Weka's Utils.SMALL: its information sums leave out a term whose probabilities are below it

PairCounts = namedtuple("PairCounts", "counts start widths n_total")


def pair_counts(model):
    """The :class:`PairCounts` of a fitted AODE-counted ``model`` (its ``stats_``, ``parent_stats_``
    and ``joint_stats_``).

    Examples
    --------
    >>> from seminaive import AODE
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> pc = pair_counts(AODE().fit(d))
    >>> pc.counts.shape, pc.start.tolist()  # 2 classes; 3 + 1, 3 + 1, 2 + 1, 2 + 1 slots
    ((2, 14, 14), [0, 4, 8, 11])
    >>> float(pc.counts.sum(axis=0)[0, 4])  # outlook sunny and temperature hot, both classes
    2.0
    """
    widths = np.array([r.n_values for r in model.readers_], dtype=np.int64)
    start = np.concatenate([[0], np.cumsum(widths + 1)[:-1]]).astype(np.int64)
    total, k = int((widths + 1).sum()), len(model.classes_)
    check_memory(8 * k * total * total, f"{type(model).__name__}'s pair counts ({k} classes x {total} x {total} "
                 f"values)", "fewer attributes or values")
    counts = np.zeros((k, total, total))
    class_count = np.asarray(model.class_count_, dtype=np.float64)
    for a, m in enumerate(widths.tolist()):
        alone = model.stats_[a]["counts"][:, 0, :m]
        s = start[a]
        counts[:, np.arange(s, s + m), np.arange(s, s + m)] = alone
        counts[:, s + m, s + m] = class_count - alone.sum(axis=1)  # rows of the class with a missing
    for P, stack in zip(model.parent_sets_, model.parent_stats_):
        p = P[0]
        sp, mp = start[p], widths[p]
        joint = model.joint_stats_[[Q[0] for Q in model.parent_sets_].index(p)]  # (K, m_p + 1)
        children = [a for a in range(len(widths)) if a != p]
        for t, a in enumerate(children):
            sa, ma = start[a], widths[a]
            block = stack[t, :, :, :ma]  # (K, m_p + 1, m_a)
            counts[:, sp:sp + mp + 1, sa:sa + ma] = block
            counts[:, sp:sp + mp + 1, sa + ma] = joint - block.sum(axis=2)  # the child missing
    return PairCounts(counts, start, widths, float(class_count.sum()))


def smoothed(f, total, width, m=1.0, laplace=False):
    """The references' estimate of a probability from a count ``f`` out of ``total`` over ``width``
    values: Cestnik's m-estimate toward the uniform, (f + m / width) / (total + m), or with
    ``laplace`` Laplace's (f + 1) / (total + width) (Weka's AODEsr ``-M`` and ``-L``; WAODE and
    hidden Naive Bayes use the m-estimate with m = 1).

    Examples
    --------
    >>> float(smoothed(3.0, 9.0, 2)), float(smoothed(3.0, 9.0, 2, laplace=True))
    (0.35, 0.36363636363636365)
    """
    if laplace:
        return (f + 1.0) / (total + width)
    return (f + m / width) / (total + m)


def _weka_log2(x, y):
    """log2(x / y), 0 where x or y is below Weka's SMALL (its ``log2`` in WAODE and HNB)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(x / y) / np.log(2.0)
    return np.where((x < WEKA_SMALL) | (y < WEKA_SMALL), 0.0, out)


def _owners(pc):
    """(slots, d) indicator of each present-value slot's attribute (a missing slot belongs to none)."""
    total = pc.counts.shape[1]
    owner = np.repeat(np.arange(len(pc.widths)), pc.widths + 1)
    present = np.ones(total, dtype=bool)
    present[pc.start + pc.widths] = False
    out = np.zeros((total, len(pc.widths)))
    out[np.flatnonzero(present), owner[present]] = 1.0
    return out


def mutual_information(pc, class_count):
    """Each attribute's mutual information with the class in bits, from plug-in probabilities, a term
    left out where its probabilities fall below Weka's SMALL (as WAODE computes its weights).

    Examples
    --------
    >>> from seminaive import AODE
    >>> from seminaive.datasets import load
    >>> m = AODE().fit(load("weather.nominal"))
    >>> np.round(mutual_information(pair_counts(m), m.class_count_), 4).tolist()  # outlook the most informative
    [0.2467, 0.0292, 0.1518, 0.0481]
    """
    n = pc.n_total
    total = pc.counts.shape[1]
    joint = pc.counts[:, np.arange(total), np.arange(total)] / n  # P(c, u), (K, slots)
    prior = np.asarray(class_count, dtype=np.float64)[:, None] / n
    terms = joint * _weka_log2(joint, prior * joint.sum(axis=0)[None, :])
    return terms.sum(axis=0) @ _owners(pc)


def conditional_mutual_information(pc, class_count):
    """The conditional mutual information I(A_s; A_p | C) in bits of every ordered pair (s, p), (d, d)
    with 0 on the diagonal, from plug-in probabilities, a term left out where its probabilities'
    products fall below Weka's SMALL (as hidden Naive Bayes computes its weights)."""
    n = pc.n_total
    total = pc.counts.shape[1]
    both = pc.counts / n  # P(c, u, v)
    alone = both[:, np.arange(total), np.arange(total)]  # P(c, u)
    prior = np.asarray(class_count, dtype=np.float64)[:, None, None] / n
    terms = (both * _weka_log2(both * prior, alone[:, :, None] * alone[:, None, :])).sum(axis=0)  # [u (parent), v (son)]
    owners = _owners(pc)
    out = (owners.T @ terms @ owners).T  # [son, parent]
    np.fill_diagonal(out, 0.0)
    return out
