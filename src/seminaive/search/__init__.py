"""Wrapper searches for dependencies: BSE, BSJ, BSEJ, FSSJ on an incremental engine."""

from .base import SearchNaiveBayes
from .engine import Engine
from .methods import BSE, BSEJ, BSJ, FSSJ
from .structure import Structure

__all__ = ["SearchNaiveBayes", "Engine", "Structure", "BSE", "BSJ", "BSEJ", "FSSJ", "SEARCHES"]

SEARCHES = {"bse": BSE, "bsj": BSJ, "bsej": BSEJ, "fssj": FSSJ}
