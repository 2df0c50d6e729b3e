"""Per-attribute distributions: count statistics, estimate, give log-likelihoods."""

from .base import Component, count_components, estimate_components
from .categorical import Categorical
from .conditional import ConditionalTable, checked_tables
from .discretized import Discretized
from .gaussian import VAR_SMOOTHING_RULES, Gaussian, variance_floor
from .stacked_stats import StatsRows
from .kernel import BANDWIDTHS, Kernel

__all__ = ["Component", "count_components", "estimate_components", "Categorical", "ConditionalTable", "checked_tables",
           "Discretized", "Gaussian", "Kernel", "StatsRows", "variance_floor", "VAR_SMOOTHING_RULES", "COMPONENTS", "BANDWIDTHS"]

COMPONENTS = {c.kind: c for c in (Categorical, ConditionalTable, Discretized, Gaussian, Kernel)}
