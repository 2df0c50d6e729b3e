"""Exact leave-one-out posteriors of a Naive Bayes from its own statistics.

Each instance's own counts are taken out and the model's estimators applied
to the rest: for nominal and Gaussian attributes (any estimation, any class
priors) that is what refitting without the instance gives, but for the
Gaussian variance floor, held as learned from all the data; discretized
attributes keep their cut points and kernels their bandwidths.
"""

import numpy as np

from .._target import encode_target, unwrap
from ..components import Categorical, Gaussian, Kernel, variance_floor
from .._scale import stats_scale
from ..data.encoding import encode
from ..estimation.frequency import Frequency
from ..exceptions import ParameterError
from .engine import BaseAttribute, Engine
from .held_out import loo_gaussian_many

__all__ = ["naive_bayes_loo"]


def naive_bayes_loo(model, X, y):
    """Leave-one-out log-posteriors (n, K) of a Naive Bayes fitted on ``X``, ``y``.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> y = d.y.astype(str)
    >>> loo = naive_bayes_loo(NaiveBayes().fit(d.X, y), d.X, y)
    >>> refit = NaiveBayes().fit(d.X.drop(index=0), y.drop(index=0)).predict_log_proba(d.X.iloc[:1])
    >>> bool(np.allclose(loo[0], refit[0]))
    True
    """
    X, y = unwrap(X, y)
    table = encode(X, model.schema_)
    ycodes = _class_codes(model, y, table.n_samples)
    gauss = [i for i, c in enumerate(model.components_) if isinstance(c, Gaussian)]
    floors = dict(zip(gauss, variance_floor([model.stats_[i] for i in gauss], model.var_smoothing,
                                            model.var_smoothing_rule)))
    names = [model.schema_.attributes[c.attribute].name for c in model.components_]
    batched = [i for i in gauss if _plain_moments(model._estimator(names[i]))]
    counted = [i for i, c in enumerate(model.components_)
               if isinstance(c, Categorical) and _plain_counts(model._estimator(names[i]))]
    attrs, stats = [], {}
    for i, c in enumerate(model.components_):
        if i in batched or i in counted:
            continue
        name = names[i]
        if isinstance(c, Gaussian):
            scale = float(stats_scale(model.stats_[i]))
            attrs.append(BaseAttribute(name, None, 0, table.numeric[:, c.column] / scale, floors[i], scale,
                                       model._estimator(name)))
            stats[(len(attrs) - 1,)] = [model.stats_[i]]  # the model's moments, in the same units
        elif isinstance(c, Categorical):  # nominal, or numeric in the model's intervals
            attrs.append(BaseAttribute(name, _codes(table, c), c.n_values, estimator=model._estimator(name)))
            stats[(len(attrs) - 1,)] = model.stats_[i]["counts"][None]
    engine = Engine(attrs, ycodes, len(model.classes_), model._estimator(None), model.priors)
    engine.stats, engine.class_counts = stats, model.class_count_[None]
    extra = None
    kernels = [c for c in model.components_ if isinstance(c, Kernel)]
    if kernels:
        with np.errstate(divide="ignore"):
            extra = sum(c.loo_log_likelihood(table, ycodes) for c in kernels)
    if counted:
        part = _loo_categorical_sum([(_codes(table, model.components_[i]), model.stats_[i]["counts"],
                                      float(model._estimator(names[i]).alpha)) for i in counted], ycodes)
        extra = part if extra is None else extra + part
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
    return type(estimator).gaussian is Frequency.gaussian and getattr(estimator, "degrees_of_freedom", None) is None


def _codes(table, c):
    """A categorical component's codes: a nominal attribute's own, or a numeric one's intervals."""
    return table.codes[:, c.column] if type(c) is Categorical else c.codes(table)


def _plain_counts(estimator):
    """Whether an estimator's categorical tables are Lidstone's, (n + alpha) / (N + alpha m), held
    out as :meth:`Frequency.loo_estimate` holds them out: then every such attribute's leave-one-out
    is one array computation (:func:`_loo_categorical_sum`)."""
    kind = type(estimator)
    return all(getattr(kind, f) is getattr(Frequency, f) for f in ("categorical", "_pseudo", "loo_categorical",
                                                                  "loo_conditional", "loo_estimate", "loo_pseudo"))


def _loo_categorical_sum(parts, y, cells=2_000_000):
    """Sum over categorical attributes of leave-one-out log P(value | class), (n, K), for ``parts``
    of (codes (n,), counts (K, m), alpha): each attribute's table gathered for every class, then the
    row's own class's entry replaced by its estimate without the row (what
    :meth:`Frequency.loo_conditional` gives attribute by attribute); missing values add nothing."""
    n, k = y.size, parts[0][1].shape[0]
    tables, own, offsets = [], [], [0]
    for codes, counts, alpha in parts:
        counts = np.asarray(counts, dtype=np.float64)
        m = counts.shape[1]
        den = counts.sum(axis=1, keepdims=True) + alpha * m
        with np.errstate(divide="ignore", invalid="ignore"):
            table = np.where(den > 0, np.log(counts + alpha) - np.log(den), -np.log(m))
            held = np.where(den > 1, np.log(counts - 1.0 + alpha) - np.log(den - 1.0), -np.log(m))
        tables.append(table.T)
        own.append((held - table).T)  # (m, K): the change where the row's class is the column's
        offsets.append(offsets[-1] + m)
    tables.append(np.zeros((1, k)))  # the row a missing value reads
    own.append(np.zeros((1, k)))
    tables, own = np.concatenate(tables), np.concatenate(own)
    out = np.zeros((n, k))
    step = max(1, cells // max(1, n * k))
    for lo in range(0, len(parts), step):
        block = parts[lo:lo + step]
        at = np.column_stack([np.where(c >= 0, c.astype(np.int64) + offsets[lo + j], offsets[-1])
                              for j, (c, _, _) in enumerate(block)])
        out += tables[at].sum(axis=1)
        out[np.arange(n), y] += own[at, y[:, None]].sum(axis=1)
    return out


def _loo_gaussian_sum(est, stats, floors, x, y, cells=2_000_000):
    """Sum over Gaussian attributes of leave-one-out log-densities, (n, K) (:func:`.held_out.loo_gaussian_many`,
    in blocks of attributes of about ``cells`` numbers); missing values add nothing."""
    n, d = x.shape
    w, mean, m2 = (np.stack([s[key] for s in stats]) for key in ("weight", "mean", "m2"))  # (d, K)
    out = np.zeros((n, w.shape[1]))
    step = max(1, cells // max(1, n * w.shape[1]))
    for lo in range(0, d, step):
        sl = slice(lo, lo + step)
        with np.errstate(invalid="ignore"):
            out += loo_gaussian_many(est, w[sl], mean[sl], m2[sl], x[:, sl], y, floors[sl]).sum(axis=1)
    return out


def _class_codes(model, y, n):
    codes, classes = encode_target(y, n)
    if list(classes) != list(model.classes_):
        raise ParameterError("y: expected the classes the model was fitted on")
    return codes
