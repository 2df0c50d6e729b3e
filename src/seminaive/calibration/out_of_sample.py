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

from .._target import encode_target, unwrap
from ..base import UnseenValueWarning
from ..components import Categorical, Gaussian, Kernel, variance_floor
from ..components.gaussian import normal_logpdf, stats_scale
from ..data.encoding import encode
from ..exceptions import ParameterError

__all__ = ["has_leave_one_out", "leave_one_out_log_proba", "out_of_fold_log_proba"]


def has_leave_one_out(model):
    """Whether :func:`leave_one_out_log_proba` serves this (unfitted) model."""
    from ..bayesnet.kdb import KDB
    from ..bayesnet.tan import TAN
    from ..naive_bayes import NaiveBayes
    from ..search.base import SearchNaiveBayes
    if isinstance(model, SearchNaiveBayes):
        return model.cv is None
    return type(model) is NaiveBayes or isinstance(model, (TAN, KDB))  # KDB: the selective one too


def leave_one_out_log_proba(model, X, y, table=None, ycodes=None):
    """Each training instance's log-posteriors (n, K) from the fitted ``model`` without it
    (``model`` must be fitted on ``X``, ``y``; see :func:`has_leave_one_out`). For a Naive Bayes,
    ``table`` and ``ycodes`` may give the encoded training data (as ``_fit_table`` returns them);
    its own statistics then serve, with no pass over the data."""
    from ..naive_bayes import NaiveBayes
    from ..core.engine import BaseAttribute, Engine
    if hasattr(model, "_loo_log_proba") and not isinstance(model, NaiveBayes):  # TAN, kDB: their tables
        return model._loo_log_proba(X, y)
    if not isinstance(model, NaiveBayes):  # a wrapper search: its own engine, at its final structure
        engine = model.build_engine(X, y)[0]
        return engine.log_proba(list(model.structure_.groups))
    if table is None:
        X, y = unwrap(X, y)
        table = encode(X, model.schema_)
        ycodes = _class_codes(model, y, table.n_samples)
    gauss = [i for i, c in enumerate(model.components_) if isinstance(c, Gaussian)]
    floors = dict(zip(gauss, variance_floor([model.stats_[i] for i in gauss], model.var_smoothing,
                                            model.var_smoothing_rule)))
    names = [model.schema_.attributes[c.attribute].name for c in model.components_]
    batched = [i for i in gauss if _plain_moments(model._estimator(names[i]))]
    attrs, stats = [], {}
    for i, c in enumerate(model.components_):
        if i in batched:
            continue
        name = names[i]
        if isinstance(c, Gaussian):
            scale = float(stats_scale(model.stats_[i]))
            attrs.append(BaseAttribute(name, None, 0, table.numeric[:, c.column] / scale, floors[i], scale,
                                       model._estimator(name)))
            stats[(len(attrs) - 1,)] = [model.stats_[i]]  # the model's moments, in the same units
        elif isinstance(c, Categorical):  # nominal, or numeric in the model's intervals
            codes = table.codes[:, c.column] if type(c) is Categorical else c.codes(table)
            attrs.append(BaseAttribute(name, codes, c.n_values, estimator=model._estimator(name)))
            stats[(len(attrs) - 1,)] = model.stats_[i]["counts"][None]
    engine = Engine(attrs, ycodes, len(model.classes_), model._estimator(None), model.priors)
    engine.stats, engine.class_counts = stats, model.class_count_[None]
    extra = None
    kernels = [c for c in model.components_ if isinstance(c, Kernel)]
    if kernels:
        with np.errstate(divide="ignore"):
            extra = sum(c.loo_log_likelihood(table, ycodes) for c in kernels)
    if batched:
        comps = [model.components_[i] for i in batched]
        x = np.column_stack([table.numeric[:, c.column] / float(stats_scale(model.stats_[i]))
                             for i, c in zip(batched, comps)])
        part = _loo_gaussian_sum(model._estimator(names[batched[0]]), [model.stats_[i] for i in batched],
                                 np.array([floors[i] for i in batched]), x, ycodes)
        extra = part if extra is None else extra + part
    return engine.log_proba([(j,) for j in range(len(attrs))], extra)


def _plain_moments(estimator):
    """Whether an estimator's Gaussians are the moments' own (mean, variance with ddof): then
    every such attribute's leave-one-out is one array computation (Normal-Gamma ones go one by one)."""
    from ..estimation.frequency import Frequency
    return type(estimator).gaussian is Frequency.gaussian and getattr(estimator, "degrees_of_freedom", None) is None


def _loo_gaussian_sum(est, stats, floors, x, y, cells=2_000_000):
    """Sum over Gaussian attributes of leave-one-out log-densities, (n, K): every row's class
    moments downdated by its own value (the engine's ``loo_gaussian``, for many attributes at
    once, in blocks of about ``cells`` numbers); missing values add nothing."""
    n, d = x.shape
    w, mean, m2 = (np.stack([s[key] for s in stats]) for key in ("weight", "mean", "m2"))  # (d, K)
    k = w.shape[1]
    out = np.zeros((n, k))
    step = max(1, cells // max(1, n * k))
    rows = np.arange(n)[:, None]
    for lo in range(0, d, step):
        sl = slice(lo, lo + step)
        xb = x[:, sl]
        present = ~np.isnan(xb)
        xv = np.where(present, xb, 0.0)
        cols = np.arange(xb.shape[1])[None, :]
        W, M, Q = (np.repeat(a[sl][None], n, axis=0) for a in (w, mean, m2))  # (n, block, K)
        yy = np.broadcast_to(y[:, None], xb.shape)
        wy, my, qy = W[rows, cols, yy], M[rows, cols, yy], Q[rows, cols, yy]
        w_new = wy - 1.0
        m_new = np.where(w_new > 0, (wy * my - xv) / np.where(w_new > 0, w_new, 1.0), 0.0)
        W[rows, cols, yy] = np.where(present, w_new, wy)
        M[rows, cols, yy] = np.where(present, m_new, my)
        Q[rows, cols, yy] = np.where(present, qy - (xv - my) * (xv - m_new), qy)
        mu, var = est.gaussian(W, M, np.maximum(Q, 0.0), floors[sl][None, :, None])
        part = normal_logpdf(xv[..., None], mu, var)
        part[~present] = 0.0
        with np.errstate(invalid="ignore"):
            out += part.sum(axis=1)
    return out


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
