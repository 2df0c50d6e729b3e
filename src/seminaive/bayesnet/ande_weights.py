"""Discriminative weights for AnDE: WANBIA's idea (:mod:`.discriminative`) carried inside the
average. Each super-parent set s keeps its generative estimates and takes weights on their
logarithms,

    J_s(c, x) = u_s[x_s, c] log P(c, x_s) + sum_t w_st[x_s, x_t, c] log P(x_t | c, x_s),
    log P(c | x) = log sum over the active sets s of exp J_s(c, x) - log Z(x),

fitted to the conditional log-likelihood of the training rows by L-BFGS from every weight at 1 (AnDE
itself), with the penalty ``penalty / 2 * sum (w - 1)^2``. ``"table"``: a weight per set's joint
term and per set's child, in [0, 1]; ``"parameter"``: one per class and cell of every set's tables
(a cell the rows never reach keeps 1), as ALR^n's higher-order parameters. The gradient is the
log-linear one shared out by each set's responsibility for the class, exp(J_s(c) - log sum_s'
exp J_s'(c)). Rows without an active set (the Naive Bayes fallback) carry no weight, nor does an
AnDE on one attribute (no set: Naive Bayes; ``weights_`` None).

An average is no log-linear model: the objective is not convex, and L-BFGS from the generative model
finds a local optimum no worse on the training rows than the generative model. A log-probability of
-inf (an estimate of 0) stays -inf under any weight.
"""

import math

import numpy as np

from .._jit import compiled
from .._state import numbers
from ..learning.sources import OneTable
from .ande_kernel import _flat, set_values
from ..components.categorical import reader_codes
from ..core.subset_counts import code_matrix
from .discriminative import Weighting, _minimize, iterations, summed_objective
from .weight_rows import training_chunk

__all__ = ["MIXTURE", "fit_weights", "fold_weights"]


def _cll(codes, setcode, children, planes, rows_of, logs, logs_at, joint, joint_at, u, w, y, sw, k, grad_u, grad_w):
    """The negative conditional log-likelihood of the weighted average (weights ``u`` on the sets'
    joint logs, ``w`` on their children's, both laid out as the logs are), its gradient added into
    ``grad_u`` and ``grad_w``; one pass over the rows. ``setcode`` (rows, sets): each set's value, -1
    where it is not active; the rest as :func:`~.ande_kernel._average_logs` reads them."""
    n, sets = setcode.shape
    terms = np.empty((sets, k))
    cells = np.empty((sets, children.shape[1]), dtype=np.int64)  # the row's cell in each child's logs
    mix = np.empty(k)
    g = np.empty(k)
    share = np.empty(k)
    total = 0.0
    for i in range(n):
        active = 0
        for s in range(sets):
            code = setcode[i, s]
            if code < 0:
                continue
            active += 1
            at = joint_at[s] + code * k
            for c in range(k):
                lg = joint[at + c]
                terms[s, c] = lg if lg == -np.inf else u[at + c] * lg
            for t in range(children.shape[1]):
                cell = logs_at[s] + ((t * planes[s] + code) * rows_of[s] + codes[children[s, t], i]) * k
                cells[s, t] = cell
                for c in range(k):
                    lg = logs[cell + c]
                    terms[s, c] += lg if lg == -np.inf else w[cell + c] * lg
        if not active:
            continue
        for c in range(k):  # log sum over the active sets, per class
            top = -np.inf
            for s in range(sets):
                if setcode[i, s] >= 0 and terms[s, c] > top:
                    top = terms[s, c]
            z = 0.0
            if top > -np.inf:
                for s in range(sets):
                    if setcode[i, s] >= 0:
                        z += math.exp(terms[s, c] - top)
            mix[c] = top + math.log(z) if z > 0 else -np.inf
        top = mix.max()
        z = 0.0
        for c in range(k):
            g[c] = math.exp(mix[c] - top)
            z += g[c]
        total += sw[i] * (math.log(z) + top - mix[y[i]])
        for c in range(k):
            g[c] = sw[i] * (g[c] / z - (1.0 if c == y[i] else 0.0))
        for s in range(sets):
            code = setcode[i, s]
            if code < 0:
                continue
            at = joint_at[s] + code * k
            for c in range(k):  # the set's share of the class's gradient (0 where its term is -inf)
                share[c] = 0.0 if terms[s, c] == -np.inf else g[c] * math.exp(terms[s, c] - mix[c])
                if joint[at + c] > -np.inf:
                    grad_u[at + c] += share[c] * joint[at + c]
            for t in range(children.shape[1]):
                cell = cells[s, t]
                for c in range(k):
                    if logs[cell + c] > -np.inf:
                        grad_w[cell + c] += share[c] * logs[cell + c]
    return total


_KERNELS = ("_cll",)
_COMPILED = []


class _Layout:
    """A fitted AnDE's logs as the kernel reads them, and where each weight's segment starts."""

    def __init__(self, model):
        self.k = k = len(model.classes_)
        self.children = np.array(model._children(), dtype=np.int64)
        self.planes = np.array([s.shape[1] for s in model.set_logs_], dtype=np.int64)
        self.rows_of = np.array([s.shape[2] for s in model.set_logs_], dtype=np.int64)
        self.logs, self.logs_at = model.set_logs_block_
        self.joint, self.joint_at = _flat([np.ascontiguousarray(j.T) for j in model.joint_log_])
        self.joint_sizes = np.array([j.size for j in model.joint_log_], dtype=np.int64)
        self.child_sizes = np.repeat(self.planes * self.rows_of * k, self.children.shape[1])
        self.sets, self.per_set = len(model.parent_sets_), self.children.shape[1]

    def size(self, how):
        return self.sets * (self.per_set + 1) if how == "table" else self.joint.size + self.logs.size

    def expand(self, theta, how):
        """The weights laid out as the joint logs and the children's logs are."""
        if how == "table":
            return np.repeat(theta[:self.sets], self.joint_sizes), np.repeat(theta[self.sets:], self.child_sizes)
        return theta[:self.joint.size], theta[self.joint.size:]

    def gather(self, grad_u, grad_w, how):
        """The gradient in ``theta`` from the gradient in the laid-out weights."""
        if how == "table":
            return np.concatenate([np.add.reduceat(grad_u, np.r_[0, np.cumsum(self.joint_sizes)[:-1]]),
                                   np.add.reduceat(grad_w, np.r_[0, np.cumsum(self.child_sizes)[:-1]])])
        return np.concatenate([grad_u, grad_w])


def _rows(model, table):
    codes = code_matrix(reader_codes(model.readers_, table), [r.n_values for r in model.readers_],
                        table.n_samples).astype(np.int64)
    return codes, set_values(model, codes)


def _objective(theta, lay, how, codes, setcode, y, sw, penalty):
    """The penalized negative conditional log-likelihood at ``theta`` and its gradient."""
    u, w = lay.expand(theta, how)
    grad_u, grad_w = np.zeros(u.size), np.zeros(w.size)
    kernel = compiled(globals(), _KERNELS, _COMPILED)["_cll"]
    value = kernel(codes, setcode, lay.children, lay.planes, lay.rows_of, lay.logs, lay.logs_at, lay.joint,
                   lay.joint_at, u, w, np.asarray(y, dtype=np.int64), sw, lay.k, grad_u, grad_w)
    dev = theta - 1.0
    return value + 0.5 * penalty * float(dev @ dev), lay.gather(grad_u, grad_w, how) + penalty * dev


def fit_weights(model, table, y, weight, how, penalty, start=None):
    """A fitted AnDE's weights (``how``: "table" or "parameter") on the rows of an encoded ``table``
    (class codes ``y``, row weights or None), from ``start`` (default: every weight 1): ``theta``,
    L-BFGS's vector (:meth:`_Layout.expand` lays it out). The model is not changed (:func:`fold_weights`)."""
    lay = _Layout(model)
    sw = np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)
    codes, setcode = _rows(model, table)
    res = _minimize(_objective, np.ones(lay.size(how)) if start is None else start, how, 0,
                    (lay, how, codes, setcode, y, sw, penalty))
    return {"theta": res.x, "iterations": int(res.nit), "how": how}


def _chunk_objective(chunk, model, lay, how, theta):
    table, y, sw = training_chunk(chunk, model)
    return _objective(theta, lay, how, *_rows(model, table), y, sw, 0.0)


def source_weights(model, source, how, penalty):
    """:func:`fit_weights` on a source of chunks: one pass per evaluation of the objective."""
    if isinstance(source, OneTable):
        return fit_weights(model, *source.chunk, how, penalty)
    lay = _Layout(model)
    res = _minimize(summed_objective(source, _chunk_objective, penalty, model, lay, how), np.ones(lay.size(how)),
                    how, 0)
    return {"theta": res.x, "iterations": int(res.nit), "how": how}


def _weighted(logs, w):
    with np.errstate(invalid="ignore"):
        return np.where(logs == -np.inf, -np.inf, logs * w)


def fold_weights(model, weights):
    """Set ``weights`` on a fitted AnDE: its sets' weighted logs (``weighted_``), which its prediction
    reads; the generative estimates stay as they are."""
    lay = _Layout(model)
    u, w = lay.expand(weights["theta"], weights["how"])
    block = _weighted(lay.logs, w)
    set_logs = [block[a:a + s.size].reshape(s.shape) for s, a in zip(model.set_logs_, lay.logs_at)]
    joint = [_weighted(j, u[a:a + j.size].reshape(j.shape[::-1]).T) for j, a in zip(model.joint_log_, lay.joint_at)]
    model.weighted_ = ((block, lay.logs_at), set_logs, joint)


def _state(weights):
    """The weights as a model file keeps them: those moved from 1, by position."""
    theta = weights["theta"]
    moved = np.flatnonzero(theta != 1.0)
    return {"size": int(theta.size), "at": moved.tolist(), "values": theta[moved].tolist(),
            "iterations": weights["iterations"]}


def _from_state(state, model, how):
    size = _Layout(model).size(how)
    if state.get("size") != size:
        raise ValueError(f"state.weights.size: expected {size} weights for this model, got {state.get('size')!r}")
    at = state.get("at")
    if not isinstance(at, list):
        raise ValueError("state.weights.at: expected a list of positions")
    at = numbers(at, "state.weights.at", (len(at),), low=0)
    if (at != np.round(at)).any() or (at.size and at.max() >= size):
        raise ValueError(f"state.weights.at: expected positions 0 to {size - 1}")
    values = numbers(state.get("values"), "state.weights.values", (at.size,), low=0 if how == "table" else None)
    if how == "table" and (values > 1).any():
        raise ValueError("state.weights.values: expected weights per table from 0 to 1")
    theta = np.ones(size)
    theta[at.astype(np.int64)] = values
    return {"theta": theta, "iterations": iterations(state), "how": how}


MIXTURE = Weighting(fit_weights, source_weights, fold_weights, _state, _from_state,
                    lambda model, table: model._encoded_joint(table), lambda model: bool(model.parent_sets_))
