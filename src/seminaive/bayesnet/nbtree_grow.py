"""NBTree's growth (Kohavi 1996) as Weka 3.6 defines it (``weka.classifiers.trees.NBTree``): at a node,
Naive Bayes's 5-fold cross-validated errors on the node's rows against, for each attribute, the summed
errors of Naive Bayes models on the subsets its values make (each subset shuffled and stratified as
Weka's ``Instances`` do, with java.util.Random(1): :mod:`seminaive.learning.java_folds`); the split of
fewest errors is taken when it removes at least 5% of the node's errors.

A node's rows are ``items``: (row, weight) pairs in order (a row whose split value is missing goes to
every subset, weighted by the subsets' shares of the known weight, as C4.5 and Weka send it). Every
Naive Bayes is counts: a fold's model is the node's counts less the fold's (Weka's unlearning).
"""

import numpy as np

from ..learning.java_folds import JavaRandom, fold_positions, randomize, stratify

__all__ = ["grow", "node_counts", "weka_proba"]

SMALL = 1e-6  # Weka's Utils.SMALL: its comparisons' tolerance
FLOOR = 1e-75  # Weka's NaiveBayes floor of a factor (and the bound under which it rescales)


def node_counts(codes, y, rows, weights, widths, k):
    """Class counts (K,), value counts (K, d, widest) and present totals (K, d) of weighted rows (one
    bincount over class, attribute and value)."""
    d, top = codes.shape[1], max(int(np.max(widths, initial=1)), 1)
    cls = np.bincount(y[rows], weights, minlength=k)
    v = codes[rows]
    cell = (y[rows][:, None] * d + np.arange(d)[None, :]) * top + v
    ok = v >= 0
    counts = np.bincount(cell[ok], np.broadcast_to(weights[:, None], v.shape)[ok], minlength=k * d * top)
    counts = counts.reshape(k, d, top)
    return cls, counts, counts.sum(axis=2)


def weka_proba(cls, counts, totals, widths, codes_rows, normalize=True):
    """Weka's NaiveBayes (Laplace's estimates) on rows: the class prior times each present attribute's
    factor, in attribute order, each at least 1e-75, rescaled by 1e75 where the largest falls below
    1e-75; normalized rows (rows, K), or the products (``normalize=False``). The products are one
    cumulative product (the same multiplications in the same order); a row that would need Weka's
    rescaling is worked out attribute by attribute."""
    k, (n, d) = cls.size, codes_rows.shape
    prior = (cls + 1.0) / (cls.sum() + k)
    ok = codes_rows >= 0
    at = np.where(ok, codes_rows, 0)
    factor = (counts[:, np.arange(d)[None, :], at] + 1.0) / (totals + np.asarray(widths)[None, :])[:, None, :]
    factor = np.where(ok[None], np.maximum(FLOOR, factor), 1.0).transpose(1, 2, 0)  # (rows, d, K)
    steps = np.cumprod(np.concatenate([np.broadcast_to(prior, (n, 1, k)), factor], axis=1), axis=1)
    probs = steps[:, -1, :].copy()
    top = steps.max(axis=2)
    for r in np.flatnonzero(((top > 0) & (top < FLOOR)).any(axis=1)):  # Weka rescales these
        p = prior.copy()
        for a in np.flatnonzero(ok[r]):
            p *= factor[r, a]
            if 0 < p.max() < FLOOR:
                p *= 1e75
        probs[r] = p
    if normalize:
        probs /= probs.sum(axis=1, keepdims=True)
    return probs


def cv_errors(codes, y, rows, weights, widths, k, folds=5):
    """The weight of the rows Naive Bayes misclassifies in ``folds``-fold cross-validation over the rows
    in their order (Weka's ``testCV`` folds; each fold's model the counts less the fold's)."""
    cls, counts, totals = node_counts(codes, y, rows, weights, widths, k)
    errors = 0.0
    for f in range(folds):
        a, b = fold_positions(rows.size, folds, f)
        r, w = rows[a:b], weights[a:b]
        c2, n2, t2 = node_counts(codes, y, r, w, widths, k)
        guess = np.argmax(weka_proba(cls - c2, counts - n2, totals - t2, widths, codes[r], normalize=False), axis=1)
        errors += float(w[guess != y[r]].sum())
    return errors


def _split_items(codes, rows, weights, a, shares, keep_zero):
    """The subsets of the rows by attribute ``a``'s value, in order; a row missing it in every subset with
    its weight times the subset's share (Weka's CV subsets keep zero weights; its children do not)."""
    v = codes[rows, a]
    missing = v < 0
    out = []
    for j, s in enumerate(shares):
        take = (v == j) | (missing & (keep_zero or s > 0))
        out.append((rows[take], np.where(missing[take], weights[take] * s, weights[take])))
    return out


def _split_errors(codes, y, rows, weights, a, widths, k, folds, declared=False):
    """The summed cross-validated errors of the split on ``a`` and its subsets' shares, or None where Weka
    makes no split (fewer than two values with 2 rows' weight, or fewer than two subsets of 5 rows). The
    subsets draw their shuffles from one java.util.Random(1) in turn: in the order of the values (Weka's,
    ``declared``), or of their first rows at the node (the default: no declared order changes the tree)."""
    v = codes[rows, a]
    per_bag = np.bincount(v[v >= 0], weights[v >= 0], minlength=widths[a])
    if np.count_nonzero(2.0 - per_bag < SMALL) <= 1:
        return None
    shares = per_bag / per_bag.sum()
    subsets = _split_items(codes, rows, weights, a, shares, keep_zero=True)
    if not declared:
        place = {r: i for i, r in enumerate(rows.tolist())}
        subsets.sort(key=lambda sub: place[int(sub[0][0])] if sub[0].size else len(place))
    random, errors, enough = JavaRandom(1), 0.0, 0
    for r, w in subsets:
        if r.size >= 5:
            enough += 1
            mixed = randomize(list(range(r.size)), random)
            order = np.array(stratify(mixed, [int(y[r[i]]) for i in mixed], folds), dtype=np.int64)
            errors += cv_errors(codes, y, r[order], w[order], widths, k, folds)
        else:
            errors += float(w.sum())
    return (errors, shares) if enough > 1 else None


def grow(codes, y, rows, weights, widths, k, min_instances=30, min_improvement=0.05, folds=5, declared=False,
         nodes=None):
    """Grow the tree from the weighted rows; returns the list of nodes (the root first), each a dict:
    ``counts`` (its Naive Bayes: class counts, value counts, totals), ``attribute`` (-1: a leaf),
    ``children`` (node indices, one per value), ``shares`` (each value's share of the known weight: where a
    missing value is sent), ``empty`` (no rows: its parent's Naive Bayes answers)."""
    nodes = [] if nodes is None else nodes
    node = {"counts": node_counts(codes, y, rows, weights, widths, k), "attribute": -1, "children": [],
            "shares": [], "empty": bool(abs(weights.sum()) < SMALL) if rows.size else True}
    nodes.append(node)
    if rows.size < folds:
        return nodes
    global_errors = cv_errors(codes, y, rows, weights, widths, k, folds)
    cls = node["counts"][0]
    if global_errors == 0 or cls.sum() < min_instances - SMALL or abs(cls.sum() - cls.max()) < SMALL:
        return nodes
    best, least = None, global_errors
    for a in range(codes.shape[1]):
        found = _split_errors(codes, y, rows, weights, a, widths, k, folds, declared)
        if found is not None and found[0] < least:
            best, least = (a, found[1]), found[0]
    if best is None or (global_errors - least) / global_errors < min_improvement:
        return nodes
    a, shares = best
    node["attribute"], node["shares"] = a, shares.tolist()
    for r, w in _split_items(codes, rows, weights, a, shares, keep_zero=False):
        node["children"].append(len(nodes))
        grow(codes, y, r, w, widths, k, min_instances, min_improvement, folds, declared, nodes)
    return nodes
