"""Rule learners: 1R and the majority-class baseline."""

from .one_r import OneR
from .zero_r import ZeroR

__all__ = ["OneR", "ZeroR"]
