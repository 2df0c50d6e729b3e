"""The same data with each nominal attribute's values in another order give the same model: every
registered model and every family estimation, through pandas categoricals, pyarrow dictionaries,
``Codes``, a CSV file (values in the order first seen) and Dask, to 1e-12.

Smoothing along parents (HGS, HDP, HLS) optimizes or samples over a table's values in order; it
takes them in an order of their counts (:func:`seminaive.estimation._tree.canonical_orders`), so
that the order they came in cannot change the tables (HGS gave 0.107 apart on splice before)."""

import warnings

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from seminaive import ESKDB, KDB, TAN
from seminaive.bayesnet.base import ESTIMATION_NAMES
from seminaive.data import Codes, load_file
from seminaive.models import make_model, model_names
from seminaive.scale.dask import fit_dask

NOMINAL = ("a", "b", "c", "d")


def generate(seed, n=300):
    """Four nominal attributes (3 to 6 values, interacting) and one numeric; three classes."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 5, n), rng.integers(0, 4, n)
    c = (a + b + rng.integers(0, 2, n)) % 6
    d = np.where(rng.random(n) < 0.7, (a * b) % 3, rng.integers(0, 3, n))
    y = np.where((a + d) % 3 == 0, "p", np.where(b > 1, "q", "r"))
    flip = rng.random(n) < 0.15
    y[flip] = rng.choice(["p", "q", "r"], flip.sum())
    frame = pd.DataFrame({"a": np.array(list("abcde"), dtype=object)[a], "b": np.array(["w", "x", "y", "z"],
                          dtype=object)[b], "c": np.array(["c0", "c1", "c2", "c3", "c4", "c5"], dtype=object)[c],
                          "d": np.array(["u", "v", "t"], dtype=object)[d], "x": np.round(rng.normal(a - b, 1.0), 3)})
    frame.loc[rng.random(n) < 0.05, "b"] = np.nan
    return frame, y


def _ordered(frame, seed):
    """The frame with every nominal column a categorical of its values in a shuffled order (None:
    sorted)."""
    rng = np.random.default_rng(seed)
    out = frame.copy()
    for col in NOMINAL:
        values = sorted(frame[col].dropna().unique())
        if seed is not None:
            values = list(rng.permutation(values))
        out[col] = pd.Categorical(frame[col], categories=values)
    return out


def _codes(frame):
    """The frame's nominal columns as ``Codes`` through Arrow dictionaries (the categoricals' order)."""
    table = pa.Table.from_pandas(frame[list(NOMINAL)], preserve_index=False)
    return Codes.from_arrow(table)


def _proba(model, X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.predict_proba(X)


def _small(spec):
    return {"eskdb": "eskdb:n_estimators=3:hdp_iterations=10"}.get(spec, spec)


FAMILY = [lambda e=e: KDB(k=2, estimation=e, hdp_iterations=20) for e in ESTIMATION_NAMES] + \
    [lambda e=e: ESKDB(n_estimators=3, k=2, estimation=e, hdp_iterations=20) for e in ESTIMATION_NAMES] + \
    [lambda: KDB(k=3, estimation="hgs", hdp_tying="none"), lambda: TAN(estimation="hls")]


@pytest.mark.parametrize("make", FAMILY, ids=[f"kdb-{e}" for e in ESTIMATION_NAMES] +
                         [f"eskdb-{e}" for e in ESTIMATION_NAMES] + ["kdb3-hgs-untied", "tan-hls"])
def test_every_family_estimation_is_blind_to_the_order_of_values(make, tmp_path):
    frame, y = generate(0)
    reference = make().fit(_ordered(frame, None), y)
    expected = _proba(reference, _ordered(frame, None))
    for seed in (1, 2):
        shuffled = _ordered(frame, seed)
        np.testing.assert_allclose(_proba(make().fit(shuffled, y), shuffled), expected, rtol=1e-12, atol=1e-12)
    frame.assign(cls=y).to_csv(tmp_path / "d.csv", index=False, na_rep="?")  # values in the order first seen
    got = make().fit(load_file(tmp_path / "d.csv", target="cls"))
    np.testing.assert_allclose(_proba(got, frame), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(set(model_names("model")) - {"bernoulli", "multinomial", "complement"}))
def test_every_registered_model_is_blind_to_the_order_of_values(name):
    """Nominal attributes only (``Codes`` and Arrow dictionaries carry no numbers), in memory, as
    ``Codes`` and on Dask."""
    frame, y = generate(1)
    frame = frame[list(NOMINAL)]
    options = {"min_rates": {"p": 0.6}} if name == "cnb" else {}
    make = lambda: make_model(_small(name), **options)  # noqa: E731
    # discriminative weights are L-BFGS's minimum: its steps sum the gradient over the cells in their order,
    # so a permutation moves them by rounding within its stopping rule (seen: 6e-12), not by a choice
    tol = 1e-9 if make().get_params().get("discriminative") else 1e-12
    expected = _proba(make().fit(_ordered(frame, None), y), _ordered(frame, None))
    shuffled = _ordered(frame, 3)
    np.testing.assert_allclose(_proba(make().fit(shuffled, y), shuffled), expected, rtol=tol, atol=tol)
    np.testing.assert_allclose(_proba(make().fit(_codes(shuffled), y), frame), expected, rtol=tol, atol=tol)
    ddf = dd.from_pandas(shuffled.assign(cls=y), npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        try:
            on_dask = fit_dask(make(), ddf.drop(columns="cls"), ddf["cls"])
        except Exception as e:  # a model that cannot learn in passes refuses in one line
            assert "\n" not in str(e)
            return
    np.testing.assert_allclose(_proba(on_dask, frame), expected, rtol=tol, atol=tol)


def test_canonical_orders_see_through_any_permutation_of_the_axes():
    from seminaive.estimation._tree import canonical_orders
    rng = np.random.default_rng(4)
    for _ in range(20):
        a = rng.poisson(1.0, size=(3, 4, 5, 3)) * (rng.random((3, 4, 5, 3)) < 0.6)
        perms = [np.arange(3)] + [rng.permutation(n) for n in (4, 5, 3)]
        b = a[np.ix_(*perms)]
        oa, ob = canonical_orders(a, (1, 2, 3)), canonical_orders(b, (1, 2, 3))
        assert np.array_equal(a[np.ix_(*oa)], b[np.ix_(*ob)])


def _on_dask(model, frame, y):
    ddf = dd.from_pandas(frame.assign(cls=y), npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        try:
            return fit_dask(model, ddf.drop(columns="cls"), ddf["cls"])
        except Exception as e:  # a model that cannot learn in passes refuses in one line: then in memory
            assert "\n" not in str(e)
            return model.fit(frame, y)


@pytest.mark.parametrize("name", ["nb", "tan", "kdb", "skdb", "aode", "a2de", "eskdb", "1r", "wanbia"])
def test_a_declared_level_no_row_holds_counts_alike_on_every_route_that_declares_it(name, tmp_path):
    """A level declared but held by no row counts (as Weka counts an ARFF file's declared values: Laplace
    over every value), on every route that carries the declaration: pandas categoricals, polars Enums,
    pyarrow dictionaries, Parquet, ``Codes`` and Dask, each with the values in another order. A route that
    drops the declaration (polars' Categorical keeps only the values it holds) is the same data without
    the level, and gives what pandas gives without it."""
    import polars as pl
    frame, y = generate(2)
    frame = frame[list(NOMINAL)]
    declared = _ordered(frame, 5)
    for col in ("a", "c"):  # a level no row holds, among the others
        declared[col] = declared[col].cat.add_categories([f"unused-{col}"]).cat.reorder_categories(
            [f"unused-{col}", *declared[col].cat.categories])
    make = lambda: make_model(_small(name))  # noqa: E731
    expected = _proba(make().fit(declared, y), frame)
    enum = pl.DataFrame({c: pl.Series(declared[c].astype(object).where(declared[c].notna(), None).tolist(),
                                      dtype=pl.Enum(list(declared[c].cat.categories))) for c in NOMINAL})
    declared.assign(cls=y).to_parquet(tmp_path / "d.parquet")
    routes = {"polars Enum": lambda m: m.fit(enum, y),
              "pyarrow": lambda m: m.fit(pa.Table.from_pandas(declared, preserve_index=False), y),
              "Codes": lambda m: m.fit(_codes(declared), y),
              "Parquet": lambda m: m.fit(load_file(tmp_path / "d.parquet", target="cls")),
              "Dask": lambda m: _on_dask(m, declared, y)}
    for route, fit in routes.items():
        np.testing.assert_allclose(_proba(fit(make()), frame), expected, rtol=1e-12, atol=1e-12, err_msg=route)
    dropped = pl.from_pandas(declared)  # polars' Categorical: the unused levels are gone
    without = declared.apply(lambda c: c.cat.remove_unused_categories())
    np.testing.assert_allclose(_proba(make().fit(dropped, y), frame), _proba(make().fit(without, y), frame),
                               rtol=1e-12, atol=1e-12)
