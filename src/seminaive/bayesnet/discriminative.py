"""Discriminative parameters for the family's tables (the WANBIA idea carried to kDB and its kin, as
Zaidi, Webb, Carman, Petitjean and Cerquides's ALR^n and "Efficient parameter learning of Bayesian
network classifiers" do): the generative estimates stay, and weights on their logarithms are fitted
to the conditional log-likelihood of the training rows,

    log P(c | x) = v_c log P(c) + sum_i w_i[c, x_i, parents_i] log P(x_i | c, parents_i) - log Z(x),

by L-BFGS from every weight at 1 (the generative model; the logarithms are the preconditioner the
papers describe), with an L2 penalty ``penalty / 2 * sum (w - 1)^2`` that holds a weight seen in few
rows near the generative estimate. ``"table"`` fits one weight per table (WANBIA: an attribute's
whole term scaled, in [0, 1]); ``"parameter"`` one per class and table cell (ALR: a cell the
training rows never reach keeps weight 1), so interactions the counts smooth away are kept. A
normal child (:mod:`.hybrid`) is weighted as a table whose cells are its parents' values: its
log-density times the weight of the row's cell and class.

The fitted weights sit beside the generative tables (each table's ``weight_``, which its
log-likelihood multiplies in), so the counts and estimates are the generative model's, and a model
file keeps the weights apart (sparse: the cells the training rows reach).

From a source of chunks (files, Dask) the objective is a sum over the chunks: one pass finds the
cells the rows reach, then every evaluation L-BFGS asks for is one pass (:func:`source_weights`);
in memory the rows' layout is worked out once.
"""

import copy
import math
from typing import Callable, NamedTuple

import numpy as np
from scipy.optimize import minimize
from threadpoolctl import threadpool_limits

from .._jit import compiled
from .._memory import check_memory
from .._progress import step
from .._state import field, index, numbers
from .._validation import check_param
from ..core.counting import distinct, merge_distinct
from ..core.folds import fold_pairs, stratified_folds
from ..exceptions import ParameterError
from ..learning.sources import OneTable, map_reduce
from .weight_rows import choice_sample, rows_of, training_chunk
from ..scoring import log_posteriors
from .streamed import fit_passes

__all__ = ["DISCRIMINATIVE", "LOG_LINEAR", "PENALTIES", "Weighting", "check_penalty", "discriminate", "fit_weights",
           "fold_weights", "source_weights", "summed_objective", "weights_state", "weights_from_state", "iterations",
           "load_weights"]

DISCRIMINATIVE = ("table", "parameter")
PENALTIES = (0.01, 0.1, 1.0, 10.0, 100.0)  # penalty="auto": the one of least held-out squared error (or none)
FOLDS = 5
LBFGS_VECTORS = 30  # L-BFGS-B holds about this many vectors of the weights' size (its 10 pairs, bounds, work)
MAX_ITERATIONS = 300  # L-BFGS's (tic-tac-toe's weights converge in 100 to 250)
CHOICE_ROWS = 2000  # penalty="auto" chooses on at most this many rows (a stratified sample): a prior's strength


def check_penalty(name, value):
    """``penalty``: "auto" or a number > 0.

    Examples
    --------
    >>> check_penalty("penalty", "auto"), check_penalty("penalty", 2.0)
    ('auto', 2.0)
    """
    if isinstance(value, str) and value == "auto":
        return value
    if isinstance(value, str):
        raise ParameterError(f"{name}: expected 'auto' or a number > 0, got {value!r}")
    return check_param(name, value, kind="number", low=0, low_inclusive=False)


def _terms(model):
    """What carries weights: the tables, then the normal children (a selective kDB's, :mod:`.hybrid`)."""
    return list(model.tables_) + list(getattr(model, "normal_children_", ()))


def _n_cells(term, k):
    """A term's cells: its log table's rows (a table), its parents' values and the missing slot (a child)."""
    return term.log_table_.size // k if hasattr(term, "log_table_") else term.n_configs + 1


def _cells(model, table):
    """Each term's cell (flat index into its log table's rows; a child's parents' value) of every row."""
    columns = {}
    for t in model.tables_:
        t.columns(table, columns)
    return [t.cells(columns, table.n_samples) for t in model.tables_] + \
        [c.parent_codes(table) for c in getattr(model, "normal_children_", ())]


def _term_logs(model, table, cells, k):
    """Each term's log-probability of every row (n, d, K), unweighted."""
    logs = [t.log_table_.reshape(-1, k)[c] for t, c in zip(model.tables_, cells)]
    logs += [c.raw_log_likelihood(table) for c in getattr(model, "normal_children_", ())]
    return np.stack(logs, axis=1) if logs else np.zeros((table.n_samples, 0, k))


def _cll_cells(v, w, prior, logs, flat, y, sw, grad_v, grad_w):
    """The negative conditional log-likelihood of weights per cell (``v`` the class prior's, ``w``
    (cells, K)), one pass over the rows, its gradient added into ``grad_v`` and ``grad_w``."""
    n, d, k = logs.shape
    jll = np.empty(k)
    total = 0.0
    for i in range(n):
        for c in range(k):
            jll[c] = v[c] * prior[c]
        for j in range(d):  # a cell's K weights, then the row's K terms: both contiguous
            cell = flat[i, j]
            for c in range(k):
                jll[c] += w[cell, c] * logs[i, j, c]
        top = jll.max()
        target = jll[y[i]]
        z = 0.0
        for c in range(k):
            jll[c] = math.exp(jll[c] - top)
            z += jll[c]
        total += sw[i] * (math.log(z) + top - target)
        for c in range(k):  # jll now holds the row's gradient in the joint
            jll[c] = sw[i] * (jll[c] / z - (1.0 if c == y[i] else 0.0))
            grad_v[c] += jll[c] * prior[c]
        for j in range(d):
            cell = flat[i, j]
            for c in range(k):
                grad_w[cell, c] += jll[c] * logs[i, j, c]
    return total


_KERNELS = ("_cll_cells",)
_COMPILED = []


def _objective(theta, logs, flat, prior, y, sw, penalty):
    """The penalized negative conditional log-likelihood and its gradient at weights ``theta``: the
    class prior's K, then one per table (``flat`` None) or one per used cell and class (``flat``
    (n, d): each row's cell in every table); ``logs`` (n, d, K): the rows' log terms."""
    n, d, k = logs.shape
    grad = np.zeros_like(theta)
    if flat is None:
        jll = prior * theta[:k] + np.einsum("ndk,d->nk", logs, theta[k:])
        top = jll.max(axis=1, keepdims=True)
        log_z = top[:, 0] + np.log(np.exp(jll - top).sum(axis=1))
        rows = np.arange(n)
        value = float(np.dot(sw, log_z - jll[rows, y]))
        g = np.exp(jll - log_z[:, None])
        g[rows, y] -= 1.0
        g *= sw[:, None]
        grad[:k] = (g * prior).sum(axis=0)
        grad[k:] = np.einsum("nk,ndk->d", g, logs)
    else:  # compiled: one pass over the rows, no (n, d, K) temporaries
        kernel = compiled(globals(), _KERNELS, _COMPILED)["_cll_cells"]
        cells = grad[k:].reshape(-1, k)
        value = kernel(theta[:k], theta[k:].reshape(-1, k), prior, logs, flat, y, sw, grad[:k], cells)
    dev = theta - 1.0
    return value + 0.5 * penalty * float(dev @ dev), grad + penalty * dev


def _layout(model, table, how, used=None):
    """The rows' log terms (n, d, K), each row's cell among every table's used cells, numbered across
    the tables (n, d; None for one weight per table), and each table's used cells (None per table
    for one weight per table): the cells the rows reach, or ``used`` (every chunk's, from a pass)."""
    k = len(model.classes_)
    cells = _cells(model, table)
    n, d = table.n_samples, len(cells)
    logs = _term_logs(model, table, cells, k)
    if how == "table":
        return logs, None, [None] * d
    out, flat, offset = [], np.empty((n, d), dtype=np.int64), 0
    for j, c in enumerate(cells):
        if used is None:
            u, inverse = np.unique(c, return_inverse=True)
        else:
            u, inverse = used[j], np.searchsorted(used[j], c)
        out.append(u)
        flat[:, j] = offset + inverse
        offset += u.size
    return logs, flat, out


def _minimize(fun, start, how, k, args=()):
    """L-BFGS from ``start`` on ``fun`` (value and gradient), the per-table weights of ``how="table"``
    kept in [0, 1] (WANBIA's), on one BLAS thread (small vectors: BLAS's threads only wait on each
    other)."""
    bounds = None if how == "parameter" else [(None, None)] * k + [(0.0, 1.0)] * (start.size - k)
    check_memory(LBFGS_VECTORS * 8 * start.size, f"discriminative weights ({start.size:,} of them)",
                 "fewer attributes or discriminative=\"table\"")
    what = f"discriminative weights ({start.size:,}): iterations (at most)"
    done = iter(range(1, MAX_ITERATIONS + 1))
    with threadpool_limits(1, "blas"):
        res = minimize(fun, start, args=args, jac=True, method="L-BFGS-B", bounds=bounds,
                       options={"maxiter": MAX_ITERATIONS, "ftol": 1e-10, "gtol": 1e-6},
                       callback=lambda *_: step(what, next(done, MAX_ITERATIONS), MAX_ITERATIONS))
    step(what, MAX_ITERATIONS, MAX_ITERATIONS)  # ended (its line, where any was printed, says so)
    return res


def fit_weights(model, table, y, weight, how, penalty, start=None):
    """The weights (``how``: "table" or "parameter") of a fitted family model's tables on the rows of
    ``table`` (class codes ``y``, row weights ``weight`` or None), fitted as the module says from
    ``start`` (default: every weight 1): the class prior's (K,) and, per table, ``(cells, weights)``
    (cells: the log table's flat rows the rows reach, with (cells, K) weights; None and one weight
    for the whole table). The model is not changed (see :func:`fold_weights`)."""
    k = len(model.classes_)
    sw = np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)
    logs, flat, used = _layout(model, table, how)
    size = k + (logs.shape[1] if flat is None else sum(u.size for u in used) * k)
    res = _minimize(_objective, np.ones(size) if start is None else start, how, k,
                    (logs, flat, model.class_log_prior_, y, sw, penalty))
    return _unpack(res, used, k)


def _chunk_cells(chunk, model):
    """Each table's cells that a chunk's rows reach (sorted)."""
    return [distinct(c) for c in _cells(model, training_chunk(chunk, model)[0])]


def _union_cells(a, b):
    return [merge_distinct(x, z) for x, z in zip(a, b)]


def _chunk_objective(chunk, model, how, used, theta):
    """A chunk's negative conditional log-likelihood at ``theta`` and its gradient (no penalty)."""
    table, y, sw = training_chunk(chunk, model)
    logs, flat, _ = _layout(model, table, how, used)
    return _objective(theta, logs, flat, model.class_log_prior_, y, sw, 0.0)


def _add_pair(a, b):
    return a[0] + b[0], a[1] + b[1]


def source_weights(model, source, how, penalty):
    """:func:`fit_weights` on the rows of a source of chunks (files, Dask): a pass for the cells the
    rows reach, then one pass per evaluation of the objective (its sum over the chunks) as L-BFGS
    asks; the data in memory (a source of one chunk) are :func:`fit_weights` itself."""
    if isinstance(source, OneTable):
        return fit_weights(model, *source.chunk, how, penalty)
    k = len(model.classes_)
    used = [None] * len(_terms(model)) if how == "table" else \
        map_reduce(source, _chunk_cells, _union_cells, model)
    size = k + (len(used) if how == "table" else sum(u.size for u in used) * k)

    objective = summed_objective(source, _chunk_objective, penalty, model, how, None if how == "table" else used)
    return _unpack(_minimize(objective, np.ones(size), how, k), used, k)


def summed_objective(source, chunk_objective, penalty, *args):
    """``theta`` -> the sum over the chunks of ``chunk_objective(chunk, *args, theta)`` (the value
    and its gradient), plus the penalty ``penalty / 2 * sum (theta - 1)^2``: one pass per call."""
    def objective(theta):
        value, grad = map_reduce(source, chunk_objective, _add_pair, *args, theta)
        dev = theta - 1.0
        return value + 0.5 * penalty * float(dev @ dev), grad + penalty * dev
    return objective


def _unpack(res, used, k):
    """The fitted weights by table from L-BFGS's result (see :func:`fit_weights`)."""
    theta, tables, at = res.x, [], k
    for u in used:
        size = 1 if u is None else u.size * k
        tables.append((u, theta[at:at + size] if u is None else theta[at:at + size].reshape(-1, k)))
        at += size
    return {"prior": theta[:k], "tables": tables, "iterations": int(res.nit), "theta": theta}


def _held_out_losses(model, table, y, weight, how):
    """Squared error (Brier, summed) of FOLDS stratified folds (the project's one fold maker: a class of
    fewer rows than folds is dealt into as many as it has; fewer rows than two: no folds, and no weights
    chosen), each predicted by the model refitted on the others (structure, intervals, tables) with weights
    under every penalty: (penalties + 1,), the first without weights."""
    losses = np.zeros(len(PENALTIES) + 1)
    sw = np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)
    if y.size < 2:
        return losses
    pairs = fold_pairs(stratified_folds(y, min(FOLDS, y.size), model.random_state))
    for f, (train, test) in enumerate(pairs, start=1):
        train_table, train_weight = rows_of(table, train), None if weight is None else weight[train]
        base, ops = model.__class__(**{**model.get_params(deep=False), "discriminative": None}), model._weighting
        base.schema_, base.classes_ = model.schema_, model.classes_
        fit_passes(base, OneTable(train_table, y[train], train_weight))
        held, rows, start = rows_of(table, test), np.arange(test.size), None
        for i in range(len(PENALTIES), -1, -1):  # the largest penalty first, each fit from the one before
            fitted = base
            if i:
                fitted = copy.deepcopy(base)
                w = ops.fit(base, train_table, y[train], train_weight, how, PENALTIES[i - 1], start)
                ops.fold(fitted, w)
                start = w["theta"]
            post = np.exp(log_posteriors(ops.log_joint(fitted, held), fitted.class_log_prior_))
            post[rows, y[test]] -= 1.0
            losses[i] += float(np.dot(sw[test], (post * post).sum(axis=1)))
        step("discriminative weights: the penalty's held-out folds", f, len(pairs))
    return losses


def discriminate(model, source):
    """Fit a fitted family model's weights (its ``discriminative``, ``penalty``) on its training rows,
    a source of chunks (in memory: one), and fold them in. ``penalty="auto"`` takes the penalty of
    least held-out squared error over FOLDS folds of at most about CHOICE_ROWS rows (in memory a
    stratified sample; from chunks the rows whose hash of their values falls below the sampling
    rate, whatever the chunks), and no weights where the generative model's is less (``weights_``
    None, ``penalty_`` None)."""
    penalty = model.penalty if model._weighting.has_terms(model) else None
    if penalty == "auto":
        sample = choice_sample(model, source, CHOICE_ROWS)
        losses = _held_out_losses(model, *sample, model.discriminative)
        best = int(np.argmin(losses))
        penalty = None if best == 0 else PENALTIES[best - 1]
    model.penalty_ = penalty  # (None: no weights, as chosen or as nothing can be weighted)
    model.weights_ = None if penalty is None else model._weighting.source_fit(model, source, model.discriminative,
                                                                                   penalty)
    if model.weights_ is not None:
        model._weighting.fold(model, model.weights_)


def fold_weights(model, weights):
    """Set ``weights`` (:func:`fit_weights`'s) on a model's tables (each table's ``weight_``) and class
    prior; the tables' generative estimates stay as they are."""
    k = len(model.classes_)
    model.class_log_prior_ = model.class_log_prior_ * weights["prior"]
    for t, (cells, w) in zip(_terms(model), weights["tables"]):
        full = np.ones((_n_cells(t, k), k))
        if cells is None:
            full[:] = float(np.ravel(w)[0])
        else:
            full[cells] = w
        t.weight_ = full.reshape(t.log_table_.shape) if hasattr(t, "log_table_") else full


def weights_state(weights):
    """``weights`` as a model file holds them (lists)."""
    return {"prior": weights["prior"].tolist(), "iterations": weights["iterations"],
            "tables": [[None if c is None else c.tolist(), np.asarray(w).tolist()] for c, w in weights["tables"]]}


def weights_from_state(state, model, how):
    """A model file's weights, checked against the model's tables (one line naming the field)."""
    k = len(model.classes_)
    prior = numbers(state.get("prior"), "state.weights.prior", (k,))
    tables = field(state, "tables", list)
    terms = _terms(model)
    if len(tables) != len(terms):
        raise ValueError(f"state.weights.tables: expected one per table and normal child ({len(terms)}), "
                         f"got {len(tables)}")
    out = []
    for i, (t, entry) in enumerate(zip(terms, tables)):
        where = f"state.weights.tables[{i}]"
        if not isinstance(entry, list) or len(entry) != 2:
            raise ValueError(f"{where}: expected [cells, weights]")
        if how == "table":
            out.append((None, numbers(entry[1], where, (1,), low=0)))
            continue
        if not isinstance(entry[0], list):
            raise ValueError(f"{where}: expected a list of cells")
        cells = numbers(entry[0], where, (len(entry[0]),), low=0)
        if (cells != np.round(cells)).any() or (cells.size and cells.max() >= _n_cells(t, k)):
            raise ValueError(f"{where}: expected cells of the table (0 to {_n_cells(t, k) - 1})")
        out.append((cells.astype(np.int64), numbers(entry[1], where, (cells.size, k))))
    return {"prior": prior, "tables": out, "iterations": iterations(state)}


def iterations(state):
    """A model file's count of L-BFGS iterations (0 where it has none), checked."""
    return index(state.get("iterations", 0), "state.weights.iterations", MAX_ITERATIONS + 1)


def load_weights(model, state):
    """A model file's weights set on a model (``weights_``, folded in): null where the penalty's
    choice kept none; a file without the field is refused, naming it."""
    if "weights" not in state:
        raise ValueError("state.weights: expected the weights, or null where none were kept")
    w = state["weights"]
    model.weights_ = None if w is None else model._weighting.from_state(field(state, "weights", dict), model,
                                                                        model.discriminative)
    if model.weights_ is not None:
        model._weighting.fold(model, model.weights_)


class Weighting(NamedTuple):
    """How a kind of model fits its weights, folds them in and keeps them (:func:`discriminate` and
    the model files ask its ``_weighting``): the log-linear weights of this module, or AnDE's weights
    inside its average (:mod:`.ande_weights`)."""
    fit: Callable  # (model, table, y, weight, how, penalty, start) -> weights, with "theta" (L-BFGS's vector)
    source_fit: Callable  # (model, source, how, penalty) -> weights, in passes over the chunks
    fold: Callable  # (model, weights): set on the model, its generative estimates kept
    state: Callable  # weights -> a model file's field
    from_state: Callable  # (field, model, how) -> weights, checked (one line naming the field)
    log_joint: Callable  # (model, encoded table) -> the joint log-likelihood (n, K) with the weights
    has_terms: Callable  # model -> whether it has anything to weight (an AnDE on one attribute has not)


LOG_LINEAR = Weighting(fit_weights, source_weights, fold_weights, weights_state, weights_from_state,
                       lambda model, table: model._tables_sum(table), lambda model: True)
