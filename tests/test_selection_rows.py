"""A selection scored on a sample of the rows (``selection_rows``): the candidates' scores are the
leave-one-out scores of kDBs refitted on the rows whose positions the seed draws, the chosen structure's
tables are counted from every row, and every source (memory, chunks, files, Parquet, Dask, DuckDB)
draws the same rows, so gives the same model; ESKDB's members each draw their own."""

import numpy as np
import pandas as pd
import pytest

from seminaive import ESKDB, SelectiveKDB
from seminaive.bayesnet.weight_rows import position_keys
from seminaive.learning.data_source import MemorySource
from seminaive.scale import fit_file
from seminaive.scale.fit_source import fit_source


def _nominal(n, seed):
    """Three nominal attributes, the second following the first within each class, the third noise."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])
    x0 = np.where(rng.random(n) < 0.6, np.where(y == "a", "u", "v"), rng.choice(["u", "v", "w"], n))
    x1 = np.where(rng.random(n) < 0.7, np.char.add(x0, np.where(y == "b", "1", "2")), rng.choice(["u1", "v2"], n))
    x2 = rng.choice(["s", "t"], n)
    return pd.DataFrame({"x0": x0, "x1": x1, "x2": x2}), y


def _mixed(n, seed):
    """Nominal and numeric attributes, with missing values."""
    X, y = _nominal(n, seed)
    rng = np.random.default_rng(seed + 100)
    shift = (y == "a") * 1.0 - (y == "c") * 0.8
    X["n0"] = np.round(rng.normal(shift, 1.0, n), 3)
    X["n1"] = np.round(X["n0"] * 0.5 + rng.normal(-shift, 1.0, n), 3)
    X = X.mask(rng.random(X.shape) < 0.05)
    return X, y


def _loo_kdb(codes, y, widths, K, attributes, parents, alpha=1.0):
    """Leave-one-out posteriors of the kDB of ``attributes`` (each given the class and its ``parents``),
    every row's tables refitted without it: Lidstone estimates, the class prior Laplace's."""
    n = y.size
    out = np.empty((n, K))
    for i in range(n):
        keep = np.arange(n) != i
        yk = y[keep]
        log = np.log((np.bincount(yk, minlength=K) + 1.0) / (yk.size + K))
        for a in attributes:
            match = keep & (codes[a] == codes[a][i])
            same = keep.copy()
            for p in parents[a]:
                match &= codes[p] == codes[p][i]
                same &= codes[p] == codes[p][i]
            log = log + np.log((np.bincount(y[match], minlength=K) + alpha) /
                               (np.bincount(y[same], minlength=K) + alpha * widths[a]))
        out[i] = np.exp(log - log.max()) / np.exp(log - log.max()).sum()
    return out


def test_the_candidates_are_scored_by_refits_on_the_drawn_rows_and_the_tables_count_every_row():
    X, y = _nominal(400, 0)
    model = SelectiveKDB(k=1, selection_rows=60).fit(X, y)
    table = model._encode(X)
    codes = [np.asarray(r.codes(table)) for r in model.readers_]
    widths = [r.n_values for r in model.readers_]
    yc = np.searchsorted(model.classes_, y)
    K = len(model.classes_)
    drawn = np.flatnonzero(position_keys(0, len(y), model.random_state) < 60 / 400)
    assert 30 < drawn.size < 90
    for h in model.history_:  # every candidate: its leave-one-out RMSE on the drawn rows, refitted row by row
        order = model.order_[:h["attributes"]]
        parents = {a: model._full_parents[a][:h["k"]] for a in order}
        p = _loo_kdb([c[drawn] for c in codes], yc[drawn], widths, K, order, parents)
        rmse = np.sqrt(np.mean(np.sum((p - np.eye(K)[yc[drawn]]) ** 2, axis=1) / K))
        assert h["score"] == pytest.approx(rmse, rel=1e-12, abs=1e-14), h
    assert model.class_count_.sum() == len(y)  # the tables: every row
    chosen = [g[0] for g in model.structure_.groups]
    for a, st in zip(chosen, model.stats_):
        cfg = np.zeros(len(y), dtype=np.int64)
        for p in model.structure_.parents_of(chosen.index(a)):
            cfg = cfg * widths[p] + codes[p]
        counts = np.zeros(st["counts"].shape)
        np.add.at(counts, (yc, cfg, codes[a]), 1.0)
        np.testing.assert_array_equal(st["counts"], counts)
    every = SelectiveKDB(k=1, selection_rows=None).fit(X, y)
    assert [h["score"] for h in every.history_] != [h["score"] for h in model.history_]  # (the draw matters)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("options", [dict(k=2), dict(k=2, hybrid="gaussian"),
                                     dict(k=3, numeric=["mdl", "equal_frequency"])], ids=["plain", "hybrid", "two"])
def test_every_source_draws_the_same_rows(tmp_path, seed, options):
    import dask.dataframe as dd
    X, y = _mixed(300, seed)
    frame = X.assign(cls=y)
    csv, parquet = tmp_path / "d.csv", tmp_path / "d.parquet"
    frame.to_csv(csv, index=False)
    frame.to_parquet(parquet, row_group_size=70)
    make = lambda: SelectiveKDB(selection_rows=50, **options)  # noqa: E731  (a sixth of the rows)
    ref = make().fit(pd.read_csv(csv).drop(columns="cls"), y)
    fits = {"csv": fit_file(make(), str(csv), chunksize=37), "parquet": fit_file(make(), str(parquet), chunksize=41),
            "chunks": fit_source(make(), MemorySource(pd.read_csv(csv).drop(columns="cls"), y, chunksize=23))}
    from seminaive.scale.dask import fit_dask
    ddf = dd.from_pandas(pd.read_csv(csv), npartitions=4)
    fits["dask"] = fit_dask(make(), ddf.drop(columns="cls"), ddf["cls"])
    duckdb = pytest.importorskip("duckdb")
    from seminaive.scale.duckdb import fit_duckdb
    fits["duckdb"] = fit_duckdb(make(), duckdb.connect().read_csv(str(csv)), target="cls", chunksize=29)
    Xr = pd.read_csv(csv).drop(columns="cls")
    for name, m in fits.items():
        assert (m.n_attributes_, m.k_, m.structure_) == (ref.n_attributes_, ref.k_, ref.structure_), name
        np.testing.assert_allclose([h["score"] for h in m.history_], [h["score"] for h in ref.history_],
                                   rtol=1e-12, atol=0, err_msg=name)
        np.testing.assert_allclose(m.predict_proba(Xr), ref.predict_proba(Xr), rtol=0, atol=1e-12, err_msg=name)


def test_units_and_value_order_do_not_change_the_draw():
    X, y = _mixed(300, 4)
    ref = SelectiveKDB(k=2, selection_rows=50).fit(X, y)
    other = X.assign(n0=X["n0"] * 1000.0, n1=X["n1"] / 8.0)
    other["x0"] = pd.Categorical(other["x0"], categories=["w", "v", "u"])
    got = SelectiveKDB(k=2, selection_rows=50).fit(other, y)
    assert got.history_ == ref.history_
    np.testing.assert_allclose(got.predict_proba(other), ref.predict_proba(X), rtol=0, atol=1e-12)


def test_below_the_limit_every_row_is_scored():
    X, y = _mixed(300, 5)
    a, b = SelectiveKDB(k=2, selection_rows=300).fit(X, y), SelectiveKDB(k=2, selection_rows=None).fit(X, y)
    assert a.history_ == b.history_
    folds = SelectiveKDB(k=2, selection_rows=10, cv=3).fit(X, y)  # k-fold: its folds cover every row
    assert folds.history_ == SelectiveKDB(k=2, selection_rows=None, cv=3).fit(X, y).history_


def test_eskdb_members_draw_their_own_rows_and_files_give_the_in_memory_ensemble(tmp_path):
    X, y = _mixed(300, 6)
    path = tmp_path / "d.csv"
    X.assign(cls=y).to_csv(path, index=False)
    Xr = pd.read_csv(path).drop(columns="cls")
    model = ESKDB(n_estimators=3, k=2, selection_rows=60).fit(Xr, y)
    alone = [model._member(i).fit(Xr, y) for i in range(3)]
    assert all(m.selection_rows == 60 for m in alone)
    np.testing.assert_allclose(model.predict_proba(Xr), np.mean([m.predict_proba(Xr) for m in alone], axis=0),
                               rtol=0, atol=1e-15)
    draws = [set(np.flatnonzero(position_keys(0, 300, m.random_state) < 0.2)) for m in alone]
    assert draws[0] != draws[1] != draws[2]
    got = fit_file(ESKDB(n_estimators=3, k=2, selection_rows=60), str(path), chunksize=47)
    np.testing.assert_allclose(got.predict_proba(Xr), model.predict_proba(Xr), rtol=0, atol=1e-12)


def test_selection_rows_is_checked():
    from seminaive.exceptions import ParameterError
    X, y = _nominal(50, 0)
    with pytest.raises(ParameterError, match="selection_rows"):
        SelectiveKDB(selection_rows=0).fit(X, y)
    with pytest.raises(ParameterError, match="selection_rows"):
        ESKDB(n_estimators=2, selection_rows=2.5).fit(X, y)


def _second_selection():
    from seminaive.bayesnet.selection_sample import on_the_selection_thread
    return on_the_selection_thread(lambda: 2)


def test_a_forked_child_starts_its_own_selection_thread():
    """The selection thread does not survive a fork: a child forked after one ran starts its own (none would
    run the child's selections otherwise, and it would wait for ever)."""
    import multiprocessing
    from seminaive.bayesnet.selection_sample import on_the_selection_thread
    assert on_the_selection_thread(lambda: 1) == 1
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_second_selection).get(timeout=120) == 2


def test_a_model_selected_on_drawn_rows_is_saved_and_loaded_whole():
    from seminaive.persistence import model_from_dict, model_to_dict
    X, y = _mixed(300, 1)
    for model in (SelectiveKDB(k=2, selection_rows=50, hybrid="gaussian").fit(X, y),
                  ESKDB(n_estimators=3, k=2, selection_rows=50).fit(X, y)):
        back = model_from_dict(model_to_dict(model))
        assert back.selection_rows == 50
        np.testing.assert_array_equal(back.predict_proba(X), model.predict_proba(X))
