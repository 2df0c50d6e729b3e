"""The one fold maker: the k folds of cross-validation for the searches,
selective kDB, calibration and ``evaluate``, in memory, streamed and on Dask.

The folds depend only on the class labels in data order, ``k`` and the seed:
classes are taken in the order of their labels' text; the rows of a class are
dealt into the folds by a seeded permutation, continuing where the previous
class stopped, so every fold holds each class's rows within one and the folds'
sizes differ by at most one. The same data gives the same folds to every
model, whatever codes a model gives its classes.
"""

import numpy as np

from .._seeds import SEED_LIMIT
from ..exceptions import ParameterError

__all__ = ["stratified_folds", "fold_pairs", "fold_labels", "make_folds"]


def _generator(random_state):
    """A numpy Generator from a seed, None or a legacy RandomState."""
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(SEED_LIMIT - 1))
    return np.random.default_rng(random_state)


def stratified_folds(y, k, random_state=0):
    """Each row's fold (0..k-1): stratified by class, balanced, seeded (see the module's notes).

    Examples
    --------
    >>> f = stratified_folds(["a"] * 6 + ["b"] * 4, 2, 0)
    >>> np.bincount(f).tolist(), np.bincount(f[:6]).tolist(), np.bincount(f[6:]).tolist()
    ([5, 5], [3, 3], [2, 2])
    """
    y = np.asarray(y, dtype=object)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise ParameterError(f"cv: expected a whole number of folds >= 2, got {k!r}")
    if k > len(y):
        raise ParameterError(f"cv: expected at most as many folds as instances (n_samples={len(y)}), got {k}")
    labels, codes = np.unique(y.astype(str), return_inverse=True)
    rng = _generator(random_state)
    fold = np.empty(len(y), dtype=np.int64)
    start = 0
    for c in range(len(labels)):
        rows = np.flatnonzero(codes == c)
        fold[rows[rng.permutation(rows.size)]] = (start + np.arange(rows.size)) % k
        start += rows.size
    return fold


def fold_pairs(fold):
    """(train, test) index pairs from each row's fold.

    >>> [te.tolist() for _, te in fold_pairs(np.array([1, 0, 1]))]
    [[1], [0, 2]]
    """
    return [(np.flatnonzero(fold != f), np.flatnonzero(fold == f)) for f in range(int(fold.max()) + 1)]


def fold_labels(splits, n):
    """Each instance's fold (the fold whose test part holds it) from (train, test)
    pairs that partition the instances, each training on all the others."""
    fold = np.full(n, -1, dtype=np.int64)
    for f, (_, te) in enumerate(splits):
        te = np.asarray(te, dtype=np.int64)
        if (fold[te] >= 0).any():
            raise ParameterError("cv: the folds' test parts must not overlap")
        fold[te] = f
    if (fold < 0).any():
        raise ParameterError("cv: every instance must be in the test part of one fold")
    for f, (tr, _) in enumerate(splits):
        if not np.array_equal(np.sort(np.asarray(tr, dtype=np.int64)), np.flatnonzero(fold != f)):
            raise ParameterError("cv: each fold must train on all the instances of the other folds")
    return fold


def make_folds(y, cv, random_state):
    """(train, test) index pairs: the :func:`stratified_folds` of the labels ``y``
    for a number ``cv``, or the folds ``cv`` given.

    Examples
    --------
    >>> [te.tolist() for _, te in make_folds(np.array(["p", "p", "q", "q"]), 2, 0)]
    [[0, 2], [1, 3]]
    """
    if not isinstance(cv, (int, np.integer)):
        return [(np.asarray(tr), np.asarray(te)) for tr, te in cv]
    return fold_pairs(stratified_folds(y, cv, random_state))
