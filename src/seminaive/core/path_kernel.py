"""Compiled leave-one-out scores of growing models (selective kDB's candidates).

:meth:`Engine.score_paths <seminaive.core.engine.Engine.score_paths>` scores, for each path of
conditional terms P(x_i | c, parents), the models made of its first 0, 1, 2, ... terms. Where
every term is a categorical table estimated by pseudo-counts (Laplace, Lidstone, the
m-estimate: every pseudo-count positive, so that every estimate is finite), held out by leave-one-out
and scored by log loss or RMSE, one compiled pass per term adds the term's leave-one-out log-estimate
to each row's joint log-likelihood and sums the rule over the rows, with no (rows, classes)
temporaries: the same numbers as the general path (:func:`loo_log_table`, :func:`score_sums`), which
the other cases keep.
"""

import math

import numpy as np

from .._jit import compiled
from .attributes import Given
from ..estimation import Frequency

__all__ = ["path_sums"]

RULES = {"log_loss": 0, "rmse": 1, "brier": 1}


def _estimate(num, d, a, at, lut, lut_den, g):
    """log((num + a) / (d + at)): the tables' logarithms where the counts are whole (``lut`` not empty)."""
    if lut.shape[1]:
        return lut[g, int(num)] - lut_den[g, int(d)]
    return math.log(num + a) - math.log(d + at)


def _add_term(S, counts, den, x, g, a, at, lut, lut_den, cell, y, w):
    """Add each row's leave-one-out log P(child | class, parents) to S (rows, K) from the counts
    (cells, K) and their parent values' totals (cells, K) of the cells the rows meet (``cell``: each
    row's, -1 where its child is missing: it adds nothing, as a row of weight 0), the cells' child
    values ``x`` and groups ``g`` (0: parents present; 1: a parent missing, the class alone); the
    row's own count taken out of its class's cell and total; the pseudo-counts ``a`` (2, m) and
    totals ``at`` (2,) per group; ``lut``, ``lut_den``: log(i + pseudo-count) for whole counts i
    (empty: logarithms taken)."""
    n, k = S.shape
    for r in range(n):
        j, own = cell[r], y[r]
        if j < 0 or w[r] <= 0:
            continue
        gj, aj = g[j], a[g[j], x[j]]
        for c in range(own):  # the classes before and after the row's own, apart: no test per class
            S[r, c] += _estimate(counts[j, c], den[j, c], aj, at[gj], lut, lut_den, gj)
        S[r, own] += _estimate(counts[j, own] - 1.0, den[j, own] - 1.0, aj, at[gj], lut, lut_den, gj)
        for c in range(own + 1, k):
            S[r, c] += _estimate(counts[j, c], den[j, c], aj, at[gj], lut, lut_den, gj)


def _rule_sums(S, y, w, rule, e):
    """(sum of the rule, sum of the weights) over the rows of weight > 0: log loss (rule 0) or
    the squared distance of the posteriors to the class's indicator (rule 1); ``e``: scratch (K,)."""
    n, k = S.shape
    total, weight = 0.0, 0.0
    for r in range(n):
        if w[r] <= 0:
            continue
        top = S[r, 0]
        for c in range(1, k):
            top = max(top, S[r, c])
        s = 0.0
        for c in range(k):
            e[c] = math.exp(S[r, c] - top)
            s += e[c]
        if rule == 0:
            total += w[r] * (top + math.log(s) - S[r, y[r]])
        else:
            sq = 0.0
            for c in range(k):
                p = e[c] / s
                if c == y[r]:
                    p -= 1.0
                sq += p * p
            total += w[r] * sq
        weight += w[r]
    return total, weight


_KERNELS = ("_estimate", "_add_term", "_rule_sums")
_COMPILED = []


def _estimates(counts, estimator):
    """A term's leave-one-out pseudo-counts (2, m) and their totals (2,) for the rows whose parents
    are present (0) and missing (1)."""
    m = counts.shape[2]
    per_slot = counts.sum(axis=0)
    everything = per_slot.sum(axis=0)
    a, at = np.empty((2, m)), np.empty(2)
    for g, overall in enumerate((everything - per_slot[-1], everything)):
        a_g, at[g] = estimator.loo_pseudo(m, overall - 1.0, overall.sum() - 1.0)
        a[g] = np.reshape(np.asarray(a_g, dtype=np.float64), -1)
    return a, at


def _log_tables(a, at, table, den, n):
    """log(i + pseudo-count) for whole counts i up to ``n`` (per group: numerators, totals) where
    the cells' counts and totals are whole and one pseudo-count serves every value; else empty
    (2, 0): the kernel takes logarithms."""
    if (a == a[0, 0]).all() and np.array_equal(table, np.floor(table)) and np.array_equal(den, np.floor(den)):
        whole = np.arange(int(n) + 2, dtype=np.float64)
        return np.log(whole + a[:, :1]), np.log(whole + at[:, None])
    return np.empty((2, 0)), np.empty((2, 0))


def _cells(counts, child, parent):
    """The (parent value, child value) cells the rows meet: each row's cell (-1: child missing), and
    per cell its counts and its parent value's totals (cells, K) (the class-alone counts for the
    last slot, a parent missing), its child value and its group (1 for the last slot)."""
    k, slots, m = counts.shape
    seen = child >= 0
    flat = parent[seen] * m + child[seen]
    mark = np.zeros(slots * m, dtype=np.int64)  # no sort: a mark per cell, then their ranks
    mark[flat] = 1
    met = np.flatnonzero(mark)
    rank = np.cumsum(mark) - 1
    cell = np.full(child.size, -1, dtype=np.int64)
    cell[seen] = rank[flat]
    q, x = met // m, met % m
    g = (q == slots - 1).astype(np.int64)
    table = np.ascontiguousarray(counts.reshape(k, -1)[:, met].T)
    values, which = np.unique(q, return_inverse=True)  # (q sorted: no sort) the parent values met, summed alone
    den = np.ascontiguousarray(counts[:, values].sum(axis=2)[:, which.reshape(-1)].T)
    alone = np.flatnonzero(g)
    if alone.size:
        table[alone] = counts[:, :, x[alone]].sum(axis=1).T
        den[alone] = counts.sum(axis=(1, 2))
    return table, den, x, g, cell


def _covered(estimator):
    """An estimator whose leave-one-out estimate is :meth:`Frequency.loo_estimate`'s formula."""
    return isinstance(estimator, Frequency) and all(
        getattr(type(estimator), name) is getattr(Frequency, name) for name in ("loo_conditional", "loo_estimate"))


def path_sums(engine, paths, codes, y, w, prior):
    """The scoring rule's sums (one row per model: the prior alone, then each term added) of
    every path over one chunk, compiled; None where the general path must score (folds, a rule
    or an estimator it does not cover, a pseudo-count of 0 that a row reads, an infinite prior)."""
    rule = RULES.get(engine.scoring)
    if (engine.n_folds or rule is None or not _covered(engine.estimator) or not np.isfinite(prior).all()
            or not all(isinstance(g, Given) for p in paths for g in p)):
        return None
    fns = compiled(globals(), _KERNELS, _COMPILED)
    y = np.asarray(y, dtype=np.int64)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=np.float64)
    start = np.ascontiguousarray(prior.T, dtype=np.float64)
    out, e, estimates, children = [], np.empty(start.shape[1]), {}, {}
    for path in paths:
        S = start.copy()
        out.append(fns["_rule_sums"](S, y, w, rule, e))
        for g in path:
            counts = np.asarray(engine.stats[g][0], dtype=np.float64)
            if g.child not in children:
                children[g.child] = np.asarray(engine._codes(g, codes), dtype=np.int64)
            table, den, x, group, cell = _cells(counts, children[g.child],
                                                np.asarray(engine._parent_codes(g, codes)[0], dtype=np.int64))
            if g not in estimates:
                estimates[g] = _estimates(counts, engine.estimator)
            a, at = estimates[g]
            if not (a[group, x] > 0).all():  # a pseudo-count of 0 where a row reads it: an estimate may be -inf
                return None
            lut, lut_den = _log_tables(a, at, table, den, den.max(initial=0.0))
            fns["_add_term"](S, table, den, x, group, a, at, lut, lut_den, cell, y, w)
            out.append(fns["_rule_sums"](S, y, w, rule, e))
    return np.array(out)
