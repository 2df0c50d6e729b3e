"""Out-of-sample log-posteriors of a model on its own training data.

Leave-one-out comes from the counts: each instance's own counts are taken out
and the model's estimators applied to the rest. For a
:class:`~seminaive.NaiveBayes` whose attributes are nominal or Gaussian (any
estimation, any class priors) that is what refitting without the instance
gives, but for the Gaussian variance floor, which is held as learned from all
the data (within 1e-9 of a refit's log-probabilities). Where a model also learns something else from all the data,
that part is held fixed and only the counts are left out: a wrapper search's
structure and cut points, a discretizer's cut points, a kernel's bandwidths,
the TAN, kDB and selective kDB structures (and their intervals). Any other
model (AnDE, a model of another library) gets out-of-fold log-posteriors from
k refits.
"""

import warnings

import numpy as np
from sklearn.base import clone

from .._target import unwrap
from ..core.capabilities import capabilities
from ..data.encoding import is_codes
from ..exceptions import UnseenValueWarning

__all__ = ["has_leave_one_out", "leave_one_out_log_proba", "out_of_fold_log_proba"]


def has_leave_one_out(model):
    """Whether :func:`leave_one_out_log_proba` serves this (unfitted) model (its class declares it:
    :mod:`seminaive.core.capabilities`)."""
    return capabilities(model).leave_one_out


def leave_one_out_log_proba(model, X, y):
    """Each training instance's log-posteriors (n, K) from the fitted ``model`` without it
    (``model`` must be fitted on ``X``, ``y``; see :func:`has_leave_one_out`): the model's own
    ``_loo_log_proba``, from its statistics (no refit)."""
    return model._loo_log_proba(X, y)


def out_of_fold_log_proba(estimator, X, y, folds, classes):
    """Log-posteriors (n, K) of each row from ``estimator`` refitted on the other folds (a class
    missing from a fold's training part gets probability 0 there)."""
    X, y = unwrap(X, y)
    if not hasattr(X, "iloc") and not is_codes(X):  # (integer codes select their rows)
        if hasattr(X, "__array__"):
            X = np.asarray(X)
        else:  # a list of rows: columns keep their own types
            import pandas as pd
            X = pd.DataFrame(list(X))
    y = y if hasattr(y, "iloc") else np.asarray(y).ravel()
    out = np.full((len(y), len(classes)), -np.inf)
    where = {c: j for j, c in enumerate(classes)}
    for tr, te in folds:
        m = clone(estimator).fit(_rows(X, tr), _rows(y, tr))
        cols = [where[c] for c in m.classes_]
        with np.errstate(divide="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", UnseenValueWarning)  # a value only in the held-out fold: expected
            out[np.ix_(te, cols)] = m.predict_log_proba(_rows(X, te))
    return out


def _rows(v, idx):
    """Rows ``idx`` of a DataFrame, Series or array."""
    return v.iloc[idx] if hasattr(v, "iloc") else v[idx]
