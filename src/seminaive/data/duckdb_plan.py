"""A DuckDB relation (a table, a view, a SQL query) read as a typed table, by Arrow record batches: the
Parquet reader's plan (:class:`~seminaive.data.arrow_file.ArrowFilePlan`: the DataFrame rules for kinds,
sorted values, the class column) over DuckDB's batches, so that a model fitted from the relation equals
the one fitted on ``relation.df()`` in memory. Every pass runs the query afresh (DuckDB keeps the rows'
order for a scan); the first pass, over the nominal columns alone, learns their value lists as
``SELECT DISTINCT`` (DuckDB does it in its own threads; only the distinct values travel).

DuckDB is imported where a relation is read (an optional dependency: ``pip install duckdb``).
"""

import re

import pyarrow as pa

from ..exceptions import DataFormatError, ParameterError
from .arrow_file import ArrowFilePlan
from .arrow_values import one_line

__all__ = ["DuckDBPlan", "relation_of"]

BATCH = 1 << 20  # rows per record batch where no chunk size is asked
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


def duckdb_module():
    """The duckdb package, or one line saying how to install it."""
    try:
        import duckdb
    except ImportError:
        raise ParameterError("data: reading DuckDB needs the duckdb package (pip install duckdb)") from None
    return duckdb


def relation_of(data, con=None):
    """A DuckDB relation from ``data``: a relation as it is, a table or view name, or a SQL query (on
    ``con``, DuckDB's default connection where None); a query DuckDB refuses is one line naming it."""
    duckdb = duckdb_module()
    if isinstance(data, duckdb.DuckDBPyRelation):
        return data
    if not isinstance(data, str):
        raise ParameterError(f"data: expected a DuckDB relation, a table name or a SQL query, got "
                             f"{type(data).__name__}")
    con = duckdb.default_connection() if con is None else con
    try:
        return con.table(data) if _NAME.match(data.strip()) else con.sql(data)
    except duckdb.Error as e:
        raise DataFormatError(f"DuckDB refused it ({one_line(e)})", path=_where(data)) from None


def _where(query):
    text = " ".join(str(query).split())
    return f"DuckDB query {text[:60]!r}" + ("..." if len(text) > 60 else "")


def quoted(name):
    """A column name as a SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


class DuckDBPlan(ArrowFilePlan):
    """How to read a DuckDB relation: :class:`~seminaive.data.arrow_file.ArrowFilePlan`'s columns, kinds and
    encodings, the batches from DuckDB (see the module's notes)."""

    kind = "duckdb"

    def __init__(self, relation, target=None, unlabelled=False, ignore=None, name="duckdb"):
        self.relation, self.name, self.format = relation, name, None
        self.path = _where(relation.sql_query() if hasattr(relation, "sql_query") else name)
        try:
            schema = relation.limit(0).to_arrow_table().schema
        except duckdb_module().Error as e:
            raise DataFormatError(f"DuckDB refused it ({one_line(e)})", path=self.path) from None
        self._take_columns(schema, target, unlabelled, ignore)

    def distinct_values(self, nom):
        """Per column of ``nom``, its distinct values and its rows with a value, computed by DuckDB
        (``SELECT DISTINCT``, ``count``): only the distinct values travel."""
        duckdb = duckdb_module()
        ordered = [j for j in nom if pa.types.is_dictionary(self.types[j])]  # an ENUM's values keep its order:
        parts, present = super().distinct_values(ordered) if ordered else ({}, {})  # read from its batches
        rest = [j for j in nom if j not in parts]
        cols = [quoted(self.names[j]) for j in rest]
        try:
            if rest:
                counts = self.relation.aggregate(", ".join(f"count({c})" for c in cols)).fetchall()[0]
                present.update({j: int(n) for j, n in zip(rest, counts)})
            for j, c in zip(rest, cols):
                parts[j] = [self.relation.select(c).distinct().to_arrow_table().column(0).combine_chunks()]
        except duckdb.Error as e:
            raise DataFormatError(f"the query failed ({one_line(e)})", path=self.path) from None
        return parts, present

    def batches(self, columns, size=None):
        """Record batches of the named ``columns``, of at most ``size`` rows, from the query run afresh."""
        duckdb = duckdb_module()
        try:
            reader = self.relation.select(", ".join(quoted(c) for c in columns)).to_arrow_reader(size or BATCH)
            for batch in reader:
                if batch.num_rows:
                    yield batch
        except (duckdb.Error, pa.ArrowInvalid) as e:
            raise DataFormatError(f"the query failed ({one_line(e)})", path=self.path) from None
