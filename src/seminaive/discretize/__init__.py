"""Discretizers: scikit-learn transformers that cut numeric attributes into intervals."""

from .base import Discretizer, apply_cuts, interval_labels
from .equal_frequency import EqualFrequencyDiscretizer
from .equal_width import EqualWidthDiscretizer
from .mdl import MDLDiscretizer
from .one_r import OneRDiscretizer

__all__ = ["Discretizer", "EqualWidthDiscretizer", "EqualFrequencyDiscretizer", "MDLDiscretizer",
           "OneRDiscretizer", "apply_cuts", "interval_labels", "DISCRETIZERS"]

DISCRETIZERS = {"equal_width": EqualWidthDiscretizer, "equal_frequency": EqualFrequencyDiscretizer,
                "mdl": MDLDiscretizer, "1r": OneRDiscretizer}
