"""The semi-naive family on one counting layer: TAN, kDB and AnDE (AODE, A2DE)."""

from .ande import AODE, AnDE
from .base import BayesNetClassifier
from .kdb import KDB
from .tan import TAN

__all__ = ["BayesNetClassifier", "TAN", "KDB", "AnDE", "AODE"]
