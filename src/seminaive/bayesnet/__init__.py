"""The semi-naive family on one counting layer: TAN, kDB, selective kDB and AnDE (AODE, A2DE)."""

from .ande import AODE, AnDE
from .base import BayesNetClassifier, ChunkWarning
from .kdb import KDB
from .skdb import SelectiveKDB
from .tan import TAN

__all__ = ["BayesNetClassifier", "ChunkWarning", "TAN", "KDB", "SelectiveKDB", "AnDE", "AODE"]
