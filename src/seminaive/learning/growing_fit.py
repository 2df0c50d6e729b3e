"""A Naive Bayes fitted in one pass over a file whose value lists grow as its rows come.

The reader (:class:`~seminaive.data.one_pass_csv.OnePassCsv`) encodes each
chunk against the values and classes met so far; a code keeps its meaning as
the lists grow, so the statistics counted so far only widen: a categorical
table gains zero columns for new values and zero rows for new classes, a
Gaussian's per-class moments zero entries for new classes. A column that turns
out not to be numeric has its Gaussian moments replaced by the class-by-value
counts of its earlier rows as text. At the end the statistics are laid out for the
file's final value lists and classes and estimated: the model of the two-pass
fit (the same counts; Gaussian moments equal to rounding, a chunk's moments
being summed over the classes known when it was read).
"""

import numpy as np

from ..components import count_components
from ..components.make import make_components
from ..data.encoding import EncodedTable
from ..data.one_pass_csv import Recount, Rows
from ..data.schema import Schema
from ..exceptions import DataFormatError
from ..core.counting import count_classes
from .._progress import step

__all__ = ["fit_growing"]


def fit_growing(model, reader):
    """Fit the unfitted Naive Bayes ``model`` (Gaussian numbers) on the parts of a growing ``reader``
    (:class:`~seminaive.data.one_pass_csv.OnePassCsv`); returns it.

    Examples
    --------
    >>> import numpy as np
    >>> from seminaive import NaiveBayes
    >>> from seminaive.data.file_plan import plan_file
    >>> from seminaive.datasets import dataset_path, load
    >>> m = fit_growing(NaiveBayes(), plan_file(dataset_path("ihealth")).one_pass(size=4))
    >>> d = load("ihealth")
    >>> bool(np.allclose(m.predict_proba(d.X), NaiveBayes().fit(d).predict_proba(d.X)))
    True
    """
    model._check_params()
    attributes, classes, stats, class_count, rows = None, (), None, np.zeros(0), 0
    for part in reader:
        new = part.attributes if isinstance(part, Rows) else attributes
        if stats is not None and (len(part.classes) != len(classes) or new != attributes):
            # the lists only grew at their ends: the counts so far keep their places
            stats = _widened(stats, attributes, new, len(part.classes))
            class_count = _widened_classes(class_count, len(part.classes))
        attributes, classes = new, part.classes
        if isinstance(part, Recount):  # a numeric column turned nominal: the counts of its earlier rows
            if stats is not None:  # (none when no earlier row had a class)
                stats[part.column] = {"counts": part.counts}
                attributes = attributes[:part.column] + (part.attribute,) + attributes[part.column + 1:]
            continue
        comps = make_components(Schema(attributes), "gaussian")
        counted = count_components(comps, part.table, part.y, len(classes))
        counts = count_classes(part.y, len(classes))
        stats = counted if stats is None else [type(c).merge(a, b) for c, a, b in zip(comps, stats, counted)]
        class_count = counts if not class_count.size else class_count + counts
        rows += len(part.y)
        step("rows", rows, None)
    step("rows", rows, rows)
    if stats is None:
        raise DataFormatError("the file holds no labelled data rows", path=reader.plan.path)
    final, final_classes, value_positions, class_positions = reader.final()
    stats = _widened(stats, attributes, final, len(final_classes), class_positions, value_positions)
    model.class_count_ = _widened_classes(class_count, len(final_classes), class_positions)
    model.schema_, model.classes_ = Schema(final), np.asarray(final_classes, dtype=object)
    model.n_features_in_ = len(final)
    model.feature_names_in_ = np.asarray(model.schema_.names, dtype=object)
    model._hold_lists(make_components(model.schema_, "gaussian"), stats)  # blocks, as a fit in memory holds them
    model._estimate()
    return model


def _widened_classes(counts, k, rows=None):
    out = np.zeros(k)
    out[np.arange(counts.size) if rows is None else rows] = counts
    return out


def _widened(stats, old_attrs, new_attrs, k, rows=None, values=None):
    """Statistics laid out for ``k`` classes and the value lists of ``new_attrs``, the old classes at
    ``rows`` and each nominal attribute's old values at ``values[i]`` (None: where they were)."""
    out = []
    for i, (s, a, b) in enumerate(zip(stats, old_attrs, new_attrs)):
        n = len(s["counts"]) if "counts" in s else s["weight"].size
        at = np.arange(n) if rows is None else rows
        if b.is_nominal:
            counts = np.zeros((k, b.n_values))
            if a.is_nominal:
                cols = np.arange(a.n_values) if values is None or values[i] is None else values[i]
                counts[np.ix_(at, cols)] = s["counts"]
            elif s["weight"].any():  # a numeric column with values cannot end nominal
                raise AssertionError(f"column {b.name!r} changed kind without a recount")
            out.append({"counts": counts})
            continue
        if "weight" not in s:  # a column of missing values only (no kind in its type): its empty moments
            if np.any(s["counts"]):
                raise AssertionError(f"column {b.name!r} changed kind without a recount")
            s = _no_moments(b, n)
        grown = dict(s)
        for key in ("weight", "mean", "m2"):
            grown[key] = np.zeros(k)
            grown[key][at] = s[key]
        out.append(grown)
    return out


def _no_moments(attribute, k):
    """The Gaussian statistics of a numeric ``attribute`` that holds no value, for ``k`` classes."""
    table = EncodedTable(np.zeros((1, 0), dtype=np.int8), np.full((1, 1), np.nan), np.zeros(0))
    return count_components(make_components(Schema((attribute,)), "gaussian"), table, np.zeros(1, dtype=np.int64),
                            k)[0]
