"""Counts pushed down to DuckDB: one ``GROUP BY GROUPING SETS`` query gives, for each asked column, its
distinct values by class with their rows' count, and the rows of each class; DuckDB counts in its own
threads and only the groups travel (memory follows the distinct values, as the pass over the rows that
adds up the values by class holds them).

The groups are converted by the very functions that convert a batch of rows
(:func:`~seminaive.data.arrow_values.encode_arrow`), so a group's value is what each of its rows would
have been (an integer beyond 2**53, an infinite number, a value outside a list: the same error or the
same value), and the counts are those a pass over the rows would add up (whole numbers: exact in any
order).
"""

import numpy as np
import pyarrow as pa

from ..exceptions import DataFormatError
from .arrow_values import encode_arrow, one_line
from .duckdb_plan import duckdb_module, quoted

__all__ = ["grouped_counts"]


def grouped_counts(plan, attrs, columns):
    """Per column index of ``columns``, ``(values, class labels, counts)``: its distinct values (encoded
    as its attribute of ``attrs`` reads them: float64, or a Categorical), each with a class (the class
    attribute's Categorical) and its rows' count; and under None, the class labels and their rows'
    count. One query of ``plan``'s relation.

    Examples
    --------
    >>> import duckdb, pandas as pd
    >>> from seminaive.data.duckdb_plan import DuckDBPlan
    >>> frame = pd.DataFrame({"x": [0.5, 2.0, 2.0, None], "c": ["a", "b", "b", "a"]})
    >>> plan = DuckDBPlan(duckdb.connect().from_df(frame), "c")
    >>> attrs = plan.settle()
    >>> x, y, n = grouped_counts(plan, attrs, [0])[0]
    >>> sorted(zip(x.tolist(), y.astype(str), n.tolist()), key=str)
    [(0.5, 'a', 1.0), (2.0, 'b', 2.0), (nan, 'a', 1.0)]
    """
    try:
        table = plan.relation.query("t", _query(plan, columns)).to_arrow_table()
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
        out[j] = (encode_arrow(part.column(f"g{at}_").combine_chunks(), attrs[j], plan.path), y, n)
    return out


def _query(plan, columns):
    """The GROUPING SETS query over the relation ``t``: each column of ``columns`` with the class, and
    the class alone; ``set_`` the set a group belongs to (its position; the class alone last)."""
    names = plan.names
    exprs = [f"{quoted(names[j])} AS g{at}_" for at, j in enumerate(columns)]
    groups = [f"g{at}_" for at in range(len(columns))]
    which = " ".join(f"WHEN GROUPING({g}) = 0 THEN {at}" for at, g in enumerate(groups))
    which = f"CASE {which} ELSE {len(columns)} END" if groups else "0"
    sets = ", ".join([f"({g}, class_)" for g in groups] + ["(class_)"])
    inner = ", ".join(exprs + [f"{quoted(names[plan.target])} AS class_"])
    return (f"SELECT {', '.join(groups + ['class_'])}, {which} AS set_, count(*) AS n_ "
            f"FROM (SELECT {inner} FROM t) GROUP BY GROUPING SETS ({sets})")
