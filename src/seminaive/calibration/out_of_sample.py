"""Out-of-sample log-posteriors of a model on its own training data.

Leave-one-out comes from the search engine's statistics, where it is exactly
what refitting without each instance gives: a :class:`~seminaive.NaiveBayes`
whose attributes are nominal or Gaussian (any estimation, any class priors),
and a wrapper search's final model (its structure and cut points as found on
all the data). Any other model gets out-of-fold log-posteriors from k refits.
"""

import warnings

import numpy as np
from sklearn.base import clone

from .._target import encode_target, unwrap
from ..base import UnseenValueWarning
from ..components import Categorical, Gaussian, variance_floor
from ..components.gaussian import stats_scale
from ..data.encoding import encode
from ..exceptions import ParameterError

__all__ = ["has_leave_one_out", "leave_one_out_log_proba", "out_of_fold_log_proba"]


def has_leave_one_out(model):
    """Whether :func:`leave_one_out_log_proba` is exact for this (unfitted) model."""
    from ..naive_bayes import NaiveBayes
    from ..search.base import SearchNaiveBayes
    if isinstance(model, SearchNaiveBayes):
        return model.cv is None
    return type(model) is NaiveBayes and model.numeric == "gaussian"


def leave_one_out_log_proba(model, X, y):
    """Each training instance's log-posteriors (n, K) from the fitted ``model`` without it
    (``model`` must be fitted on ``X``, ``y``; see :func:`has_leave_one_out`)."""
    from ..naive_bayes import NaiveBayes
    from ..search.engine import BaseAttribute, Engine
    if not isinstance(model, NaiveBayes):  # a wrapper search: its own engine, at its final structure
        engine = model.build_engine(X, y)[0]
        return engine.log_proba(list(model.structure_.groups))
    X, y = unwrap(X, y)
    table = encode(X, model.schema_)
    ycodes = _class_codes(model, y, table.n_samples)
    gauss = [i for i, c in enumerate(model.components_) if isinstance(c, Gaussian)]
    floors = dict(zip(gauss, variance_floor([model.stats_[i] for i in gauss], model.var_smoothing,
                                            model.var_smoothing_rule)))
    attrs = []
    for i, c in enumerate(model.components_):
        name = model.schema_.attributes[c.attribute].name
        if isinstance(c, Gaussian):
            scale = float(stats_scale(model.stats_[i]))
            attrs.append(BaseAttribute(name, None, 0, table.numeric[:, c.column] / scale, floors[i], scale,
                                       model._estimator(name)))
        elif type(c) is Categorical:
            attrs.append(BaseAttribute(name, table.codes[:, c.column], c.n_values, estimator=model._estimator(name)))
        else:
            raise ParameterError(f"cv: leave-one-out needs nominal or Gaussian attributes; {name!r} is {c.kind}")
    engine = Engine(attrs, ycodes, len(model.classes_), model._estimator(None), model.priors)
    return engine.log_proba([(j,) for j in range(len(attrs))])


def _class_codes(model, y, n):
    codes, classes = encode_target(y, n)
    if list(classes) != list(model.classes_):
        raise ParameterError("y: expected the classes the model was fitted on")
    return codes


def out_of_fold_log_proba(estimator, X, y, folds, classes):
    """Log-posteriors (n, K) of each row from ``estimator`` refitted on the other folds (a class
    missing from a fold's training part gets probability 0 there)."""
    X, y = unwrap(X, y)
    if not hasattr(X, "iloc"):
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
