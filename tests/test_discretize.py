"""Discretizers: hand-worked cut points and the rules every discretizer keeps."""

import numpy as np
import pytest

from seminaive import NaiveBayes
from seminaive.discretize import (EqualFrequencyDiscretizer, EqualWidthDiscretizer, MDLDiscretizer,
                                  OneRDiscretizer, interval_labels)
from seminaive.discretize.mdl import boundary_scores

from _mdl_reference import boundary_entropies, class_entropy, mdl_cuts

AGES = np.array([0, 5, 6, 10, 17, 19, 23, 27, 30, 31, 32, 35, 39.0])


def test_equal_width_ages_example_4_1():
    """Five intervals over [0, 39]: the project's [0,7], [8,15], [16,23], [24,31], [32,39]."""
    d = EqualWidthDiscretizer(n_bins=5).fit(AGES[:, None])
    codes = d.transform(AGES[:, None])[:, 0]
    groups = [AGES[codes == k].tolist() for k in range(5)]
    assert groups == [[0, 5, 6], [10], [17, 19, 23], [27, 30, 31], [32, 35, 39]]
    assert d.intervals(0)[0] == "<= 7.8" and d.intervals(0)[-1] == "> 31.2"


def test_equal_frequency_balances_counts():
    x = np.random.default_rng(0).exponential(size=1000)[:, None]
    codes = EqualFrequencyDiscretizer(n_bins=4).fit_transform(x)[:, 0]
    assert np.bincount(codes.astype(int)).tolist() == [250, 250, 250, 250]


def test_equal_frequency_never_splits_ties():
    x = np.array([1, 1, 1, 1, 1, 1, 2, 3, 4, 5.0])[:, None]
    cuts = EqualFrequencyDiscretizer(n_bins=5).fit(x).cut_points_[0]
    assert 1.0 not in cuts and cuts[0] == 1.5 and (np.diff(cuts) > 0).all()


def test_mdl_hand_worked():
    """x = 1..8, classes 0,0,0,0,1,1,1,1: the split at 4.5 gains 1 bit; the MDL
    threshold is (log2 7 + log2 7 - 2) / 8 = 0.4518, so it is kept, and the pure
    halves split no further. Classes 0,1,0,1 on 1..4: no split pays."""
    x = np.arange(1.0, 9.0)[:, None]
    assert MDLDiscretizer().fit(x, [0, 0, 0, 0, 1, 1, 1, 1]).cut_points_[0].tolist() == [4.5]
    assert (np.log2(7) + np.log2(7) - 2) / 8 == pytest.approx(0.4518, abs=1e-4)
    assert MDLDiscretizer().fit(x[:4], [0, 1, 0, 1]).cut_points_[0].tolist() == []
    assert class_entropy([2, 2]) == pytest.approx(1.0)


def test_mdl_cut_points_equal_the_direct_formula():
    """The compiled split search gives the cut points of Fayyad and Irani's rule written directly
    (every boundary's entropy in numpy arrays, per split) on columns with ties, 2 to 26 classes and
    class signal of every strength, and its entropies equal the formula's."""
    rng = np.random.default_rng(7)
    cut_columns = 0
    for _ in range(150):
        n, k = int(rng.integers(2, 600)), int(rng.integers(2, 27))
        x = np.round(rng.normal(size=n) * rng.choice([1.0, 4.0, 20.0]), int(rng.integers(0, 3)))
        y = ((x * rng.random() * 3 + rng.normal(size=n)) * k / 6).astype(int) % k
        y[0] = k - 1  # k classes
        got = MDLDiscretizer().fit(x[:, None], y).cut_points_[0].tolist()
        assert got == mdl_cuts(x, y)
        cut_columns += bool(got)
        _, starts = np.unique(np.sort(x), return_index=True)
        counts = np.add.reduceat(np.eye(k)[y[np.argsort(x, kind="stable")]], starts, axis=0)
        if counts.shape[0] > 1:
            np.testing.assert_allclose(boundary_scores(counts)[0], boundary_entropies(counts), rtol=1e-13, atol=1e-15)
    assert 30 < cut_columns < 150  # columns with cuts and without


def test_mdl_three_groups():
    x = np.arange(30.0)[:, None]
    y = [0] * 10 + [1] * 10 + [2] * 10
    assert MDLDiscretizer().fit(x, y).cut_points_[0].tolist() == [9.5, 19.5]


@pytest.mark.parametrize("disc", [EqualWidthDiscretizer(4), EqualFrequencyDiscretizer(4), MDLDiscretizer(),
                                  OneRDiscretizer(3)])
def test_learned_on_training_only_and_missing_stays_missing(disc):
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.normal(0, 1, 60), rng.normal(4, 1, 60)])[:, None]
    y = np.repeat([0, 1], 60)
    disc.fit(x, y)
    n_int = len(disc.cut_points_[0]) + 1
    out = disc.transform(np.array([[-100.0], [100.0], [np.nan]]))[:, 0]
    assert out[0] == 0 and out[1] == n_int - 1 and np.isnan(out[2])
    assert len(disc.intervals(0)) == n_int


def test_interval_labels():
    assert interval_labels([]) == ["all"]


@pytest.mark.parametrize("numeric", ["equal_width", "equal_frequency", "mdl", "1r"])
def test_naive_bayes_prints_intervals(weather_numeric, numeric):
    nb = NaiveBayes(numeric=numeric, n_bins=3, min_bucket=3).fit(weather_numeric)
    text = nb.to_text()
    assert "temperature (numeric, " in text and "intervals" in text
    cuts = nb.components_[1].cuts
    assert text.count("<= ") >= (1 if cuts.size else 0)


def _rows_and_table(rng, n, classes, spread):
    """Rows with ties and missing values, and the same rows summed as (distinct value, class, count)."""
    x = np.round(rng.normal(size=n) * spread) / 4
    y = rng.integers(0, classes, n)
    x[rng.random(n) < 0.05] = np.nan
    shifted = x + (y == 1) * 0.5  # classes apart a little: MDL has cuts to find
    keep = ~np.isnan(shifted)
    pairs, counts = np.unique(np.column_stack([shifted[keep], y[keep]]), axis=0, return_counts=True)
    return shifted, y, pairs[:, 0], pairs[:, 1].astype(np.int64), counts.astype(np.float64)


@pytest.mark.parametrize("name", ["mdl", "mdl_fallback", "mdl_stochastic", "resolution", "resolution_stochastic",
                                  "equal_frequency", "equal_width", "1r"])
@pytest.mark.parametrize("seed", range(4))
def test_cuts_from_summed_values_equal_the_cuts_from_the_rows(name, seed):
    """learn_cuts on a file's summed (value, class, count) entries gives the cuts (and ladder levels)
    of the rows they stand for: the table-based discretizers read the counts as they are (no row
    repeated), the others the entries repeated; also when MDL finds no cut (the fallback's
    equal-frequency intervals from the table) and for a handful of rows."""
    from seminaive.discretize import learn_cuts
    rng = np.random.default_rng(seed)
    for n, classes, spread in ((3000, 3, 8), (400, 2, 2), (5, 2, 3), (1, 2, 1)):
        x, y, xv, yv, w = _rows_and_table(rng, n, classes, spread)
        if seed % 2:  # no class signal: MDL finds nothing, the fallback cuts by frequency
            y, yv = np.zeros_like(y), np.zeros_like(yv)
            keep = ~np.isnan(x)
            pairs, counts = np.unique(np.column_stack([x[keep], y[keep]]), axis=0, return_counts=True)
            xv, yv, w = pairs[:, 0], pairs[:, 1].astype(np.int64), counts.astype(np.float64)
        rows = learn_cuts(name, x, y, None, 5, 6, seed, ladder=True)
        summed = learn_cuts(name, xv, yv, w, 5, 6, seed, ladder=True)
        assert np.array_equal(rows[0], summed[0]), (n, rows[0], summed[0])
        assert (rows[1] is None) == (summed[1] is None)
        assert rows[1] is None or np.array_equal(rows[1], summed[1])
        frac = learn_cuts(name, xv, yv, w / 3, 5, 6, seed)  # fractional weights: each entry present once
        assert np.array_equal(frac, learn_cuts(name, xv, yv, None, 5, 6, seed))


def test_a_table_based_discretizer_does_not_repeat_the_rows(monkeypatch):
    """The summed entries of many rows reach MDL as their table: np.repeat is never called."""
    from seminaive.discretize import learn_cuts
    calls = []
    monkeypatch.setattr(np, "repeat", lambda *a, **k: calls.append(1))
    xv = np.arange(50.0)
    yv = (xv > 24).astype(np.int64)
    cuts = learn_cuts("mdl", xv, yv, np.full(50, 1e6), 10, 6, 0)
    assert cuts.tolist() == [24.5] and not calls
