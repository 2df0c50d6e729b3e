"""The matrix: every registered model and search, fitted in memory, from a file
in chunks of 37 rows, from Dask partitions on a LocalCluster and from the data in
memory cut into chunks of 37 rows (every path one entry point: the source's), on nominal,
numeric and mixed data with missing values, gives the same model (schema,
classes, structure, probabilities to 1e-9), or every path refuses it the same
way, as the model's declared capabilities say."""

import warnings

import numpy as np
import pandas as pd
import pytest

import dask.dataframe as dd

from seminaive.core.capabilities import capabilities
from seminaive.data import load_file
from seminaive.exceptions import SeminaiveError
from seminaive.models import PEERS as PEER_NAMES, make_model, model_names
from seminaive.scale import fit_file
from seminaive.scale.dask import fit_dask
from seminaive.learning.data_source import MemorySource
from seminaive.scale.fit_source import fit_source

from test_dask import client  # noqa: F401  (the module's LocalCluster)

PEERS = set(PEER_NAMES)  # scikit-learn's models, compared with ours but not ours
NAMES = sorted(set(model_names("model")) | set(model_names("search"))
               | {n.replace(":R", ":0.8") for n in model_names("compare") if n not in PEERS})


def _data(kind, n=150, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.choice(["p", "q", "r"], n, p=[0.5, 0.3, 0.2])
    shift = (y == "p") * 1.0 - (y == "r") * 0.7
    cols = {}
    if kind in ("nominal", "missing"):
        cols["a"] = np.where(rng.random(n) < 0.7, np.where(y == "p", "u", "v"), rng.choice(["u", "v", "w"], n))
        cols["b"] = rng.choice(["s", "t"], n)
        cols["c"] = np.where(rng.random(n) < 0.6, y, rng.choice(["p", "q", "r"], n))
    if kind in ("numeric", "missing"):
        cols["x"] = np.round(rng.normal(shift, 1.0, n), 3)
        cols["z"] = np.round(rng.normal(-shift, 2.0, n), 3)
    frame = pd.DataFrame(cols)
    if kind == "missing":
        for c in frame.columns:
            frame.loc[rng.random(n) < 0.1, c] = np.nan
    return frame, y


def _fit(name, how, path=None, ddf=None, frame=None, y=None):
    model = make_model(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if how == "memory":
            return model.fit(frame)  # a Dataset: its classes in the file's order, as the chunked paths read them
        if how == "file":  # one entry point for every kind of model: the source's passes, searches included
            return fit_file(model, path, chunksize=37)
        if how == "chunks":
            return fit_source(model, MemorySource(frame.X, frame.y, chunksize=37))
        return fit_dask(model, ddf.drop(columns="cls"), ddf["cls"])


def _outcome(call):
    try:
        return "ok", call()
    except SeminaiveError as e:
        return "refused", str(e)


@pytest.mark.parametrize("kind", ["nominal", "numeric", "missing"])
@pytest.mark.parametrize("name", NAMES)
def test_every_model_is_the_same_in_memory_from_a_file_and_on_dask(tmp_path, client, name, kind):  # noqa: F811
    frame, y = _data(kind)
    path = tmp_path / "d.csv"
    frame.assign(cls=y).to_csv(path, index=False, na_rep="?")
    read = load_file(path)  # the file as the readers give it: the in-memory fit sees the same columns
    X = read.X
    ddf = dd.from_pandas(X.assign(cls=read.y), npartitions=3)  # the class a categorical in the file's order
    kind0, memory = _outcome(lambda: _fit(name, "memory", frame=read))
    for how in ("file", "dask", "chunks"):
        kind1, other = _outcome(lambda: _fit(name, how, path=path, ddf=ddf, frame=read))
        where = f"{name} on {kind} data, {how}: {memory if kind0 != 'ok' else ''} {other if kind1 != 'ok' else ''}"
        if kind0 == "refused":
            assert kind1 == "refused", where
            continue
        if kind1 == "refused":  # the chunked paths refuse what the model's capabilities do not offer
            caps = capabilities(make_model(name))
            assert not (caps.passes or caps.search or hasattr(make_model(name), "partial_fit")), where
            continue
        assert list(other.classes_) == list(memory.classes_), where
        if hasattr(memory, "schema_"):
            assert other.schema_ == memory.schema_, where
        if hasattr(memory, "structure_"):
            assert other.structure_ == memory.structure_, where
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_allclose(other.predict_proba(X), memory.predict_proba(X), rtol=1e-9, atol=1e-12,
                                       err_msg=where)
