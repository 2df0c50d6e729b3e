"""Wrapper searches for dependencies: BSE, BSJ, BSEJ, FSSJ on an incremental engine."""

from .base import SearchNaiveBayes
from ..learning.engine import Engine
from .methods import BSE, BSEJ, BSJ, FSSJ
from .distributed import search_dask
from .streamed import search_file
from ..core.structure import Structure

__all__ = ["SearchNaiveBayes", "Engine", "Structure", "BSE", "BSJ", "BSEJ", "FSSJ", "SEARCHES", "search_file",
           "search_dask"]

SEARCHES = {"bse": BSE, "bsj": BSJ, "bsej": BSEJ, "fssj": FSSJ}
