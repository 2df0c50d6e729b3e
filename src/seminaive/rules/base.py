"""What the rule learners share: fitting on encoded tables, predicting from branches."""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from ..registry import SavedModel
from .._target import prediction_input
from ..core.capabilities import LearnsFromSource
from ..learning.sources import FitFromSource
from .._validation import ValidatedParams
from ..data.encoding import encode
from ..exceptions import require_fitted
from ..core.counting import count_classes

__all__ = ["RuleClassifier"]


class RuleClassifier(FitFromSource, LearnsFromSource, ValidatedParams, SavedModel, ClassifierMixin, BaseEstimator):
    """Base of the rule learners: ``_fit_encoded`` learns from an encoded table;
    ``_branch_counts(table)`` gives each instance's class counts, from which
    probabilities are the Laplace-smoothed branch frequencies."""

    def _learn(self, source):
        """Learn the rule from the rows of an in-memory source (a rule learner has neither passes nor
        ``partial_fit``: the chunked routes refuse it from that declaration)."""
        table, codes, weight = source.settle(self) and source.chunk
        self.class_count_ = count_classes(codes, len(self.classes_), weight)
        self._fit_encoded(table, codes, weight)
        return self

    def _check_fitted(self):
        require_fitted(self, "classes_")

    def _table(self, X):
        self._check_fitted()
        return encode(prediction_input(self, X), self.schema_)

    def predict(self, X):
        """The class of each instance's branch."""
        codes = self._predict_codes(self._table(X))
        return self.classes_[codes]

    def predict_proba(self, X):
        """Laplace-smoothed class frequencies of each instance's branch:
        (count + 1) / (n + K)."""
        counts = self._branch_counts(self._table(X))
        return (counts + 1.0) / (counts.sum(axis=1, keepdims=True) + counts.shape[1])

    def predict_log_proba(self, X):
        return np.log(self.predict_proba(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.classifier_tags.poor_score = True  # one attribute (or none) decides
        return tags
