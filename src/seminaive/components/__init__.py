"""Per-attribute distributions: count statistics, estimate, give log-likelihoods."""

from .base import Component
from .categorical import Categorical
from .gaussian import Gaussian, variance_floor

__all__ = ["Component", "Categorical", "Gaussian", "variance_floor", "COMPONENTS"]

COMPONENTS = {c.kind: c for c in (Categorical, Gaussian)}
