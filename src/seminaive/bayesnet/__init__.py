"""The semi-naive family on one counting layer: TAN, kDB, selective kDB, AnDE (AODE, A2DE) and ESKDB."""

from .ande import AODE, AnDE
from .base import BayesNetClassifier, ChunkWarning
from .eskdb import ESKDB
from .kdb import KDB
from .skdb import SelectiveKDB
from .tan import TAN

__all__ = ["BayesNetClassifier", "ChunkWarning", "TAN", "KDB", "SelectiveKDB", "AnDE", "AODE", "ESKDB"]
