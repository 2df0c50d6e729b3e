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

import numpy as np

from ..base import resolve_degenerate
from ..components.gaussian import estimated_logpdf
from ..estimation import Frequency, class_log_prior

__all__ = ["Engine", "BaseAttribute", "split_infinite", "with_infinite"]

class BaseAttribute:
    """One attribute as the engine sees it: ``codes`` and ``m`` (values) for
    nominal use, and ``x`` (floats, NaN missing, in the units of the Gaussian
    component's statistics: the data over ``scale``) with its variance
    ``floor`` and its ``estimator`` (None: the engine's) when it is numeric."""

    def __init__(self, name, codes, m, x=None, floor=0.0, scale=1.0, estimator=None):
        self.name, self.codes, self.m, self.x = name, np.asarray(codes, dtype=np.int64), int(m), x
        self.floor, self.scale, self.estimator = floor, scale, estimator

    @property
    def numeric(self):
        return self.x is not None


class Engine:
    """Out-of-sample contributions and scores.

    Parameters
    ----------
    attributes : list of BaseAttribute
    y : ndarray of int, class codes of the training instances
    n_classes : int
    estimator : Frequency, NormalGamma or MEstimate
        How statistics become parameters, as in the model the search ends with:
        every contribution is that estimator applied to the statistics less the
        held-out part (a numeric attribute may bring its own, for its prior).
    priors : as NaiveBayes
    splits : list of (train, test) or None
        None: leave-one-out; otherwise each test part is scored by a model
        counted on its train part.
    numeric_alone : {"gaussian", "discretize"}
        How a numeric attribute that is not joined is modelled.
    """

    def __init__(self, attributes, y, n_classes, estimator=None, priors="laplace", splits=None,
                 numeric_alone="gaussian"):
        self.attributes = attributes
        self.y = np.asarray(y, dtype=np.int64)
        self.k = n_classes
        self.estimator = Frequency() if estimator is None else estimator
        self.priors = priors
        self.splits = splits
        self.numeric_alone = numeric_alone
        if splits is None:
            self.eval_rows = np.arange(self.y.size)
        else:
            self.eval_rows = np.concatenate([te for _, te in splits])
        self.y_eval = self.y[self.eval_rows]
        self._cache = {}
        self._infinite = {}
        self.n_evaluated = 0
        self.prior = np.ascontiguousarray(self._prior().T)

    # ----------------------------------------------------------------- scores
    def correct(self, S, rtol=1e-10):
        """Whether each evaluation row's decision (as :func:`seminaive.base.decide`
        makes it: the first class within ``rtol`` of the best) is its class.
        ``S`` is class-major, (K, rows)."""
        return correct(S, self.y_eval, rtol, self.prior)

    def score(self, S, groups=None):
        """Accuracy of the evaluation rows under joint log-likelihoods ``S`` (K, rows),
        the sum of the prior and the contributions of ``groups`` (which are needed
        only where some contribution is infinite: see :meth:`contribution`)."""
        self.n_evaluated += 1
        if groups is not None:
            S = with_infinite(S, [self._infinite.get(tuple(g)) for g in groups])
        return float(np.count_nonzero(self.correct(S))) / self.y_eval.size

    def score_many(self, groups, candidates):
        """Accuracy of the current ``groups`` and of every candidate ``(operator, remove,
        add)``: the current sum changed by array arithmetic, never a refit."""
        S = self.joint(groups)
        out = [self.score(S, groups)]
        for _, remove, add in candidates:
            changes = [(-1.0, g) for g in remove] + [(1.0, g) for g in add]
            Sc = S.copy()
            for sign, g in changes:
                if sign < 0:
                    Sc -= self.contribution(g)
                else:
                    Sc += self.contribution(g)
            out.append(self.score(Sc, [g for g in groups if g not in remove] + list(add)))
        self.n_evaluated -= 1  # the current groups are not a candidate
        return np.array(out)

    def joint(self, groups):
        """Prior plus the contributions of ``groups``, summed afresh."""
        S = self.prior.copy()
        for g in groups:
            S += self.contribution(g)
        return S

    # ---------------------------------------------------------- contributions
    def contribution(self, group):
        """The contribution of a group (a tuple of attribute indices), class-major: (K, rows).

        Its infinite entries (a probability of 0 with ``alpha=0``, a point mass
        with a zero variance) are held apart and read as 0 here, so that sums
        of contributions add and subtract exactly; :meth:`score` puts them back
        for the groups it is given."""
        group = tuple(group)
        c = self._cache.get(group)
        if c is None:
            if len(group) == 1 and self.attributes[group[0]].numeric and self.numeric_alone == "gaussian":
                c = self._gaussian(self.attributes[group[0]])
            else:
                codes, m = self.product_codes(group)
                c = self._categorical(codes, m)
            c, self._infinite[group] = split_infinite(np.ascontiguousarray(c.T))
            self._cache[group] = c
        return c

    def product_codes(self, group):
        """Codes of the Cartesian product of the group's attributes (-1 if any is missing)."""
        codes = np.zeros(self.y.size, dtype=np.int64)
        missing = np.zeros(self.y.size, dtype=bool)
        m = 1
        for j in group:
            a = self.attributes[j]
            codes = codes * a.m + a.codes
            missing |= a.codes < 0
            m *= a.m
        codes[missing] = -1
        return codes, m

    def group_values(self, group):
        m = 1
        for j in group:
            m *= self.attributes[j].m
        return m

    def _prior(self):
        counts = np.bincount(self.y, minlength=self.k).astype(np.float64)
        if self.splits is not None:
            return np.vstack([np.tile(class_log_prior(np.bincount(self.y[tr], minlength=self.k), self.priors),
                                      (len(te), 1)) for tr, te in self.splits])
        return loo_prior(counts, self.y, self.priors)

    def _categorical(self, codes, m):
        k, n = self.k, self.y.size
        present = codes >= 0
        # compress the values actually seen (smoothing still counts all m)
        if m > 4 * n:
            uniq, inv = np.unique(codes[present], return_inverse=True)
            codes = codes.copy()
            codes[present] = inv
            width = uniq.size
        else:
            width = m
        if self.splits is None:
            counts = np.bincount(self.y[present] * width + codes[present], minlength=k * width)
            return self.estimator.loo_categorical(counts.reshape(k, width).astype(np.float64), codes, self.y, m)
        parts = []
        for tr, te in self.splits:
            p = present[tr]
            counts = np.bincount(self.y[tr][p] * width + codes[tr][p], minlength=k * width)
            table = self.estimator.categorical(counts.reshape(k, width).astype(np.float64), n_values=m)
            part = np.zeros((len(te), k))
            pt = present[te]
            part[pt] = table[:, codes[te][pt]].T
            parts.append(part)
        return np.vstack(parts)

    def _gaussian(self, a):
        est = a.estimator or self.estimator
        if self.splits is not None:
            return np.vstack([fold_gaussian(est, *_moments(a.x[tr], self.y[tr], self.k), a.floor, a.x[te], a.scale)
                              for tr, te in self.splits])
        return loo_gaussian(est, *_moments(a.x, self.y, self.k), a.x, self.y, a.floor, a.scale)


def split_infinite(c):
    """``c`` (K, rows) with its non-finite entries set to 0, and those entries
    apart as ``(columns, values)`` (0 where finite), or None when all are finite."""
    finite = np.isfinite(c)
    if finite.all():
        return c, None
    cols = np.flatnonzero(~finite.all(axis=0))
    part = np.where(finite[:, cols], 0.0, c[:, cols])
    c = np.where(finite, c, 0.0)
    return c, (cols, part)


def with_infinite(S, parts):
    """``S`` with the infinite entries of the contributions it sums put back
    (``parts`` as :func:`split_infinite` gives them; None for a finite one)."""
    parts = [p for p in parts if p is not None]
    if not parts:
        return S
    S = S.copy()
    with np.errstate(invalid="ignore"):
        for cols, part in parts:
            S[:, cols] += part
    return S


def correct(S, y, rtol=1e-10, log_prior=None):
    """Whether the decision on each column of class-major ``S`` (K, rows) is ``y``.
    Columns that are not all finite are first resolved as the classifiers
    resolve them (:func:`seminaive.base.resolve_degenerate`, with the class-major
    ``log_prior`` (K, rows) of the model that scores each column)."""
    top = S[0].copy()
    for row in S[1:]:
        np.maximum(top, row, out=top)
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(top)
    if bad.any():
        S = S.copy()
        prior = np.zeros((bad.sum(), S.shape[0])) if log_prior is None else log_prior[:, bad].T
        S[:, bad] = resolve_degenerate(S[:, bad].T, prior).T
        return correct(S, y, rtol)
    top -= rtol * (1.0 + np.abs(top))
    first = np.full(top.size, S.shape[0])
    for c in range(S.shape[0] - 1, -1, -1):
        first[S[c] >= top] = c
    return first == y


def loo_prior(counts, y, priors):
    """Leave-one-out log class priors, (n, K): the instance's own class loses one count."""
    k = counts.size
    own = np.zeros((y.size, k))
    own[np.arange(y.size), y] = 1.0
    n = counts.sum() - 1.0
    c = counts[None, :] - own
    with np.errstate(divide="ignore"):
        if isinstance(priors, str) and priors == "laplace":
            return np.log(c + 1.0) - np.log(n + k)
        if isinstance(priors, str) and priors == "mle":
            return np.log(c) - np.log(n)
    return np.tile(class_log_prior(counts, priors), (y.size, 1))


def loo_gaussian(est, w, mean, m2, x, y, floor, scale=1.0):
    """Leave-one-out log-densities, (n, K), from per-class moments of all the data:
    each instance's class moments are downdated (Welford's step backwards), then
    ``est`` estimates every row's distributions from its own statistics (the
    pooled ones, and an empirical prior, downdated with them)."""
    n, k = x.size, w.size
    idx = np.flatnonzero(~np.isnan(x))
    yi, xi = y[idx], x[idx]
    W, M, Q = (np.tile(a, (idx.size, 1)) for a in (w, mean, m2))
    r = np.arange(idx.size)
    w_new = W[r, yi] - 1.0
    mean_new = np.where(w_new > 0, (W[r, yi] * M[r, yi] - xi) / np.where(w_new > 0, w_new, 1.0), 0.0)
    Q[r, yi] = Q[r, yi] - (xi - M[r, yi]) * (xi - mean_new)
    W[r, yi], M[r, yi] = w_new, mean_new
    out = np.zeros((n, k))
    out[idx] = estimated_logpdf(est, W, M, np.maximum(Q, 0.0), floor, xi, scale)
    return out


def fold_gaussian(est, weight, mean, m2, floor, x, scale=1.0):
    """Log-densities (rows, K) of ``x`` under the distributions ``est`` estimates
    from another part's moments; 0 where ``x`` is missing."""
    part = estimated_logpdf(est, weight, mean, m2, floor, x, scale)
    part[np.isnan(x)] = 0.0
    return part


def _moments(x, y, k):
    """Per-class (weight, mean, M2) of the present values, as Gaussian.count_many gives them."""
    p = ~np.isnan(x)
    x, y = x[p], y[p]
    w = np.bincount(y, minlength=k).astype(np.float64)
    s = np.bincount(y, weights=x, minlength=k)
    mean = np.divide(s, w, out=np.zeros(k), where=w > 0)
    dev = x - mean[y]
    m2 = np.bincount(y, weights=dev * dev, minlength=k)
    return w, mean, m2
