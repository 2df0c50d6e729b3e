"""Wrapper searches on data streamed from a file: scores from merged statistics.

Every group's statistics (value-by-class counts, or per-class moments for a
Gaussian attribute alone) are summed over chunks, per fold for k-fold
scoring; each chunk's leave-one-out or out-of-fold contributions are then
computed from those statistics with the in-memory engine's own formulas, and
every candidate's correct decisions are counted in the same pass. A step
costs one pass to count the new joins and one to score the candidates, never
a refit, and memory holds statistics, not rows. The result equals the
in-memory search on the same data (and folds).
"""

import numpy as np
import pandas as pd

from .._scale import pow2_scale
from .._target import class_codes
from ..components.gaussian import Gaussian, variance_floor
from ..data.encoding import encode, infer_schema
from ..discretize import interval_labels
from ..estimation import class_log_prior
from ..exceptions import ParameterError
from ..scale.files import iter_file_chunks
from .base import _PriorsOnly
from .engine import _moments, correct, fold_gaussian, loo_gaussian, loo_prior, split_infinite, with_infinite

__all__ = ["search_file", "fold_assignment"]

def fold_assignment(n, k, seed=0):
    """Balanced, seeded fold numbers for rows 0..n-1 (a permutation taken mod k).

    Examples
    --------
    >>> np.bincount(fold_assignment(10, 3, 0)).tolist()
    [4, 3, 3]
    """
    fold = np.empty(n, dtype=np.int64)
    fold[np.random.default_rng(seed).permutation(n)] = np.arange(n) % k
    return fold


class _Source:
    """Chunks of a file as (first row, codes per attribute, floats per attribute, class codes)."""

    def __init__(self, search, path, chunksize, kw):
        self.search, self.path, self.chunksize, self.kw = search, path, chunksize, kw
        self._iter = iter_file_chunks

    def frames(self):
        yield from self._iter(self.path, self.chunksize, **self.kw)

    def __iter__(self):
        row = 0
        for X, y in self.frames():
            codes, xs = self.search._prepare(X, encode(X, self.search.schema_))
            yc = class_codes(y, self.search.classes_).astype(np.int64)
            yield row, codes, xs, yc
            row += len(yc)


class _StreamedEngine:
    """``estimators``: per attribute, the final model's estimator (the last, of joined
    groups); ``xscale``: per attribute, the power of two its values are divided by
    (the Gaussian component's units); ``floor``: per attribute, its variance floor."""

    def __init__(self, source, ms, gaussian_alone, k, estimators, priors, xscale, fold, n_folds):
        self.source, self.ms, self.gauss = source, ms, gaussian_alone
        self.k, self.estimators, self.priors = k, estimators, priors
        self.xscale, self.floor = xscale, [0.0] * len(ms)
        self.fold, self.n_folds = fold, n_folds
        self.stats = {}
        self.n_evaluated = 0
        self.class_counts = None

    def group_values(self, group):
        m = 1
        for j in group:
            m *= self.ms[j]
        return m

    def _is_gauss(self, g):
        return len(g) == 1 and self.gauss[g[0]]

    def _codes(self, g, codes):
        out = np.zeros(codes[g[0]].size, dtype=np.int64)
        missing = np.zeros(out.size, dtype=bool)
        for j in g:
            out = out * self.ms[j] + codes[j]
            missing |= codes[j] < 0
        out[missing] = -1
        return out

    def ensure(self, groups):
        """One pass counting the statistics of the groups not counted yet."""
        todo = [g for g in dict.fromkeys(groups) if g not in self.stats]
        if not todo and self.class_counts is not None:
            return
        F = self.n_folds or 1
        acc = {}
        counts = np.zeros((F, self.k))
        for row, codes, xs, y in self.source:
            f = self.fold[row:row + y.size] if self.n_folds else np.zeros(y.size, dtype=np.int64)
            counts += np.bincount(f * self.k + y, minlength=F * self.k).reshape(F, self.k)
            for g in todo:
                if self._is_gauss(g):
                    x = xs[g[0]] / self.xscale[g[0]]
                    for ff in range(F):
                        sel = f == ff
                        w, mean, m2 = _moments(x[sel], y[sel], self.k)
                        new = {"weight": w, "mean": mean, "m2": m2, "scale": np.array([self.xscale[g[0]]])}
                        key = (g, ff)
                        acc[key] = Gaussian.merge(acc[key], new) if key in acc else new
                else:
                    c = self._codes(g, codes)
                    m = self.group_values(g)
                    ok = c >= 0
                    add = np.bincount((f[ok] * self.k + y[ok]) * m + c[ok], minlength=F * self.k * m)
                    acc[g] = acc.get(g, 0) + add.reshape(F, self.k, m).astype(np.float64)
        self.class_counts = counts
        for g in todo:
            self.stats[g] = [acc[(g, ff)] for ff in range(F)] if self._is_gauss(g) else acc[g]

    def _contribution(self, g, codes, xs, y, f):
        """(K, rows) contribution of group g for one chunk."""
        if self._is_gauss(g):
            j = g[0]
            x, floor, est = xs[j] / self.xscale[j], self.floor[j], self.estimators[j]
            if not self.n_folds:
                st = self.stats[g][0]
                return loo_gaussian(est, st["weight"], st["mean"], st["m2"], x, y, floor, self.xscale[j]).T
            out = np.zeros((self.k, y.size))
            for ff in range(self.n_folds):
                sel = f == ff
                if not sel.any():
                    continue
                st = _merge_all([self.stats[g][o] for o in range(self.n_folds) if o != ff])
                out[:, sel] = fold_gaussian(est, st["weight"], st["mean"], st["m2"], floor, x[sel], self.xscale[j]).T
            return out
        c = self._codes(g, codes)
        m = self.group_values(g)
        counts = self.stats[g]
        if not self.n_folds:
            return self.estimators[-1].loo_categorical(counts[0], c, y, m).T
        out = np.zeros((self.k, y.size))
        total = counts.sum(axis=0)
        for ff in range(self.n_folds):
            sel = (f == ff) & (c >= 0)
            if sel.any():
                out[:, sel] = self.estimators[-1].categorical(total - counts[ff], n_values=m)[:, c[sel]]
        return out

    def _prior(self, y, f):
        if not self.n_folds:
            return loo_prior(self.class_counts[0], y, self.priors).T
        out = np.zeros((self.k, y.size))
        total = self.class_counts.sum(axis=0)
        for ff in range(self.n_folds):
            sel = f == ff
            out[:, sel] = class_log_prior(total - self.class_counts[ff], self.priors)[:, None]
        return out

    def score_many(self, groups, candidates):
        """Accuracy of the current groups and of every candidate (remove, add), in one pass."""
        self.ensure(list(groups) + [g for _, rem, add in candidates for g in rem + add])
        right = np.zeros(len(candidates) + 1)
        n = 0
        for row, codes, xs, y in self.source:
            f = self.fold[row:row + y.size] if self.n_folds else None
            contrib = {g: split_infinite(self._contribution(g, codes, xs, y, f))
                       for g in dict.fromkeys(list(groups) + [g for _, r, a in candidates for g in r + a])}
            prior = self._prior(y, f)
            S = prior.copy()
            for g in groups:
                S += contrib[g][0]
            right[0] += np.count_nonzero(correct(with_infinite(S, [contrib[g][1] for g in groups]), y, log_prior=prior))
            for i, (_, rem, add) in enumerate(candidates, start=1):
                Sc = S.copy()
                for g in rem:
                    Sc -= contrib[g][0]
                for g in add:
                    Sc += contrib[g][0]
                now = [g for g in groups if g not in rem] + list(add)
                Sc = with_infinite(Sc, [contrib[g][1] for g in now])
                right[i] += np.count_nonzero(correct(Sc, y, log_prior=prior))
            n += y.size
        self.n_evaluated += len(candidates)
        return right / n


def search_file(search, path, chunksize=100_000, format=None, target=None, header=True, progress=None):
    """Run a wrapper search (an unfitted BSE, BSJ, BSEJ or FSSJ) on a data file
    streamed in chunks; the fitted search is returned, equal to ``search.fit``
    on the whole file (k-fold scoring uses :func:`fold_assignment` folds,
    ``random_state`` as the seed).

    Numeric attributes for joins are cut into equal-width intervals (the
    default discretizer; others need every value at once).
    """
    search._check_params()
    if search.discretizer != "equal_width":
        raise ParameterError("discretizer: a streamed search cuts numeric attributes into equal-width intervals "
                             f"(the others need all values at once), got {search.discretizer!r}")
    if search.candidate_pairs is not None:
        raise ParameterError("candidate_pairs: a streamed search considers every pair (set it to None)")
    if search.scoring == "cv" and not isinstance(search.cv, (int, np.integer)):
        raise ParameterError("cv: a streamed search takes a number of folds (it assigns them itself)")
    kw = dict(format=format, target=target, header=header)
    # pass 1: schema, classes, ranges of numeric attributes, rows
    first = True
    lo = hi = None
    n = 0
    for X, y in iter_file_chunks(path, chunksize, **kw):
        if first:
            search.schema_ = infer_schema(X, None)
            search.classes_ = np.asarray(list(y.cat.categories), dtype=object)
            num = list(search.schema_.numeric_indices)
            lo, hi = np.full(len(num), np.inf), np.full(len(num), -np.inf)
            first = False
        t = encode(X, search.schema_)
        if t.numeric.shape[1] and len(X):
            with np.errstate(invalid="ignore"):
                lo = np.fmin(lo, np.nanmin(np.where(np.isnan(t.numeric), np.inf, t.numeric), axis=0))
                hi = np.fmax(hi, np.nanmax(np.where(np.isnan(t.numeric), -np.inf, t.numeric), axis=0))
        n += len(X)
    if first or n == 0:
        raise ParameterError("the file holds no labelled rows")
    search.n_features_in_ = len(search.schema_)
    search.feature_names_in_ = np.asarray(search.schema_.names, dtype=object)
    search.cuts_ = {}
    for k_, j in enumerate(search.schema_.numeric_indices):
        a, b = lo[k_], hi[k_]
        search.cuts_[j] = (np.array([]) if not np.isfinite(a) or a == b
                           else a + (b - a) * np.arange(1, search.n_bins) / search.n_bins)
    search._values = [list(map(str, a.values)) if a.is_nominal else interval_labels(search.cuts_[j])
                      for j, a in enumerate(search.schema_.attributes)]
    d = len(search.schema_)
    search._numeric_alone = [(not a.is_nominal) and search.numeric == "gaussian" for a in search.schema_.attributes]
    k = len(search.classes_)
    n_folds = search.cv if search.scoring == "cv" else None
    fold = fold_assignment(n, n_folds, search.random_state) if n_folds else None
    source = _Source(search, path, chunksize, kw)
    xscale = [1.0] * d
    for k_, j in enumerate(search.schema_.numeric_indices):
        xscale[j] = float(pow2_scale(max(abs(lo[k_]), abs(hi[k_]))))
    estimators = [search._estimator(n) for n in search.schema_.names] + [search._estimator(None)]
    engine = _StreamedEngine(source, [len(v) for v in search._values], search._numeric_alone, k, estimators,
                             search.priors, xscale, fold, n_folds)
    gauss_groups = [(j,) for j in range(d) if search._numeric_alone[j]]
    engine.ensure(gauss_groups)
    if gauss_groups:  # the variance floor from the whole data, as the in-memory search fixes it
        pooled = [{key: v for key, v in _merge_all(engine.stats[g]).items()} for g in gauss_groups]
        for g, f in zip(gauss_groups, variance_floor(pooled, search.var_smoothing, search.var_smoothing_rule)):
            engine.floor[g[0]] = f
    search._allowed = None
    names = list(search.schema_.names)
    groups = search._run(engine, names, progress)
    if groups:  # the final model, fitted chunk by chunk on the structured table
        model = search._final_model(search.structure_.column_names(names))
        cats = pd.CategoricalDtype(list(search.classes_))
        for X, y in source.frames():
            codes, xs = search._prepare(X, encode(X, search.schema_))
            model.partial_fit(search._frame(codes, xs),
                              pd.Series(pd.Categorical(np.asarray(y, dtype=object), dtype=cats)))
        search.model_ = model
    else:
        search.model_ = _PriorsOnly(search.classes_, class_log_prior(engine.class_counts.sum(axis=0), search.priors))
    return search


def _merge_all(parts):
    st = parts[0]
    for p in parts[1:]:
        st = Gaussian.merge(st, p)
    return st
