"""The incremental scoring engine of the wrapper searches.

Naive Bayes's joint log-likelihood is the log prior plus one (n, K) array
per attribute. The engine holds, for every attribute (or joined group of
attributes) it is asked about, its *out-of-sample* contribution: the
log-probabilities each evaluation instance gets from a model trained without
it (leave-one-out: the full counts minus the instance's own; k-fold: the
counts of the other folds). Deleting an attribute subtracts its array,
joining two subtracts both and adds the joint attribute's array, so a
candidate costs O(n K) array work instead of a refit, and the scores are
those refitting per candidate gives (decisions follow :func:`~seminaive.base.decide`,
so they do not depend on the order of summation). Arrays are held class-major,
(K, rows), so the decision is a few passes over contiguous rows.

Attribute kinds: nominal (codes), numeric (Gaussian when alone, on its values
divided by a power of two as the Gaussian component divides them, with its
own variance floor; its discretized codes when joined). A joined group is a categorical attribute
over the Cartesian product of its members' values, missing when any member is.
"""

import math

import numpy as np

from ..core.attributes import ArraySource, BaseAttribute, Given, NormalGiven, _key, _weight
from ..core.counting import count_classes, count_codes, joint_codes
from ..core.subset_counts import conditional_tables
from ..estimation.tables import fold_log_table, fold_log_tables, loo_log_table
from ..core.folds import fold_labels
from ..estimation import Frequency, class_log_prior, loo_class_log_prior
from ..scoring import log_posteriors, score_sums, score_value, score_values
from .categorical_block import block_contributions
from .decide import TIE_RTOL, candidate_hits, changed, correct, hits_loaded, running_sum, split_infinite, with_infinite
from ..components._normal_given import fold_normal_given, loo_normal_given, loo_rows, normal_given_moments
from .held_out import _merge_all, _moments, fold_gaussian, loo_gaussian
from .path_kernel import path_sums
from .sources import _add_pairs, _merge_counts, _union_values, map_reduce
from ..core.sparse_terms import ParentValues

__all__ = ["Engine", "BaseAttribute", "Given", "NormalGiven", "ArraySource", "split_infinite", "with_infinite", "correct"]

SPARSE_ABOVE = 4096  # a conditional term with more parent values counts only those met
COMPILED_FROM = 50_000  # candidates x classes x rows compiled from (fewer: numpy, no numba; loaded: always)


class Engine(ParentValues):
    """Out-of-sample contributions and scores over a source of chunks.

    Statistics (value-by-class counts of each group, per-class moments of a
    Gaussian attribute, per fold for k-fold scoring) are counted in one pass
    over the source; each chunk's leave-one-out or out-of-fold contributions
    then come from them by the estimator's formulas, and a step scores every
    candidate in one more pass. Data in memory are one chunk whose
    contributions are kept, so a candidate costs array arithmetic only; a file
    streamed in chunks keeps statistics, not rows.

    Parameters
    ----------
    attributes : list of BaseAttribute
    y : ndarray of int or None
        Class codes of the instances in memory (None when ``source`` streams them).
    n_classes : int
    estimator : Frequency, NormalGamma or MEstimate
        How statistics become parameters, as in the model the search ends with:
        every contribution is that estimator applied to the statistics less the
        held-out part (a numeric attribute may bring its own, for its prior).
    priors : as NaiveBayes
    splits : list of (train, test) or None
        None: leave-one-out; otherwise folds that partition the instances.
    numeric_alone : {"gaussian", "discretize"}
        How a numeric attribute that is not joined is modelled.
    source : iterable of chunks, optional
        Default: the attributes' arrays and ``y``, as one chunk.
    fold : ndarray of int, optional
        Each instance's fold, in place of ``splits`` (for a streamed source).
    scoring : str, default "accuracy"
        The rule of :mod:`seminaive.scoring` a candidate is scored by.
    weight : ndarray or None
        Integer weights of the instances in memory, as copies.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> from seminaive.search import BSE
    >>> engine = BSE().build_engine(load("weather.nominal").X, load("weather.nominal").y)[0]
    >>> engine.score(engine.joint([(0,), (1,), (2,), (3,)]))  # Naive Bayes's leave-one-out accuracy
    0.5
    """

    def __init__(self, attributes, y, n_classes, estimator=None, priors="laplace", splits=None,
                 numeric_alone="gaussian", source=None, fold=None, scoring="accuracy", weight=None):
        self.attributes = attributes
        self.k = n_classes
        self.estimator = Frequency() if estimator is None else estimator
        self.priors = priors
        self.numeric_alone = numeric_alone
        self.scoring = scoring
        self.y = None if y is None else np.asarray(y, dtype=np.int64)
        self.source = source if source is not None else ArraySource(attributes, self.y, weight)
        self.single = getattr(self.source, "single", False)
        if splits is not None:
            fold = fold_labels(splits, self.y.size)
        self.fold = fold
        self.n_folds = None if fold is None else int(fold.max()) + 1
        self.stats = {}
        self.parent_index = {}  # a term of many parent values: the values met, in order,
        self.cells = {}  # and its cells met (counts over those: see sparse_terms)
        self.class_counts = None
        self.n_evaluated = 0
        self._cache, self._slots, self._pool, self._sum, self._at = {}, {}, {}, {}, {}  # one chunk in memory:
        self._rows, self._hashed = (None, None), {}  # contributions, slots, pool, last sum, sparse cells; rows; hashes

    def group_values(self, group):
        return math.prod(self.attributes[j].m for j in (group.child if isinstance(group, Given) else group))

    def _is_gauss(self, g):
        return (not isinstance(g, Given) and len(g) == 1 and self.attributes[g[0]].gaussian
                and self.numeric_alone == "gaussian")

    def _moments_term(self, g):
        """Whether the term's statistics are moments (a Gaussian term, alone or given parents), kept per fold."""
        return isinstance(g, NormalGiven) or self._is_gauss(g)

    def _codes(self, g, codes):
        """Codes of the Cartesian product of the group's attributes (-1 if any is missing)."""
        if isinstance(g, Given):
            g = g.child
        return joint_codes([codes[j] for j in g], [self.attributes[j].m for j in g])

    def _folds(self, row, size):
        return self.fold[row:row + size] if self.n_folds else np.zeros(size, dtype=np.int64)

    # ------------------------------------------------------------ statistics
    def ensure(self, groups):
        """One pass counting the statistics of the groups not counted yet."""
        todo = [g for g in dict.fromkeys(map(_key, groups)) if g not in self.stats]
        if not todo and self.class_counts is not None:
            return
        many = [g for g in todo if isinstance(g, Given) and self._n_parent_values(g) > SPARSE_ABOVE]
        if many:  # a pass finding the parent values and cells met, so that such a term counts only those
            found = map_reduce(self.source, self._values_met, _union_values, many)
            for g in many:
                self.parent_index[g], self.cells[g] = found[g], found[("cells", g)]
        counts, acc = map_reduce(self.source, self._count_chunk, _merge_counts, todo)
        self.class_counts = counts
        for g in todo:
            self.stats[g] = [acc[(g, ff)] for ff in range(self.n_folds or 1)] if self._moments_term(g) else acc[g]

    def _chunk_folds(self, chunk):
        """Each row's fold: the chunk's own labels (a distributed chunk carries them), or the engine's."""
        return chunk[4] if len(chunk) > 4 and chunk[4] is not None else self._folds(chunk[0], chunk[3].size)

    def _count_chunk(self, chunk, todo):
        """The class counts and the statistics of the groups ``todo`` in one chunk."""
        _, codes, xs, y = chunk[:4]
        f, w = self._chunk_folds(chunk), _weight(chunk)
        F = self.n_folds or 1
        acc = {}
        counts = count_classes(y, self.k, w, fold=f, n_folds=F)
        dense = [g for g in todo if isinstance(g, Given) and len(g.child) == 1 and g not in self.parent_index]
        if F == 1 and dense:  # the conditional terms counted over every parent value: one compiled pass
            acc.update(zip(dense, conditional_tables([(g.child[0], g.parents) for g in dense], codes,
                                                     [a.m for a in self.attributes], y, self.k, w)))
        plain = [g for g in todo if not isinstance(g, (Given, NormalGiven)) and not self._is_gauss(g)]
        for m in dict.fromkeys(map(self.group_values, plain)):  # those of one width in one count: (folds, K, m)
            same = [g for g in plain if self.group_values(g) == m]
            acc.update(zip(same, count_codes([codes[g[0]] if len(g) == 1 else self._codes(g, codes) for g in same], m,
                                             y, self.k, fold=f, n_folds=F, weight=w)[:, :, :, 0]))
        for g in todo:
            if g in acc:
                continue
            if g in self.parent_index:  # over the cells met: (folds, K, cells)
                acc[g] = count_codes([self._cell_rows(g, codes)], self.cells[g].size, y, self.k, fold=f, n_folds=F,
                                     weight=w)[0, :, :, 0]
            elif isinstance(g, Given):
                parent, slots = self._parent_codes(g, codes)
                acc[g] = count_codes([self._codes(g, codes)], self.group_values(g), y, self.k, parent=parent,
                                     n_parent=slots, fold=f, n_folds=F, weight=w)[0]
            elif isinstance(g, NormalGiven):  # per (parent value, class), then per class: (slots, K) each
                same = next((o for o in todo if isinstance(o, NormalGiven) and (o, 0) in acc
                             and o[:2] == g[:2]), None)  # another m of the same child and parents
                if same is not None:
                    for ff in range(F):
                        acc[(g, ff)] = acc[(same, ff)]
                    continue
                parent, slots = self._parent_codes(g, codes)
                x, scale = xs[g.child[0]], np.array([self.attributes[g.child[0]].scale])
                for ff in range(F):
                    sel = f == ff
                    moments = normal_given_moments(x[sel], parent[sel], y[sel], self.k, slots - 1,
                                                   None if w is None else w[sel])
                    acc[(g, ff)] = dict(zip(("weight", "mean", "m2"), moments), scale=scale)
            elif self._is_gauss(g):  # integer weights as copies: each copy leaves itself out
                x, scale = xs[g[0]], np.array([self.attributes[g[0]].scale])
                for ff in range(F):
                    sel = f == ff
                    total, mean, m2 = _moments(x[sel], y[sel], self.k, None if w is None else w[sel])
                    acc[(g, ff)] = {"weight": total, "mean": mean, "m2": m2, "scale": scale}
        return counts, acc

    def __getstate__(self):
        """What a worker needs to score its chunks: no source, no cache, no fold labels
        (a distributed chunk carries its own)."""
        state = dict(self.__dict__)
        state.update(source=None, _cache={}, _sum={}, fold=None, _rows=(None, None), _hashed={})
        return state

    # ---------------------------------------------------------- contributions
    def _contribution(self, g, codes, xs, y, f):
        """(K, rows) out-of-sample contribution of group g for one chunk."""
        if isinstance(g, NormalGiven):
            a = self.attributes[g.child[0]]
            est, x, parent = a.estimator or self.estimator, xs[g.child[0]], self._parent_codes(g, codes)[0]
            if not self.n_folds:
                rows = None
                if self.single:  # the forms of one child and parents (each m) share their rows' moments
                    if self._rows[0] != (g.child, g.parents):
                        self._rows = ((g.child, g.parents), loo_rows(self.stats[g][0], x, parent, y))
                    rows = self._rows[1]
                return loo_normal_given(est, self.stats[g][0], x, parent, y, a.floor, g.m, rows).T
            out = np.zeros((self.k, y.size))
            for ff in range(self.n_folds):
                sel = f == ff
                if sel.any():
                    st = _merge_all([self.stats[g][o] for o in range(self.n_folds) if o != ff])
                    out[:, sel] = fold_normal_given(est, st, x[sel], parent[sel], a.floor, g.m).T
            return out
        if self._is_gauss(g):
            a = self.attributes[g[0]]
            est, x = a.estimator or self.estimator, xs[g[0]]
            if not self.n_folds:
                st = self.stats[g][0]
                return loo_gaussian(est, st["weight"], st["mean"], st["m2"], x, y, a.floor, a.scale).T
            out = np.zeros((self.k, y.size))
            for ff in range(self.n_folds):
                sel = f == ff
                if sel.any():
                    st = _merge_all([self.stats[g][o] for o in range(self.n_folds) if o != ff])
                    out[:, sel] = fold_gaussian(est, st["weight"], st["mean"], st["m2"], a.floor, x[sel], a.scale).T
            return out
        c = self._codes(g, codes)
        m = self.group_values(g)
        counts = self._met_counts(g) if g in self.parent_index else self.stats[g]
        if isinstance(g, Given):
            parent = self._parent_codes(g, codes)[0]
            if not self.n_folds:
                return loo_log_table(counts[0], self.estimator, c, parent, y).T
            return fold_log_table(counts, self.estimator, c, parent, f).T
        if not self.n_folds:
            return self.estimator.loo_categorical(counts[0], c, y, m).T
        # each fold's log-probability table, a column of zeros last for a missing code (-1)
        tables = np.zeros((self.n_folds, self.k, m + 1))
        tables[:, :, :m] = fold_log_tables(lambda part: self.estimator.categorical(part, n_values=m), counts)
        return tables[f, :, c].T

    def _prior(self, y, f):
        if not self.n_folds:
            return loo_class_log_prior(self.class_counts[0], y, self.priors).T
        return fold_log_tables(lambda part: class_log_prior(part, self.priors), self.class_counts)[f].T

    def _chunk(self, groups, row, codes, xs, y, f=None):
        """The prior and the (finite part, infinite part) of each group's contribution for one chunk."""
        f = self._folds(row, y.size) if f is None else f
        if not self.single:
            return self._prior(y, f), {g: split_infinite(self._contribution(g, codes, xs, y, f)) for g in groups}
        todo = [g for g in dict.fromkeys(groups) if g not in self._cache]
        self._cache.update((g, split_infinite(c)) for g, c in block_contributions(self, todo, codes, xs, y, f).items())
        if "prior" not in self._cache:
            self._cache["prior"] = np.ascontiguousarray(self._prior(y, f))
        return self._cache["prior"], self._cache

    # ----------------------------------------------------------------- scores
    def score_many(self, groups, candidates):
        """The score (by the engine's ``scoring`` rule) of the current ``groups`` and of every candidate
        ``(operator, remove, add)`` in one pass: the current sum changed by array arithmetic, never a refit."""
        groups = [_key(g) for g in groups]
        candidates = [(op, [_key(g) for g in r], [_key(g) for g in a]) for op, r, a in candidates]
        needed = list(dict.fromkeys(groups + [g for _, r, a in candidates for g in r + a]))
        self.ensure(needed)
        sums, _ = map_reduce(self.source, self._sums_chunk, _add_pairs, groups, candidates, needed)
        self.n_evaluated += len(candidates)
        return score_values(sums, self.scoring, self.k)

    def _row_sums(self, S, y, prior, w=None):
        """The scoring rule's sums over the rows of one chunk under class-major ``S`` (rows of
        weight 0 take no part; a weight of w counts a row w times)."""
        if w is not None:
            keep = w > 0
            S, y, prior, w = S[:, keep], y[keep], prior[:, keep], w[keep]
        if self.scoring == "accuracy":
            ok = correct(S, y, log_prior=prior)
            return np.array([np.count_nonzero(ok), y.size] if w is None else [np.dot(w, ok), w.sum()], dtype=float)
        if self.scoring == "balanced_accuracy":
            ok = correct(S, y, log_prior=prior)
            return np.concatenate([np.bincount(y, ok if w is None else w * ok, self.k),
                                   np.bincount(y, w, minlength=self.k)]).astype(float)
        return score_sums(S.T, y, self.scoring, prior.T, w)

    def score_paths(self, paths):
        """The scores of models growing term by term from the class prior alone: for each path
        (a list of groups or :class:`Given` terms) the scores of its first 0, 1, ... terms (an
        array of ``len(path) + 1``), every path in one pass."""
        paths = [[_key(g) for g in p] for p in paths]
        needed = list(dict.fromkeys(g for p in paths for g in p))
        self.ensure(needed)
        sums, _ = map_reduce(self.source, self._paths_chunk, _add_pairs, paths, needed)
        self.n_evaluated += sum(len(p) + 1 for p in paths)
        values = score_values(sums, self.scoring, self.k)
        ends = np.cumsum([len(p) + 1 for p in paths])
        return [np.array(values[e - len(p) - 1:e]) for p, e in zip(paths, ends)]

    def _paths_chunk(self, chunk, paths, needed):
        """The sums of every path's growing models over one chunk: each term's contribution made when
        the path reaches it and dropped after (kept only where the engine keeps it already), so memory
        holds one running sum, not every term's array."""
        row, codes, xs, y = chunk[:4]
        w, f = _weight(chunk), self._chunk_folds(chunk)
        prior = self._chunk([], row, codes, xs, y, f)[0]
        out = path_sums(self, paths, codes, y, w, prior)  # compiled where it covers the terms
        if out is not None:
            return out, y.size
        out = []
        for path in paths:
            S, infinite = prior.copy(), []
            out.append(self._row_sums(S, y, prior, w))
            for g in path:
                part, inf = self._cache[g] if g in self._cache else split_infinite(
                    self._contribution(g, codes, xs, y, f))
                S += part
                infinite.append(inf)
                out.append(self._row_sums(with_infinite(S, infinite), y, prior, w))
        return np.array(out), y.size

    def _sums_chunk(self, chunk, groups, candidates, needed):
        """The scoring rule's sums over one chunk's rows for the current groups and each candidate."""
        (row, codes, xs, y), w = chunk[:4], _weight(chunk)
        prior, contrib = self._chunk(needed, row, codes, xs, y, self._chunk_folds(chunk))
        part = lambda gs: [contrib[g][0] for g in gs]  # noqa: E731  (groups and candidates as keys: score_many)
        S = running_sum(self._sum if self.single else {}, groups, prior, part)
        finite = all(contrib[g][1] is None for g in needed)  # then no sum needs infinite entries back
        changes = [([], [])] + [(part(r), part(a)) for _, r, a in candidates]  # the current groups first
        compiled = hits_loaded() or len(changes) * S.size >= COMPILED_FROM
        hits = (candidate_hits(S, changes, y, pool=self._pool if self.single else None)  # (-1: the general path)
                if finite and w is None and self.scoring == "accuracy" and compiled else np.full(len(changes), -1))
        if (hits >= 0).all():  # the compiled loop decided every one
            return np.column_stack([hits, np.full(hits.size, y.size)]).astype(float), y.size
        out = []
        for t, (_, remove, add) in enumerate([(None, [], [])] + candidates):
            if hits[t] >= 0:
                out.append(np.array([hits[t], y.size], dtype=float))
                continue
            Sc = changed(S, *changes[t]) if t else S
            if not finite:
                now = [g for g in groups if g not in remove] + list(add)
                Sc = with_infinite(Sc, [contrib[g][1] for g in now])
            out.append(self._row_sums(Sc, y, prior, w))
        return np.array(out), y.size

    # ------------------------------------- in memory: arrays of the one chunk
    def contribution(self, group):
        """The contribution of a group (a tuple of attribute indices), class-major: (K, rows)
        (data in memory). Its infinite entries (a probability of 0 with ``alpha=0``, a
        point mass with a zero variance) are held apart and read as 0 here, so that sums
        of contributions add and subtract exactly; :meth:`score` puts them back."""
        group = tuple(group)
        self.ensure([group])
        _, contrib = self._chunk([group], *next(iter(self.source))[:5])
        return contrib[group][0]

    @property
    def prior(self):
        """The (leave-one-out or out-of-fold) log class priors, (K, rows) (data in memory)."""
        self.ensure([])
        return self._chunk([], *next(iter(self.source))[:5])[0]

    def joint(self, groups):
        """Prior plus the contributions of ``groups``, summed afresh (data in memory)."""
        return sum((self.contribution(g) for g in groups), self.prior.copy())

    def correct(self, S, rtol=TIE_RTOL):
        """Whether each instance's decision under ``S`` (K, rows) is its class (data in memory)."""
        return correct(S, self.y, rtol, self.prior)

    def score(self, S, groups=None):
        """The score (by the engine's rule) under joint log-likelihoods ``S`` (K, rows), the prior
        plus the contributions of ``groups`` (needed only where some contribution is infinite)."""
        self.n_evaluated += 1
        if groups is not None:
            S = with_infinite(S, [self._cache[_key(g)][1] for g in groups])
        return score_value(self._row_sums(S, self.y, self.prior), self.scoring, self.k)

    def log_proba(self, groups, extra=None):
        """Out-of-sample log-posteriors (rows, K) of the model summing ``groups`` (data in
        memory): leave-one-out, or out-of-fold, as the engine scores; ``extra`` (rows, K) adds
        the out-of-sample log-likelihoods of attributes computed elsewhere."""
        S = with_infinite(self.joint(groups), [self._cache[_key(g)][1] for g in groups]).T
        if extra is not None:
            with np.errstate(invalid="ignore"):
                S = S + extra
        return log_posteriors(S, self.prior.T)
