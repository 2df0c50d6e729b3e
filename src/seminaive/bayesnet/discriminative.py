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

import numpy as np
from scipy.optimize import minimize
from threadpoolctl import threadpool_limits

from .._jit import compiled
from .._state import field, numbers
from .._validation import check_param
from ..exceptions import ParameterError
from ..learning.sources import OneTable, encoded, map_reduce
from ..scoring import log_posteriors
from .streamed import fit_passes

__all__ = ["DISCRIMINATIVE", "PENALTIES", "check_penalty", "discriminate", "fit_weights", "fold_weights", "source_weights",
           "weights_state",
           "weights_from_state"]

DISCRIMINATIVE = ("table", "parameter")
PENALTIES = (0.01, 0.1, 1.0, 10.0, 100.0)  # penalty="auto": the one of least held-out squared error (or none)
FOLDS = 5
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
    with threadpool_limits(1, "blas"):
        return minimize(fun, start, args=args, jac=True, method="L-BFGS-B", bounds=bounds,
                        options={"maxiter": MAX_ITERATIONS, "ftol": 1e-10, "gtol": 1e-6})


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
    return [np.unique(c) for c in _cells(model, _chunk(chunk, model)[0])]


def _union_cells(a, b):
    return [np.union1d(x, z) for x, z in zip(a, b)]


def _chunk(chunk, model):
    """A chunk encoded, with its class codes and row weights (ones where it has none)."""
    table, y, weight = encoded(chunk, model.schema_, model.classes_)
    if not (y >= 0).all():
        raise ParameterError("y: a chunk holds instances without a class; drop them first")
    return table, y, np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)


def _chunk_objective(chunk, model, how, used, theta):
    """A chunk's negative conditional log-likelihood at ``theta`` and its gradient (no penalty)."""
    table, y, sw = _chunk(chunk, model)
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

    def objective(theta):
        value, grad = map_reduce(source, _chunk_objective, _add_pair, model, how,
                                 None if how == "table" else used, theta)
        dev = theta - 1.0
        return value + 0.5 * penalty * float(dev @ dev), grad + penalty * dev

    return _unpack(_minimize(objective, np.ones(size), how, k), used, k)


def _unpack(res, used, k):
    """The fitted weights by table from L-BFGS's result (see :func:`fit_weights`)."""
    theta, tables, at = res.x, [], k
    for u in used:
        size = 1 if u is None else u.size * k
        tables.append((u, theta[at:at + size] if u is None else theta[at:at + size].reshape(-1, k)))
        at += size
    return {"prior": theta[:k], "tables": tables, "iterations": int(res.nit), "theta": theta}


def _mix(h):
    """MurmurHash3's 64-bit finalizer (every input bit reaches every output bit)."""
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xFF51AFD7ED558CCD)
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> np.uint64(33))


def _row_keys(table, seed):
    """A number in [0, 1) per row from its values and ``seed`` alone (a hash): the same row gets the
    same number in whatever chunk it comes."""
    h = np.full(table.n_samples, seed, dtype=np.uint64)
    for col in table.codes.T:
        h = _mix(h ^ _mix(col.astype(np.int64).view(np.uint64) + np.uint64(1)))
    for col in table.numeric.T:
        h = _mix(h ^ _mix(np.where(np.isnan(col), -1.0, col + 0.0).view(np.uint64)))
    return (h >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def _sampled(chunk, model, rate):
    """A chunk's rows whose key (:func:`_row_keys`) falls below ``rate``, with their classes and weights."""
    table, y, sw = _chunk(chunk, model)
    rows = np.flatnonzero(_row_keys(table, model.random_state) < rate)
    return _rows(table, rows), y[rows], sw[rows]


def _stack(a, b):
    return (type(a[0])(np.concatenate([a[0].codes, b[0].codes]), np.concatenate([a[0].numeric, b[0].numeric]),
                       a[0].unseen + b[0].unseen), np.concatenate([a[1], b[1]]), np.concatenate([a[2], b[2]]))


def _rows(table, rows):
    """The rows ``rows`` of an encoded table."""
    return type(table)(table.codes[rows], table.numeric[rows], table.unseen)


def _held_out_losses(model, table, y, weight, how):
    """Squared error (Brier, summed) of FOLDS stratified folds, each predicted by the model refitted on
    the others (structure, intervals, tables) with weights under every penalty: (penalties + 1,),
    the first without weights."""
    from sklearn.model_selection import StratifiedKFold
    losses = np.zeros(len(PENALTIES) + 1)
    sw = np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)
    folds = StratifiedKFold(FOLDS, shuffle=True, random_state=model.random_state)
    for train, test in folds.split(np.zeros(y.size), y):
        train_table, train_weight = _rows(table, train), None if weight is None else weight[train]
        base = model.__class__(**{**model.get_params(deep=False), "discriminative": None})
        base.schema_, base.classes_ = model.schema_, model.classes_
        fit_passes(base, OneTable(train_table, y[train], train_weight))
        held, rows, start = _rows(table, test), np.arange(test.size), None
        for i in range(len(PENALTIES), -1, -1):  # the largest penalty first, each fit from the one before
            fitted = base
            if i:
                fitted = copy.deepcopy(base)
                w = fit_weights(base, train_table, y[train], train_weight, how, PENALTIES[i - 1], start)
                fold_weights(fitted, w)
                start = w["theta"]
            post = np.exp(log_posteriors(fitted._tables_sum(held), fitted.class_log_prior_))
            post[rows, y[test]] -= 1.0
            losses[i] += float(np.dot(sw[test], (post * post).sum(axis=1)))
    return losses


def _sample(y, most, seed):
    """At most ``most`` rows, stratified by class (all of them when there are no more)."""
    if y.size <= most:
        return np.arange(y.size)
    from sklearn.model_selection import train_test_split
    rows, _ = train_test_split(np.arange(y.size), train_size=most, random_state=seed,
                               stratify=y if np.bincount(y).min() >= 2 else None)
    return np.sort(rows)


def discriminate(model, source):
    """Fit a fitted family model's weights (its ``discriminative``, ``penalty``) on its training rows,
    a source of chunks (in memory: one), and fold them in. ``penalty="auto"`` takes the penalty of
    least held-out squared error over FOLDS folds of at most about CHOICE_ROWS rows (in memory a
    stratified sample; from chunks the rows whose hash of their values falls below the sampling
    rate, whatever the chunks), and no weights where the generative model's is less (``weights_``
    None, ``penalty_`` None)."""
    penalty = model.penalty
    if penalty == "auto":
        if isinstance(source, OneTable):
            table, y, weight = source.chunk
            rows = _sample(y, CHOICE_ROWS, model.random_state)
            sample = _rows(table, rows), y[rows], None if weight is None else weight[rows]
        else:
            rate = min(1.0, CHOICE_ROWS / max(float(model.class_count_.sum()), 1.0))
            sample = map_reduce(source, _sampled, _stack, model, rate)
        losses = _held_out_losses(model, *sample, model.discriminative)
        best = int(np.argmin(losses))
        penalty = None if best == 0 else PENALTIES[best - 1]
    model.penalty_ = penalty
    model.weights_ = None if penalty is None else source_weights(model, source, model.discriminative, penalty)
    if model.weights_ is not None:
        fold_weights(model, model.weights_)


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
    return {"prior": prior, "tables": out, "iterations": int(state.get("iterations", 0))}
