"""What a model can do beyond fitting and predicting, declared on its class.

Tools ask :func:`capabilities` instead of testing types or attributes:
calibration whether a model has exact leave-one-out posteriors, the file and
Dask fits whether it learns in passes over chunks or is a wrapper search.

Examples
--------
>>> from seminaive import NaiveBayes, AODE
>>> from seminaive.search import BSE
>>> capabilities(NaiveBayes()).leave_one_out, capabilities(AODE()).passes
(True, True)
>>> capabilities(BSE()).leave_one_out, capabilities(BSE(cv=5)).leave_one_out, capabilities(BSE()).search
(True, False, True)
>>> capabilities(object())
Capabilities(leave_one_out=False, passes=False, search=False, grows=False)
"""

from dataclasses import dataclass

from ..exceptions import ParameterError

__all__ = ["Capabilities", "capabilities", "check_chunkable", "LearnsFromSource"]


@dataclass(frozen=True)
class Capabilities:
    """``leave_one_out``: exact leave-one-out posteriors of the training rows from the
    model's own statistics (its ``_loo_log_proba``); ``passes``: fitted from chunks in
    passes (files, Dask; the semi-naive family); ``search``: a wrapper search, whose
    engine reads the chunks (``search_file``, ``search_dask``); ``grows``: fitted in one
    pass over a file whose value lists and classes grow as its rows come
    (:mod:`seminaive.learning.growing_fit`), where the others read a CSV file twice.

    Examples
    --------
    >>> caps = Capabilities(leave_one_out=True)
    >>> caps.leave_one_out, caps.passes
    (True, False)
    """

    leave_one_out: bool = False
    passes: bool = False
    search: bool = False
    grows: bool = False


class LearnsFromSource:
    """The one hook through which a model learns from a data source: ``_learn(source)``
    fits the unfitted model on ``source`` and returns it. A source is the data in memory (one chunk,
    :func:`~seminaive.learning.sources.open_source`), a file's chunks, Parquet, or Dask partitions
    (:mod:`seminaive.learning.data_source`); ``source.settle(model)`` gives the model the schema and
    classes every pass agrees on, and the passes are ``map_reduce`` calls over it.

    A model that learns in passes (capabilities ``passes``) or a wrapper search (``search``) overrides
    ``_learn``; any other learns chunk by chunk through ``partial_fit`` (this default), and one without
    ``partial_fit`` is refused from its declarations alone (:func:`check_chunkable`).

    Examples
    --------
    >>> from seminaive import KDB, NaiveBayes
    >>> from seminaive.search import BSE
    >>> all(isinstance(m, LearnsFromSource) for m in (KDB(), NaiveBayes(), BSE()))
    True
    """

    nominal = None  # the columns read as nominal beside the kind rule's (a model's ``nominal`` parameter)

    def _learn(self, source):
        return source.partial_fits(self)


def check_chunkable(model, option, other):
    """Refuse, naming ``option``, a model that learns neither in passes (the family, a search) nor with
    ``partial_fit`` (``other``: what to do instead)."""
    caps = capabilities(model)
    if not (caps.passes or caps.search) and not hasattr(model, "partial_fit"):
        why = getattr(type(model), "_in_memory_why", None) or "(no partial_fit)"  # a model may say why
        raise ParameterError(f"{option}: {type(model).__name__} cannot be fitted chunk by chunk {why}; {other}")


def capabilities(model):
    """The :class:`Capabilities` of a model (an estimator of this package declares them on its class, and may
    make them depend on its parameters through ``_capabilities``; any other object has none).

    Examples
    --------
    >>> from seminaive import KDB
    >>> capabilities(KDB()).leave_one_out, capabilities(KDB(estimation="hdp")).leave_one_out
    (True, False)
    """
    get = getattr(type(model), "_capabilities", None)
    caps = get(model) if callable(get) else Capabilities()
    if (caps.passes or caps.search) and getattr(type(model), "_learn", None) in (None, LearnsFromSource._learn):
        # a declaration without its hook: the model's own error
        raise TypeError(f"{type(model).__name__}: its capabilities need its own LearnsFromSource._learn")
    return caps
