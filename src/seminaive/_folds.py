"""The folds of k-fold cross-validation, as the searches and the calibration draw them."""

import numpy as np

from .exceptions import ParameterError

__all__ = ["make_folds"]


def make_folds(y, cv, random_state):
    """(train, test) index pairs: ``cv`` stratified shuffled folds of the class codes ``y``
    (plain shuffled ones when a class has fewer rows than folds), or the folds ``cv`` given.

    Examples
    --------
    >>> [te.tolist() for _, te in make_folds(np.array([0, 0, 1, 1]), 2, 0)]
    [[1, 2], [0, 3]]
    """
    if not isinstance(cv, (int, np.integer)):
        return [(np.asarray(tr), np.asarray(te)) for tr, te in cv]
    if cv > len(y):
        raise ParameterError(f"cv: expected at most as many folds as instances (n_samples={len(y)}), got {cv}")
    from sklearn.model_selection import KFold, StratifiedKFold
    counts = np.bincount(y)
    kind = StratifiedKFold if counts[counts > 0].min() >= cv else KFold
    return list(kind(cv, shuffle=True, random_state=random_state).split(np.zeros(len(y)), y))
