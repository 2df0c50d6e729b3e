"""The one fit of the semi-naive family, in map-reduce passes over a source of
chunks (:func:`seminaive.learning.sources.map_reduce`): the data in memory (one
chunk, already encoded, with its weights: :class:`~seminaive.learning.sources.OneTable`),
a file's chunks in order, or a Dask DataFrame's partitions on the cluster. Every
route runs these passes, so a fit from a file equals the fit in memory by
construction:

1. every numeric attribute's values by class (what any of the discretizers
   needs: the sorted values with their classes), then the cut points;
2. the value-by-class counts of every attribute and pair (TAN, kDB), then the
   structure;
3. the tables' counts under that structure (AnDE, whose structure does not
   depend on the data, starts here); for selective kDB, the scoring engine's
   passes instead: the counts of every candidate table, then every candidate's
   leave-one-out (or, in memory, k-fold) score, from the counts of all the data
   (of more rows than ``selection_rows``: of the rows drawn, gathered in one pass
   and scored in memory, then the chosen tables' counts from every row).

A chunk from a file or a cluster is ``(X, y)`` with the schema's declared values
(categoricals with every value; the file readers and ``fit_dask`` give them).
"""

import functools
from types import SimpleNamespace

import numpy as np

from ..exceptions import ParameterError
from .._validation import discretizer_names
from ..learning.cuts import add_value_triples, cuts_and_ranges, pushed, value_triples
from ..learning.data_source import EngineChunks
from ..learning.sources import OneTable, encoded, map_reduce
from .hybrid import scaled_values, units
from .selection_sample import drawn_rows, on_the_selection_thread, selection_rate
from .statistics import add_statistics, pair_statistics, shared_statistics, with_shared
from ..components import Categorical, Discretized
from ..core.counting import count_classes

__all__ = ["fit_passes", "shared_counts"]


def _encoded(model, chunk):
    return encoded(chunk, model.schema_, model.classes_)


def _columns(model, table):
    return [np.asarray(r.codes(table), dtype=np.int64) for r in model.readers_]


def _pairs(chunk, model, skip=()):
    table, yc, weight = _encoded(model, chunk)
    keep = yc >= 0
    if keep.all():
        return pair_statistics(_columns(model, table), [r.n_values for r in model.readers_], yc,
                               len(model.classes_), weight, skip)
    cols = [c[keep] for c in _columns(model, table)]
    return pair_statistics(cols, [r.n_values for r in model.readers_], yc[keep], len(model.classes_),
                           None if weight is None else weight[keep], skip)


def _pair_pass(model, source, shared=None):
    """The structure's statistics of every attribute and pair (one pass), the pairs of ``shared``
    (:func:`shared_counts`: an ensemble's members code nominal attributes alike) taken from it."""
    if shared is None:
        return map_reduce(source, _pairs, add_statistics, model)
    return with_shared(map_reduce(source, _pairs, add_statistics, model, tuple(shared["pairs"])), shared)


def shared_counts(source, schema, classes, arc_score="cmi"):
    """What every member of an ensemble counts alike, in one pass over ``source``: the statistics of
    every pair of nominal attributes (:func:`.statistics.shared_statistics`; none with fewer than two
    nominal attributes), and every numeric attribute's (value, class, weight) triples
    (:func:`~seminaive.learning.cuts.value_triples`: what any discretizer learns its cuts from, whatever
    a member's seed), under ``"triples"`` (None without numeric attributes)."""
    nominal = schema.nominal_indices
    every = None if len(nominal) < 2 else SimpleNamespace(
        schema_=schema, classes_=np.asarray(classes, dtype=object),
        readers_=[Categorical(i, nominal.index(i), schema.attributes[i].n_values) for i in nominal])
    triples = pushed(source, "grouped_triples", schema, classes) if schema.numeric_indices else None
    stats = None
    if every is not None or triples is None:  # (the values by class counted by the source itself: not here)
        stats, counted = map_reduce(source, _shared_part, _add_shared, every, schema, classes, triples is None)
        triples = counted if triples is None else triples
    pairs = {} if stats is None else {(nominal[a], nominal[b]): n for (a, b), n in stats["pairs"].items()}
    return {**shared_statistics(pairs, arc_score), "triples": triples}  # pairs: positions among the nominal ones


def _shared_part(chunk, every, schema, classes, values=True):
    return (None if every is None else _pairs(chunk, every),
            value_triples(chunk, schema, classes) if values and schema.numeric_indices else None)


def _add_shared(a, b):
    return (None if a[0] is None else add_statistics(a[0], b[0]), None if a[1] is None else add_value_triples(a[1], b[1]))


def _counts(chunk, model):
    table, yc, weight = _encoded(model, chunk)
    if not (yc >= 0).all():
        raise ParameterError("y: a chunk holds instances without a class; drop them first")
    k = len(model.classes_)
    return model._count(table, yc, k, weight), count_classes(yc, k, weight)


def _add_counts(a, b, model):
    return model._counts_added(a[0], b[0]), a[1] + b[1]


def fit_passes(model, source, shared=None):
    """The family's fit of ``model`` (its ``schema_`` and ``classes_`` set) from ``source``: the cut
    points, the structure, the counts, the estimates (see the module's notes); the nominal pairs'
    statistics and the numeric values by class from ``shared`` (:func:`shared_counts`, counted once for
    an ensemble) where given.
    Returns the model.

    Examples
    --------
    The fit in memory is this fit from a source of one chunk:

    >>> from seminaive import TAN
    >>> from seminaive.datasets import load
    >>> from seminaive.data.encoding import encode
    >>> from seminaive._target import class_codes
    >>> d, whole, m = load("weather.numeric"), TAN(), TAN()
    >>> _ = whole.fit(d)
    >>> m.schema_, m.classes_ = whole.schema_, whole.classes_
    >>> m = fit_passes(m, OneTable(encode(d.X, m.schema_), class_codes(d.y, m.classes_)))
    >>> m.structure_ == whole.structure_, bool((m.class_count_ == whole.class_count_).all())
    (True, True)
    """
    names = discretizer_names(model.numeric)
    if len(names) > 1 and not model._selects:
        raise ParameterError(f"numeric: {type(model).__name__} takes one discretizer; several ({', '.join(names)}) "
                             f"are chosen among by a selective model's leave-one-out (SelectiveKDB, ESKDB)")
    codes = "choose" if model._selects and model.integer_codes == "auto" else model.integer_codes  # "column": "auto"
    cuts_by, ranges, ladders = cuts_and_ranges(source, model.schema_, model.classes_, names, model.n_bins,
                                               model.min_bucket, model.random_state, codes,
                                               triples=None if shared is None else shared["triples"])
    if model._selects:  # selective kDB: its candidates scored through the engine, under every discretizer
        unit = units(ranges) if model.hybrid else {}  # the Gaussian children's units
        _select_discretizer(model, source, cuts_by, ladders, shared, unit)
        model._estimate()
        return model
    _set_readers(model, cuts_by[names[0]], ladders[names[0]])
    if model._fixed_structure:
        model._set_parents([()] * len(model.schema_))  # AnDE: its super-parent sets do not depend on the data
    else:
        model._set_parents(model._parents_from(_pair_pass(model, source, shared)))
    counts, class_count = map_reduce(source, _counts, functools.partial(_add_counts, model=model), model)
    model._set_counts(counts)
    model.class_count_ = class_count
    model._estimate()
    return model


def _set_readers(model, cuts_of, levels_of):
    """The model's readers: each nominal attribute's codes, each numeric attribute's intervals (with
    their ladder's levels, ``levels_of``, where the discretizer has one)."""
    schema = model.schema_
    model.readers_ = [Categorical(i, schema.nominal_indices.index(i), a.n_values) if a.is_nominal else None
                      for i, a in enumerate(schema.attributes)]
    for j, cuts in cuts_of.items():
        model.readers_[j] = Discretized(j, schema.numeric_indices.index(j), cuts, levels_of[j])


def _select_discretizer(model, source, cuts_by, ladders, shared=None, unit=None):
    """A selective model's selection under each discretizer's intervals (``cuts_by``, in the order of
    its ``numeric``); the one whose chosen candidate scores best by the engine's leave-one-out is kept
    (ties: the first), as ``numeric_``, with every discretizer's best score in ``numeric_scores_``. With
    more rows than ``selection_rows``, the candidates are scored on the drawn rows, in memory
    (:mod:`.selection_sample`), and the chosen structure's tables counted from every row."""
    best, scores, held = None, {}, 0
    rate = selection_rate(model, source)
    drawn = drawn_rows(model, source, rate) if rate < 1 else None
    for name, cuts_of in cuts_by.items():
        _set_readers(model, cuts_of, ladders[name])
        pairs = _pair_pass(model, source, shared)  # (the structure's statistics: of every row)
        select = functools.partial(_selected, model, source if drawn is None else drawn, pairs, unit or {})
        held = max(held, select() if drawn is None else on_the_selection_thread(select))
        scores[name] = model._selection_gain()
        if best is None or scores[name] > scores[best[0]]:
            best = (name, dict(vars(model)))
    vars(model).clear()
    vars(model).update(best[1])
    model.numeric_, model.numeric_scores_ = best[0], scores
    # what an ensemble's shared passes plan by: the most the selection's statistics held across passes (none
    # where it ran in memory, one at a time), and the sample held until then
    model._counted_bytes, model._sample_bytes = (held, 0) if drawn is None else (0, held_bytes(list(drawn.chunk)))
    if drawn is not None:  # the chosen structure's tables from every row (the selection's from its sample)
        counts, model.class_count_ = map_reduce(source, _counts, functools.partial(_add_counts, model=model), model)
        model._set_counts(counts)


def _selected(model, source, pairs, unit):
    """``model``'s selection from the structure's statistics ``pairs`` and the engine over ``source``; the
    bytes of the engine's statistics."""
    engine = _engine(model, source, unit)
    model._select(pairs, engine)
    return held_bytes([engine.stats, engine.cells, engine.parent_index])


def held_bytes(value):
    """The bytes of the arrays in ``value`` (dicts, lists and tuples of them, walked).

    >>> held_bytes({"a": [np.zeros(3), (np.zeros(2, dtype=np.int8), "text")]})
    26
    """
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, dict):
        return sum(held_bytes(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(held_bytes(v) for v in value)
    return 0


def _engine(model, source, unit):
    """Selective kDB's scoring engine: over the table in memory (folds of ``cv`` possible, weights as
    copies), or in passes over the chunks; the values of the attributes of ``unit`` in those units."""
    if isinstance(source, OneTable):
        table, yc, weight = source.chunk
        return model._engine(_columns(model, table), yc, weight, xs=scaled_values(model.readers_, table, unit),
                             unit=unit)
    return model._engine(None, None, source=EngineChunks(source, functools.partial(_reader_codes, model, unit)),
                         unit=unit)


def _reader_codes(model, unit, X, y):
    """A chunk as the engine reads it: the readers' codes, the values of the attributes of ``unit``
    (in its units), the class codes."""
    table, yc, _ = _encoded(model, (X, y))
    if not (yc >= 0).all():
        raise ParameterError("y: a chunk holds instances without a class; drop them first")
    return _columns(model, table), scaled_values(model.readers_, table, unit), yc
