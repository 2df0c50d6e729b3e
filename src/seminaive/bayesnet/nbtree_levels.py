"""NBTree grown level by level in passes over a source (``NBTree(folds="hashed")``): the same tree
rule as :mod:`.nbtree_grow` (a node split on the attribute whose subsets' Naive Bayes models make the
fewest 5-fold cross-validated errors, when that removes ``min_improvement`` of the node's own), with
folds that need no node's rows in memory.

A row's fold is a hash of its content (each attribute's value, by its text, and its class), so it is the
same at every node, in every chunk, on every worker, and copies of a row share a fold (a weight of 2 is
two copies; no row order changes the tree). Each level of the tree then costs two passes:

1. **count**: each row is sent down the tree to the level's nodes (a row missing a split value goes to
   every branch, weighted by the branches' shares), and each node counts, per fold, its Naive Bayes and
   every candidate split's subsets (the value's rows, and apart those missing the attribute);
2. **score**: each row is classified by every model that left its fold out (the node's, each candidate
   split's subset's), and the misclassified weight summed.

Only counts travel: a node costs ``8 x folds x classes x attributes x widest x (sum of widths + d + 1)``
bytes, and a level's nodes are taken in batches under ``budget`` bytes (each batch its two passes).
A subset of less than ``folds`` rows' weight is not cross-validated (its weight counts as errors, as
Weka counts a subset of fewer than 5 rows); errors within ``1e-9`` of the node's weight are ties (the
first attribute wins), so that sums added in another order (chunks, workers) decide alike.
"""

import hashlib

import numpy as np

from ..core.hashing import mix64
from ..learning.sources import add_counts, encoded, map_reduce
from .laplace_only import row_codes
from .nbtree_grow import SMALL, weka_proba

__all__ = ["grow_levels", "value_hashes", "content_folds"]

FOLDS = 5
BUDGET = 1 << 29  # bytes of counts per batch of nodes (512 MiB)
_MISSING = 0x9E3779B97F4A7C15  # the hash of a missing value


def _text_hash(text):
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def value_hashes(model):
    """Per reader, a uint64 per code by the value's text (a nominal attribute's value, a numeric one's
    interval number), the missing value's last; and one per class by its label: no declared order of
    values changes a row's hash."""
    tables = []
    for r in model.readers_:
        a = model.schema_.attributes[r.attribute]
        texts = [f"v:{v}" for v in a.values] if a.is_nominal else [f"i:{j}" for j in range(r.n_values)]
        tables.append(np.array([_text_hash(t) for t in texts] + [_MISSING], dtype=np.uint64))
    return tables, np.array([_text_hash(f"c:{c}") for c in model.classes_], dtype=np.uint64)


def content_folds(codes, y, hashes, folds=FOLDS):
    """Each row's fold (rows,): a hash of its codes (rows, d; -1 missing) and class, modulo ``folds``.

    Examples
    --------
    One attribute (hashes of its two values and of missing), two classes; rows 0 and 2 are copies:

    >>> hashes = ([np.array([11, 12, 13], dtype=np.uint64)], np.array([5, 6], dtype=np.uint64))
    >>> content_folds(np.array([[0], [1], [0], [-1]]), np.array([0, 0, 0, 1]), hashes).tolist()
    [4, 0, 4, 1]
    """
    values, classes = hashes
    h = np.full(codes.shape[0], np.uint64(0x243F6A8885A308D3), dtype=np.uint64)
    for a, table in enumerate(values):
        h = mix64(h ^ table[codes[:, a]])  # code -1: the table's last entry, the missing value's
    h = mix64(h ^ classes[y])
    return (h % np.uint64(folds)).astype(np.int64)


def _chunk_rows(chunk, model):
    """A chunk as the passes read it: reader codes (rows, d), classes, weights (rows with a positive weight)
    and folds."""
    table, y, weight = encoded(chunk, model.schema_, model.classes_)
    codes = row_codes(model.readers_, table)
    w = np.ones(table.n_samples) if weight is None else np.asarray(weight, dtype=np.float64)
    keep = (w > 0) & (y >= 0)
    codes, y, w = codes[keep], y[keep], w[keep]
    return codes, y, w, content_folds(codes, y, model._fold_hashes)


def _route(nodes, codes, w, targets):
    """{node: (rows, weights)} of the rows reaching each target node from the root (a missing split value:
    every branch of positive share, the weight times the share)."""
    out, stack = {}, [(0, np.arange(codes.shape[0]), w)]
    while stack:
        at, rows, wt = stack.pop()
        node = nodes[at]
        if at in targets:
            out[at] = (rows, wt)
            continue
        if node["attribute"] < 0 or not rows.size:
            continue
        v = codes[rows, node["attribute"]]
        miss = v < 0
        for j, child in enumerate(node["children"]):
            s = node["shares"][j]
            take = (v == j) | (miss & (s > 0))
            stack.append((child, rows[take], np.where(miss[take], wt[take] * s, wt[take])))
    return out


def _cells(codes, y, w, slot, n_slots, folds, k, top):
    """Counts (slots, folds, K, d, top) and class counts (slots, folds, K) of rows by (slot, fold)."""
    n, d = codes.shape
    group = (slot * FOLDS + folds) * k + y  # (rows,)
    cls = np.bincount(group, w, minlength=n_slots * FOLDS * k).reshape(n_slots, FOLDS, k)
    ok = codes >= 0
    cell = (group[:, None] * d + np.arange(d)[None, :]) * top + codes
    counts = np.bincount(cell[ok], np.broadcast_to(w[:, None], codes.shape)[ok], minlength=n_slots * FOLDS * k * d * top)
    return counts.reshape(n_slots, FOLDS, k, d, top), cls


def _count_pass(chunk, model, nodes, batch):
    """Pass 1 on a chunk: per node of ``batch``, its own counts by fold and each attribute's by (value or
    missing, fold)."""
    codes, y, w, folds = _chunk_rows(chunk, model)
    k, widths = len(model.classes_), model.widths_
    top = max(int(widths.max(initial=1)), 1)
    found = _route(nodes, codes, w, set(batch))
    out = []
    for at in batch:
        rows, wt = found.get(at, (np.zeros(0, dtype=np.int64), np.zeros(0)))
        c, yy, f = codes[rows], y[rows], folds[rows]
        own = _cells(c, yy, wt, np.zeros(rows.size, dtype=np.int64), 1, f, k, top)
        splits = [_cells(c, yy, wt, np.where(c[:, a] >= 0, c[:, a], widths[a]), int(widths[a]) + 1, f, k, top)
                  for a in range(len(widths))]
        out.append((own, splits))
    return out


def _subsets(split, a, widths):
    """A candidate split's subsets: (counts (values, folds, K, d, top), class counts (values, folds, K)) with
    each missing row in every subset by its share, the shares, and each subset's weight; None where the
    split is not made (fewer than two values of 2 rows' weight)."""
    counts, cls = split
    wa = int(widths[a])
    per_bag = cls[:wa].sum(axis=(1, 2))
    if np.count_nonzero(2.0 - per_bag < SMALL) <= 1:
        return None
    shares = per_bag / per_bag.sum()
    sub = counts[:wa] + shares[:, None, None, None, None] * counts[wa][None]
    sub_cls = cls[:wa] + shares[:, None, None] * cls[wa][None]
    return sub, sub_cls, shares


def _models(counts, cls):
    """Per fold, the model of the other folds: (class counts, counts, present totals)."""
    total, total_cls = counts.sum(axis=0), cls.sum(axis=0)
    return [(total_cls - cls[f], total - counts[f], (total - counts[f]).sum(axis=2)) for f in range(FOLDS)]


def _wrong(models, widths, c, y, w, f):
    """The weight of the rows (codes ``c``, classes, weights, folds) that their fold's model misclassifies."""
    errors = 0.0
    for fold, model in enumerate(models):
        at = np.flatnonzero(f == fold)
        if at.size:
            guess = np.argmax(weka_proba(*model, widths, c[at], normalize=False), axis=1)
            errors += float(w[at][guess != y[at]].sum())
    return errors


def _score_pass(chunk, model, nodes, batch, plans):
    """Pass 2 on a chunk: per node of ``batch``, the misclassified weight of its own Naive Bayes and of each
    candidate split's cross-validated subsets (errors (d + 1,): the node's last)."""
    codes, y, w, folds = _chunk_rows(chunk, model)
    widths = model.widths_
    found = _route(nodes, codes, w, set(batch))
    out = []
    for at, plan in zip(batch, plans):
        errors = np.zeros(len(widths) + 1)
        rows, wt = found.get(at, (np.zeros(0, dtype=np.int64), np.zeros(0)))
        c, yy, f = codes[rows], y[rows], folds[rows]
        errors[-1] = _wrong(plan["own"], widths, c, yy, wt, f)
        for a, split in plan["splits"].items():
            v = c[:, a]
            for j, (shares, models) in split.items():
                take = (v == j) | (v < 0)
                sw = np.where(v[take] < 0, wt[take] * shares, wt[take])
                errors[a] += _wrong(models, widths, c[take], yy[take], sw, f[take])
        out.append(errors)
    return out


def _plan(node_counts, widths):
    """What the score pass needs of a node: its own fold models, and per candidate split the fold models
    of each subset worth cross-validating; with the splits' shares, subsets and uncounted weights."""
    (own, own_cls), splits = node_counts
    plan = {"own": _models(own[0], own_cls[0]), "splits": {}, "found": {}}
    for a, split in enumerate(splits):
        made = _subsets(split, a, widths)
        if made is None:
            continue
        sub, sub_cls, shares = made
        weight = sub_cls.sum(axis=(1, 2))
        crossed = [j for j in range(len(shares)) if weight[j] >= FOLDS - SMALL]
        if len(crossed) < 2:
            continue
        plan["splits"][a] = {j: (shares[j], _models(sub[j], sub_cls[j])) for j in crossed}
        plan["found"][a] = (shares, sub, sub_cls, float(sum(weight[j] for j in range(len(shares)) if j not in crossed)))
    return plan


def _node(counts, cls):
    """A node of the tree (as :func:`.nbtree_grow.grow` makes them) from its counts."""
    return {"counts": (cls, counts, counts.sum(axis=2)), "attribute": -1, "children": [], "shares": [],
            "empty": bool(abs(cls.sum()) < SMALL)}


def _worth_scoring(node, min_instances):
    cls = node["counts"][0]
    return cls.sum() >= FOLDS - SMALL and cls.sum() >= min_instances - SMALL and abs(cls.sum() - cls.max()) >= SMALL


def _batches(frontier, bytes_each, budget):
    batch = []
    for at in frontier:
        if batch and (len(batch) + 1) * bytes_each > budget:
            yield batch
            batch = []
        batch.append(at)
    if batch:
        yield batch


def grow_levels(model, source, min_instances=30, min_improvement=0.05, budget=None):
    """The tree's nodes (as :func:`.nbtree_grow.grow` makes them, breadth first) from ``source`` in two
    passes per level (see the module's notes); ``model`` has its readers, classes and ``widths_``."""
    widths, k = model.widths_, len(model.classes_)
    d, top = len(widths), max(int(widths.max(initial=1)), 1)
    model._fold_hashes = value_hashes(model)
    bytes_each = 8 * FOLDS * k * d * top * (int(widths.sum()) + 2 * d + 1)
    budget = BUDGET if budget is None else budget
    nodes = [{"counts": None, "attribute": -1, "children": [], "shares": [], "empty": False}]
    frontier = [0]
    while frontier:
        following = []
        for batch in _batches(frontier, bytes_each, budget):
            counted = map_reduce(source, _count_pass, add_counts, model, nodes, batch)
            for at, c in zip(batch, counted):
                if nodes[at]["counts"] is None:  # the root: its own counts
                    (own, own_cls), _ = c
                    nodes[at].update(_node(own[0].sum(axis=0), own_cls[0].sum(axis=0)))
            kept = [(at, c) for at, c in zip(batch, counted) if _worth_scoring(nodes[at], min_instances)]
            scored, plans = [at for at, _ in kept], [_plan(c, widths) for _, c in kept]
            if not scored:
                continue
            errors = map_reduce(source, _score_pass, add_counts, model, nodes, scored, plans)
            for at, plan, err in zip(scored, plans, errors):
                following += _decide(nodes, at, plan, err, min_improvement)
        frontier = [at for at in following if _worth_scoring(nodes[at], min_instances)]
    del model._fold_hashes
    return nodes


def _decide(nodes, at, plan, errors, min_improvement):
    """Split node ``at`` on the candidate of fewest errors if it removes ``min_improvement`` of the node's
    own; returns the children made."""
    own = float(errors[-1])
    if own <= 0:
        return []
    tie = 1e-9 * max(1.0, float(nodes[at]["counts"][0].sum()))
    best, least = None, own
    for a, (shares, sub, sub_cls, uncounted) in plan["found"].items():
        e = float(errors[a]) + uncounted
        if e < least - tie:
            best, least = a, e
    if best is None or (own - least) / own < min_improvement:
        return []
    shares, sub, sub_cls, _ = plan["found"][best]
    node = nodes[at]
    node["attribute"], node["shares"] = best, shares.tolist()
    made = []
    for j in range(len(shares)):
        node["children"].append(len(nodes))
        made.append(len(nodes))
        nodes.append(_node(sub[j].sum(axis=0), sub_cls[j].sum(axis=0)))
    return made
