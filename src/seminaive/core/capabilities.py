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

__all__ = ["Capabilities", "capabilities", "check_chunkable", "FitsInPasses", "SearchesChunks"]


@dataclass(frozen=True)
class Capabilities:
    """``leave_one_out``: exact leave-one-out posteriors of the training rows from the
    model's own statistics (its ``_loo_log_proba``); ``passes``: fitted from chunks in
    passes (files, Dask; the semi-naive family); ``search``: a wrapper search, whose
    engine reads the chunks (``search_file``, ``search_dask``); ``grows``: fitted in one
    pass over a file whose value lists and classes grow as its rows come
    (:mod:`seminaive.learning.growing_fit`), where the others read a CSV file twice."""

    leave_one_out: bool = False
    passes: bool = False
    search: bool = False
    grows: bool = False


class FitsInPasses:
    """The hook of a model whose capabilities may say ``passes``: ``_fit_chunks(source, schema,
    classes)`` fits it from a source of chunks (:mod:`seminaive.learning.data_source`) with the
    data's schema and classes and returns it, equal to its fit in memory on all the rows.

    Examples
    --------
    >>> from seminaive import KDB, NaiveBayes
    >>> isinstance(KDB(), FitsInPasses), isinstance(NaiveBayes(), FitsInPasses)
    (True, True)
    """

    def _fit_chunks(self, source, schema, classes):  # pragma: no cover - every such model defines it
        raise NotImplementedError


class SearchesChunks:
    """The hook of a wrapper search (capabilities ``search``): ``_fit_source(source, progress)``
    runs its engine's passes over a source of chunks and returns the fitted search.

    Examples
    --------
    >>> from seminaive.search import BSE
    >>> isinstance(BSE(), SearchesChunks)
    True
    """

    def _fit_source(self, source, progress=None):  # pragma: no cover - every search defines it
        raise NotImplementedError


def check_chunkable(model, option, search_tool, other):
    """Refuse, naming ``option``, a model that can be fitted neither in passes nor with ``partial_fit``
    (``search_tool`` names what runs a wrapper search instead; ``other``, what to do for any other)."""
    caps = capabilities(model)
    if not caps.passes and not hasattr(model, "partial_fit"):
        instead = f"{search_tool} runs a search over them" if caps.search else other
        raise ParameterError(f"{option}: {type(model).__name__} cannot be fitted chunk by chunk (no partial_fit); "
                             f"{instead}")


def capabilities(model):
    """The :class:`Capabilities` of a model (an estimator of this package declares them on its class, and may
    make them depend on its parameters through ``_capabilities``; any other object has none)."""
    get = getattr(type(model), "_capabilities", None)
    caps = get(model) if callable(get) else Capabilities()
    for said, hook in ((caps.passes, FitsInPasses), (caps.search, SearchesChunks)):
        if said and not isinstance(model, hook):  # a declaration without its hook: the model's own error
            raise TypeError(f"{type(model).__name__}: its capabilities need the hook of {hook.__name__}")
    return caps
