"""Counts pushed down to DuckDB: one ``GROUP BY GROUPING SETS`` query gives, for each asked column, its
distinct values (or, for a column of floating-point numbers with cut points, its interval codes) by
class with their rows' count, and the rows of each class; DuckDB counts in its own threads and only the
groups travel.

The groups are converted by the very functions that convert a batch of rows
(:func:`~seminaive.data.arrow_values.encode_arrow`), so a group's value is what each of its rows would
have been, and the counts are those a pass over the rows would add up (whole numbers: exact in any
order). Interval codes are computed in SQL only where that is exact by construction: a column DuckDB
holds as FLOAT or DOUBLE (read as float64 unchanged), compared with cut points written so that DuckDB
reads them back as the same doubles (checked before the query: otherwise the column is grouped by value);
NaN and NULL are missing, and an infinite value is a code of its own, which the caller hands to the
pass over rows (that pass treats it as it does in memory).
"""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..exceptions import DataFormatError
from .arrow_values import encode_arrow, one_line
from .duckdb_plan import duckdb_module

__all__ = ["INFINITE", "grouped_counts"]

INFINITE = -2  # the interval code of an infinite value (what the pass over rows must see for itself)


def _quoted(name):
    return '"' + name.replace('"', '""') + '"'


def _literal(c):
    """A double as a DuckDB literal of type DOUBLE (scientific notation: never DECIMAL)."""
    text = repr(float(c))
    return text if "e" in text or "n" in text else text + "e0"


def _exact_literals(relation, cuts):
    """Whether DuckDB reads every cut point's literal back as the same double."""
    flat = np.concatenate([np.asarray(c, dtype=np.float64) for c in cuts]) if cuts else np.empty(0)
    if not flat.size:
        return True
    if not np.isfinite(flat).all():
        return False
    back = relation.query("t", f"SELECT [{', '.join(map(_literal, flat))}]::DOUBLE[] FROM t LIMIT 1").fetchall()
    return bool(back) and np.array_equal(np.asarray(back[0][0], dtype=np.float64), flat)


def _interval_sql(name, cuts):
    """The interval code of column ``name`` under ``cuts`` as :func:`~seminaive.discretize.apply_cuts`
    gives it (the number of cut points below the value), NULL where missing, INFINITE where infinite."""
    x = f"CAST({_quoted(name)} AS DOUBLE)"
    count = " + ".join(f"({x} > {_literal(c)})::INTEGER" for c in cuts) or "0"
    return f"CASE WHEN {x} IS NULL OR isnan({x}) THEN NULL WHEN isinf({x}) THEN {INFINITE} ELSE {count} END"


def grouped_counts(plan, attrs, columns, cuts=None):
    """Per column index of ``columns``, ``(values, class labels, counts)``: its distinct values (encoded
    as its attribute of ``attrs`` reads them: float64, or a Categorical) or, where ``cuts`` gives cut
    points for it and DuckDB holds it as floating-point numbers, its interval codes (int64, -1 missing,
    :data:`INFINITE`), each with a class (the class attribute's Categorical) and its rows' count; and
    under None, the class labels and their rows' count. One query of ``plan``'s relation.

    Examples
    --------
    >>> import duckdb, pandas as pd
    >>> from seminaive.data.duckdb_plan import DuckDBPlan
    >>> frame = pd.DataFrame({"x": [0.5, 2.0, 2.0, None], "c": ["a", "b", "b", "a"]})
    >>> plan = DuckDBPlan(duckdb.connect().from_df(frame), "c")
    >>> attrs = plan.settle()
    >>> out = grouped_counts(plan, attrs, [0], cuts={0: [1.0]})
    >>> sorted(zip(out[0][0].tolist(), out[0][1].astype(str), out[0][2].tolist()))
    [(-1, 'a', 1.0), (0, 'a', 1.0), (1, 'b', 2.0)]
    """
    cuts = {} if cuts is None else cuts
    coded = {j: np.asarray(cuts[j], dtype=np.float64) for j in columns
             if j in cuts and pa.types.is_floating(plan.types[j])}
    try:
        if coded and not _exact_literals(plan.relation, list(coded.values())):
            coded = {}
        table = plan.relation.query("t", _query(plan, columns, coded)).to_arrow_table()
    except (duckdb_module().Error, pa.ArrowInvalid) as e:
        raise DataFormatError(f"the query failed ({one_line(e)})", path=plan.path) from None
    which = table.column("set_").to_numpy()
    label = attrs[plan.target]
    out = {}
    for at, j in enumerate([*columns, None]):
        rows = np.flatnonzero(which == at)
        part = table.take(pa.array(rows))
        y = encode_arrow(part.column("class_").combine_chunks(), label, plan.path)
        n = part.column("n_").to_numpy().astype(np.float64)
        if j is None:
            out[None] = (None, y, n)
            continue
        col = part.column(f"g{at}_").combine_chunks()
        if j in coded:
            values = pc.fill_null(col, -1).to_numpy(zero_copy_only=False).astype(np.int64)
        else:
            values = encode_arrow(col, attrs[j], plan.path)
        out[j] = (values, y, n)
    return out


def _query(plan, columns, coded):
    """The GROUPING SETS query over the relation ``t``: each column of ``columns`` with the class, and
    the class alone; ``set_`` the set a group belongs to (its position; the class alone last)."""
    names = plan.names
    exprs = [f"{_interval_sql(names[j], coded[j]) if j in coded else _quoted(names[j])} AS g{at}_"
             for at, j in enumerate(columns)]
    groups = [f"g{at}_" for at in range(len(columns))]
    which = " ".join(f"WHEN GROUPING({g}) = 0 THEN {at}" for at, g in enumerate(groups))
    which = f"CASE {which} ELSE {len(columns)} END" if groups else "0"
    sets = ", ".join([f"({g}, class_)" for g in groups] + ["(class_)"])
    inner = ", ".join(exprs + [f"{_quoted(names[plan.target])} AS class_"])
    return (f"SELECT {', '.join(groups + ['class_'])}, {which} AS set_, count(*) AS n_ "
            f"FROM (SELECT {inner} FROM t) GROUP BY GROUPING SETS ({sets})")

