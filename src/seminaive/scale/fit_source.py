"""Every fit from parts is one call: a model fitted from a data source
(:mod:`seminaive.learning.data_source`: data in memory in chunks, a file, a Dask
DataFrame), whatever it is, through the model's one hook, ``_learn``: a wrapper
search runs its engine's passes over the source, a model that learns in passes
(the family, a Naive Bayes with a discretizer) its passes, any other model with
``partial_fit`` folds the chunks in (merging the partitions' fits on a cluster);
the result equals one fit on all the rows."""

from .._progress import shown_on
from ..core.capabilities import LearnsFromSource, check_chunkable

__all__ = ["fit_source"]


def fit_source(model, source, progress=None, how=("source", "fit it in memory")):
    """Fit an unfitted ``model`` on the chunks of ``source`` through its one hook, ``_learn``
    (:class:`~seminaive.core.capabilities.LearnsFromSource`); ``how`` names, for a model that cannot
    learn from chunks, the option at fault and what to do instead. An estimator from outside the
    package folds the chunks in by its ``partial_fit``.

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
    check_chunkable(model, *how)
    # the model's own nominal columns are read as nominal by the source, as model.fit reads them
    source = source.with_nominal(model.get_params(deep=False).get("nominal"))
    learn = model._learn if isinstance(model, LearnsFromSource) else LearnsFromSource._learn.__get__(model)
    with shown_on(progress):  # (progress: a stream that shows the work's steps, as the command line does)
        return learn(source)
