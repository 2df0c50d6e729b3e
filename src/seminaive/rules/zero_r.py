"""ZeroR: the majority-class baseline."""

import numpy as np

from .._state import index, numbers
from ..registry import register, register_variant
from .base import RuleClassifier

__all__ = ["ZeroR"]


@register
class ZeroR(RuleClassifier):
    """Predict the most frequent training class for every instance (ties go to
    the first class); probabilities are the Laplace-smoothed class frequencies.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> z = ZeroR().fit(d)
    >>> z.predict(d.X[:2]).tolist(), z.to_text()
    (['yes', 'yes'], 'ZeroR: -> yes (9/14)')
    """

    def __init__(self):
        pass

    def _fit_encoded(self, table, codes, weight):
        self.majority_ = int(np.argmax(self.class_count_))

    def _predict_codes(self, table):
        return np.full(table.n_samples, getattr(self, "majority_", 0))

    def _branch_counts(self, table):
        return np.tile(self.class_count_, (table.n_samples, 1))

    @property
    def n_attributes_used_(self):
        """ZeroR uses no attribute."""
        self._check_fitted()
        return 0

    def to_text(self):
        return (f"ZeroR: -> {self.classes_[self.majority_]} "
                f"({self.class_count_[self.majority_]:g}/{self.class_count_.sum():g})")

    def _get_state(self):
        return {"class_count": self.class_count_.tolist(), "majority": self.majority_}

    def _set_state(self, state):
        k = len(self.classes_)
        self.class_count_ = numbers(state["class_count"], "state.class_count", (k,), low=0)
        self.majority_ = index(state["majority"], "state.majority", k)
        if self.class_count_[self.majority_] < self.class_count_.max():  # predict and predict_proba would disagree
            raise ValueError("state.majority: expected the class of the largest count (state.class_count's)")


register_variant("model", "zeror", "the majority-class baseline", lambda **o: ZeroR())
register_variant("compare", "zeror", "the majority class", ZeroR)
