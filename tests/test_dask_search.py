"""Wrapper searches on a real distributed LocalCluster equal in-memory searches, step by step."""

import numpy as np
import pandas as pd
import pytest

import dask.dataframe as dd
from distributed import get_task_stream

from seminaive import ParameterError
from seminaive.core.folds import stratified_folds
from seminaive.search import BSE, BSEJ, BSJ, FSSJ, search_dask

from test_dask import client  # noqa: F401  (the module's LocalCluster)
from test_search import random_mixed


def in_memory(method, kw, X, y, scoring, k):
    folds = stratified_folds(y, k, kw["random_state"])
    cv = [(np.flatnonzero(folds != f), np.flatnonzero(folds == f)) for f in range(k)]
    return method(**{**kw, "cv": cv if scoring == "cv" else None}).fit(X, y)


def steps(search):
    return [(h["operator"], h["attributes"], h["score"]) for h in search.history_]


@pytest.mark.parametrize("method", [BSE, BSJ, BSEJ, FSSJ])
@pytest.mark.parametrize("scoring", ["loo", "cv"])
def test_dask_search_equals_in_memory(client, method, scoring):  # noqa: F811
    X, y = random_mixed(n=150, seed=5)
    ddf = dd.from_pandas(X.assign(cls=y), npartitions=4)
    kw = dict(cv=(5 if scoring == "cv" else None), var_smoothing=0.0, n_bins=4, random_state=2)
    with get_task_stream(client) as stream:
        dist = search_dask(method(**kw), ddf.drop(columns="cls"), ddf["cls"])
    workers = set(client.scheduler_info()["workers"])
    assert {t["worker"] for t in stream.data} <= workers and len(stream.data) >= 4  # ran on the cluster
    memory = in_memory(method, kw, X, y, scoring, 5)
    assert steps(dist) == steps(memory)
    assert dist.structure_ == memory.structure_
    assert dist.n_candidates_ == memory.n_candidates_
    np.testing.assert_allclose(dist.predict_proba(X), memory.predict_proba(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("rule", ["log_loss", "balanced_accuracy"])
def test_dask_search_by_a_scoring_rule_equals_in_memory(client, rule):  # noqa: F811
    X, y = random_mixed(n=150, seed=8)
    ddf = dd.from_pandas(X.assign(cls=y), npartitions=4)
    kw = dict(cv=5, scoring=rule, var_smoothing=0.0, n_bins=4, random_state=2)
    dist = search_dask(BSEJ(**kw), ddf.drop(columns="cls"), ddf["cls"])
    memory = in_memory(BSEJ, kw, X, y, "cv", 5)
    assert [s[:2] for s in steps(dist)] == [s[:2] for s in steps(memory)]
    np.testing.assert_allclose([s[2] for s in steps(dist)], [s[2] for s in steps(memory)], rtol=1e-12)


def test_dask_search_joins_xor(client):  # noqa: F811
    rng = np.random.default_rng(7)
    n = 240
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    X = pd.DataFrame({"a": a.astype(str), "b": b.astype(str), "n1": rng.integers(0, 3, n).astype(str),
                      "x": rng.normal(a ^ b, 2.0, n)})
    y = pd.Series(np.where(a ^ b, "odd", "even"), name="cls")
    ddf = dd.from_pandas(X.assign(cls=y), npartitions=3)
    kw = dict(cv=4, var_smoothing=0.0, random_state=1)
    dist = search_dask(BSEJ(**kw), ddf.drop(columns="cls"), ddf["cls"])
    memory = in_memory(BSEJ, kw, X, y, "cv", 4)
    assert any(h["operator"] == "join" for h in dist.history_)
    assert steps(dist) == steps(memory)
    np.testing.assert_allclose(dist.predict_proba(X), memory.predict_proba(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("discretizer", ["equal_frequency", "mdl", "mdl_stochastic", "1r", "resolution"])
@pytest.mark.parametrize("numeric", ["gaussian", "discretize"])
def test_every_discretizer_searches_from_partitions_and_files_as_in_memory(client, tmp_path, discretizer,
                                                                          numeric):  # noqa: F811
    """The cuts from the values met by class in one pass (the one cut learner, attribute_cuts) are the
    cuts in memory: the same steps, structure and probabilities from Dask partitions and a file's chunks."""
    from seminaive.search import search_file
    X, y = random_mixed(n=160, seed=11)
    X["b"] = "b" + X["b"]  # text in a file too (a column of 0 and 1 would read as numbers there)
    kw = dict(discretizer=discretizer, numeric=numeric, n_bins=4, random_state=3)
    memory = BSEJ(**kw).fit(X, y)
    ddf = dd.from_pandas(X.assign(cls=y), npartitions=3)
    X.assign(cls=y).to_csv(tmp_path / "d.csv", index=False)
    for got in (search_dask(BSEJ(**kw), ddf.drop(columns="cls"), ddf["cls"]),
                search_file(BSEJ(**kw), tmp_path / "d.csv", chunksize=37)):
        assert steps(got) == steps(memory)
        assert {j: c.tolist() for j, c in got.cuts_.items()} == {j: c.tolist() for j, c in memory.cuts_.items()}
        np.testing.assert_allclose(got.predict_proba(X), memory.predict_proba(X), rtol=1e-9, atol=1e-12)


def test_dask_search_refuses_what_it_cannot_honour(client):  # noqa: F811
    X, y = random_mixed(n=40, seed=1)
    ddf = dd.from_pandas(X.assign(cls=y), npartitions=2)
    with pytest.raises(ParameterError, match="dask DataFrame"):
        search_dask(BSE(), X, y)
