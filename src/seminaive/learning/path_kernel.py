"""Compiled leave-one-out scores of growing models (selective kDB's candidates).

:meth:`Engine.score_paths <seminaive.learning.engine.Engine.score_paths>` scores, for each path of
conditional terms P(x_i | c, parents), the models made of its first 0, 1, 2, ... terms. Where
every term is a categorical table estimated by pseudo-counts (Laplace, Lidstone, the
m-estimate: every pseudo-count positive, so that every estimate is finite), held out by leave-one-out
and scored by log loss or RMSE, one compiled pass per term multiplies each row's joint likelihoods
(kept in probabilities, each row up to a factor of its own) by the term's leave-one-out estimate,
read from a table per (parent value, child value, class) worked out once per term (the row's own
count out of its cell for its class), and sums the rule over the rows: no logarithm or
exponential per row and class, no (rows, classes) temporaries. The same numbers as the general
path (:func:`loo_log_table`, :func:`score_sums`) up to rounding; the other cases, and a chunk
where a likelihood underflows, keep the general path.
"""

import math

import numpy as np

from .._jit import compiled
from ..core.attributes import Given
from ..core.sparse_terms import positions
from ..estimation import Frequency

__all__ = ["path_sums"]

RULES = {"log_loss": 0, "rmse": 1, "brier": 1}
LOG_TABLE = 1 << 15  # whole counts whose logarithms are read from a table


def _row_rule(P, r, own, rule):
    """The rule at row r of the joint likelihoods ``P`` (rows, K; up to a factor of the row's own):
    log loss (rule 0) or the squared distance of the posteriors to the class's indicator (rule 1);
    NaN where the row's class ``own`` has a likelihood of 0 under log loss (underflow)."""
    k = P.shape[1]
    s = 0.0
    for c in range(k):
        s += P[r, c]
    if rule == 0:
        return math.log(s / P[r, own]) if P[r, own] > 0.0 else math.nan
    sq = 0.0
    for c in range(k):
        p = P[r, c] / s
        if c == own:
            p -= 1.0
        sq += p * p
    return sq


def _rule_sums(P, y, w, rule):
    """(sum of the rule, sum of the weights) over the rows of weight > 0 of the joint likelihoods
    ``P`` (:func:`_row_rule`); NaN where a row's class has a likelihood of 0 under log loss (the
    caller scores in logarithms)."""
    total, weight = 0.0, 0.0
    for r in range(P.shape[0]):
        if w[r] > 0:
            v = _row_rule(P, r, y[r], rule)
            if v != v:
                return math.nan, 0.0
            total += w[r] * v
            weight += w[r]
    return total, weight


def _mul_score(P, counts, alone, den, a, at, child, mat, parents, widths, slot, cell, y, w, rule):
    """Multiply each row's joint likelihoods P (rows, K) by its leave-one-out P(child | class,
    parents), and return the rule's sums (:func:`_rule_sums`, each row's in the same pass). The
    term's counts (parent slots, m, K), or (1, cells, K) for a term counted over the cells met,
    with each row's ``cell`` and each cell's parent ``slot``; the class-alone counts ``alone``
    (m, K) of each child value (which a row with a parent missing reads) and each slot's totals
    ``den`` (slots, K; the last: the class's), the classes innermost so that a row reads its cell's
    classes from one cache line; the estimate of class c is (n + a) / (N + at), the
    row's own count out of its class's cell and total, with the pseudo-counts ``a`` (2, m) and
    totals ``at`` (2,) of the cell's group (0: parents present, 1: a parent missing). A row's
    parent slot, where no cells are given: its parents' joint value from the code rows
    ``mat[parents]`` (of ``widths`` values; the last slot where one is missing). A row whose
    child is missing (-1) is left as it is; a row whose likelihoods fall below 1e-280 in sum is
    rescaled (its posteriors unchanged)."""
    n, k = P.shape
    last = den.shape[0] - 1
    cells = cell.shape[0] > 0
    total, weight, under = 0.0, 0.0, False
    for r in range(n):
        if w[r] <= 0:
            continue
        x, own = child[r], y[r]
        if x >= 0:  # a missing child leaves the row as it is
            if cells:
                q = slot[cell[r]]
            else:
                q = 0
                for j in range(parents.shape[0]):
                    code = mat[parents[j], r]
                    if code < 0:
                        q = last
                        break
                    q = q * widths[j] + code
            g = 1 if q == last else 0
            ax, atg = a[g, x], at[g]
            qq, xx = (0, cell[r]) if cells else (q, x)
            s = 0.0
            for c in range(k):
                n_cx = alone[x, c] if g else counts[qq, xx, c]
                if c == own:
                    P[r, c] *= (n_cx - 1.0 + ax) / (den[q, c] - 1.0 + atg)
                else:
                    P[r, c] *= (n_cx + ax) / (den[q, c] + atg)
                s += P[r, c]
            if s < 1e-280 and s > 0.0:
                for c in range(k):
                    P[r, c] /= s
        v = _row_rule(P, r, own, rule)
        under |= v != v
        total += w[r] * v
        weight += w[r]
    return (math.nan, 0.0) if under else (total, weight)


def _totals(alone, den, missing, overall):
    """A term's totals from its class-alone counts ``alone`` (m, K): the class totals into ``den``'s
    last row (the slot a row with a parent missing reads), each child value's count over the classes
    into ``overall[1]`` and, less ``missing`` (where a parent is missing), into ``overall[0]``; the
    grand totals of both, (present, all). (Whole numbers: the sums are exact in any order.)"""
    m, k = alone.shape
    last = den.shape[0] - 1
    present, everything = 0.0, 0.0
    for c in range(k):
        den[last, c] = 0.0
    for x in range(m):
        t = 0.0
        for c in range(k):
            v = alone[x, c]
            den[last, c] += v
            t += v
        overall[1, x] = t
        overall[0, x] = t - missing[x]
        everything += t
        present += overall[0, x]
    return present, everything


def _sums(counts, own, alone, den, missing, overall):
    """A term's counts (K, slots, m) copied into ``own`` (slots, m, K), summed over the slots into
    ``alone`` (m, K, zeros on entry), over the child's values into ``den`` (slots, K) and over the
    classes of the last slot into ``missing`` (m, zeros on entry); then :func:`_totals`. One pass
    over a table that can be large."""
    k, slots, m = counts.shape
    for c in range(k):
        for q in range(slots):
            t = 0.0
            for x in range(m):
                v = counts[c, q, x]
                own[q, x, c] = v
                t += v
                alone[x, c] += v
                if q == slots - 1:
                    missing[x] += v
            den[q, c] = t
    return _totals(alone, den, missing, overall)


def _cell_sums(counts, slot, value, own, alone, den, missing, overall):
    """:func:`_sums` for a term counted over the cells met (K, cells; each cell's parent ``slot``
    and child ``value``): ``own`` (cells, K), ``alone`` (m, K) and ``den`` (slots, K), zeros on
    entry, and ``missing`` (m,), zeros on entry: each child value's count where a parent is missing
    (the last slot); then :func:`_totals`."""
    k, cells = counts.shape
    last = den.shape[0] - 1
    for j in range(cells):
        t = 0.0
        for c in range(k):
            v = counts[c, j]
            own[j, c] = v
            alone[value[j], c] += v
            den[slot[j], c] += v
            t += v
        if slot[j] == last:
            missing[value[j]] += t
    return _totals(alone, den, missing, overall)


_KERNELS = ("_row_rule", "_rule_sums", "_mul_score", "_totals", "_sums", "_cell_sums")
_COMPILED = []


def _term_tables(counts, estimator, cells=None):
    """What :func:`_mul_score` reads of a term, from its counts (K, parent slots, m), or (K, cells)
    with ``cells`` = (each cell's slot, its child value, slots, m): the counts with the classes
    innermost ((slots, m, K), or (1, cells, K)); the class-alone counts of each child value (m, K),
    which a row with a parent missing reads; each slot's totals (slots, K), the last the class's
    total; and the leave-one-out pseudo-counts (2, m) and their totals (2,) of the rows whose parents
    are present (0) and missing (1). One compiled pass over the counts. (Counts are whole numbers:
    their sums are exact in any order.)"""
    fns = compiled(globals(), _KERNELS, _COMPILED, nogil=_KERNELS)
    k = counts.shape[0]
    m = counts.shape[2] if cells is None else cells[3]
    alone, missing, overall = np.zeros((m, k)), np.zeros(m), np.empty((2, m))
    if cells is None:
        slots = counts.shape[1]
        own, den = np.empty((slots, m, k)), np.empty((slots, k))
        totals = fns["_sums"](counts, own, alone, den, missing, overall)
    else:
        slot, value, slots, _ = cells
        own, den = np.empty((1, counts.shape[1], k)), np.zeros((slots, k))
        totals = fns["_cell_sums"](counts, slot, value, own[0], alone, den, missing, overall)
    a, at = np.empty((2, m)), np.empty(2)
    for g in range(2):  # 0: a row whose parents are present (their counts); 1: one missing a parent (all rows)
        a_g, at[g] = estimator.loo_pseudo(m, overall[g] - 1.0, totals[g] - 1.0)
        a[g] = np.reshape(np.asarray(a_g, dtype=np.float64), -1)
    return own, alone, den, a, at


def _code_rows(engine, paths, codes):
    """The code rows of every attribute that is a parent of a term counted densely, stacked in the
    narrowest integer type, and each attribute's row."""
    used = sorted({j for p in paths for g in p if g not in engine.parent_index for j in g.parents})
    if not used:
        return np.zeros((0, 0), dtype=np.int8), {}
    top = max(engine.attributes[j].m for j in used)
    mat = np.empty((len(used), len(codes[used[0]])), dtype=np.int8 if top < 127 else np.int64)
    for i, j in enumerate(used):
        mat[i] = codes[j]
    return mat, {j: i for i, j in enumerate(used)}


def _covered(estimator):
    """An estimator whose leave-one-out estimate is :meth:`Frequency.loo_estimate`'s formula."""
    return isinstance(estimator, Frequency) and all(
        getattr(type(estimator), name) is getattr(Frequency, name) for name in ("loo_conditional", "loo_estimate"))


def path_sums(engine, paths, codes, y, w, prior):
    """The scoring rule's sums (one row per model: the prior alone, then each term added) of
    every path over one chunk, compiled; None where the general path must score (folds, a rule
    or an estimator it does not cover, a pseudo-count of 0, an infinite prior, a class's likelihood
    that underflows to 0 under log loss)."""
    rule = RULES.get(engine.scoring)
    if (engine.n_folds or rule is None or not _covered(engine.estimator) or not np.isfinite(prior).all()
            or not all(isinstance(g, Given) for p in paths for g in p)):
        return None
    fns = compiled(globals(), _KERNELS, _COMPILED, nogil=_KERNELS)
    y = np.asarray(y, dtype=np.int64)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=np.float64)
    start = np.exp(prior.T - prior.max(axis=0)[:, None])  # each row's likelihoods up to a factor
    mat, row_of = _code_rows(engine, paths, codes)
    none = np.zeros(0, dtype=np.int64)
    out, terms, children, slots = [], {}, {}, {}
    for path in paths:
        P = start.copy()
        out.append(fns["_rule_sums"](P, y, w, rule))
        for g in path:
            sparse = g in engine.parent_index
            if g not in terms:
                counts = np.ascontiguousarray(engine.stats[g][0], dtype=np.float64)  # (as counted: no copy)
                cells = None
                if sparse:  # (K, cells): each cell's slot and child value
                    m, met = engine.group_values(g), engine.parent_index[g]
                    parent_value, value = np.divmod(engine.cells[g], m)
                    slot = positions(met, parent_value, engine._hashed_values(("met", g), met, parent_value))
                    cells = (slot, value, met.size + 1, m)
                terms[g] = _term_tables(counts, engine.estimator, cells)
                slots[g] = cells[0] if sparse else none
                if not (terms[g][3] > 0).all():  # a pseudo-count of 0: an estimate may be -inf
                    return None
            if g.child not in children:
                c = codes[g.child[0]] if len(g.child) == 1 else engine._codes(g, codes)
                children[g.child] = np.asarray(c, dtype=np.int64)
            cell = np.asarray(engine._cell_rows(g, codes), dtype=np.int64) if sparse else none
            parents = none if sparse else np.array([row_of[j] for j in g.parents], dtype=np.int64)
            widths = np.array([engine.attributes[j].m for j in g.parents], dtype=np.int64)
            out.append(fns["_mul_score"](P, *terms[g], children[g.child], mat, parents, widths, slots[g], cell, y, w,
                                         rule))
    out = np.array(out)
    return None if np.isnan(out).any() else out  # a likelihood underflowed: the general path scores
