"""Lazy Bayesian Rules' search for one row, compiled (numba, on first use; :mod:`seminaive._jit`).

For a test row, the rule's antecedent grows one attribute value at a time: of the attributes left,
the one whose value, taken as a condition, gives the local Naive Bayes (on the training rows that
meet the conditions, over the attributes left) the fewest leave-one-out errors, counting the errors
of the rows left outside as they were, when that is fewer than before and the changes are
significant by a one-sided sign test (5%). Every leave-one-out is worked out from the subset's
counts with each row's own counts taken out (never a refit). The order of operations is Weka 3.6's
(``weka.classifiers.lazy.LBR``): products of probabilities, attributes and rows in order, the first
class of largest posterior, so that its decisions match.

``codes`` (rows, d): each attribute's value, -1 where missing; ``y`` the class codes.
"""

import math

import numpy as np

from .._jit import compiled

__all__ = ["lbr_rows", "loo_errors"]

_KERNELS = ("_count", "_loo", "_binom_cdf", "_search")
_COMPILED = []
SIGNIFICANCE = 0.05  # the sign test's level (Weka's SIGNLOWER)
MIN_ERRORS = 5  # the search goes on while the local model makes at least this many errors


def _count(codes, y, rows, nrows, atts, natts, k, counts, totals, priors):
    """Counts by class of each attribute's values over ``rows[:nrows]`` (attributes ``atts[:natts]``), their
    totals (rows with the attribute present) and the class counts."""
    for c in range(k):
        priors[c] = 0
        for t in range(natts):
            a = atts[t]
            totals[c, a] = 0
            for v in range(counts.shape[2]):
                counts[c, a, v] = 0
    for i in range(nrows):
        r = rows[i]
        c = y[r]
        priors[c] += 1
        for t in range(natts):
            a = atts[t]
            v = codes[r, a]
            if v >= 0:
                counts[c, a, v] += 1
                totals[c, a] += 1


def _loo(codes, y, widths, rows, nrows, atts, natts, k, counts, totals, priors, right):
    """Leave-one-out errors of Naive Bayes (Laplace's estimates) on ``rows[:nrows]`` over ``atts[:natts]``;
    ``right[r]`` set for each of those rows."""
    _count(codes, y, rows, nrows, atts, natts, k, counts, totals, priors)
    errors = 0
    for i in range(nrows):
        r = rows[i]
        own = y[r]
        best, chosen = 0.0, 0
        for c in range(k):
            p = (priors[c] - (1 if c == own else 0) + 1.0) / (nrows - 1.0 + k)
            for t in range(natts):
                a = atts[t]
                v = codes[r, a]
                if v >= 0:
                    out = 1 if c == own else 0
                    p *= (counts[c, a, v] - out + 1.0) / (totals[c, a] - out + widths[a])
            if p > best:
                best, chosen = p, c
        right[r] = chosen == own
        if chosen != own:
            errors += 1
    return errors


def _binom_cdf(r, n):
    """P(X <= r) for X ~ Binomial(n, 1/2) (1 where r = n, as Weka's binomP)."""
    if r >= n:
        return 1.0
    total = 0.0
    for i in range(r + 1):
        total += math.exp(math.lgamma(n + 1.0) - math.lgamma(i + 1.0) - math.lgamma(n - i + 1.0) - n * math.log(2.0))
    return total


def _search(codes, y, widths, k, x, right0, errors0, rows, atts, cand, best_rows, flags, best_flags, work_right,
            counts, totals, priors, rule, significance, min_errors):
    """The rule for row ``x``: fills ``rule`` with the attributes taken (in order, -1 after the last), leaves
    the final subset in ``rows`` (its size returned, with the attributes left in ``atts``, their number
    the second value)."""
    n, d = codes.shape
    nrows, natts = n, 0
    for i in range(n):
        rows[i] = i
        flags[i] = right0[i]
    for a in range(d):
        atts[natts] = a
        natts += 1
    for i in range(d):
        rule[i] = -1
    taken = 0
    local_errors = errors0
    while local_errors >= min_errors:
        best_errors = nrows + 1
        best_attr, best_n = -1, 0
        for t in range(natts):
            a = atts[t]
            if x[a] < 0:
                continue
            remainder, m = 0, 0
            for i in range(nrows):
                r = rows[i]
                if codes[r, a] == x[a]:
                    cand[m] = r
                    m += 1
                elif not flags[r]:
                    remainder += 1
            if m >= nrows:
                continue
            natts2 = 0
            for u in range(natts):  # the attributes left but a (in the tail of atts' buffer)
                if atts[u] != a:
                    atts[d + natts2] = atts[u]
                    natts2 += 1
            sub_errors = _loo(codes, y, widths, cand, m, atts[d:], natts2, k, counts, totals, priors, work_right)
            new_not_old, old_not_new = 0, 0
            for i in range(m):
                r = cand[i]
                if not work_right[r] and flags[r]:
                    new_not_old += 1
                elif work_right[r] and not flags[r]:
                    old_not_new += 1
            errors = sub_errors + remainder
            if errors < best_errors and _binom_cdf(new_not_old, new_not_old + old_not_new) < significance:
                best_errors, best_attr, best_n = errors, a, m
                for i in range(m):
                    best_rows[i] = cand[i]
                    best_flags[cand[i]] = work_right[cand[i]]
        if best_attr < 0:
            break
        rule[taken] = best_attr
        taken += 1
        nrows = best_n
        for i in range(best_n):
            rows[i] = best_rows[i]
            flags[best_rows[i]] = best_flags[best_rows[i]]
        natts2 = 0
        for u in range(natts):
            if atts[u] != best_attr:
                atts[natts2] = atts[u]
                natts2 += 1
        natts = natts2
        local_errors = best_errors
    return nrows, natts


def loo_errors(codes, y, widths, k, rows, atts):
    """Leave-one-out errors of Naive Bayes on the training ``rows`` over the attributes ``atts``, and whether
    each row is right (an array over all the training rows; False outside ``rows``)."""
    fns = compiled(globals(), _KERNELS, _COMPILED)
    d, top = codes.shape[1], max(int(np.max(widths, initial=1)), 1)
    counts, totals, priors = np.zeros((k, d, top), np.int64), np.zeros((k, d), np.int64), np.zeros(k, np.int64)
    right = np.zeros(codes.shape[0], dtype=np.bool_)
    rows, atts = np.asarray(rows, np.int64), np.asarray(atts, np.int64)
    errors = fns["_loo"](codes, y, widths, rows, rows.size, atts, atts.size, k, counts, totals, priors, right)
    return errors, right


def lbr_rows(codes, y, widths, k, test, right0, errors0):
    """For each row of ``test`` (rows, d) its rule (attributes, -1 padded: (rows, d)) and the local Naive
    Bayes's log-posterior numerators (rows, K): log of Weka's products, prior (n_c + 1) / (n + K) and
    (n(c, x_a) + 1) / (n_c,a + m_a) over the attributes left on the subset the rule selects."""
    fns = compiled(globals(), _KERNELS, _COMPILED)
    n, d = codes.shape
    top = max(int(np.max(widths, initial=1)), 1)
    counts, totals, priors = np.zeros((k, d, top), np.int64), np.zeros((k, d), np.int64), np.zeros(k, np.int64)
    rows, atts, cand, best_rows = (np.empty(n, np.int64), np.empty(2 * d + 1, np.int64), np.empty(n, np.int64),
                                   np.empty(n, np.int64))
    flags, best_flags, work = (np.empty(n, np.bool_) for _ in range(3))
    rules = np.full((test.shape[0], d), -1, dtype=np.int64)
    out = np.empty((test.shape[0], k))
    for t in range(test.shape[0]):
        x = np.ascontiguousarray(test[t])
        nrows, natts = fns["_search"](codes, y, widths, k, x, right0, errors0, rows, atts, cand, best_rows, flags,
                                      best_flags, work, counts, totals, priors, rules[t], SIGNIFICANCE, MIN_ERRORS)
        fns["_count"](codes, y, rows, nrows, atts, natts, k, counts, totals, priors)
        for c in range(k):
            p = (priors[c] + 1.0) / (nrows + k)
            for u in range(natts):
                a = atts[u]
                if x[a] >= 0:
                    p *= (counts[c, a, x[a]] + 1.0) / (totals[c, a] + widths[a])
            out[t, c] = math.log(p) if p > 0 else -np.inf
    return rules, out
