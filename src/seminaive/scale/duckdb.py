"""Fitting from DuckDB: a relation, a table or a SQL query as a source of chunks (Arrow record batches),
every pass a run of the query, so that a Parquet lake larger than memory is read where it lies (DuckDB's
own readers and threads) and a model learns from it as from a file (:mod:`seminaive.data.duckdb_plan`).
Needs the duckdb package (``pip install duckdb``)."""

from .._validation import check_param
from ..data.duckdb_plan import DuckDBPlan, relation_of
from ..learning.data_source import FileSource
from .duckdb_counts import grouped_values, pushed_triples
from .fit_source import fit_source

__all__ = ["fit_duckdb", "DuckDBSource"]


class DuckDBSource(FileSource):
    """A DuckDB relation read chunk by chunk through its :class:`~seminaive.data.duckdb_plan.DuckDBPlan`,
    afresh at every pass (a :class:`~seminaive.learning.data_source.FileSource` whose file is a query)."""

    def __init__(self, relation, chunksize=100_000, target=None, nominal=None, ignore=None):
        check_param("chunksize", chunksize, kind="int", low=1)
        self.plan = DuckDBPlan(relation, target, ignore=ignore)
        self.path, self.chunksize, self.nominal = self.plan.path, chunksize, nominal
        self._copy, self._head = None, None

    def grouped_triples(self, schema, classes):
        """Every numeric attribute's values by class, counted by DuckDB (a GROUP BY:
        :func:`~seminaive.scale.duckdb_counts.pushed_triples`) rather than in a pass over the rows."""
        return pushed_triples(self, schema, classes)

    def grouped_values(self, schema, classes):
        """Every attribute's values by class with their rows' counts, by DuckDB in one query
        (:func:`~seminaive.scale.duckdb_counts.grouped_values`): a Naive Bayes's one pass."""
        return grouped_values(self, schema, classes)


def fit_duckdb(model, data, target=None, con=None, chunksize=100_000, nominal=None, ignore=None, progress=None):
    """Fit ``model`` on a DuckDB relation, table or SQL query (``data``; on the connection ``con``, DuckDB's
    default where None) chunk by chunk: in passes (the family, a Naive Bayes with a discretizer), through a
    wrapper search's engine, or with ``partial_fit``; the result equals ``model.fit`` on the relation read
    whole (``relation.df()``, the class column ``target``, by default the last, left out of ``X``).

    Examples
    --------
    >>> import duckdb, numpy as np
    >>> from seminaive import TAN
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> con = duckdb.connect()
    >>> frame = d.X.astype(str).assign(play=d.y.astype(str))
    >>> _ = con.register("weather", frame)
    >>> m = fit_duckdb(TAN(), "SELECT * FROM weather WHERE outlook <> 'rainy'", target="play", con=con, chunksize=3)
    >>> part = frame[frame.outlook != "rainy"]
    >>> whole = TAN().fit(part.drop(columns="play"), part["play"])
    >>> bool(np.allclose(m.predict_proba(part.drop(columns="play")), whole.predict_proba(part.drop(columns="play"))))
    True
    """
    source = DuckDBSource(relation_of(data, con), chunksize, target, nominal, ignore)
    return fit_source(model, source, progress, how=("chunksize", "read the relation in memory (relation.df())"))
