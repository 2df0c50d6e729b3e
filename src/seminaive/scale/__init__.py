"""Scale: out-of-core fitting and prediction from files, and Dask
(``seminaive.scale.dask``: ``fit_dask``, ``predict_dask``; needs the ``dask`` extra)."""

from .files import fit_file, iter_file_chunks
from .predict_files import predict_file

__all__ = ["fit_file", "predict_file", "iter_file_chunks"]
