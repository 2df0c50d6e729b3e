"""Dask: fits on a real distributed LocalCluster (two worker processes) equal in-memory fits."""

import numpy as np
import pytest

import dask.array as da
import dask.dataframe as dd
from distributed import Client, LocalCluster, get_task_stream

from seminaive import NaiveBayes
from seminaive.scale.dask import fit_dask, predict_dask

from conftest import mixed_frame
from test_scale import assert_same


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.mark.parametrize("numeric", ["gaussian", "kernel"])
def test_dataframe_fit_equals_in_memory(client, numeric):
    X, y = mixed_frame(600, seed=4, missing=0.1)
    X["size"] = X["size"].astype(object)  # an object column: its values are scanned and declared
    frame = X.assign(cls=y)
    ddf = dd.from_pandas(frame, npartitions=7)
    with get_task_stream(client) as stream:
        m = fit_dask(NaiveBayes(numeric=numeric), ddf.drop(columns="cls"), ddf["cls"])
    workers = set(client.scheduler_info()["workers"])
    ran = {t["worker"] for t in stream.data}
    assert len(stream.data) >= 7 and ran and ran <= workers  # the partitions were counted on the cluster
    full = NaiveBayes(numeric=numeric).fit(X, y)
    assert m.schema_ == full.schema_
    assert_same(full, m)
    got = predict_dask(m, ddf.drop(columns="cls")).compute()
    assert (got.to_numpy() == full.predict(X)).all()
    p = predict_dask(m, ddf.drop(columns="cls"), proba=True).compute()
    np.testing.assert_allclose(p.to_numpy(), full.predict_proba(X), rtol=1e-10)


def test_array_fit_equals_in_memory(client):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 5000)
    X = rng.normal(y[:, None], 1.5, (5000, 6))
    m = fit_dask(NaiveBayes(), da.from_array(X, chunks=(700, 3)), da.from_array(y, chunks=700))
    full = NaiveBayes().fit(X, y)
    assert_same(full, m)
    pred = predict_dask(m, da.from_array(X, chunks=(1000, 6))).compute()
    assert (pred == full.predict(X)).all()


@pytest.mark.parametrize("numeric", ["mdl", "equal_width", "equal_frequency", "1r"])
def test_discretizers_learn_their_cut_points_from_every_partition(client, numeric):
    """A discretizer's cut points come from a pass over all the partitions: the model is the in-memory one."""
    X, y = mixed_frame(300, seed=1, missing=0.1)
    ddf = dd.from_pandas(X.assign(cls=y), npartitions=4)
    m = fit_dask(NaiveBayes(numeric=numeric), ddf.drop(columns="cls"), ddf["cls"])
    full = NaiveBayes(numeric=numeric).fit(X, y)
    assert [c.to_dict() for c in m.components_] == [c.to_dict() for c in full.components_]  # the same cut points
    assert_same(full, m)


def test_count_models_fit_on_the_cluster(client):
    """Count models have merge too: a Dask fit equals one fit on all the rows."""
    from seminaive import BernoulliNaiveBayes, ComplementNaiveBayes, MultinomialNaiveBayes
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 3000)
    X = rng.poisson(rng.gamma(1.0, 1.0, (3, 8))[y])
    for model in (MultinomialNaiveBayes(alpha=0.5), BernoulliNaiveBayes(), ComplementNaiveBayes(alpha=0.5, norm=True)):
        m = fit_dask(model, da.from_array(X, chunks=(400, 8)), da.from_array(y, chunks=400))
        full = type(model)(**model.get_params()).fit(X, y)
        np.testing.assert_array_equal(m.feature_count_, full.feature_count_)
        np.testing.assert_allclose(m.predict_proba(X), full.predict_proba(X), rtol=1e-12)


def test_the_values_of_text_columns_are_found_without_a_shuffle(client):
    """Distinct values per partition, then together: no shuffle (Dask's ``unique`` set one up, and a
    344-row fit printed 18 distributed.shuffle warnings)."""
    X, y = mixed_frame(344, seed=2, missing=0.1)
    X["size"] = X["size"].astype(object)
    ddf = dd.from_pandas(X.assign(cls=y), npartitions=4)
    with get_task_stream(client) as stream:
        m = fit_dask(NaiveBayes(), ddf.drop(columns="cls"), ddf["cls"])
    names = {t["key"][0] if isinstance(t["key"], tuple) else str(t["key"]) for t in stream.data}
    assert stream.data and not [n for n in names if "shuffle" in n.lower() or "p2p" in n.lower()], sorted(names)
    assert m.schema_ == NaiveBayes().fit(X, y).schema_
