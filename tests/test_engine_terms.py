"""The engine's conditional terms and instance weights: a term given no parents scores as the
plain group; integer weights score as copies of the rows; the scores of a path are those of
the prior plus each term's out-of-sample contribution summed by hand."""

import numpy as np
import pytest

from seminaive.learning.engine import BaseAttribute, Engine, Given

from test_dask import client  # noqa: F401  (the module's LocalCluster)


def _data(seed, n=80):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    b = (a + rng.integers(0, 2, n)) % 3
    c = rng.integers(-1, 2, n)  # with missing values
    y = (a + b + rng.integers(0, 2, n)) % 2
    return [a, b, c], [3, 3, 2], y


def _engine(cols, widths, y, weight=None, fold=None, scoring="log_loss"):
    attrs = [BaseAttribute(str(i), c, m, gaussian=False) for i, (c, m) in enumerate(zip(cols, widths))]
    return Engine(attrs, y, 2, priors="laplace", fold=fold, scoring=scoring, weight=weight)


@pytest.mark.parametrize("scoring", ["log_loss", "accuracy", "rmse", "balanced_accuracy"])
def test_a_term_given_no_parents_scores_as_the_plain_group(scoring):
    cols, widths, y = _data(1)
    plain = _engine(cols, widths, y, scoring=scoring).score_paths([[(0,), (1,), (2,)]])[0]
    given = _engine(cols, widths, y, scoring=scoring).score_paths([[Given((j,), ()) for j in range(3)]])[0]
    np.testing.assert_allclose(given, plain, rtol=1e-12)


@pytest.mark.parametrize("fold", [None, "k-fold"])
@pytest.mark.parametrize("scoring", ["log_loss", "accuracy", "brier"])
def test_integer_weights_score_as_copies(fold, scoring):
    cols, widths, y = _data(2, n=40)
    w = np.random.default_rng(3).integers(0, 4, y.size)
    folds = np.arange(y.size) % 3 if fold else None
    path = [[Given((0,), ()), Given((1,), (0,)), Given((2,), (0, 1))]]
    weighted = _engine(cols, widths, y, w.astype(float), folds, scoring).score_paths(path)[0]
    rows = np.repeat(np.arange(y.size), w)
    copies = _engine([c[rows] for c in cols], widths, y[rows], None, None if fold is None else folds[rows],
                     scoring).score_paths(path)[0]
    # leave-one-out: each copy left out in turn; k-fold: a fold keeps a row's copies together
    np.testing.assert_allclose(weighted, copies, rtol=1e-12)


def test_a_path_is_the_prior_plus_each_terms_leave_one_out_table():
    cols, widths, y = _data(4)
    engine = _engine(cols, widths, y, scoring="log_loss")
    term = Given((1,), (0,))
    score = engine.score_paths([[term]])[0][1]
    counts = np.zeros((2, 4, 3))  # (K, parent slots with the missing one, child values), by hand
    for a, b, c in zip(cols[0], cols[1], y):
        counts[c, a, b] += 1
    class_counts = np.bincount(y, minlength=2).astype(float)
    prior = np.log((class_counts[None, :] - np.eye(2)[y] + 1) / (y.size - 1 + 2))
    own = np.eye(2)[y]  # the row's own count, taken out of its class
    S = prior + np.log((counts[:, cols[0], cols[1]].T - own + 1) / (counts.sum(axis=2)[:, cols[0]].T - own + 3))
    log_p = S - np.logaddexp.reduce(S, axis=1, keepdims=True)
    assert score == pytest.approx(-log_p[np.arange(y.size), y].mean(), rel=1e-12)


@pytest.mark.parametrize("hashed", [False, True], ids=["binary search", "hash look-up"])
@pytest.mark.parametrize("fold", [None, "k-fold"])
@pytest.mark.parametrize("m_estimate", [False, True])
def test_a_term_of_many_parent_values_counts_those_met_with_the_same_scores(monkeypatch, fold, m_estimate, hashed):
    """Above SPARSE_ABOVE parent values a term counts only the values and cells met (a pass finds
    them); its scores (compiled under leave-one-out, from the tables spread back under k-fold), and
    its counts spread back, are those of the dense table. The m-estimate's pseudo-counts read the
    counts of the rows with a parent missing too. The rows' cells and slots are found by binary search
    or by hashing (``HASHED_KEYS``) alike."""
    import seminaive.learning.engine as engine_module
    from seminaive.estimation import MEstimate
    monkeypatch.setattr("seminaive.core.sparse_terms.HASHED_KEYS", 1 if hashed else 10 ** 9)
    rng = np.random.default_rng(5)
    n = 300
    cols = [rng.integers(0, 9, n), rng.integers(-1, 9, n), rng.integers(0, 9, n), rng.integers(0, 4, n)]
    widths = [9, 9, 9, 4]
    y = (cols[0] + cols[3] + rng.integers(0, 2, n)) % 3
    folds = np.arange(n) % 4 if fold else None
    path = [[Given((3,), ()), Given((2,), (3,)), Given((1,), (3, 2)), Given((0,), (3, 2, 1))]]

    def run(limit):
        monkeypatch.setattr(engine_module, "SPARSE_ABOVE", limit)
        attrs = [BaseAttribute(str(i), c, m, gaussian=False) for i, (c, m) in enumerate(zip(cols, widths))]
        e = Engine(attrs, y, 3, MEstimate(m=2) if m_estimate else None, priors="laplace", fold=folds,
                   scoring="log_loss")
        return e, e.score_paths(path)[0]

    dense, dense_scores = run(10 ** 9)
    sparse, sparse_scores = run(30)
    assert set(sparse.parent_index) == {path[0][2], path[0][3]} and not dense.parent_index
    term = path[0][3]  # counted over the cells met: at most one per row whose child is present
    assert sparse.stats[term].shape == ((4 if fold else 1), 3, sparse.cells[term].size)
    assert sparse.cells[term].size <= np.count_nonzero(cols[0] >= 0) < 9 * 9 * 9 * 9
    np.testing.assert_allclose(sparse_scores, dense_scores, rtol=1e-12)
    for term in path[0]:
        np.testing.assert_array_equal(sparse.dense_counts(term), dense.stats[term])


def test_selective_kdb_with_sparse_terms_is_the_same_from_files_and_dask(monkeypatch, tmp_path, client):  # noqa: F811
    """The pass that finds the parent values met runs over any source: selective kDB (k = 3) whose terms
    count sparsely, fitted from a file in chunks and from Dask partitions, equals the dense fit in memory."""
    import dask.dataframe as dd
    import pandas as pd
    import seminaive.learning.engine as engine_module
    from seminaive import SelectiveKDB
    from seminaive.data import load_file
    from seminaive.scale import fit_file
    from seminaive.scale.dask import fit_dask
    rng = np.random.default_rng(8)
    n = 400
    cols = {f"a{i}": rng.integers(0, 7, n).astype(str) for i in range(5)}
    cls = np.where(((cols["a0"].astype(int) + cols["a1"].astype(int)) % 3 == 0) ^ (rng.random(n) < 0.1), "p", "q")
    frame = pd.DataFrame(cols).assign(cls=cls)
    frame = frame.iloc[np.argsort(frame["cls"] != "p", kind="stable")]  # classes met in sorted order
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    data = load_file(str(path))
    monkeypatch.setattr(engine_module, "SPARSE_ABOVE", 10 ** 9)
    dense = SelectiveKDB(k=3).fit(data.X, data.y)
    monkeypatch.setattr(engine_module, "SPARSE_ABOVE", 5)  # every term with a parent counts sparsely
    parts = dd.from_pandas(data.X.assign(cls=np.asarray(data.y)), npartitions=3)  # columns as the file has them
    for fitted in (fit_file(SelectiveKDB(k=3), str(path), chunksize=61),
                   fit_dask(SelectiveKDB(k=3), parts.drop(columns="cls"), parts["cls"])):
        assert fitted.structure_ == dense.structure_
        assert [(h["attributes"], h["k"]) for h in fitted.history_] == [(h["attributes"], h["k"])
                                                                          for h in dense.history_]
        np.testing.assert_allclose([h["score"] for h in fitted.history_], [h["score"] for h in dense.history_],
                                   rtol=1e-12)
        np.testing.assert_allclose(fitted.predict_proba(data.X), dense.predict_proba(data.X), rtol=1e-12)
    assert dense.k_ >= 1  # the chosen structure's tables counted sparsely, then spread back


@pytest.mark.parametrize("seed", range(20))
def test_positions_are_the_binary_searchs(seed):
    """The hashed look-up of keys among sorted distinct values gives ``np.searchsorted``'s positions,
    keys absent (below, between, above the values) and repeated included."""
    from seminaive.core.sparse_terms import positions
    rng = np.random.default_rng(seed)
    values = np.unique(rng.integers(0, int(rng.integers(2, 5000)), int(rng.integers(1, 3000))))
    keys = rng.integers(-5, values.max() + 6, int(rng.integers(1000, 6000)))
    keys[: keys.size // 2] = rng.choice(values, keys.size // 2)  # half of them among the values
    np.testing.assert_array_equal(positions(values, keys), np.searchsorted(values, keys))
