"""Discriminative weights for AODE's relatives (``discriminative="table"`` or ``"parameter"``), fitted to
the conditional log-likelihood of the training rows by L-BFGS from the generative model, with the
family's penalty ``penalty / 2 * sum (theta - 1)^2`` (:mod:`.discriminative`: its minimizer, its passes
over chunks, its choice of the penalty by held-out folds).

- WAODE and AODEsr average super-parent models, each weighed by its own weight (WAODE's information, 1
  for AODEsr). Their weights are factors on those: ``"table"`` one per super-parent, ``"parameter"`` one
  per super-parent value and class,

      P(c | x) ~ sum over the kept super-parents p of w_p f_p[x_p, c] P(c, x_p) prod_s P(x_s | c, x_p),

  each factor ``f = exp(theta - 1)`` (positive; ``theta`` = 1 is the model itself). Rows where no
  super-parent is kept (Naive Bayes answers) carry no weight.
- Hidden Naive Bayes is a product of one term per attribute (its hidden parent's mixture), so its
  weights are the family's log-linear ones (WANBIA's, ALR's) on those terms:
  log P(c | x) = v_c log P(c) + sum_s w_s[x_s, c] log sum_p W_sp P(x_s | c, x_p) - log Z(x), ``"table"``
  one weight per attribute in [0, 1], ``"parameter"`` one per attribute value and class.
"""

import numpy as np

from .._state import numbers
from ..learning.sources import OneTable
from .discriminative import Weighting, _minimize, _objective, iterations, summed_objective
from .one_dependence_kernel import hidden_parents
from .weight_rows import training_chunk

__all__ = ["MIXTURE_FACTORS", "HIDDEN_TERMS", "mixture_factors", "hidden_joint"]

TINY = 1e-300  # a class's average that underflows: its log, not -inf
BLOCK = 512  # rows at a time through a model's terms (its prediction too)


def _n_slots(model):
    return int(sum(r.n_values + 1 for r in model.readers_))


def _size(model, how):
    """The factors' number: one per super-parent, or per slot and class."""
    return len(model.readers_) if how == "table" else _n_slots(model) * len(model.classes_)


def mixture_factors(model, slots):
    """The discriminative factors of each row's super-parents, (d, K, rows) or (d, 1, 1); 1 without weights."""
    w = getattr(model, "weights_", None)
    if w is None:
        return np.ones((slots.shape[1], 1, 1))
    f = np.exp(w["theta"] - 1.0)
    if w["how"] == "table":
        return f[:, None, None]
    return f.reshape(-1, len(model.classes_))[slots.T].transpose(0, 2, 1)


def _mixture_layout(model, table, y, sw):
    """The rows that some super-parent answers: their terms (rows, d, K; -inf where not kept), slots,
    classes and weights."""
    slots, present = model._rows(table)
    parents, children = model._masks(slots, present)
    omega = model._parent_weights()
    ok = parents.any(axis=1) & (np.where(parents, omega[None, :], 0.0).sum(axis=1) > 0)
    slots, present, parents, children = slots[ok], present[ok], parents[ok], children[ok]
    terms = np.concatenate([model._terms(slots[a:a + BLOCK], parents[a:a + BLOCK], children[a:a + BLOCK])
                            .transpose(2, 0, 1) for a in range(0, slots.shape[0], BLOCK)] or [np.zeros((0, slots.shape[1], 1))], axis=0)
    return terms, slots, y[ok], sw[ok]


def _mixture_objective(theta, terms, slots, omega, y, sw, how, k, penalty=0.0):
    """The penalized negative conditional log-likelihood of the factors ``exp(theta - 1)`` and its gradient."""
    n, d = slots.shape
    f = np.exp(theta - 1.0)
    b = omega[None, :, None] * (f[None, :, None] if how == "table" else f.reshape(-1, k)[slots])
    finite = np.where(np.isfinite(terms), terms, -np.inf)
    top = finite.max(axis=(1, 2), keepdims=True) if n else np.zeros((0, 1, 1))
    e = np.exp(finite - np.where(np.isfinite(top), top, 0.0))
    m = (b * e).sum(axis=1)  # (n, K)
    total = m.sum(axis=1)
    rows = np.arange(n)
    my = np.maximum(m[rows, y], TINY)
    value = float(np.dot(sw, np.log(np.maximum(total, TINY)) - np.log(my)))
    coef = np.repeat((sw / np.maximum(total, TINY))[:, None], k, axis=1)
    coef[rows, y] -= sw / my
    g = e * omega[None, :, None] * coef[:, None, :]  # d value / d factor, (n, d, K)
    if how == "table":
        grad = g.sum(axis=(0, 2))
    else:
        grad = np.zeros((f.size // k, k))
        np.add.at(grad, slots, g)
        grad = grad.ravel()
    dev = theta - 1.0
    return value + 0.5 * penalty * float(dev @ dev), grad * f + penalty * dev


def _fit_mixture(model, table, y, weight, how, penalty, start=None):
    k = len(model.classes_)
    sw = np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)
    terms, slots, yy, ww = _mixture_layout(model, table, y, sw)
    start = np.ones(_size(model, how)) if start is None else start
    res = _minimize(_mixture_objective, start, "parameter", 0,
                    (terms, slots, model._parent_weights(), yy, ww, how, k, penalty))
    return {"theta": res.x, "iterations": int(res.nit), "how": how}


def _mixture_chunk(chunk, model, how, theta):
    table, y, sw = training_chunk(chunk, model)
    terms, slots, yy, ww = _mixture_layout(model, table, y, sw)
    return _mixture_objective(theta, terms, slots, model._parent_weights(), yy, ww, how, len(model.classes_))


def _source_mixture(model, source, how, penalty):
    if isinstance(source, OneTable):
        return _fit_mixture(model, *source.chunk, how, penalty)
    objective = summed_objective(source, _mixture_chunk, penalty, model, how)
    res = _minimize(objective, np.ones(_size(model, how)), "parameter", 0)
    return {"theta": res.x, "iterations": int(res.nit), "how": how}


def hidden_joint(model, slots, present):
    """Hidden Naive Bayes's joint log-likelihood (rows, K), with its log-linear weights where fitted."""
    w = getattr(model, "weights_", None)
    args = (slots, present, model.cond_, model.information_, model.log_prior_, model.log_alone_)
    if w is None:
        return hidden_parents(*args)
    _, terms = hidden_parents(*args, terms=True)
    k = len(model.classes_)
    theta = w["theta"]
    cells = theta[k:][:, None] if w["how"] == "table" else theta[k:].reshape(-1, k)[slots]
    return theta[:k] * model.log_prior_ + (cells * terms).sum(axis=1)


def _hidden_layout(model, table, how):
    slots, present = model._rows(table)
    _, terms = hidden_parents(slots, present, model.cond_, model.information_, model.log_prior_, model.log_alone_,
                              terms=True)
    return terms, None if how == "table" else slots


def _hidden_size(model, how):
    return len(model.classes_) + (len(model.readers_) if how == "table" else _n_slots(model) * len(model.classes_))


def _fit_hidden(model, table, y, weight, how, penalty, start=None):
    k = len(model.classes_)
    sw = np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)
    logs, flat = _hidden_layout(model, table, how)
    start = np.ones(_hidden_size(model, how)) if start is None else start
    res = _minimize(_objective, start, how, k, (logs, flat, model.log_prior_, y, sw, penalty))
    return {"theta": res.x, "iterations": int(res.nit), "how": how}


def _hidden_chunk(chunk, model, how, theta):
    table, y, sw = training_chunk(chunk, model)
    logs, flat = _hidden_layout(model, table, how)
    return _objective(theta, logs, flat, model.log_prior_, y, sw, 0.0)


def _source_hidden(model, source, how, penalty):
    if isinstance(source, OneTable):
        return _fit_hidden(model, *source.chunk, how, penalty)
    objective = summed_objective(source, _hidden_chunk, penalty, model, how)
    res = _minimize(objective, np.ones(_hidden_size(model, how)), how, len(model.classes_))
    return {"theta": res.x, "iterations": int(res.nit), "how": how}


def _state(weights):
    return {"theta": np.asarray(weights["theta"]).tolist(), "iterations": weights["iterations"]}


def _from_state(size_of):
    def read(state, model, how):
        size = size_of(model, how)
        return {"theta": numbers(state.get("theta"), "state.weights.theta", (size,)), "iterations": iterations(state),
                "how": how}
    return read


def _keep(model, weights):  # the factors are read where the model predicts (weights_)
    model.weights_ = weights


def _has_terms(model):
    return len(model.readers_) > 1


MIXTURE_FACTORS = Weighting(_fit_mixture, _source_mixture, _keep, _state, _from_state(_size),
                            lambda model, table: model._encoded_joint(table), _has_terms)
HIDDEN_TERMS = Weighting(_fit_hidden, _source_hidden, _keep, _state, _from_state(_hidden_size),
                         lambda model, table: model._encoded_joint(table), _has_terms)
