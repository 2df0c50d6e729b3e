"""The passes that are counts, pushed down to DuckDB as GROUP BYs
(:func:`~seminaive.data.duckdb_groups.grouped_counts`): every numeric attribute's values by class (the
first pass of every model that cuts numbers into intervals) and a Naive Bayes's counts (each attribute's
values or intervals by class). Each gives what the pass over the rows gives (the same conversions of
the same values, whole counts), so a model fitted from DuckDB is the same whichever way its counts came;
where a push-down cannot be exact (an infinite value met, a model whose statistics are not counts) it
gives None and the pass runs over the rows.
"""

import numpy as np
import pandas as pd

from .._progress import step
from .._target import class_codes
from ..components import Categorical, Discretized, count_components
from ..core.counting import count_classes
from ..data.duckdb_groups import INFINITE, grouped_counts
from ..data.encoding import EncodedTable
from ..discretize import apply_cuts
from ..learning.cuts import add_value_triples

__all__ = ["pushed_triples", "pushed_naive_bayes"]


def _columns(source, schema):
    """The plan's column of each attribute of ``schema`` (None where the two disagree)."""
    plan = source.plan
    cols = [j for j in range(len(plan.names)) if j != plan.target]
    return cols if [plan.names[j] for j in cols] == list(schema.names) else None


def _run(source, schema, classes, attributes, cuts=None):
    """One GROUP BY query for ``attributes`` (schema indices; ``cuts`` by schema index where a column's
    intervals are asked for): per attribute ``(values, class codes, counts)`` of the groups with a class,
    and under None the classes' counts; counted as a pass of ``source``."""
    cols = _columns(source, schema)
    if cols is None:
        return None
    plan = source.plan
    attrs = plan.settle(source.nominal)
    found = grouped_counts(plan, attrs, [cols[i] for i in attributes],
                           None if cuts is None else {cols[i]: c for i, c in cuts.items()})
    out = {}
    for i, j in [*zip(attributes, (cols[i] for i in attributes)), (None, None)]:
        values, labels, n = found[j]
        keep = pd.Series(labels).notna().to_numpy()
        y = class_codes(pd.Series(labels[keep]), classes).astype(np.int64)
        out[i] = (None if values is None else values[keep], y, n[keep])
    source.passes += 1
    rows = int(out[None][2].sum())
    source.n_rows = rows if source.n_rows is None else source.n_rows
    step(f"pass {source.passes} over the data (DuckDB GROUP BY), rows", rows, rows)
    return out


def pushed_triples(source, schema, classes):
    """Every numeric attribute's ``(values, class codes, counts)``, counted by DuckDB, as a pass over the
    rows adds them up (:func:`~seminaive.learning.cuts.add_value_triples`: each value and class once,
    missing values left out)."""
    numeric = list(schema.numeric_indices)
    found = _run(source, schema, classes, numeric) if numeric else None
    if found is None:
        return None
    none = (np.empty(0), np.empty(0, dtype=np.int64), None)
    return add_value_triples({i: found[i] for i in numeric}, {i: none for i in numeric})


def _stand_ins(codes, cuts):
    """A value of each interval code (the cut point above it; past the last, the next double), so that
    the component reads back the same codes (checked); NaN where missing. None if not read back."""
    cuts = np.asarray(cuts, dtype=np.float64)
    ups = np.append(cuts, np.nextafter(cuts[-1], np.inf)) if cuts.size else np.zeros(1)
    if not np.array_equal(apply_cuts(ups, cuts), np.arange(ups.size)):
        return None
    return np.where(codes >= 0, ups[np.clip(codes, 0, ups.size - 1)], np.nan)


def pushed_naive_bayes(source, model, comps):
    """A Naive Bayes's statistics (``comps``' counts, the classes' counts) counted by DuckDB; None where
    a component is not a table of counts or a column holds an infinite value."""
    if any(type(c) not in (Categorical, Discretized) for c in comps):
        return None
    schema, k = model.schema_, len(model.classes_)
    cuts = {c.attribute: c.cuts for c in comps if isinstance(c, Discretized)}
    found = _run(source, schema, model.classes_, [c.attribute for c in comps], cuts)
    if found is None:
        return None
    n_nom, n_num = len(schema.nominal_indices), len(schema.numeric_indices)
    stats = []
    for c in comps:
        values, y, n = found[c.attribute]
        codes, numeric = np.full((len(y), n_nom), -1, dtype=np.int64), np.full((len(y), n_num), np.nan)
        if type(c) is Categorical:
            codes[:, c.column] = np.asarray(values.codes, dtype=np.int64)
        elif values.dtype.kind == "f":  # grouped by value: the values themselves
            numeric[:, c.column] = values
        else:  # grouped by interval: a value of each
            if (values == INFINITE).any():
                return None
            ins = _stand_ins(values, c.cuts)
            if ins is None:
                return None
            numeric[:, c.column] = ins
        stats.append(count_components([c], EncodedTable(codes, numeric, np.zeros(n_nom)), y, k, n)[0])
    _, y, n = found[None]
    return stats, count_classes(y, k, n)
