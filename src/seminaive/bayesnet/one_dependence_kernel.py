"""The per-row loops of AODEsr's subsumption resolution and hidden Naive Bayes's mixtures, compiled
(numba, on first use; :mod:`seminaive._jit`): each is a short sequential loop per row over the
attributes, which array statements could only do by building (rows, d, d) arrays.

Slots are :mod:`.pair_counts`' (each attribute's values, then its missing slot); ``slots`` is (rows, d),
each row's slot of every attribute, ``present`` whether the value is there.
"""

import math

import numpy as np

from .._jit import compiled

__all__ = ["generalizations", "hidden_parents"]

_KERNELS = ("_generalizations", "_hidden_parents")
_COMPILED = []


def _generalizations(slots, present, together, critical, out):
    """Weka's AODEsr order, per row: attributes i in turn, the first j (j != i, present, whose own
    generalization is not i) with N(x_j) > critical and N(x_i, x_j) = N(x_j) is x_i's specialization,
    unless N(x_i) = N(x_j) and i < j (then the later one is dropped); -1 where none."""
    rows, d = slots.shape
    for r in range(rows):
        for i in range(d):
            out[r, i] = -1
        for i in range(d):
            if not present[r, i]:
                continue
            u = slots[r, i]
            for j in range(d):
                if j == i or not present[r, j] or out[r, j] == i:
                    continue
                v = slots[r, j]
                nj = together[v, v]
                if nj > critical and together[u, v] == nj:
                    if nj == together[u, u] and i < j:
                        continue
                    out[r, i] = j
                    break


def _hidden_parents(slots, present, cond, info, log_prior, log_alone, out, terms, keep):
    """log P(c) + sum over the row's present attributes s of log sum_p W_sp P(x_s | c, x_p) (the row's
    present parents p != s, W the information renormalized over them), or log P(x_s | c) where they
    weigh 0: ``cond`` (K, slots, slots), ``info`` (d, d), ``log_alone`` (K, slots); ``out`` (rows, K);
    with ``keep``, each attribute's term in ``terms`` (rows, d, K; 0 where the value is missing)."""
    rows, d = slots.shape
    k = cond.shape[0]
    for r in range(rows):
        for c in range(k):
            total = log_prior[c]
            for s in range(d):
                if not present[r, s]:
                    if keep:
                        terms[r, s, c] = 0.0
                    continue
                v = slots[r, s]
                mix, weight = 0.0, 0.0
                for p in range(d):
                    if p == s or not present[r, p]:
                        continue
                    w = info[s, p]
                    weight += w
                    mix += w * cond[c, slots[r, p], v]
                term = math.log(mix / weight) if weight > 0 else log_alone[c, v]
                total += term
                if keep:
                    terms[r, s, c] = term
            out[r, c] = total


def generalizations(slots, present, together, critical):
    """Per row and attribute, the attribute whose value specializes it (-1: none), in Weka's order."""
    out = np.empty(slots.shape, dtype=np.int64)
    compiled(globals(), _KERNELS, _COMPILED)["_generalizations"](
        np.ascontiguousarray(slots, dtype=np.int64), np.ascontiguousarray(present), together, float(critical), out)
    return out


def hidden_parents(slots, present, cond, info, log_prior, log_alone, terms=False):
    """Hidden Naive Bayes's joint log-likelihood (rows, K) of rows given as slots; with ``terms``, also each
    attribute's term (rows, d, K)."""
    rows, k = slots.shape[0], cond.shape[0]
    out = np.empty((rows, k))
    each = np.empty((rows, slots.shape[1], k) if terms else (1, 1, 1))
    compiled(globals(), _KERNELS, _COMPILED)["_hidden_parents"](
        np.ascontiguousarray(slots, dtype=np.int64), np.ascontiguousarray(present), cond, info, log_prior, log_alone,
        out, each, bool(terms))
    return (out, each) if terms else out
