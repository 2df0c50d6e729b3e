"""Fitting from and predicting on Spark DataFrames: each pass of a fit runs on the executors over the
partitions (Arrow record batches in, the pass's statistics out, pickled), only the statistics travel to
the driver, where they are combined in partition order as models merge; prediction ships the fitted model
as its JSON to the executors.

The columns are read by the Parquet reader's rules (:class:`~seminaive.data.arrow_file.ArrowFilePlan`:
kinds, sorted value lists, the class column), with the value lists found by Spark (``distinct``), so the
model equals ``model.fit`` on ``df.toPandas()``. Needs pyspark (``pip install pyspark``; Java 17 for a
local session), and seminaive in the executors' Python (``PYSPARK_PYTHON``).
"""

import functools
import itertools
import json
import pickle
import re

import pyarrow as pa

from ..data.arrow_file import ArrowFilePlan, encode_batch
from ..exceptions import DataFormatError, ParameterError
from ..learning.data_source import DataSource, _fit_copy, _merge_fits, labelled
from ..persistence import model_from_dict, model_to_dict
from .fit_source import fit_source
from .spark_tasks import tasks_shown

__all__ = ["fit_spark", "predict_spark", "SparkSource"]

WHERE = "Spark DataFrame"
ROWS = 200_000  # the rows of a chunk on an executor (read on the driver when a pass starts)
PART = pa.schema([("part", pa.binary()), ("rows", pa.int64())])


def _spark_error(e):
    """A failed Spark job (a lost executor, a query error) as one line."""
    text = " ".join(str(getattr(e, "desc", None) or e).split("\n\tat ")[0].split())  # the message, not the JVM's stack
    missing = re.search(r"No module named '([\w.]+)'", text)
    if missing:  # the executors' Python is another interpreter than the driver's
        return DataFormatError(f"the Spark job failed: the executors' Python has no {missing.group(1)} (set "
                               f"PYSPARK_PYTHON, before the session starts, to an interpreter that has seminaive)",
                               path=WHERE)
    return DataFormatError(f"the Spark job failed ({text[-300:]})", path=WHERE)


class SparkPlan(ArrowFilePlan):
    """The columns of a Spark DataFrame as a typed table (its Arrow schema), their value lists from Spark."""

    kind = "spark"

    def __init__(self, df, target=None, ignore=None):
        from pyspark.sql.pandas.types import to_arrow_schema
        self.df, self.name, self.format, self.path = df, "spark", None, WHERE
        self._take_columns(to_arrow_schema(df.schema), target, False, ignore)

    def distinct_values(self, nom):
        """Per column of ``nom``, its distinct values and its rows with a value, computed by Spark."""
        from pyspark.sql import functions as F
        names = [self.names[j] for j in nom]
        try:
            counts = self.df.select([F.count(F.col(f"`{n}`")) for n in names]).collect()[0]
            parts = {j: [self.df.select(f"`{n}`").distinct().toArrow().column(0).combine_chunks()]
                     for j, n in zip(nom, names)}
        except Exception as e:  # (py4j's and Spark's own errors)
            raise _spark_error(e) from None
        return parts, {j: int(n) for j, n in zip(nom, counts)}

    def batches(self, columns, size=None):  # (the driver reads none: every pass runs on the executors)
        raise ParameterError("a Spark DataFrame's rows stay on the executors")


def _gathered(batches, rows):
    """Record batches gathered into batches of at least ``rows`` rows (the last may hold fewer), in order.
    Spark hands a Python worker batches of 10,000 rows (``spark.sql.execution.arrow.maxRecordsPerBatch``), and
    every chunk costs its own encoding, its own count arrays and their sum: a 1M-row file fitted in chunks
    of 10,000 rows took 2 to 2.5 times the CPU of chunks of 200,000."""
    held, n = [], 0
    for batch in batches:
        if batch.num_rows:
            held.append(batch)
            n += batch.num_rows
        if n >= rows:
            yield _one(held)
            held, n = [], 0
    if n:
        yield _one(held)


def _one(held):
    return held[0] if len(held) == 1 else pa.Table.from_batches(held).combine_chunks().to_batches()[0]


def _chunks(batches, names, attrs, target, rows):
    """A partition's record batches as labelled chunks ``(X, y)`` of ``rows`` rows or more."""
    for batch in _gathered(batches, rows):
        chunk = labelled(encode_batch(batch, names, attrs, target, "spark", WHERE))
        if chunk is not None:
            yield chunk


def _partition(fn, combine, args, names, attrs, target, rows, offsets, batches):
    """One partition's pass: ``fn(position, chunk, None, *args)`` of each chunk, combined, pickled in one row
    with the partition's rows; a chunk's position is its first row's in the DataFrame (partition by partition,
    ``offsets`` each partition's first, known once a pass has counted them; before: within the partition)."""
    out, n = None, 0
    start = 0 if offsets is None else offsets[_partition_id()]
    for chunk in _chunks(batches, names, attrs, target, rows):
        part = fn(start + n, chunk, None, *args)
        n += len(chunk[1])
        out = part if out is None else combine(out, part)
    yield pa.RecordBatch.from_pylist([{"part": pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL), "rows": n}],
                                     schema=PART)


def _partition_id():
    from pyspark import TaskContext
    return TaskContext.get().partitionId()


def _partitions(frame):
    """The partitions (the job's tasks) of a Spark DataFrame; 1 where the driver cannot tell (Spark Connect)."""
    try:
        return frame.rdd.getNumPartitions()
    except Exception:
        return 1


class SparkSource(DataSource):
    """A Spark DataFrame as a source: every pass a Spark job over its partitions (see the module's notes)."""

    distributed = True  # a pass is a Spark job
    _offsets = None  # each partition's first row's position, once a pass has counted the rows

    def __init__(self, df, target=None, nominal=None, ignore=None):
        self.df, self.nominal, self.target, self.ignore = df, nominal, target, ignore
        self.plan = SparkPlan(df, target, ignore)
        if self.plan.target is None:
            raise ParameterError("target: expected the class column of the Spark DataFrame")

    def attribute_names(self):
        return [n for j, n in enumerate(self.plan.names) if j != self.plan.target]

    def _reread(self, nominal):
        return SparkSource(self.df, self.target, nominal, self.ignore)

    @property
    def first(self):
        attrs = self.plan.settle(self.nominal)
        empty = pa.RecordBatch.from_pylist([], schema=pa.schema([(n, t) for n, t in zip(self.plan.names,
                                                                                       self.plan.types)]))
        return encode_batch(empty, self.plan.names, attrs, self.plan.target, "spark", WHERE).X

    @property
    def classes(self):
        return list(self.plan.settle(self.nominal)[self.plan.target].values)

    def map_reduce_rows(self, fn, combine, rows=None, *args):
        """``fn(0, chunk, None, *args)`` over the chunks of every partition on the executors, combined there
        and then on the driver in partition order (``rows``, an array over all rows, cannot be cut: refused)."""
        if rows is not None:
            raise ParameterError("a Spark DataFrame's rows have no positions on the driver: k-fold selection "
                                 "needs the rows in memory (cv=None: leave-one-out)")
        self.passes += 1
        names, attrs = self.plan.names, self.plan.settle(self.nominal)
        job = functools.partial(_partition, fn, combine, args, names, attrs, self.plan.target, ROWS, self._offsets)
        frame = self.df.select([f"`{n}`" for n in names])
        try:
            with tasks_shown(frame, f"pass {self.passes} over the data (a Spark job), partitions", _partitions(frame)):
                found = frame.mapInArrow(job, "part binary, rows long").collect()
        except Exception as e:  # a lost executor, a failed task: one line, nothing kept
            raise _spark_error(e) from None
        if self.n_rows is None:  # the first pass: the labelled rows, and where each partition begins
            counts = [int(r.rows) for r in found]
            self.n_rows, self._offsets = sum(counts), tuple(itertools.accumulate([0] + counts[:-1]))
        out = None
        for row in found:
            part = pickle.loads(row.part)
            if part is not None:
                out = part if out is None else combine(out, part)
        return out

    def partial_fits(self, model):
        """A fit of ``model`` on every partition (``partial_fit`` of a copy), merged."""
        from sklearn.base import clone
        return self.map_reduce(_fit_copy, _merge_fits, clone(model))

    def __iter__(self):
        raise ParameterError("a Spark DataFrame's chunks stay on the executors")


def fit_spark(model, df, target=None, nominal=None, ignore=None, progress=None):
    """Fit ``model`` on a Spark DataFrame ``df`` (the class column ``target``, by default the last): in passes
    on the executors (the family, a Naive Bayes with a discretizer, the searches), or by ``partial_fit`` of
    each partition merged (the count models, Naive Bayes); the result equals ``model.fit`` on
    ``df.toPandas()``. A model that cannot learn from chunks (LBR, Weka's NBTree folds) is refused in one line."""
    result = fit_source(model, SparkSource(df, target, nominal, ignore), progress,
                        how=("df", "collect the data (df.toPandas()) and fit it in memory"))
    if result is None:
        raise ParameterError("df: every partition is empty")
    return result


def _predicted(text, names, proba, batches):
    """A partition's predictions by the model of JSON ``text``: the rows' columns, the predicted class, and
    (``proba``) the probability of every class."""
    model = model_from_dict(json.loads(text))
    for batch in batches:
        X = batch.select(names).to_pandas()
        out = {"prediction": [str(c) for c in model.predict(X)]} if len(X) else {"prediction": []}
        if proba:
            out["probability"] = model.predict_proba(X).tolist() if len(X) else []
        yield pa.RecordBatch.from_pydict(out, schema=_out_schema(proba))


def _out_schema(proba):
    fields = [("prediction", pa.string())] + ([("probability", pa.list_(pa.float64()))] if proba else [])
    return pa.schema(fields)


def predict_spark(model, df, proba=True):
    """The predictions of a fitted model on the rows of a Spark DataFrame (the model's attribute columns
    read by name), as a Spark DataFrame of ``prediction`` (the class, as text) and, with ``proba``,
    ``probability`` (the classes' probabilities in ``model.classes_`` order), computed on the executors
    from the model's JSON, row for row in ``df``'s order."""
    names = [str(n) for n in getattr(model, "feature_names_in_", model.schema_.names)]
    missing = [n for n in names if n not in df.columns]
    if missing:
        raise ParameterError(f"df: expected the model's columns; {', '.join(map(repr, missing))} not among them")
    text = json.dumps(model_to_dict(model))
    job = functools.partial(_predicted, text, names, proba)
    ddl = "prediction string" + (", probability array<double>" if proba else "")
    return df.select([f"`{n}`" for n in names]).mapInArrow(job, ddl)
