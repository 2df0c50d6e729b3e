"""Every path, one answer: every registered model x every source of the same data (a pandas frame
as it is or with its values in reverse order, a polars or pyarrow frame; the CSV file read in memory, or streamed in chunks of 1, 2, 3, 4, 5
and 16 rows; Parquet and Feather files, streamed and read whole; a Dask frame; the frame cut
into chunks) x the options that change reading (``nominal`` on the model and on the reader,
every discretizer, the stochastic one with seeds, every estimation; a DuckDB relation and a DuckDB query
over the Parquet file, in chunks) gives the same classes in
the same order and the same probabilities (to 1e-12) as ``model.fit(frame, y)``, or every path
refuses it as the model's declared capabilities say.

The data are generated (seeded): a numeric column missing in the first rows (a chunk where it
is all missing), a column of small integer codes, a text column with missing values, values of
tiny magnitude, classes first seen out of sorted order. Each divergence issue 43 found is one of
the cases: the model's ``nominal`` on the file path, the stochastic cuts' seeds, the order of the
classes, tiny values after an all-missing chunk."""

import warnings

import dask
import dask.dataframe as dd
import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from seminaive import KDB, NaiveBayes
from seminaive.bayesnet.base import ESTIMATION_NAMES
from seminaive.core.capabilities import capabilities
from seminaive.learning.data_source import MemorySource
from seminaive.data import load_file
from seminaive.discretize import DISCRETIZERS
from seminaive.estimation import ESTIMATIONS
from seminaive.models import PEERS as PEER_NAMES, make_model, model_names
from seminaive.scale import fit_file
from seminaive.scale.dask import fit_dask
from seminaive.scale.duckdb import fit_duckdb
from seminaive.scale.fit_source import fit_source

from test_reader_differential import _outcome  # a call's result, or its one-line refusal

PEERS = set(PEER_NAMES)
NAMES = sorted(set(model_names("model")) | set(model_names("search")))
CHUNKS = (1, 2, 3, 4, 5, 16)


def generate(seed, n=40):
    """A frame of every kind of column and its classes (strings, first seen out of order)."""
    rng = np.random.default_rng(seed)
    y = np.array(["q", "r", "p"] + list(rng.choice(["q", "p", "r"], n - 3, p=[0.4, 0.35, 0.25])))
    shift = (y == "p") * 1.2 - (y == "r") * 0.8
    x = np.round(rng.normal(shift, 1.0, n), 3)
    x[:3] = np.nan  # all missing in the first chunks
    tiny = np.round(rng.normal(shift, 1.0, n), 2) * 1e-170
    k = (rng.integers(0, 3, n) + (y == "p") * 2).astype(np.int64)
    s = np.where(rng.random(n) < 0.6, np.where(y == "q", "u", "v"), rng.choice(["u", "v", "w z"], n)).astype(object)
    s[rng.random(n) < 0.1] = np.nan
    return pd.DataFrame({"x": x, "k": k, "s": s, "tiny": tiny}), y


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The data of each seed as CSV, Parquet and Feather files."""
    out = {}
    for seed in (0, 1, "counts"):
        frame, y = generate(0 if seed == "counts" else seed)
        if seed == "counts":  # the count models' data: counts only
            frame = pd.DataFrame({"k": frame["k"], "k2": (frame["k"] * 3 + np.arange(len(frame)) % 4) % 5})
        base = tmp_path_factory.mktemp(f"seed{seed}")
        whole = frame.assign(cls=y)
        paths = {"csv": base / "d.csv", "parquet": base / "d.parquet", "feather": base / "d.feather"}
        whole.to_csv(paths["csv"], index=False, na_rep="?", float_format="%.17g")
        whole.to_parquet(paths["parquet"], index=False)
        whole.to_feather(paths["feather"])
        out[seed] = frame, y, paths
    return out


def in_memory(model, frame, nominal):
    """The model and frame that read ``nominal`` columns as nominal in memory: the model's own
    option, or (a model without one) those columns as categoricals of their text, as a file holds
    them (polars' categoricals hold text only)."""
    if nominal is None:
        return model, frame
    if "nominal" in model.get_params():
        return model.set_params(nominal=nominal), frame
    return model, frame.astype({c: str for c in nominal}).astype({c: "category" for c in nominal})


def _sources(frame, y, paths, nominal):
    """(name, fit(model)) of every source of the data; ``nominal``: the reader's option."""
    def memory(convert):
        def fit(model):
            model, X = in_memory(model, frame, nominal)
            return model.fit(convert(X), y)
        return fit

    def whole(kind):
        return lambda model: model.fit(load_file(paths[kind], nominal=nominal))

    def streamed(kind, size):
        return lambda model: fit_file(model, paths[kind], chunksize=size, nominal=nominal)

    def on_dask(model):
        model, X = in_memory(model, frame, nominal)
        ddf = dd.from_pandas(X.assign(cls=y), npartitions=3)
        with dask.config.set(scheduler="synchronous"):
            return fit_dask(model, ddf.drop(columns="cls"), ddf["cls"])

    def chunks(model):
        return fit_source(model, MemorySource(frame, pd.Series(y), chunksize=7, nominal=nominal))

    def duck(query, size):
        def fit(model):
            con = duckdb.connect()  # the Parquet file as DuckDB reads it: a relation, or a query over it
            data = con.read_parquet(str(paths["parquet"])) if query is None else query.format(paths["parquet"])
            return fit_duckdb(model, data, target="cls", con=con, chunksize=size, nominal=nominal)
        return fit

    yield "pandas/values reversed", memory(_values_reversed)
    yield "polars", memory(pl.from_pandas)
    yield "pyarrow", memory(lambda f: pa.Table.from_pandas(f, preserve_index=False))
    yield "csv", whole("csv")
    yield "parquet", whole("parquet")
    for size in CHUNKS:
        yield f"csv/{size}", streamed("csv", size)
    yield "parquet/5", streamed("parquet", 5)
    yield "feather/3", streamed("feather", 3)
    yield "dask", on_dask
    yield "chunks/7", chunks
    yield "duckdb/4", duck(None, 4)
    yield "duckdb-sql/6", duck("SELECT * FROM read_parquet('{}') WHERE cls IS NOT NULL", 6)


def _values_reversed(frame):
    """The frame with every text or categorical column a categorical of its values in reverse order (the
    same data, its values in another order: issue 64)."""
    out = frame.copy()
    for c in out.columns:
        col = out[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            out[c] = col.cat.reorder_categories(list(col.cat.categories)[::-1])
        elif col.dtype == object:
            values = sorted(col.dropna().unique(), key=str)
            out[c] = pd.Categorical(col, categories=values[::-1])
    return out


def _chunkable(model):
    caps = capabilities(model)
    return caps.passes or caps.search or hasattr(model, "partial_fit")


def check_every_path(make, data, nominal_on_reader=None, skip=()):
    """``make()`` fitted by every source agrees with ``make().fit(frame, y)``."""
    frame, y, paths = data
    reference_model, X = in_memory(make(), frame, nominal_on_reader)
    kind0, reference = _outcome(lambda: reference_model.fit(X, y))
    assert kind0 == "ok", reference
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = reference.predict_proba(frame)
    for name, fit in _sources(frame, y, paths, nominal_on_reader):
        if name in skip:
            continue
        kind1, other = _outcome(lambda: fit(make()))
        where = f"{make()!r} from {name}: {other if kind1 != 'ok' else ''}"
        if kind1 == "error":
            assert "/" in name or name in ("dask", "parquet/5", "feather/3"), where
            assert not _chunkable(make()), where
            continue
        assert list(other.classes_) == list(reference.classes_), where
        if hasattr(reference, "schema_"):
            assert [a.kind for a in other.schema_.attributes] == [a.kind for a in reference.schema_.attributes], where
            assert [len(a.values) for a in other.schema_.attributes] == \
                [len(a.values) for a in reference.schema_.attributes], where
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = other.predict_proba(frame)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12, err_msg=where)


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_model_gives_one_answer_by_every_path(files, name):
    spec = {"eskdb": "eskdb:n_estimators=3:hdp_iterations=10"}.get(name, name)  # ESKDB small: 14 sources
    options = {"min_rates": {"p": 0.6}} if name == "cnb" else {}
    check_every_path(lambda: make_model(spec, **options), files["counts" if name in ("bernoulli", "multinomial", "complement") else 0])


NUMERIC = ["gaussian", "kernel", *DISCRETIZERS]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("numeric", NUMERIC)
def test_naive_bayes_numbers_by_every_path(files, numeric, seed):
    check_every_path(lambda: NaiveBayes(numeric=numeric), files[seed])


@pytest.mark.parametrize("numeric", list(DISCRETIZERS))
def test_the_family_cuts_by_every_path(files, numeric):
    check_every_path(lambda: KDB(k=1, numeric=numeric, random_state=5), files[1])


@pytest.mark.parametrize("numeric", ["resolution", "resolution_stochastic"])
def test_ladder_tables_by_every_path(files, numeric):
    """A ladder's intervals back off to their coarser ones inside hierarchical tables: the ladder
    reaches every path."""
    check_every_path(lambda: KDB(k=2, numeric=numeric, estimation="hgs", random_state=3), files[1])


@pytest.mark.parametrize("random_state", [0, 7])
def test_stochastic_cuts_take_their_seed_by_every_path(files, random_state):
    """The regression case: mdl_stochastic's cuts drew other seeds from files than in memory."""
    check_every_path(lambda: NaiveBayes(numeric="mdl_stochastic"), files[random_state % 2])
    check_every_path(lambda: KDB(numeric="mdl_stochastic", random_state=random_state), files[0])


@pytest.mark.parametrize("estimation", list(ESTIMATIONS))
def test_every_naive_bayes_estimation_by_every_path(files, estimation):
    check_every_path(lambda: NaiveBayes(estimation=estimation), files[0])


@pytest.mark.parametrize("estimation", list(ESTIMATION_NAMES))
def test_every_family_estimation_by_every_path(files, estimation):
    check_every_path(lambda: KDB(k=1, estimation=estimation, hdp_iterations=20), files[0])


@pytest.mark.parametrize("make", [lambda: NaiveBayes(nominal=["k"]), lambda: NaiveBayes(nominal=["k"], numeric="mdl"),
                                  lambda: KDB(nominal=["k"]), lambda: make_model("bsej")],
                         ids=["nb", "nb-mdl", "kdb", "bsej"])
def test_nominal_on_the_model_and_on_the_reader(files, make):
    """The regression case: a model's own ``nominal`` did not reach the file path (its attribute
    came out with no values); the reader's ``nominal`` is the same columns made nominal."""
    if "nominal" in make().get_params():
        check_every_path(make, files[0])
    check_every_path(make, files[1], nominal_on_reader=["k"])


def test_the_model_s_nominal_reaches_the_file(tmp_path):
    """Issue 43's first case, as it was reported."""
    path = tmp_path / "v.csv"
    path.write_text("a,b,cls\n2,x,p\n9,y,q\n10,x,p\n9,y,q\n2,x,q\n")
    model = fit_file(NaiveBayes(nominal=["a"]), path)
    assert model.schema_.attributes[0].values == ("2", "9", "10")
    frame = pd.read_csv(path)
    memory = NaiveBayes(nominal=["a"]).fit(frame[["a", "b"]], frame["cls"])
    np.testing.assert_allclose(model.predict_proba(frame[["a", "b"]]), memory.predict_proba(frame[["a", "b"]]),
                               rtol=1e-12)


def test_one_order_of_classes_by_every_route(tmp_path):
    """Classes no header declares are sorted by every route (scikit-learn's order); a header's
    declaration (ARFF) holds where the header is handed over (the Dataset, the file), while
    ``fit(X, y)`` keeps scikit-learn's contract (sorted: its meta-estimators assume it)."""
    frame = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6], "cls": ["q", "r", "p", "q", "r", "p"]})
    frame.to_csv(tmp_path / "c.csv", index=False)
    frame.astype({"cls": pd.CategoricalDtype(["r", "q", "p"])}).to_parquet(tmp_path / "c.parquet")
    routes = {"fit(X, y)": NaiveBayes().fit(frame[["a"]], frame["cls"]),
              "fit(dataset)": NaiveBayes().fit(load_file(tmp_path / "c.csv")),
              "fit_file(csv)": fit_file(NaiveBayes(), tmp_path / "c.csv"),
              "fit_file(parquet)": fit_file(NaiveBayes(), tmp_path / "c.parquet"),
              "categorical y": NaiveBayes().fit(frame[["a"]], frame["cls"].astype(pd.CategoricalDtype(["r", "q", "p"])))}
    assert {k: list(m.classes_) for k, m in routes.items()} == {k: ["p", "q", "r"] for k in routes}
    (tmp_path / "c.arff").write_text("@relation c\n@attribute a numeric\n@attribute cls {r,q,p}\n@data\n"
                                     + "".join(f"{a},{c}\n" for a, c in zip(frame.a, frame.cls)))
    d = load_file(tmp_path / "c.arff")
    declared = {"fit(d)": NaiveBayes().fit(d), "fit_file": fit_file(NaiveBayes(), tmp_path / "c.arff", chunksize=2)}
    assert {k: list(m.classes_) for k, m in declared.items()} == {k: ["r", "q", "p"] for k in declared}
    assert list(NaiveBayes().fit(d.X, d.y).classes_) == ["p", "q", "r"]


def test_numbers_held_as_objects_are_numeric_on_dask_as_in_memory():
    frame = pd.DataFrame({"o": pd.Series([1, 2.5, 3, 4, 5, 6.5], dtype=object), "cls": list("pqpqpq")})
    memory = NaiveBayes().fit(frame[["o"]], frame["cls"])
    with dask.config.set({"dataframe.convert-string": False, "scheduler": "synchronous"}):
        ddf = dd.from_pandas(frame, npartitions=2)
        on_dask = fit_dask(NaiveBayes(), ddf[["o"]], ddf["cls"])
    assert on_dask.schema_ == memory.schema_ and not memory.schema_.attributes[0].is_nominal


def test_tiny_values_after_an_all_missing_chunk():
    """The README's promise: any magnitude, any sequence of chunks (a chunk without a value has no units)."""
    X, y = np.array([[np.nan], [1e-170], [-1e-169]]), np.array(["q", "q", "p"])
    whole = NaiveBayes().fit(X, y).predict_proba(X[1:])
    one = NaiveBayes()
    for i in range(3):
        one.partial_fit(X[i:i + 1], y[i:i + 1], classes=["p", "q"])
    np.testing.assert_allclose(one.predict_proba(X[1:]), whole, rtol=1e-12)
    assert 0.1 < whole[0, 0] < 0.3


@pytest.mark.parametrize("seed", [0, 1])
def test_nbtree_level_by_level_by_every_path(files, seed):
    """NBTree with hashed folds grows level by level in passes: from every source its tree and class
    distributions are the fit in memory's (small nodes split, so that the 40 rows make a tree)."""
    from seminaive import NBTree
    check_every_path(lambda: NBTree(folds="hashed", min_instances=4, min_improvement=0.0), files[seed])


@pytest.mark.parametrize("make", [lambda: __import__("seminaive").WAODE(estimation="hgs"),
                                  lambda: __import__("seminaive").AODEsr(critical=2, estimation="hdp", hdp_iterations=20),
                                  lambda: __import__("seminaive").HNB(estimation="hls")], ids=["waode", "aodesr", "hnb"])
def test_aode_relatives_with_the_family_s_estimations_by_every_path(files, make):
    """WAODE, AODEsr and hidden Naive Bayes on AODE's tables smoothed hierarchically: the smoothing runs on
    the counts of the passes, so every source gives the fit in memory."""
    check_every_path(make, files[1])


@pytest.mark.parametrize("make", [lambda: __import__("seminaive").WAODE(discriminative="parameter", penalty=1.0),
                                  lambda: __import__("seminaive").AODEsr(critical=2, discriminative="table"),
                                  lambda: __import__("seminaive").HNB(discriminative="parameter", penalty=1.0)],
                         ids=["waode", "aodesr", "hnb"])
def test_aode_relatives_with_discriminative_weights_by_every_path(files, make):
    """Their discriminative weights from chunks: one pass per evaluation of the objective, summed over the
    chunks, to the weights fitted in memory."""
    check_every_path(make, files[0])
