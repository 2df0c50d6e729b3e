"""The passes that are counts, pushed down to DuckDB as GROUP BYs
(:func:`~seminaive.data.duckdb_groups.grouped_counts`): every numeric attribute's values by class (the
first pass of every model that cuts numbers into intervals), and for a Naive Bayes every attribute's
values by class, its cut points and its counts both (one query: the data read once). Each gives what the
pass over the rows gives (the same conversions of the same values, whole counts), so a model fitted
from DuckDB is the same whichever way its counts came.
"""

import numpy as np
import pandas as pd

from .._progress import step
from .._target import class_codes
from ..data.duckdb_groups import grouped_counts
from ..learning.cuts import counted_triples

__all__ = ["pushed_triples", "grouped_values"]


def _columns(source, schema):
    """The plan's column of each attribute of ``schema`` (None where the two disagree)."""
    plan = source.plan
    cols = [j for j in range(len(plan.names)) if j != plan.target]
    return cols if [plan.names[j] for j in cols] == list(schema.names) else None


def _run(source, schema, classes, attributes):
    """One GROUP BY query for ``attributes`` (schema indices): per attribute ``(values, class codes,
    counts)`` of the groups with a class, and under None the classes' counts; counted as a pass of
    ``source``. None where a labelled row holds an infinite number: the pass over the rows then meets it
    and refuses it as it does in memory, naming the column of the chunk it is met in first."""
    cols = _columns(source, schema)
    if cols is None:
        return None
    plan = source.plan
    attrs = plan.settle(source.nominal)
    found = grouped_counts(plan, attrs, [cols[i] for i in attributes])
    out = {}
    for i, j in [*zip(attributes, (cols[i] for i in attributes)), (None, None)]:
        values, labels, n = found[j]
        keep = pd.Series(labels).notna().to_numpy()
        y = class_codes(pd.Series(labels[keep]), classes).astype(np.int64)
        out[i] = (None if values is None else values[keep], y, n[keep])
    if any(np.isinf(out[i][0]).any() for i in attributes if not schema.attributes[i].is_nominal):
        return None  # the pass over the rows refuses it, naming where it is met first
    source.passes += 1
    rows = int(out[None][2].sum())
    source.n_rows = rows if source.n_rows is None else source.n_rows
    step(f"pass {source.passes} over the data (DuckDB GROUP BY), rows", rows, rows)
    return out


def pushed_triples(source, schema, classes):
    """Every numeric attribute's ``(values, class codes, counts)``, counted by DuckDB, as a pass over the
    rows adds them up (:func:`~seminaive.learning.cuts.counted_triples`: each value and class once,
    missing values left out)."""
    numeric = list(schema.numeric_indices)
    found = _run(source, schema, classes, numeric) if numeric else None
    return None if found is None else counted_triples({i: found[i] for i in numeric})


def grouped_values(source, schema, classes):
    """Every attribute's ``(values, class codes, counts)`` (by attribute index; the classes' under None),
    counted by DuckDB in one query: what a Naive Bayes learns from, cut points and counts alike."""
    return _run(source, schema, classes, list(range(len(schema.attributes))))
