"""How models learn from data, above the core's primitives: the sources of chunks (in memory,
files, Dask) and the passes over them (cuts, counts, moments, a fit that grows with a file's
value lists), and the scoring engine (leave-one-out and out-of-fold contributions, the decisions
of the searches) on them. Models import from here; nothing here imports a model.
"""
