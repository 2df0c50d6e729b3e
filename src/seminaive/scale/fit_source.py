"""Every fit from parts is one call: a model fitted from a data source
(:mod:`seminaive.learning.data_source`: data in memory in chunks, a file, a Dask
DataFrame), whatever it is. A wrapper search runs its engine's passes over the
source, a model that learns in passes (the family, a Naive Bayes with a
discretizer) its passes, any other model with ``partial_fit`` folds the chunks
in (merging the partitions' fits on a cluster); the result equals one fit on
all the rows."""

from ..core.capabilities import capabilities, check_chunkable

__all__ = ["fit_source"]


def fit_source(model, source, progress=None, how=("source", "search_source", "fit it in memory")):
    """Fit an unfitted ``model`` on the chunks of ``source``; ``how`` names, for a model that
    cannot learn from chunks, the option at fault, the tool that searches from chunks and
    what to do instead.

    Examples
    --------
    >>> import numpy as np
    >>> from seminaive import TAN
    >>> from seminaive.learning.data_source import MemorySource
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m, whole = fit_source(TAN(), MemorySource(d.X, d.y, chunksize=4)), TAN().fit(d.X, d.y)
    >>> yes = lambda model: model.predict_proba(d.X)[:, list(model.classes_).index("yes")]
    >>> bool(np.allclose(yes(m), yes(whole)))
    True
    """
    caps = capabilities(model)
    # the model's own nominal columns are read as nominal by the source, as model.fit reads them
    source = source.with_nominal(model.get_params(deep=False).get("nominal"))
    if caps.search:  # a wrapper search: its engine's passes over the chunks (its declared SearchesChunks hook)
        return model._fit_source(source, progress)
    if caps.passes:  # the family, a Naive Bayes with a discretizer: the passes of its fit in memory (FitsInPasses)
        return model._fit_chunks(source, source.schema, source.classes)
    check_chunkable(model, *how)
    return source.partial_fits(model, progress)
