"""TAN, kDB and AnDE fitted from a file's chunks or a cluster's partitions equal one fit in memory."""

import os

import numpy as np
import pytest

from seminaive import AODE, KDB, TAN, AnDE, SelectiveKDB
from seminaive.data import load_file
from seminaive.scale import fit_file

HERE = os.path.dirname(__file__)
MODELS = [TAN(), KDB(k=2), KDB(k=1, numeric="equal_frequency", n_bins=4), AnDE(n=1), AnDE(n=2), AODE(min_count=3),
          SelectiveKDB(k=2), SelectiveKDB(k=1, scoring="accuracy")]


def assert_same(a, b, X):
    assert a.schema_ == b.schema_ and list(a.classes_) == list(b.classes_)
    assert a.structure_ == b.structure_
    assert [r.to_dict() for r in a.readers_] == [r.to_dict() for r in b.readers_]
    np.testing.assert_array_equal(a.class_count_, b.class_count_)
    for name in a._count_names():
        for x, z in zip(getattr(a, name), getattr(b, name)):
            for u, v in zip(x if isinstance(x, list) else [x], z if isinstance(z, list) else [z]):
                np.testing.assert_array_equal(u["counts"] if isinstance(u, dict) else u,
                                              v["counts"] if isinstance(v, dict) else v)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-12)


@pytest.mark.parametrize("model", MODELS, ids=repr)
@pytest.mark.parametrize("name", ["labor.arff", "vote.arff", "diabetes.arff"])
def test_file_chunks_equal_memory(model, name):
    from sklearn.base import clone
    path = os.path.join(HERE, "data", "weka", name)
    d = load_file(path)
    memory = clone(model).fit(d)  # a file's classes in the file's order, read whole or in chunks
    streamed = fit_file(clone(model), path, chunksize=37)
    assert_same(streamed, memory, d.X)


def test_csv_chunks_equal_memory(tmp_path):
    rng = np.random.default_rng(3)
    n = 500
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.1, "?", np.array(["p", "q", "r"])[(y + rng.integers(0, 2, n)) % 3])
    x = np.round(rng.normal(y, 1.0, n), 2).astype(str)
    x[rng.random(n) < 0.05] = "?"
    path = tmp_path / "d.csv"
    path.write_text("a,x,cls\n" + "".join(f"{u},{v},k{c}\n" for u, v, c in zip(a, x, y)))
    d = load_file(path)
    for model in (TAN(), KDB(k=1), AnDE(n=1)):
        assert_same(fit_file(model, path, chunksize=64), type(model)().fit(d), d.X)


def test_selective_kdb_selection_over_chunks_equals_memory():
    """Every candidate's leave-one-out loss, summed over chunks, equals the in-memory one."""
    path = os.path.join(HERE, "data", "weka", "vote.arff")
    d = load_file(path)
    for loss in ("rmse", "log_loss", "accuracy", "brier", "balanced_accuracy"):
        memory = SelectiveKDB(k=2, scoring=loss).fit(d.X, d.y)
        streamed = fit_file(SelectiveKDB(k=2, scoring=loss), path, chunksize=40)
        assert [(h["attributes"], h["k"]) for h in streamed.history_] == \
            [(h["attributes"], h["k"]) for h in memory.history_]
        np.testing.assert_allclose([h["score"] for h in streamed.history_], [h["score"] for h in memory.history_],
                                   rtol=1e-12)
        assert (streamed.n_attributes_, streamed.k_) == (memory.n_attributes_, memory.k_)


def test_dask_partitions_equal_memory():
    """On a real LocalCluster: every pass maps over the partitions on the workers."""
    import dask.dataframe as dd
    from distributed import Client, LocalCluster, get_task_stream
    from seminaive.scale.dask import fit_dask
    d = load_file(os.path.join(HERE, "data", "weka", "labor.arff"))
    frame = d.X.assign(cls=d.y)
    ddf = dd.from_pandas(frame, npartitions=4)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        for model in (TAN(), KDB(k=2), AnDE(n=2), SelectiveKDB(k=2)):
            with get_task_stream(client) as stream:
                dist = fit_dask(model, ddf.drop(columns="cls"), ddf["cls"])
            assert {t["worker"] for t in stream.data} <= set(client.scheduler_info()["workers"])
            assert len(stream.data) >= 8  # the passes ran as tasks on the cluster
            assert_same(dist, type(model)(**model.get_params()).fit(d.X, d.y), d.X)
