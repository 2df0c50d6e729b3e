"""Several discretizers, chosen by the selection: a selective kDB (and each ESKDB member) runs its
selection under each discretizer's intervals and keeps the one whose chosen candidate scores best
by leave-one-out. The score is what refitting the tables without each row gives (brute force); the
kept model is the one that discretizer gives alone; files give the in-memory choice; model files
keep it; a model that does not select refuses a list in one line."""

import json

import numpy as np
import pandas as pd
import pytest

from seminaive import ESKDB, TAN, SelectiveKDB
from seminaive.exceptions import ParameterError
from seminaive.persistence import model_from_dict, model_to_dict
from seminaive.scale import fit_file

from _chunked import chunked_sources
from test_dask import client  # noqa: F401  (the module's LocalCluster)

CANDIDATES = ("mdl_fallback", "resolution")


def _numeric(n=60, seed=0):
    """Two numeric attributes whose class boundary is finer than MDL's cuts, and a nominal one."""
    rng = np.random.default_rng(seed)
    a, b = rng.uniform(0, 10, n), rng.integers(0, 12, n).astype(float)
    y = np.where((np.floor(a) % 2 == 0) ^ (b > 6), "p", "q")
    flip = rng.random(n) < 0.1
    y = np.where(flip, np.where(y == "p", "q", "p"), y)
    X = pd.DataFrame({"a": a, "b": b, "c": pd.Categorical(rng.choice(list("uvw"), n))})
    return X, y


def _refit_score(m, X, y):
    """The leave-one-out RMSE of the kept candidate, refitting its tables (intervals and structure
    fixed) without each row."""
    from _scoring import refit_leave_one_out_jll, reference_score
    return reference_score(*refit_leave_one_out_jll(m, X, y, m.order_[:m.n_attributes_], m.k_), "rmse")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_choice_is_the_best_refit_score_and_the_kept_model_is_that_discretizers(seed):
    X, y = _numeric(seed=seed)
    both = SelectiveKDB(k=1, numeric=list(CANDIDATES), integer_codes="numbers").fit(X, y)
    alone = {name: SelectiveKDB(k=1, numeric=name, integer_codes="numbers").fit(X, y) for name in CANDIDATES}
    for name, m in alone.items():
        assert -m._selection_gain() == pytest.approx(_refit_score(m, X, y), rel=1e-9)
        assert both.numeric_scores_[name] == pytest.approx(m._selection_gain(), rel=1e-12)
    want = max(CANDIDATES, key=lambda name: (alone[name]._selection_gain(), -CANDIDATES.index(name)))
    assert both.numeric_ == want
    np.testing.assert_allclose(both.predict_proba(X), alone[want].predict_proba(X), rtol=1e-12)
    assert f"numeric attributes in intervals ({want})" in both.to_text()


def test_both_choices_occur():
    """The choice is not fixed: MDL's intervals on one data set, the resolution's on another."""
    chosen = {SelectiveKDB(k=1, numeric=list(CANDIDATES), integer_codes="numbers").fit(*_numeric(seed=s)).numeric_ for s in range(8)}
    from seminaive.datasets import load
    pima = load("keel:pima")
    chosen.add(SelectiveKDB(k=1, numeric=list(CANDIDATES), integer_codes="numbers").fit(pima).numeric_)
    assert chosen == set(CANDIDATES)


def _same_choice(a, b, X):
    assert a.numeric_ == b.numeric_ and a.numeric_scores_ == pytest.approx(b.numeric_scores_, rel=1e-12)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-10)


@pytest.mark.parametrize("seed", [3, 5])
def test_csv_parquet_and_dask_make_the_in_memory_choice(tmp_path, client, seed):  # noqa: F811
    """Chunks of a CSV file, of a Parquet file and a Dask frame's partitions give the in-memory choice
    and model (the seeds give one choice of each discretizer between them)."""
    from seminaive.data import load_file
    from seminaive.scale.dask import fit_dask
    csv, parquet, ddf = chunked_sources(tmp_path, *_numeric(n=120, seed=seed), row_group_size=30)
    d = load_file(str(csv))
    make = lambda: SelectiveKDB(k=2, numeric=list(CANDIDATES), integer_codes="numbers")  # noqa: E731
    memory = make().fit(d)
    _same_choice(fit_file(make(), str(csv), chunksize=25), memory, d.X)
    _same_choice(fit_file(make(), str(parquet), chunksize=25), memory, d.X)
    _same_choice(fit_dask(make(), ddf.drop(columns="cls"), ddf["cls"]), memory, d.X)


def test_the_two_seeds_of_the_file_test_choose_differently():
    assert {SelectiveKDB(k=2, numeric=list(CANDIDATES), integer_codes="numbers").fit(*_numeric(n=120, seed=s)).numeric_ for s in (3, 5)} \
        == set(CANDIDATES)


def test_ensemble_members_choose_and_model_files_keep_the_choice():
    X, y = _numeric(n=100, seed=4)
    m = ESKDB(n_estimators=3, k=1, numeric=["mdl_stochastic", "resolution_stochastic"], integer_codes="numbers").fit(X, y)
    assert all(e.numeric_ in ("mdl_stochastic", "resolution_stochastic") for e in m.estimators_)
    back = model_from_dict(json.loads(json.dumps(model_to_dict(m))))
    assert [e.numeric_ for e in back.estimators_] == [e.numeric_ for e in m.estimators_]
    np.testing.assert_array_equal(back.predict_proba(X), m.predict_proba(X))


def test_a_model_that_does_not_select_takes_one_discretizer():
    X, y = _numeric()
    with pytest.raises(ParameterError, match=r"numeric: TAN takes one discretizer; several \(mdl, resolution\)"):
        TAN(numeric=["mdl", "resolution"]).fit(X, y)
    with pytest.raises(ParameterError, match="numeric: expected one of .*or a list of distinct ones"):
        SelectiveKDB(numeric=["mdl", "mdl"]).fit(X, y)


def test_a_model_file_naming_another_discretizer_is_one_line():
    from seminaive.exceptions import DataFormatError
    X, y = _numeric()
    d = json.loads(json.dumps(model_to_dict(SelectiveKDB(k=1, numeric=list(CANDIDATES), integer_codes="numbers").fit(X, y))))
    d["state"]["selection"]["numeric"] = "equal_width"
    with pytest.raises(DataFormatError, match=r"state.selection.numeric: expected one of 'mdl_fallback', "
                                              r"'resolution' \(numeric\), got 'equal_width'"):
        model_from_dict(d)
