"""The held-out contributions of many categorical groups at once (a search's first step).

A search in memory starts by making the out-of-sample contribution (K, rows) of every
attribute. Group by group, that is a few estimator calls and a gather each, and on data of
tens of attributes and thousands of rows the calls cost more than the search's candidates.
Here every categorical group (an attribute or a joined group, not a conditional or Gaussian
term) gets its held-out log-probability table from one estimator call over all of them, and
every row its entries from one gather. Each table entry is computed by the very operations the
group-by-group path applies (:meth:`Frequency.categorical
<seminaive.estimation.Frequency.categorical>` on the counts of the other folds;
:meth:`Frequency.loo_estimate <seminaive.estimation.Frequency.loo_estimate>` with the row's
class taken out), so the contributions have the same bits; estimators whose estimates are not
those formulas keep the group-by-group path.
"""

import numpy as np

from ..core.attributes import Given, NormalGiven
from ..estimation import Frequency

__all__ = ["block_contributions"]


def _rows_apart(estimator):
    """An estimator whose out-of-fold table treats each class's row of counts apart (Frequency's
    ``categorical`` and ``_pseudo``), so that tables of several groups can be stacked."""
    return isinstance(estimator, Frequency) and all(
        getattr(type(estimator), name) is getattr(Frequency, name) for name in ("categorical", "_pseudo"))


def _loo_as_frequency(estimator):
    """An estimator whose leave-one-out estimate is Frequency's formula (its pseudo-counts may differ)."""
    return isinstance(estimator, Frequency) and all(
        getattr(type(estimator), name) is getattr(Frequency, name)
        for name in ("loo_categorical", "loo_conditional", "loo_estimate"))


def _fold_tables(estimator, counts, widths):
    """(groups, folds, K, M + 1) out-of-fold log tables of groups with counts (folds, K, m) each,
    padded to the widest M, a last column of 0 (a missing code, -1, reads it)."""
    folds, k = counts[0].shape[:2]
    M = max(widths)
    stacked = np.zeros((folds, len(counts), k, M))
    for j, c in enumerate(counts):
        stacked[:, j, :, :widths[j]] = c
    held = stacked.sum(axis=0) - stacked  # the other folds' counts (whole numbers: exact in any order)
    n_values = np.broadcast_to(np.asarray(widths, dtype=np.float64)[None, :, None, None], (folds, len(counts), k, 1))
    with np.errstate(divide="ignore", invalid="ignore"):  # (padding columns: never read)
        logp = estimator.categorical(held.reshape(-1, M), n_values=n_values.reshape(-1, 1))
    tables = np.zeros((len(counts), folds, k, M + 1))
    tables[:, :, :, :M] = logp.reshape(folds, len(counts), k, M).transpose(1, 0, 2, 3)
    return tables


def _loo_tables(estimator, counts, widths):
    """(groups, K own, K, M + 1) leave-one-out log tables: entry [j, y, c, v] is class c's estimate
    of value v of group j from its counts (K, m) less one row of class y and value v, as
    :meth:`Frequency.loo_estimate` computes it; a last column of 0 (a missing code)."""
    k = counts[0].shape[0]
    own = np.eye(k)
    tables = np.zeros((len(counts), k, k, max(widths) + 1))
    for j, (n, m) in enumerate(zip(counts, widths)):
        overall = n.sum(axis=0)
        a, a_total = estimator.loo_pseudo(m, overall - 1.0, overall.sum() - 1.0)
        a = np.reshape(np.asarray(a, dtype=np.float64), -1)  # one per value (or one for all)
        num = n[None, :, :] - own[:, :, None]
        den = n.sum(axis=1)[None, :] - own + a_total
        with np.errstate(divide="ignore", invalid="ignore"):
            val = np.log(num + a) - np.log(den)[:, :, None]
        tables[j, :, :, :m] = np.where(den[:, :, None] > 0, val, -np.log(m))
    return tables


def block_contributions(engine, groups, codes, xs, y, fold):
    """The out-of-sample contributions (K, rows), contiguous, of the ``groups`` of an engine's one
    chunk, as a dict: those that are categorical (not conditional, not Gaussian) together where the
    engine's estimator is covered, the others group by group (``Engine._contribution``). ``fold``:
    each row's fold (k-fold scoring)."""
    plain = [g for g in groups if not isinstance(g, (Given, NormalGiven)) and not engine._is_gauss(g)]
    loo = not engine.n_folds
    if len(plain) < 2 or not (_loo_as_frequency if loo else _rows_apart)(engine.estimator):
        plain = []
    out = {g: np.ascontiguousarray(engine._contribution(g, codes, xs, y, fold)) for g in groups if g not in plain}
    if not plain:
        return out
    widths = [engine.group_values(g) for g in plain]
    if loo:
        tables = _loo_tables(engine.estimator, [engine.stats[g][0] for g in plain], widths)
        key = np.asarray(y, dtype=np.intp)
    else:
        tables = _fold_tables(engine.estimator, [engine.stats[g] for g in plain], widths)
        key = np.asarray(fold, dtype=np.intp)
    d, keys, k, width = tables.shape
    index = np.empty((d, key.size), dtype=np.intp)  # each row's (group, key, value) entry, made in place
    for j, g in enumerate(plain):
        index[j] = codes[g[0]] if len(g) == 1 else engine._codes(g, codes)
    np.putmask(index, index < 0, width - 1)  # the column of 0
    index += key * width
    index += (np.arange(d, dtype=np.intp) * (keys * width))[:, None]
    block = np.empty((d, k, key.size))
    for c in range(k):  # one gather per class from its (group, key, value) entries, into place
        np.take(np.ascontiguousarray(tables[:, :, c, :]).ravel(), index, out=block[:, c, :], mode="clip")
    out.update(zip(plain, block))
    return out
