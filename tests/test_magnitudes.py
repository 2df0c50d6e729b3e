"""Right answers at every magnitude: scaled moments, a scale-free variance
floor, agreement with R's e1071, and one rule for degenerate evidence."""

import pathlib
import warnings

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes
from seminaive.data import read_arff
from seminaive.exceptions import DataFormatError
from seminaive.search import BSE

from conftest import mixed_frame

DATA = pathlib.Path(__file__).parent / "data"
NUMERIC_OPTIONS = [dict(numeric="gaussian"), dict(numeric="kernel"), dict(numeric="equal_width", n_bins=4),
                   dict(numeric="equal_frequency", n_bins=4), dict(numeric="mdl"), dict(numeric="1r", min_bucket=3),
                   dict(estimation="map"), dict(estimation="predictive"), dict(ddof=0)]
FACTORS = [10.0 ** e for e in (-300, -250, -200, -163, -100, -50, -6, 0, 6, 50, 100, 155, 200, 250, 300)]


def _fit_predict(X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, underflow or invalid-value warning
        return NaiveBayes(**params).fit(X, y).predict_proba(X)


@pytest.mark.parametrize("factor", FACTORS)
def test_the_issue_example_at_every_magnitude(factor):
    X = pd.DataFrame({"b": [1.0, 1.2, 3.0, 3.3]})
    y = np.array(["yes", "yes", "no", "no"])
    nb = NaiveBayes().fit(X * factor, y)
    assert nb.predict(X * factor).tolist() == ["yes", "yes", "no", "no"]
    np.testing.assert_allclose(_fit_predict(X * factor, y), _fit_predict(X, y), rtol=1e-9, atol=1e-12)
    assert nb.components_[0].mean_[1] == pytest.approx(1.1 * factor, rel=1e-12)


@pytest.mark.parametrize("params", NUMERIC_OPTIONS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_every_numeric_option_is_unchanged_by_the_data_units(params):
    X, y = mixed_frame(150, seed=5)
    want = _fit_predict(X, y, **params)
    assert np.ptp(want, axis=0).max() > 0.3  # the posteriors vary: a constant answer would pass trivially
    num = ["height", "weight"]
    for factor in (1e-300, 1e-163, 1e-6, 3.7, 1e6, 1e155, 1e300):
        Xs = X.copy()
        Xs[num] = Xs[num] * factor
        np.testing.assert_allclose(_fit_predict(Xs, y, **params), want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("params", NUMERIC_OPTIONS[:2] + NUMERIC_OPTIONS[6:8],
                         ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("column", ["height", "weight"])
@pytest.mark.parametrize("factor", [1e-6, 1e6])
def test_one_attributes_units_do_not_reach_another(params, column, factor):
    """The default variance floor is relative to each attribute's own spread."""
    X, y = mixed_frame(150, seed=6)
    Xs = X.copy()
    Xs[column] = Xs[column] * factor
    np.testing.assert_allclose(_fit_predict(Xs, y, **params), _fit_predict(X, y, **params), rtol=1e-9, atol=1e-12)


def test_an_uninformative_attribute_of_large_scale_leaves_a_small_one_alone():
    """The issue's example: scikit-learn's floor (largest variance) drowns a 1e-5 attribute under a 1e5 one."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 2000)
    small = (rng.normal(y, 1.0)) * 1e-5
    noise = rng.normal(0, 1.0, y.size) * 1e5
    alone = NaiveBayes().fit(small[:, None], y).score(small[:, None], y)
    both = np.column_stack([small, noise])
    ours = NaiveBayes().fit(both, y).score(both, y)
    sklearns = NaiveBayes(var_smoothing_rule="largest").fit(both, y).score(both, y)
    assert alone > 0.65 and abs(ours - alone) < 0.01
    assert sklearns < 0.55  # the rule we no longer use by default


def test_extreme_finite_values_fit_and_infinite_ones_are_named():
    X = pd.DataFrame({"v": [1e308, -1e308, 9e307, -9e307, 1.5e308, -1.7e308]})
    y = ["a", "b", "a", "b", "a", "b"]
    nb = NaiveBayes().fit(X, y)
    g = nb.components_[0]
    assert np.isfinite(g.mean_).all() and np.isfinite(g.sd_).all() and g.sd_.min() > 1e307
    assert nb.predict(X).tolist() == y
    bad = X.copy()
    bad.loc[2, "v"] = np.inf
    with pytest.raises(DataFormatError, match="column v: numeric values must be finite"):
        NaiveBayes().fit(bad, y)


def _without_unused_values(X):
    """R's read.arff keeps only the values that occur; so does this copy."""
    X = X.copy()
    for c in X.columns:
        if isinstance(X[c].dtype, pd.CategoricalDtype):
            X[c] = X[c].cat.remove_unused_categories()
    return X


@pytest.mark.parametrize("name", ["credit-g", "diabetes", "iris", "labor"])
@pytest.mark.parametrize("var_smoothing, tol", [(0.0, 1e-12), (1e-9, 1e-7)])
def test_posteriors_equal_r_e1071(name, var_smoothing, tol):
    """naiveBayes(laplace = 1) of R's e1071 (scripts/reference/make_r_reference.R): MLE priors,
    Laplace-smoothed tables, sample standard deviations, no variance floor. credit-g mixes
    attributes of scales 1 to 18,424; labor has missing values."""
    d = read_arff(DATA / "weka" / f"{name}.arff")
    ref = pd.read_csv(DATA / "reference" / f"e1071_{name}.csv")
    X = _without_unused_values(d.X)
    nb = NaiveBayes(priors="mle", alpha=1, var_smoothing=var_smoothing).fit(X, d.y)
    got = pd.DataFrame(nb.predict_proba(X), columns=[str(c) for c in nb.classes_])[list(ref.columns)]
    np.testing.assert_allclose(got.to_numpy(), ref.to_numpy(), rtol=0, atol=tol)


def test_scikit_learns_floor_is_still_there_and_differs_from_e1071():
    d = read_arff(DATA / "weka" / "credit-g.arff")
    ref = pd.read_csv(DATA / "reference" / "e1071_credit-g.csv")
    X = _without_unused_values(d.X)
    nb = NaiveBayes(priors="mle", alpha=1, var_smoothing_rule="largest").fit(X, d.y)
    got = pd.DataFrame(nb.predict_proba(X), columns=[str(c) for c in nb.classes_])[list(ref.columns)]
    assert np.abs(got.to_numpy() - ref.to_numpy()).max() > 1e-3


# -------------------------------------------------------------- degenerate evidence
def _loo_refits(make, X, y):
    """Leave-one-out accuracy by refitting without each instance (the brute force)."""
    hits = 0
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        hits += make().fit(X.iloc[keep], y[keep]).predict(X.iloc[[i]])[0] == y[i]
    return hits / len(y)


def test_impossible_everywhere_is_the_priors_in_the_engine_too():
    """alpha=0, a value seen under no other class: the refit gives the priors, and so does the engine."""
    X = pd.DataFrame({"v": ["u", "w", "w", "w", "w", "w"]})
    y = np.array(["b", "a", "b", "b", "a", "b"])
    want = _loo_refits(lambda: NaiveBayes(alpha=0), X, y)
    assert want == pytest.approx(1 / 6)
    search = BSE(alpha=0).fit(X, y)
    assert search.history_[0]["score"] == pytest.approx(want)


def test_point_masses_decide_as_refits_do():
    """var_smoothing=0, ddof=0 and a class with one present value: a point mass,
    probability 1 at its value and 0 elsewhere, in the model and in the engine."""
    X = pd.DataFrame({"x": [0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 7.0]})
    y = np.array(["a", "a", "a", "a", "a", "a", "b"])
    nb = NaiveBayes(var_smoothing=0, ddof=0).fit(X, y)
    p = nb.predict_proba(pd.DataFrame({"x": [7.0, 7.5, 1.0]}))
    np.testing.assert_array_equal(p[:, 1], [1.0, 0.0, 0.0])
    want = _loo_refits(lambda: NaiveBayes(var_smoothing=0, ddof=0), X, y)
    assert want == pytest.approx(6 / 7)  # only b's own row, left out, is wrong
    assert BSE(var_smoothing=0, ddof=0).fit(X, y).history_[0]["score"] == pytest.approx(want)


@pytest.mark.parametrize("seed", range(6))
def test_engine_equals_refits_with_zero_counts_and_point_masses(seed):
    """Random small data with alpha=0 and no variance floor: every row's leave-one-out decision of the
    engine (start, and after a deletion) equals the refit's."""
    rng = np.random.default_rng(seed)
    n = 14
    X = pd.DataFrame({"a": rng.choice(["p", "q", "r"], n), "b": rng.choice(["s", "t"], n),
                      "x": rng.integers(0, 3, n).astype(float)})
    y = rng.choice(["c0", "c1"], n)
    params = dict(alpha=0, var_smoothing=0, ddof=0)
    search = BSE(**params, tol=-np.inf, min_attributes=1).fit(X, y)  # deletions forced down to one attribute
    assert search.history_[0]["score"] == pytest.approx(_loo_refits(lambda: NaiveBayes(**params), X, y))
    assert len(search.history_) == 3  # two deletions for every seed: the loop below always runs
    for step in search.history_[1:]:  # every deletion's score is a refit's too
        dropped = [h["attributes"] for h in search.history_[1:step["step"] + 1]]
        cols = [c for c in X.columns if c not in dropped]
        assert cols
        assert step["score"] == pytest.approx(_loo_refits(lambda: NaiveBayes(**params), X[cols], y))


@pytest.mark.parametrize("params", NUMERIC_OPTIONS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_values_spanning_the_whole_float_range(params):
    """Columns from -1.7e308 to 1.6e308: every numeric option fits without overflow and separates the classes."""
    rng = np.random.default_rng(1)
    y = np.repeat(["lo", "hi"], 20)
    X = pd.DataFrame({"v": np.concatenate([rng.uniform(-1.7, -0.2, 20), rng.uniform(0.2, 1.6, 20)]) * 1e308})
    p = _fit_predict(X, y, **params)
    assert np.isfinite(p).all()
    assert (np.where(p[:, 0] > 0.5, "hi", "lo") == y).mean() >= 0.9


def test_the_command_line_fits_and_saves_values_of_1e308(tmp_path, capsys):
    from seminaive.cli.main import main
    data = tmp_path / "big.csv"
    data.write_text("v,c\n1e308,a\n-1e308,b\n9e307,a\n-9e307,b\n1.5e308,a\n-1.7e308,b\n")
    model = tmp_path / "m.json"
    assert main(["fit", str(data), "-m", str(model)]) == 0
    out = capsys.readouterr().out
    assert "mean     1.1333e+308  -1.2000e+308" in out and "inf" not in out and "nan" not in out
    text = model.read_text()
    assert "NaN" not in text and "Infinity" not in text
    assert main(["predict", "--model-file", str(model), str(data), "--proba"]) == 0
    assert "1.0000  0.0000" in capsys.readouterr().out
