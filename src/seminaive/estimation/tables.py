"""A conditional table's estimates, for the fit and held out: an estimator sees
the counts (classes, parent slots, child values) with their parent axis, the last
parent slot being the rows whose parents are missing (estimated from the class
alone, the table it backs off to). The same formula gives the fitted table, each
row's leave-one-out estimate and each fold's estimate from the other folds.
"""

import numpy as np

__all__ = ["log_tables", "loo_log_table", "fold_log_tables", "fold_log_table"]


def log_tables(counts, estimator, levels=None, key=()):
    """The log table (parent slots, m + 1, K) ``estimator`` makes from counts (K, parent slots, m):
    the parents' rows by its conditional formula, the last slot (a parent missing) from the class
    alone; the extra child code (-1, missing) contributes nothing. An estimator that smooths along
    the parents (a hierarchy) makes the whole table itself (its ``log_table``), from the parents'
    numbers of values ``levels`` (default: one parent) and the table's ``key`` (its seed).

    Examples
    --------
    >>> from seminaive.estimation import Frequency
    >>> counts = np.array([[[2.0, 0.0], [0.0, 0.0]]])  # one class, one parent value and the missing slot
    >>> np.exp(log_tables(counts, Frequency(alpha=1))[:, :, 0]).round(3).tolist()
    [[0.75, 0.25, 1.0], [0.75, 0.25, 1.0]]
    """
    counts = np.asarray(counts, dtype=np.float64)
    k, slots, m = counts.shape
    if hasattr(estimator, "log_table"):
        return estimator.log_table(counts, (slots - 1,) if levels is None else levels, key)
    alone = counts.sum(axis=1)  # (K, m): P(child | class), for a row whose parents are missing
    present = estimator.conditional(counts[:, :-1], n_values=m, backoff=alone)  # the parent axis kept
    table = np.concatenate([present, estimator.categorical(alone, n_values=m)[:, None, :]], axis=1)
    return np.concatenate([table.transpose(1, 2, 0), np.zeros((slots, 1, k))], axis=1)


def loo_log_table(counts, estimator, child, parent, y):
    """Leave-one-out log P(child | class, parents) of every row, (n, K), from the counts
    (K, parent slots, m) of all the rows: :func:`log_tables`'s estimate with the row's own
    count taken out (the estimator's ``loo_conditional``); 0 where the child is missing."""
    counts = np.asarray(counts, dtype=np.float64)
    k, slots, m = counts.shape
    out = np.zeros((np.size(child), k))
    present = parent < slots - 1
    out[present] = estimator.loo_conditional(counts[:, :-1], child[present], parent[present], y[present], m)
    alone = ~present
    out[alone] = estimator.loo_conditional(counts.sum(axis=1)[:, None], child[alone],
                                           np.zeros(int(alone.sum()), dtype=np.intp), y[alone], m)
    return out


def fold_log_tables(estimate, fold_counts):
    """Each fold's estimate from the counts of the other folds: ``estimate(total - fold_counts[f])``
    for every fold f, stacked (the k-fold side of held-out estimation).

    Examples
    --------
    >>> fold_log_tables(lambda c: c, np.array([[1.0, 0.0], [2.0, 5.0]])).tolist()
    [[2.0, 5.0], [1.0, 0.0]]
    """
    fold_counts = np.asarray(fold_counts, dtype=np.float64)
    total = fold_counts.sum(axis=0)
    return np.stack([estimate(total - c) for c in fold_counts])


def fold_log_table(fold_counts, estimator, child, parent, fold):
    """Out-of-fold log P(child | class, parents) of every row, (n, K): each fold's rows under
    the table :func:`log_tables` makes from the counts (folds, K, parent slots, m) of the other folds."""
    tables = fold_log_tables(lambda c: log_tables(c, estimator), fold_counts)
    return tables[fold, parent, child]
