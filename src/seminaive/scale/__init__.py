"""Scale: out-of-core fitting and prediction from files, and Dask."""

from .files import fit_file, iter_file_chunks, predict_file

__all__ = ["fit_file", "predict_file", "iter_file_chunks"]
