"""A Spark DataFrame as a source (:mod:`seminaive.scale.spark`, local mode, two workers): every registered
model fitted from it gives the fit in memory on the same rows (to 1e-12), or is refused in one line as its
capabilities say; predictions computed on the executors from the model's JSON equal the model's own; a
failed job is one line."""

import numpy as np
import pytest

pyspark = pytest.importorskip("pyspark")

from sklearn.base import clone  # noqa: E402

from seminaive import AODE, ESKDB, LBR, NaiveBayes, NBTree, SelectiveKDB  # noqa: E402
from seminaive.exceptions import DataFormatError, ParameterError  # noqa: E402
from seminaive.models import make_model  # noqa: E402
from seminaive.scale.spark import fit_spark, predict_spark  # noqa: E402

from test_every_path import NAMES, _chunkable, generate  # noqa: E402
from test_reader_differential import _outcome  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    import os
    import sys
    from pyspark.sql import SparkSession
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers: this interpreter (the one holding seminaive)
    session = (SparkSession.builder.master("local[2]").appName("seminaive-tests")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .config("spark.sql.execution.arrow.maxRecordsPerBatch", "3").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(autouse=True)
def gathered(monkeypatch):
    """Spark's batches of 3 rows gathered into chunks of 10 or more: a partition of 13 or 14 rows is a chunk
    of four batches and one of what is left (the executors' chunks are gathered, and combined)."""
    monkeypatch.setattr("seminaive.scale.spark.ROWS", 10)


@pytest.fixture(scope="module")
def data(spark):
    """The matrix's data as a Spark DataFrame of 3 partitions, and the rows in its order (df.toPandas(): a
    fit may depend on the rows' order, as the discriminative penalty's held-out folds do)."""
    frame, y = generate(0)
    df = spark.createDataFrame(frame.assign(cls=y)).repartition(3).cache()
    rows = df.toPandas()
    return rows.drop(columns="cls").astype({"k": np.int64}), rows["cls"].to_numpy(), df


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_model_from_a_spark_dataframe(data, name):
    frame, y, df = data
    spec = f"{name}:n_estimators=3:hdp_iterations=10" if name.startswith("eskdb") else name  # (each pass a job;
    # three members: the two after the first read their passes together)
    if name in ("bernoulli", "multinomial", "complement"):
        pytest.skip("count models: the matrix's count data")
    options = {"min_rates": {"p": 0.6}} if name == "cnb" else {}
    kind, ref = _outcome(lambda: make_model(spec, **options).fit(frame, y))
    assert kind == "ok", ref
    kind, got = _outcome(lambda: fit_spark(make_model(spec, **options), df, target="cls"))
    if kind == "error":
        assert not _chunkable(make_model(spec, **options)), got
        return
    assert list(got.classes_) == list(ref.classes_)
    # discriminative weights: L-BFGS on sums added partition by partition (another grouping than in memory)
    # stops within its tolerance of the same optimum, not on the same bits
    tol = 1e-6 if getattr(ref, "discriminative", None) else 1e-12
    np.testing.assert_allclose(got.predict_proba(frame), ref.predict_proba(frame), rtol=tol, atol=tol, err_msg=name)


def test_predictions_on_the_executors_equal_the_model_s(data):
    frame, y, df = data
    model = AODE().fit(frame, y)
    out = predict_spark(model, df).toPandas()
    rows = df.toPandas()
    want = model.predict_proba(rows[list(frame.columns)])
    np.testing.assert_allclose(np.array(out["probability"].tolist()), want, rtol=1e-12)
    assert out["prediction"].tolist() == [str(c) for c in model.predict(rows[list(frame.columns)])]


def test_refusals_and_failures_are_one_line(spark, data):
    frame, y, df = data
    with pytest.raises(ParameterError, match="LBR cannot be fitted chunk by chunk"):
        fit_spark(LBR(), df, target="cls")
    with pytest.raises(ParameterError, match='folds="hashed"'):
        fit_spark(NBTree(folds="shuffled"), df, target="cls")
    with pytest.raises(Exception, match="cls2"):
        fit_spark(NaiveBayes(), df, target="cls2")
    with pytest.raises(ParameterError, match="model's columns"):
        predict_spark(NaiveBayes().fit(frame.assign(extra=1.0), y), df)

    def fails(batches):  # a task that dies on the executor: the fit is one line, nothing half-written
        raise RuntimeError("executor lost")
        yield
    broken = df.mapInArrow(fails, df.schema)
    with pytest.raises(DataFormatError, match="the Spark job failed"):
        fit_spark(NaiveBayes(), broken, target="cls")


def test_a_pass_shows_its_partitions_done(data):
    import io
    X, y, df = data
    out = io.StringIO()
    fit_spark(NaiveBayes(numeric="equal_frequency"), df, target="cls", progress=out)
    lines = [line for line in out.getvalue().splitlines() if "a Spark job" in line]
    assert sum("partitions: 0 of 3" in line for line in lines) == 2  # the cut points' pass, the counts'
    assert sum("partitions: 3 of 3" in line for line in lines) == 2


def test_the_tasks_of_a_running_job_are_shown():
    import io
    import threading
    from types import SimpleNamespace as S
    from seminaive._progress import shown_on
    from seminaive.scale.spark_tasks import tasks_shown
    looked, seen = [], threading.Event()

    def stages():
        looked.append(1)
        if len(looked) >= 3:
            seen.set()
        return [7]

    tracker = S(getActiveStageIds=stages, getStageInfo=lambda i: S(numCompletedTasks=len(looked), numTasks=5))
    df = S(sparkSession=S(sparkContext=S(statusTracker=lambda: tracker)))
    out = io.StringIO()
    with shown_on(out):
        with tasks_shown(df, "pass 1, partitions", 5):
            assert seen.wait(60)  # the watcher looked three times while the job ran
    text = out.getvalue()
    assert "partitions: 0 of 5" in text and "partitions: 1 of 5" in text and "partitions: 2 of 5" in text
    assert text.rstrip().splitlines()[-1].split("(")[0].strip() == "pass 1, partitions: 5 of 5"


def test_spark_s_batches_are_gathered_in_order():
    import pyarrow as pa
    from seminaive.scale.spark import _gathered
    sizes = [3, 0, 4, 5, 1, 2, 6, 1]
    start = np.cumsum([0] + sizes)
    schema = pa.schema([("v", pa.int64()), ("s", pa.string())])
    batches = [pa.record_batch({"v": np.arange(a, b), "s": [str(i) for i in range(a, b)]}, schema=schema)
               for a, b in zip(start, start[1:])]
    got = list(_gathered(iter(batches), 6))
    assert [b.num_rows for b in got] == [7, 6, 8, 1]  # each at least 6 rows, but the last
    assert pa.Table.from_batches(got).equals(pa.Table.from_batches(batches))
    assert [b.num_rows for b in _gathered(iter(batches), 10**6)] == [22]
    assert list(_gathered(iter(batches[1:2]), 6)) == []  # an empty partition: no chunk


def test_after_the_first_pass_each_chunk_knows_its_position_in_the_dataframe(data):
    """The first pass counts each partition's rows; later passes give each chunk its first row's position in
    the DataFrame (df.toPandas()'s order), which a selection scored on drawn rows draws by (``selection_rows``)."""
    from seminaive.scale.spark import SparkSource
    frame, y, df = data
    source = SparkSource(df, target="cls")
    seen = lambda row, chunk, rows: [(row, len(chunk[1]))]  # noqa: E731
    first = source.map_reduce_rows(seen, lambda a, b: a + b)
    assert source.n_rows == len(y) and len(first) > 3  # (three partitions, chunks of 10 rows or more)
    later = source.map_reduce_rows(seen, lambda a, b: a + b)
    starts = [r for r, _ in later]
    sizes = [n for _, n in later]
    assert starts == [0] + list(np.cumsum(sizes)[:-1]) and sizes == [n for _, n in first]
    for model in (SelectiveKDB(k=2, selection_rows=15),
                  ESKDB(n_estimators=2, k=2, selection_rows=15, hdp_iterations=10)):
        ref = clone(model).fit(frame, y)
        got = fit_spark(clone(model), df, target="cls")
        np.testing.assert_allclose(got.predict_proba(frame), ref.predict_proba(frame), rtol=0, atol=1e-12)


def test_a_failed_job_names_its_cause_not_the_jvm_stack():
    from seminaive.scale.spark import _spark_error

    class Failed(Exception):
        desc = ("An error occurred while calling o797.collectToPython.\n: org.apache.spark.SparkException: Job aborted "
                "due to stage failure: Lost task 0.0 in stage 41.0: java.lang.OutOfMemoryError: Java heap space\n"
                "\tat org.apache.spark.sql.catalyst.expressions.codegen.BufferHolder.grow(BufferHolder.java:85)\n"
                + "\tat org.apache.spark.util.SparkErrorUtils.tryWithSafeFinally(SparkErrorUtils.scala:86)\n" * 40)
    text = str(_spark_error(Failed()))
    assert "OutOfMemoryError: Java heap space" in text and "\n" not in text and "BufferHolder" not in text
