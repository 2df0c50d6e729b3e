"""AnDE's joint log-likelihood, compiled: per row, the log of the average over the active
super-parent sets of P(c, x_P) prod_i P(x_i | c, x_P) (the rows where no set is active are
left to the Naive Bayes fallback).

The rows are taken in blocks and, within a block, the sets one after another and each set's
children one after another, so that a child's table stays in the processor's cache while the
block's rows read it. The products are taken in probabilities, as Weka does (no exponential per
set and class, one logarithm per row and class); a row whose product falls below 1e-280 for an
active set (many small factors, or a probability of 0) is worked out again in logarithms with a
running log-sum-exp, so that no product underflows.
"""

import math
import weakref

import numpy as np

from .._jit import compiled, on_threads
from ..core.subset_counts import code_matrix

__all__ = ["average_sets", "set_values"]

BLOCK = 2048  # rows per block
TINY = 1e-280  # a product below it is redone in logarithms (doubles go subnormal near 2.2e-308)
THREAD_CELLS = 1 << 20  # table look-ups per thread at least (a millisecond or so: worth a thread)
KEEP_BYTES = 1 << 24  # a model's prediction tables up to this size are kept (16 MB)
_KEPT = {}  # id of the log tables a prediction reads -> (a weak reference to them, min_count, tables)


def _set_value(codes, row, members, widths, s, seen, seen_at, threshold):
    """The joint value of set s for a row, or -1 where the set is not active (an attribute missing,
    or its value counted less than ``threshold``)."""
    code = 0
    for a in range(members.shape[1]):
        v = codes[members[s, a], row]
        if v >= widths[s, a]:
            return -1
        code = code * widths[s, a] + v
    if seen[seen_at[s] + code] < threshold:
        return -1
    return code


def _average(codes, out, members, widths, children, joint, joint_at, seen, seen_at, probs, probs_at, rows_of,
             threshold, tiny, state, floats, ints):
    """Set ``out`` (rows, K) to the log of the average of the active sets' likelihoods, marking
    in ``state`` the rows to work out in logarithms (1, :func:`_average_logs`) and those where no
    set is active (2, left as they are). ``codes`` (attributes, rows): each attribute's codes, its
    number of values where missing. Set s: its attributes ``members[s]``, their numbers of values
    ``widths[s]``, its children ``children[s]``; P(c, x_P) at joint[joint_at[s]:] ((P values, K)),
    its weighted counts per value at seen[seen_at[s]:], its children's probabilities at
    probs[probs_at[s]:] ((K, children, P values + 1, rows_of[s]), a missing child's row all ones).
    A set is active for a row when its attributes are present and its value's count is at least
    ``threshold``; a product below ``tiny`` sends its row to the logarithms. Scratch for a block of
    rows: ``floats`` (2, K, block), ``ints`` (3, block) (made by the caller, and zeroed in loops here,
    not by array statements: each would compile numba's own version of it on first use)."""
    n, k, block = codes.shape[1], out.shape[1], ints.shape[1]
    total, product = floats[0], floats[1]
    active, slot, index = ints[0], ints[1], ints[2]
    for s0 in range(0, n, block):
        e = min(s0 + block, n) - s0
        for r in range(e):
            active[r] = 0
            for c in range(k):
                total[c, r] = 0.0
        for s in range(members.shape[0]):
            slots = 1
            for a in range(members.shape[1]):
                slots *= widths[s, a]
            rows = rows_of[s]
            plane = children.shape[1] * (slots + 1) * rows
            for r in range(e):  # an inactive row reads the parent-missing slot, its product unused
                code = _set_value(codes, s0 + r, members, widths, s, seen, seen_at, threshold)
                slot[r] = code if code >= 0 else slots  # the set is active for the row where slot < slots
                for c in range(k):
                    product[c, r] = joint[joint_at[s] + code * k + c] if code >= 0 else 0.0
            for t in range(children.shape[1]):  # one child's table at a time: it stays in cache
                x = codes[children[s, t]]
                at = t * (slots + 1) * rows
                for r in range(e):
                    index[r] = at + slot[r] * rows + x[s0 + r]
                for c in range(k):
                    p = probs[probs_at[s] + c * plane:probs_at[s] + (c + 1) * plane]
                    q = product[c]
                    for r in range(e):
                        q[r] *= p[index[r]]
            for r in range(e):
                if slot[r] == slots:
                    continue
                active[r] += 1
                for c in range(k):
                    if product[c, r] < tiny:
                        state[s0 + r] = 1
                    total[c, r] += product[c, r]
        for r in range(e):
            if not active[r]:
                state[s0 + r] = 2
            elif state[s0 + r] == 0:
                shift = math.log(active[r])
                for c in range(k):
                    out[s0 + r, c] = math.log(total[c, r]) - shift


def _average_logs(codes, out, members, widths, children, logs, logs_at, rows_of, joint_logs, joint_at, seen,
                  seen_at, threshold, state):
    """:func:`_average` in logarithms for the rows marked 1 in ``state``: per class the running
    largest term and the sum of the others' exponentials relative to it. ``logs``: the children's
    log tables at logs[logs_at[s]:] ((children, P values + 1, rows_of[s], K)); ``joint_logs``:
    log P(c, x_P) as ``joint`` in :func:`_average`."""
    k = out.shape[1]
    top = np.empty(k)
    total = np.empty(k)
    term = np.empty(k)
    for row in range(codes.shape[1]):
        if state[row] != 1:
            continue
        top[:] = -np.inf
        total[:] = 0.0
        active = 0
        for s in range(members.shape[0]):
            code = _set_value(codes, row, members, widths, s, seen, seen_at, threshold)
            if code < 0:
                continue
            active += 1
            slots = 1
            for a in range(members.shape[1]):
                slots *= widths[s, a]
            slot_stride = rows_of[s] * k
            for c in range(k):
                term[c] = joint_logs[joint_at[s] + code * k + c]
            for t in range(children.shape[1]):
                cell = logs_at[s] + (t * (slots + 1) + code) * slot_stride + codes[children[s, t], row] * k
                for c in range(k):
                    term[c] += logs[cell + c]
            for c in range(k):
                v = term[c]
                if v > top[c]:
                    total[c] = 1.0 if top[c] == -np.inf else total[c] * math.exp(top[c] - v) + 1.0
                    top[c] = v
                elif v > -np.inf:
                    total[c] += math.exp(v - top[c])
        shift = math.log(active)
        for c in range(k):
            out[row, c] = top[c] + math.log(total[c]) - shift if total[c] > 0 else -np.inf


def _set_values(codes, members, widths, seen, seen_at, threshold, out):
    """Every row's value of every set (rows, sets), -1 where the set is not active (:func:`_set_value`)."""
    for row in range(out.shape[0]):
        for s in range(out.shape[1]):
            out[row, s] = _set_value(codes, row, members, widths, s, seen, seen_at, threshold)


_KERNELS = ("_set_value", "_average", "_average_logs", "_set_values")
_COMPILED = []


def _flat(arrays):
    """The arrays raveled end to end, and where each starts."""
    at = np.cumsum([0] + [a.size for a in arrays[:-1]], dtype=np.int64)
    return np.concatenate([np.ravel(a) for a in arrays]), at


def _activity(model):
    """What decides a set's value and whether it is active: the sets' attributes and their numbers of
    values, each set's counts per value (end to end, and where each set's start), the threshold."""
    readers = model.readers_
    members = np.array(model.parent_sets_, dtype=np.int64)
    widths = np.array([[readers[p].n_values for p in P] for P in model.parent_sets_], dtype=np.int64)
    seen, seen_at = _flat([c[:, :-1].sum(axis=0) for c in model.joint_stats_])
    return members, widths, seen, seen_at, max(model.min_count, 1e-300)


def set_values(model, codes):
    """Every row's value of each of a fitted AnDE's super-parent sets (rows, sets), -1 where the set is
    not active for the row, as its prediction decides; ``codes``: :func:`code_matrix`'s."""
    out = np.empty((codes.shape[1], len(model.parent_sets_)), dtype=np.int64)
    compiled(globals(), _KERNELS, _COMPILED, nogil=("_average",))["_set_values"](codes, *_activity(model), out)
    return out


def _logs_read(model):
    """The log tables a prediction reads: the sets' children's (end to end, and where each set's start),
    each set's, their own; with discriminative weights, the weighted ones (``weighted_``)."""
    return getattr(model, "weighted_", None) or (model.set_logs_block_, model.set_logs_, model.joint_log_)


def _prepared(model):
    """What every prediction of the fitted ``model`` reads besides the rows and its log tables, in the
    kernel's layout: the sets' activity (:func:`_activity`), their children, the sets' own
    probabilities and logs and the children's probabilities (exponentials of the log tables). Worked
    out at a model's first prediction and kept, outside the model, for as long as the log tables it
    was made from live (and its threshold stays), unless its probabilities exceed ``KEEP_BYTES``: a
    large model's are made again at every call, where its rows' work outweighs them."""
    (logs, logs_at), set_logs, joint_log = _logs_read(model)
    held = _KEPT.get(id(logs))
    if held is not None and held[0]() is logs and held[1] == model.min_count:
        return held[2]
    members, widths, seen, seen_at, threshold = _activity(model)
    joint_logs, _ = _flat([np.ascontiguousarray(j.T) for j in joint_log])
    probs, _ = _flat([np.exp(s.transpose(3, 0, 1, 2)) for s in set_logs])  # (K, children, slots, rows):
    # each set's as large as its log tables, so both start at logs_at
    prep = dict(members=members, widths=widths, seen=seen, seen_at=seen_at, threshold=threshold,
                children=np.array(model._children(), dtype=np.int64), logs_at=logs_at, joint_logs=joint_logs,
                joint=np.exp(joint_logs), probs=probs, rows_of=np.array([s.shape[2] for s in set_logs], dtype=np.int64))
    if probs.nbytes <= KEEP_BYTES:  # (nothing kept refers to the log tables: they die with their model)
        key = id(logs)
        _KEPT[key] = (weakref.ref(logs, lambda ref: _KEPT.pop(key) if _KEPT.get(key, (None,))[0] is ref else None),
                      model.min_count, prep)
    return prep


def average_sets(model, columns, out):
    """Set ``out`` (rows, K) to the log of the AnDE average of the fitted ``model``'s active
    super-parent sets, from the readers' code ``columns``; returns the mask of the rows where no
    set is active (``out`` not set there). With discriminative weights, the sets' weighted logs
    (``weighted_``: :mod:`.ande_weights`)."""
    codes = code_matrix(columns, [r.n_values for r in model.readers_], out.shape[0])
    p = _prepared(model)
    members, widths, children, seen, seen_at = p["members"], p["widths"], p["children"], p["seen"], p["seen_at"]
    state = np.zeros(out.shape[0], dtype=np.int8)
    fns = compiled(globals(), _KERNELS, _COMPILED, nogil=("_average",))
    joint_at = seen_at * out.shape[1]  # K per value of a set
    on_threads(lambda a, b: fns["_average"](codes[:, a:b], out[a:b], members, widths, children, p["joint"], joint_at,
                                            seen, seen_at, p["probs"], p["logs_at"], p["rows_of"], p["threshold"],
                                            TINY, state[a:b], np.empty((2, out.shape[1], BLOCK)),
                                            np.empty((3, BLOCK), dtype=np.int64)),
               out.shape[0], max(1, THREAD_CELLS // max(children.size * out.shape[1], 1)))
    # (each row's sum is its own: the same numbers however the rows are shared out among threads)
    if (state == 1).any():
        fns["_average_logs"](codes, out, members, widths, children, _logs_read(model)[0][0], p["logs_at"], p["rows_of"],
                             p["joint_logs"], joint_at, seen, seen_at, p["threshold"], state)
    return state == 2
