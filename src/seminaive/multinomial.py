"""The multinomial event model for count data (word counts and the like)."""

import numpy as np
import scipy.sparse as sp

from ._count_models import CountModel
from .estimation import class_log_prior
from .exceptions import DataFormatError
from .registry import register, register_variant
from ._validation import check_priors

__all__ = ["MultinomialNaiveBayes"]


@register
class MultinomialNaiveBayes(CountModel):
    """Naive Bayes with a multinomial distribution of feature counts per class
    (the text model the textbook's section 10.5 points to):

        log P(x | c) = sum_j x_j log theta_cj + const,
        theta_cj = (N_cj + alpha) / (N_c + alpha d),

    with N_cj the total count of feature j in class c. Accepts dense arrays and
    scipy sparse matrices of non-negative counts.

    Parameters
    ----------
    alpha : float, default 1
        Additive (Laplace / Lidstone) smoothing of the feature probabilities.
    priors : {"laplace", "mle", "uniform", "m-estimate"} or array-like, default "laplace"

    Examples
    --------
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 4, 2], [1, 3, 3]])
    >>> MultinomialNaiveBayes().fit(X, ["a", "a", "b", "b"]).predict([[2, 0, 0]]).tolist()
    ['a']
    """

    _param_rules = {**CountModel._param_rules, "priors": check_priors}

    def __init__(self, *, alpha=1.0, priors="laplace"):
        self.alpha = alpha
        self.priors = priors

    def _transform_input(self, X):
        neg = (X.data < 0).any() if sp.issparse(X) else (X < 0).any()
        if neg:
            raise DataFormatError("the multinomial model needs non-negative counts in X (Negative values in data)")
        return X

    def _estimate(self):
        smoothed = self.feature_count_ + self.alpha
        with np.errstate(divide="ignore"):
            self.feature_log_prob_ = np.log(smoothed) - np.log(smoothed.sum(axis=1, keepdims=True))
        self.class_log_prior_ = class_log_prior(self.class_count_, self.priors)
        self._weights_ = self.feature_log_prob_
        self._bias_ = self.class_log_prior_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags


register_variant("model", "multinomial", "multinomial Naive Bayes for count data",
                 lambda alpha=1.0, priors="laplace", **o: MultinomialNaiveBayes(alpha=alpha, priors=priors))
