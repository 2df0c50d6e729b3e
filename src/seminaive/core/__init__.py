"""The core under every model: the structure value object, the fold maker, the
sources a pass reads (in memory, files, Dask), the held-out estimates and the
scoring engine. Models (Naive Bayes, the searches, the family, calibration)
import from here; nothing here imports a model.
"""
