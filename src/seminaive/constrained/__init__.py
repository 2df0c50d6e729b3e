"""Naive Bayes under minimum class rates: the constrained model and its
decision-offset baseline."""

from .model import ConstrainedNaiveBayes
from .offset import OffsetNaiveBayes
from .rates import ConstraintWarning, resolve_min_rates

__all__ = ["ConstrainedNaiveBayes", "OffsetNaiveBayes", "ConstraintWarning", "resolve_min_rates"]
