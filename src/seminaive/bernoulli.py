"""The Bernoulli event model for binary features (presence or absence)."""

import numpy as np
import scipy.sparse as sp

from ._count_models import CountModel
from .estimation import class_log_prior
from .registry import register, register_variant
from ._validation import check_priors

__all__ = ["BernoulliNaiveBayes"]


@register
class BernoulliNaiveBayes(CountModel):
    """Naive Bayes with an independent Bernoulli distribution of each binary
    feature per class (the textbook's binary model, 10.5.1):

        P(x_j = 1 | c) = (N_cj + alpha) / (N_c + 2 alpha),

    and absent features count too: log P(x | c) = sum_j x_j log p_cj + (1 - x_j) log(1 - p_cj).

    Parameters
    ----------
    alpha : float, default 1
    priors : {"laplace", "mle", "uniform", "m-estimate"} or array-like, default "laplace"
    binarize : float or None, default 0.0
        Values above this threshold count as present; None means X is binary already.

    Examples
    --------
    >>> X = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 1, 0]])
    >>> BernoulliNaiveBayes().fit(X, [0, 0, 1, 1]).predict([[1, 0, 0]]).tolist()
    [0]
    """

    _param_rules = {**CountModel._param_rules, "priors": check_priors,
                    "binarize": dict(kind="number", allow_none=True)}

    def __init__(self, *, alpha=1.0, priors="laplace", binarize=0.0):
        self.alpha = alpha
        self.priors = priors
        self.binarize = binarize

    def _transform_input(self, X):
        if self.binarize is None:
            return X
        if sp.issparse(X):
            X = X.copy()
            X.data = (X.data > self.binarize).astype(np.float64)
            X.eliminate_zeros()
            return X
        return (X > self.binarize).astype(np.float64)

    def _estimate(self):
        num = self.feature_count_ + self.alpha
        den = self.class_count_[:, None] + 2 * self.alpha
        with np.errstate(divide="ignore", invalid="ignore"):
            logp = np.log(num) - np.log(den)
            log1mp = np.log(den - num) - np.log(den)
        self.feature_log_prob_ = logp
        self.class_log_prior_ = class_log_prior(self.class_count_, self.priors)
        self._weights_ = logp - log1mp
        self._bias_ = self.class_log_prior_ + log1mp.sum(axis=1)


register_variant("model", "bernoulli", "Bernoulli Naive Bayes for binary data",
                 lambda alpha=1.0, priors="laplace", **o: BernoulliNaiveBayes(alpha=alpha, priors=priors))
