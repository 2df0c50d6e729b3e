"""The semi-naive family on one counting layer: TAN, kDB, selective kDB, AnDE (AODE, A2DE), WAODE, AODEsr,
hidden Naive Bayes and ESKDB."""

from .ande import AODE, AnDE
from .base import BayesNetClassifier, ChunkWarning
from .eskdb import ESKDB
from .hnb import HNB
from .kdb import KDB
from .lbr import LBR
from .nbtree import NBTree
from .skdb import SelectiveKDB
from .superparent import SuperParentTAN
from .tan import TAN
from .weighted_aode import AODEsr, WAODE

__all__ = ["BayesNetClassifier", "ChunkWarning", "TAN", "KDB", "SelectiveKDB", "AnDE", "AODE", "ESKDB", "WAODE", "AODEsr", "HNB", "SuperParentTAN", "LBR", "NBTree"]
