"""The classifier base: predictions from one joint log-likelihood hook.

Subclasses implement ``_joint_log_likelihood(X)``, returning
log P(c) + sum_j log P(x_j | c) as an (n_samples, n_classes) array; this class
turns it into classes, normalized posteriors, log-posteriors and rankings.
"""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from ._validation import ValidatedParams
from .registry import SavedModel
from .core.capabilities import Capabilities, LearnsFromSource
from .exceptions import ParameterError, UnseenValueWarning, require_fitted
from ._target import prediction_input
from .data.encoding import encode
from ._scale import TIE_RTOL

__all__ = ["BaseNaiveBayes", "UnseenValueWarning", "decide", "resolve_degenerate"]


def resolve_degenerate(jll, log_prior):
    """Joint log-likelihoods ``jll`` (rows, K) whose rows are not all finite,
    made decidable by one rule (the search engine applies the same one):

    - a class whose evidence has probability 0 under it (-inf, or -inf and
      +inf together, which sum to NaN) is impossible;
    - an infinite density (+inf: a value at a point mass, a class whose
      variance is 0) beats every finite one: the classes with one share the
      probability equally (the first wins a decision);
    - a row impossible under every class takes ``log_prior`` (the class
      priors; a row of them per row, or one for all).

    Returns a new array; finite rows are unchanged.

    Examples
    --------
    >>> inf = np.inf
    >>> resolve_degenerate(np.array([[-1.0, -2.0], [-inf, -inf], [inf, -3.0], [np.nan, -3.0]]),
    ...                    np.log([0.25, 0.75])).round(3).tolist()
    [[-1.0, -2.0], [-1.386, -0.288], [0.0, -inf], [-inf, -3.0]]
    """
    jll = np.array(jll, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(jll.max(axis=1))
    if not bad.any():
        return jll
    rows = jll[bad]
    rows[np.isnan(rows)] = -np.inf
    hit = rows == np.inf
    point = hit.any(axis=1)
    rows[point] = np.where(hit[point], 0.0, -np.inf)
    none = rows.max(axis=1) == -np.inf
    prior = np.broadcast_to(np.asarray(log_prior, dtype=np.float64), jll.shape)[bad]
    rows[none] = prior[none]
    jll[bad] = rows
    return jll




def decide(jll, rtol=TIE_RTOL):
    """The index of the most probable class of each row. Classes within a
    relative ``rtol`` of the maximum count as tied and the first of them wins,
    so the decision does not hang on the order in which terms were summed.

    Examples
    --------
    >>> decide(np.array([[-1.0, -1.0 + 1e-14, -3.0], [-5.0, -2.0, -2.5]])).tolist()
    [0, 1]
    """
    top = jll.max(axis=1, keepdims=True)
    return np.argmax(jll >= top - rtol * (1.0 + np.abs(top)), axis=1)


def _normalized(jll):
    """Joint log-likelihoods normalized in place to log-posteriors (each row's log-sum-exp is 0)."""
    jll -= _row_reduce(np.maximum, jll)
    jll -= np.log(_row_reduce(np.add, np.exp(jll)))
    return jll


def _row_reduce(ufunc, a):
    """``ufunc.reduce(a, axis=1, keepdims=True)``, column by column when there
    are few columns (numpy's reduction over a short last axis is slow)."""
    if a.shape[1] > 16 or a.shape[1] == 0:
        return ufunc.reduce(a, axis=1, keepdims=True)
    out = a[:, 0].copy()
    for k in range(1, a.shape[1]):
        ufunc(out, a[:, k], out=out)
    return out[:, None]


class BaseNaiveBayes(LearnsFromSource, ValidatedParams, SavedModel, ClassifierMixin, BaseEstimator):
    """Base of the Naive Bayes family (abstract): predictions from one hook, ``_joint_log_likelihood``;
    learning from a source through one hook, ``_learn`` (:class:`~seminaive.core.capabilities.LearnsFromSource`).

    Examples
    --------
    >>> from scipy.special import softmax
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = NaiveBayes().fit(d)
    >>> bool(np.allclose(m.predict_proba(d.X), softmax(m._joint_log_likelihood(d.X), axis=1)))
    True
    """

    capabilities = Capabilities()  # what the model can do beyond fit and predict (core.capabilities)

    def _capabilities(self):
        return type(self).capabilities

    def _joint_log_likelihood(self, X):  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_fitted(self):
        require_fitted(self, "classes_")

    def _jll(self, X):
        """The joint log-likelihood, its rows that are not all finite resolved
        by :func:`resolve_degenerate` (evidence impossible under every class,
        possible with ``alpha=0`` or a zero variance, gives the class priors)."""
        self._check_fitted()
        jll = self._joint_log_likelihood(X)
        with np.errstate(invalid="ignore", over="ignore"):
            if np.isfinite(jll.sum()):  # one flat pass: inf and NaN anywhere make the sum non-finite
                return jll
        return resolve_degenerate(jll, self.class_log_prior_)

    def predict(self, X):
        """The most probable class of each instance.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_attributes)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        jll = self._jll(X)
        return self.classes_[decide(jll)]

    def predict_log_proba(self, X):
        """Normalized log-posteriors, shape (n_samples, n_classes), computed in log space."""
        return _normalized(self._jll(X))

    def predict_proba(self, X):
        """Normalized posteriors P(c | x), shape (n_samples, n_classes); rows sum to 1."""
        return np.exp(self.predict_log_proba(X))

    def predict_with_proba(self, X):
        """``(predict(X), predict_proba(X))`` from one joint log-likelihood (what an evaluation needs: one
        pass over ``X``, not two). A subclass that overrides any of the three gets its own methods' answers.

        Examples
        --------
        >>> from seminaive import NaiveBayes
        >>> from seminaive.datasets import load
        >>> d = load("weather.nominal")
        >>> pred, proba = NaiveBayes().fit(d).predict_with_proba(d.X[:2])
        >>> pred.tolist(), proba.round(3).tolist()
        (['no', 'no'], [[0.296, 0.704], [0.153, 0.847]])
        """
        own = type(self)
        if (own.predict, own.predict_log_proba, own.predict_proba) != (
                BaseNaiveBayes.predict, BaseNaiveBayes.predict_log_proba, BaseNaiveBayes.predict_proba):
            return self.predict(X), self.predict_proba(X)
        jll = self._jll(X)
        pred = self.classes_[decide(jll)]
        return pred, np.exp(_normalized(jll))

    def rank(self, X, target_class):
        """Rank instances by their propensity for ``target_class`` (textbook Eq. 10.24-10.25).

        The normalized posterior of the class is the score: unlike the joint
        likelihood it is comparable across instances.

        Returns
        -------
        order : ndarray of int
            Instance indices, most likely first (ties keep input order).
        scores : ndarray of float
            P(target_class | x) of every instance (in input order).
        """
        self._check_fitted()
        hits = np.flatnonzero(np.asarray(self.classes_ == target_class))
        if hits.size != 1:
            raise ParameterError(f"target_class: expected one of {list(self.classes_)}, "
                                 f"got {target_class!r}")
        scores = self.predict_proba(X)[:, hits[0]]
        return np.argsort(-scores, kind="stable"), scores

    def _accumulate(self, stats, class_count):
        """Add a chunk's component statistics and class counts to the model's (a first chunk's become
        them): what ``partial_fit`` and ``merge`` of a model of components do."""
        if not hasattr(self, "stats_"):
            self.stats_, self.class_count_ = stats, class_count
            return
        self.stats_ = [type(c).merge(a, b) for c, a, b in zip(self.components_, self.stats_, stats)]
        self.class_count_ = self.class_count_ + class_count

    def _check_mergeable(self, other):
        """What every ``merge`` requires: both fitted, of the same kind, with the same
        parameters and classes."""
        self._check_fitted()
        other._check_fitted()
        if type(other) is not type(self) or other.get_params() != self.get_params():
            raise ParameterError("merge: the models must be of the same kind with the same parameters")
        if list(other.classes_) != list(self.classes_):
            raise ParameterError("merge: the models must share the classes")

    def _encode(self, X):
        """``X`` encoded against the fitted schema for prediction (a warning names
        the nominal values outside the training lists, read as missing)."""
        table = encode(prediction_input(self, X), self.schema_)
        if table.unseen.any():
            names = self.schema_.names
            self._warn_unseen([names[i] for i in self.schema_.nominal_indices], table.unseen)
        return table

    def _warn_unseen(self, names, unseen):
        if unseen.any():
            what = ", ".join(f"{n!r} {int(k)}" for n, k in zip(names, unseen) if k)
            warnings.warn(f"values not seen in training were treated as missing ({what})",
                          UnseenValueWarning, stacklevel=3)


class TabularInput:
    """Mixin of a model that takes tabular data as it comes: missing values and nominal columns
    (scikit-learn's input tags say so, and its checks send such data).

    Examples
    --------
    >>> from seminaive import TAN
    >>> tags = TAN().__sklearn_tags__().input_tags
    >>> tags.allow_nan, tags.categorical
    (True, True)
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        return tags
