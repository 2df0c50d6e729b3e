"""Complement Naive Bayes for count data (Rennie, Shih, Teevan and Karger 2003)."""

import numpy as np

from ._count_models import CountModel
from .estimation import class_log_prior
from .exceptions import DataFormatError
from .registry import register, register_variant

__all__ = ["ComplementNaiveBayes"]


@register
class ComplementNaiveBayes(CountModel):
    """Naive Bayes on the complement of each class (Rennie et al. 2003, section 3.2): a feature's
    weight in class c comes from its counts in every *other* class, which evens out the estimates
    when some classes have far more data than others:

        theta~_cj = (N~_cj + alpha) / (N~_c + alpha d),   w_cj = -log theta~_cj,

    with N~_cj the total count of feature j outside class c and N~_c = sum_j N~_cj. A row's score
    for class c is sum_j x_j w_cj (the class priors are left out, as the paper and scikit-learn's
    ``ComplementNB`` leave them); ``predict_proba`` is the scores' softmax, so that the most
    probable class is the paper's choice. With ``norm`` the weights are normalized,
    w_cj = log theta~_cj / sum_j log theta~_cj (the paper's weight normalization, section 4.4;
    Weka's ``-N``). The same definition as scikit-learn's ``ComplementNB(alpha, norm)`` (to
    1e-12) and Weka's ``ComplementNaiveBayes`` (``-S alpha``), whose classes it predicts.

    Parameters
    ----------
    alpha : float, default 1
        Additive (Lidstone) smoothing of the complement counts.
    norm : bool, default False
        Normalize each class's weights.

    Examples
    --------
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 4, 2], [1, 3, 3], [0, 0, 5]])
    >>> m = ComplementNaiveBayes().fit(X, ["a", "a", "b", "b", "c"])
    >>> m.predict([[2, 0, 0], [0, 3, 1]]).tolist()
    ['a', 'b']
    >>> w = m.feature_log_prob_[0]  # class a: counts outside it (b and c) 1, 7, 10; plus alpha: 2, 8, 11 of 21
    >>> bool(np.allclose(w, -np.log(np.array([2, 8, 11]) / 21)))
    True
    """

    _param_rules = {"alpha": dict(kind="number", low=0), "norm": dict(kind="bool")}

    def __init__(self, *, alpha=1.0, norm=False):
        self.alpha = alpha
        self.norm = norm

    def _transform_input(self, X):
        neg = (X.data < 0).any() if hasattr(X, "tocsr") else (X < 0).any()
        if neg:
            raise DataFormatError("the complement model needs non-negative counts in X (Negative values in data)")
        return X

    def _estimate(self):
        complement = self.feature_count_.sum(axis=0) + self.alpha - self.feature_count_
        with np.errstate(divide="ignore", invalid="ignore"):
            logged = np.log(complement / complement.sum(axis=1, keepdims=True))
            self.feature_log_prob_ = logged / logged.sum(axis=1, keepdims=True) if self.norm else -logged
        # what a row's score leaves out: the class priors (kept for the printout and a model file's reader)
        self.class_log_prior_ = class_log_prior(self.class_count_, "mle")
        self._weights_ = self.feature_log_prob_
        self._bias_ = np.zeros(len(self.classes_))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags

    def to_text(self):
        """Each class's weight on its five heaviest features."""
        lines = [f"{type(self).__name__}: {self.n_features_in_} features, {len(self.classes_)} classes; "
                 f"a row's score is sum_j x_j w_cj{' (weights normalized)' if self.norm else ''}"]
        for c, row in zip(self.classes_, self.feature_log_prob_):
            top = np.argsort(-row, kind="stable")[:5]
            lines.append(f"  {c}: " + ", ".join(f"{self.schema_.names[j]} {row[j]:.4f}" for j in top))
        return "\n".join(lines)


register_variant("model", "complement", "complement Naive Bayes for count data (Rennie et al. 2003)",
                 lambda alpha=1.0, **o: ComplementNaiveBayes(alpha=alpha))
register_variant("compare", "complement", "complement Naive Bayes (count data)", ComplementNaiveBayes)
