"""Calibration from a model's own leave-one-out or out-of-fold probabilities."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression

from _scoring import reference_score
from seminaive import AODE, KDB, NaiveBayes, SelectiveKDB, TAN
from seminaive.calibration import Calibrated, Isotonic, Sigmoid, Temperature
from seminaive.calibration.out_of_sample import leave_one_out_log_proba, out_of_fold_log_proba
from seminaive.data.encoding import encode
from seminaive.exceptions import ParameterError
from seminaive.persistence import model_from_dict, model_to_dict
from seminaive.search import BSEJ


def mixed(n=60, seed=0, missing=0.1, k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    X = pd.DataFrame({"a": rng.choice(["p", "q", "r"], n), "b": np.where(rng.random(n) < 0.7, y, 0).astype(str),
                      "x": rng.normal(y, 1.5, n), "z": rng.normal(-y, 2.0, n) * 1e6})
    for col in X.columns:
        X.loc[rng.random(n) < missing, col] = np.nan
    return X, np.array(["k0", "k1", "k2", "k3"])[y]


def refit_log_proba(model, X, y):
    """Brute force: each row's log-posteriors from the model refitted without it."""
    out = np.empty((len(y), len(set(y))))
    classes = pd.Categorical(y, categories=sorted(set(y)))
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        m = clone(model).fit(X[keep].reset_index(drop=True), pd.Series(classes[keep]))
        out[i] = m.predict_log_proba(X.iloc[[i]])[0]
    return out


@pytest.mark.parametrize("params", [{}, dict(alpha=0.5, priors="mle", ddof=0), dict(priors="uniform"),
                                    dict(estimation="map"), dict(estimation="predictive"),
                                    dict(estimation="m-estimate", alpha=2.0), dict(var_smoothing_rule="largest")],
                         ids=repr)
@pytest.mark.parametrize("columns,missing", [(["a", "b"], 0.1), (["x", "z"], 0.1), (["a", "b", "x", "z"], 0.0),
                                             (["a", "b", "x", "z"], 0.15)])
def test_naive_bayes_leave_one_out_equals_refits(params, columns, missing):
    X, y = mixed(missing=missing, seed=len(columns))
    X = X[columns]
    nb = NaiveBayes(var_smoothing=0.0, **params).fit(X, y)
    got = leave_one_out_log_proba(nb, X, y)
    want = refit_log_proba(NaiveBayes(var_smoothing=0.0, **params), X, y)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    codes = np.searchsorted(nb.classes_, y)
    for rule in ("log_loss", "brier", "rmse"):  # the proper scoring rules of leave-one-out, as refits give them
        assert reference_score(got, codes, rule) == pytest.approx(reference_score(want, codes, rule), rel=1e-9)


def test_search_final_model_leave_one_out_equals_refits():
    X, y = mixed(n=80, seed=3)
    s = BSEJ(var_smoothing=0.0, n_bins=4).fit(X, y)
    frame = s._structured(X)
    got = leave_one_out_log_proba(s, X, y)
    want = refit_log_proba(s._final_model(list(frame.columns)).set_params(var_smoothing=0.0), frame, y)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)


def test_out_of_fold_equals_refits_per_fold():
    X, y = mixed(n=90, seed=4)
    folds = [(np.flatnonzero(np.arange(90) % 3 != f), np.flatnonzero(np.arange(90) % 3 == f)) for f in range(3)]
    got = out_of_fold_log_proba(TAN(), X, y, folds, np.array(["k0", "k1", "k2"]))
    for tr, te in folds:
        m = TAN().fit(X.iloc[tr], y[tr])
        np.testing.assert_allclose(got[te], m.predict_log_proba(X.iloc[te]), rtol=0, atol=1e-12)


def test_calibrated_uses_leave_one_out_where_exact_and_folds_otherwise():
    X, y = mixed(n=60, seed=5)
    assert Calibrated().fit(X, y).cv_used_ == "leave-one-out"
    assert Calibrated(BSEJ()).fit(X, y).cv_used_ == "leave-one-out"
    assert Calibrated(NaiveBayes(numeric="mdl")).fit(X, y).cv_used_ == "leave-one-out"
    assert Calibrated(TAN()).fit(X, y).cv_used_ == "leave-one-out"
    assert Calibrated(TAN(), cv=3).fit(X, y).cv_used_ == "3-fold (3 refits)"
    assert Calibrated(AODE()).fit(X, y).cv_used_ == "5-fold (5 refits)"
    with pytest.raises(ParameterError, match=r"cv: AODE with these parameters has no leave-one-out from its counts"):
        Calibrated(AODE(), cv="loo").fit(X, y)
    # the map is fitted on exactly those probabilities
    nb = NaiveBayes().fit(X, y)
    cal = Calibrated(method="temperature").fit(X, y)
    want = Temperature().fit(leave_one_out_log_proba(nb, X, y), np.searchsorted(nb.classes_, y))
    assert cal.calibrator_.temperature_ == want.temperature_
    np.testing.assert_allclose(cal.predict_proba(X), want.transform(nb.predict_log_proba(X)), rtol=1e-12)


def platt_objective(f, t, a, b):
    z = a * f + b
    return float(np.sum(t * np.logaddexp(0, -z) + (1 - t) * np.logaddexp(0, z)))


def test_sigmoid_fits_platts_objective_at_least_as_well_as_logistic_regression():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    f = rng.normal(3 * (2 * y - 1), 4.0)  # over-confident log-odds
    log_p = np.column_stack([-np.logaddexp(0, f), -np.logaddexp(0, -f)])
    s = Sigmoid().fit(log_p, y)
    n1, n0 = y.sum(), (1 - y).sum()
    t = np.where(y == 1, (n1 + 1) / (n1 + 2), 1 / (n0 + 2))
    # the same objective by scikit-learn: each row twice, as class 1 with weight t and class 0 with 1 - t
    lr = LogisticRegression(C=1e12, tol=1e-12, max_iter=10000).fit(
        np.r_[f, f][:, None], np.r_[np.ones(400), np.zeros(400)], sample_weight=np.r_[t, 1 - t])
    ours = platt_objective(f, t, s.a_[1], s.b_[1])
    theirs = platt_objective(f, t, lr.coef_[0, 0], lr.intercept_[0])
    assert ours <= theirs * (1 + 1e-6)
    assert 0 < s.a_[1] < 1  # over-confident log-odds are shrunk


def test_isotonic_is_monotone_and_bounded_and_temperature_is_a_minimum():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 300)
    jll = rng.normal(0, 3, (300, 3)) + 4 * np.eye(3)[y]
    log_p = jll - np.logaddexp.reduce(jll, axis=1, keepdims=True)
    iso = Isotonic().fit(log_p, y)
    grid = np.log(np.linspace(1e-6, 1 - 1e-6, 50))
    for c in range(3):
        col = np.full((50, 3), np.log((1 - np.exp(grid)) / 2)[:, None])
        col[:, c] = grid
        mapped = np.interp(np.exp(grid), iso.x_[c], iso.y_[c])
        assert (np.diff(mapped) >= 0).all() and mapped.min() >= 1 / 302 and mapped.max() <= 301 / 302
    p = iso.transform(log_p)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-12)
    t = Temperature().fit(log_p, y)

    def nll(T):
        z = log_p / T
        return -(z[np.arange(300), y] - np.logaddexp.reduce(z, axis=1)).sum()
    assert nll(t.temperature_) <= min(nll(t.temperature_ * 1.01), nll(t.temperature_ / 1.01), nll(1.0))


def redundant(n, seed):
    """Every informative attribute repeated five times: Naive Bayes counts its evidence five times."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    base = {f"a{j}": np.where(rng.random(n) < 0.7, y, 1 - y) for j in range(3)}
    X = pd.DataFrame({f"{k}_{r}": v.astype(str) for k, v in base.items() for r in range(5)})
    return X, np.array(["neg", "pos"])[y]


@pytest.mark.parametrize("method", ["sigmoid", "isotonic", "temperature"])
def test_calibration_lowers_the_log_loss_of_an_overconfident_naive_bayes(method):
    from sklearn.metrics import log_loss
    X, y = redundant(600, 0)
    Xt, yt = redundant(3000, 1)
    nb = NaiveBayes().fit(X, y)
    cal = Calibrated(method=method).fit(X, y)
    before, after = log_loss(yt, nb.predict_proba(Xt)), log_loss(yt, cal.predict_proba(Xt))
    assert after < before - 0.05, (before, after)


@pytest.mark.parametrize("method", ["sigmoid", "isotonic", "temperature"])
def test_degenerate_training_data(method):
    X = pd.DataFrame({"a": list("pqpqpqpqr")})
    # one class: nothing to calibrate, every probability is 1
    one = Calibrated(method=method).fit(X, ["c"] * 9)
    assert one.calibrator_ is None and (one.predict_proba(X) == 1).all()
    assert "nothing to calibrate" in one.to_text()
    # a class of one instance, by leave-one-out and by folds
    y = np.array(["u", "v"] * 4 + ["w"])
    for cv in ("auto", 3):
        p = Calibrated(method=method, cv=cv).fit(X, y).predict_proba(X)
        assert np.isfinite(p).all() and np.allclose(p.sum(axis=1), 1.0)
    # probabilities that are all 0 or 1 (alpha=0, a separating attribute)
    yy = np.where(X["a"] == "p", "u", "v")
    m = Calibrated(NaiveBayes(alpha=0.0), method=method).fit(X, yy)
    p = m.predict_proba(X)
    assert np.isfinite(p).all() and np.allclose(p.sum(axis=1), 1.0) and (m.predict(X) == yy).all()


def test_misspelled_and_wrong_parameters_are_named():
    X, y = mixed(n=30)
    with pytest.raises(ParameterError, match=r"method: expected one of 'isotonic', 'sigmoid', 'temperature', got 'platt'"):
        Calibrated(method="platt").fit(X, y)
    with pytest.raises(ParameterError, match=r"cv: expected 'auto', 'loo', a number of folds"):
        Calibrated(cv="leave-one-out").fit(X, y)
    with pytest.raises(ParameterError, match=r"estimator: expected a classifier"):
        Calibrated(estimator="nb").fit(X, y)


@pytest.mark.parametrize("change,message", [
    (lambda s: s["calibrator"].update(method="beta"), r"state.calibrator.method: expected one of"),
    (lambda s: s["calibrator"].update(temperature=-1.0), r"temperature: expected a number from 0.0009119 to 1097"),
    (lambda s: s.update(calibrator=None), r"state.calibrator.method"),
    (lambda s: s["estimator"].update(format="x"), r"not a seminaive model file"),
])
def test_malformed_calibrated_model_files(change, message):
    from seminaive.exceptions import DataFormatError
    X, y = mixed(n=40)
    d = json.loads(json.dumps(model_to_dict(Calibrated(method="temperature").fit(X, y))))
    change(d["state"])
    with pytest.raises(DataFormatError, match=message):
        model_from_dict(d)


def test_isotonic_steps_must_be_monotone_in_a_model_file():
    from seminaive.exceptions import DataFormatError
    X, y = mixed(n=40)
    d = json.loads(json.dumps(model_to_dict(Calibrated(method="isotonic").fit(X, y))))
    d["state"]["calibrator"]["y"]["0"] = d["state"]["calibrator"]["y"]["0"][::-1]
    d["state"]["calibrator"]["y"]["0"][0] = 0.99
    with pytest.raises(DataFormatError, match=r"steps must be increasing"):
        model_from_dict(d)


def test_isotonic_map_equals_scikit_learns_isotonic_regression():
    from sklearn.isotonic import IsotonicRegression
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 500)
    jll = np.round(rng.normal(0, 2, (500, 3)) + 2 * np.eye(3)[y], 1)  # rounded: many tied probabilities
    log_p = jll - np.logaddexp.reduce(jll, axis=1, keepdims=True)
    iso = Isotonic().fit(log_p, y)
    grid = np.r_[np.linspace(0, 1, 1001), np.exp(log_p).ravel()]
    for c in range(3):
        ref = IsotonicRegression(y_min=1 / 502, y_max=501 / 502, out_of_bounds="clip")
        ref.fit(np.exp(log_p[:, c]), (y == c).astype(float))
        np.testing.assert_allclose(np.interp(grid, iso.x_[c], iso.y_[c]), ref.predict(grid), rtol=0, atol=1e-12)


@pytest.mark.parametrize("var_smoothing", [0.0, 1e-9])
def test_gaussian_leave_one_out_in_one_block_equals_attribute_by_attribute(monkeypatch, var_smoothing):
    """The batched Gaussian leave-one-out (frequency estimates) gives the engine's per-attribute
    numbers, point masses (a column constant within a class, no smoothing) and missing values included."""
    from seminaive.learning import leave_one_out as out_of_sample
    X, y = mixed(n=70, seed=9)
    X["const"] = np.where(y == "k0", 1.0, np.arange(70.0))
    nb = NaiveBayes(var_smoothing=var_smoothing).fit(X, y)
    block = leave_one_out_log_proba(nb, X, y)
    monkeypatch.setattr(out_of_sample, "_plain_moments", lambda est: False)
    one_by_one = leave_one_out_log_proba(nb, X, y)
    np.testing.assert_allclose(block, one_by_one, rtol=1e-12, atol=1e-12)
    # blocks of a single attribute (the memory bound at its smallest) give the same sums
    x = np.column_stack([X[c].to_numpy(float) for c in ("x", "z", "const")])
    stats = [nb.stats_[X.columns.get_loc(c)] for c in ("x", "z", "const")]
    scaled = x / np.array([float(s.get("scale", [1.0])[0]) for s in stats])
    est, floors = nb._estimator(None), np.zeros(3)
    codes = np.searchsorted(nb.classes_, y)
    np.testing.assert_allclose(out_of_sample._loo_gaussian_sum(est, stats, floors, scaled, codes, cells=1),
                               out_of_sample._loo_gaussian_sum(est, stats, floors, scaled, codes),
                               rtol=1e-13, atol=0)


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_categorical_leave_one_out_in_one_block_equals_attribute_by_attribute(monkeypatch, alpha):
    """The batched categorical leave-one-out (Lidstone tables) gives the engine's per-attribute
    numbers: missing values, a class of one row (nothing left of it), a value seen once, intervals."""
    from seminaive.learning import leave_one_out as out_of_sample
    X, y = mixed(n=70, seed=10, missing=0.1)
    y = np.array(y, dtype=object)
    y[5] = "k9"  # a class of one row
    X["rare"] = pd.Categorical(np.where(np.arange(70) == 3, "r", "s"))
    for numeric in ("gaussian", "equal_frequency"):
        nb = NaiveBayes(alpha=alpha, numeric=numeric, n_bins=3).fit(X, y)
        block = leave_one_out_log_proba(nb, X, y)
        with monkeypatch.context() as patch:
            patch.setattr(out_of_sample, "_plain_counts", lambda est: False)
            one_by_one = leave_one_out_log_proba(nb, X, y)
        np.testing.assert_allclose(block, one_by_one, rtol=1e-12, atol=1e-12)
    codes = np.searchsorted(nb.classes_, y)
    table = encode(X, nb.schema_)  # the last model's: every attribute nominal or intervals
    parts = [(out_of_sample._codes(table, c), nb.stats_[i]["counts"], alpha) for i, c in enumerate(nb.components_)]
    np.testing.assert_allclose(out_of_sample._loo_categorical_sum(parts, codes, cells=1),
                               out_of_sample._loo_categorical_sum(parts, codes), rtol=1e-13, atol=0)


def test_discretized_leave_one_out_equals_refits_with_the_cut_points_held():
    """MDL intervals learned once; each row's counts left out: as refitting a Naive Bayes on the
    interval labels (all of them declared) without the row."""
    from seminaive.discretize import apply_cuts, interval_labels
    X, y = mixed(n=60, seed=11)
    nb = NaiveBayes(numeric="equal_frequency", n_bins=4).fit(X, y)
    frame = X.copy()
    for c in nb.components_:
        name = nb.schema_.attributes[c.attribute].name
        if c.kind == "discretized":
            labels = interval_labels(c.cuts)
            codes = apply_cuts(X[name].to_numpy(float), c.cuts)
            frame[name] = pd.Categorical.from_codes(codes, categories=labels)
        else:
            frame[name] = pd.Categorical(X[name], categories=list(nb.schema_.attributes[c.attribute].values))
    got = leave_one_out_log_proba(nb, X, y)
    np.testing.assert_allclose(got, refit_log_proba(NaiveBayes(), frame, y), rtol=0, atol=1e-9)


def test_kernel_leave_one_out_is_the_density_without_the_own_kernel():
    X, y = mixed(n=50, seed=12)
    X = X[["x", "z"]]
    nb = NaiveBayes(numeric="kernel").fit(X, y)
    codes = np.searchsorted(nb.classes_, y)
    got = leave_one_out_log_proba(nb, X, y)
    want = np.zeros_like(got)
    for i in range(len(y)):
        want[i] = np.log(np.bincount(np.delete(codes, i), minlength=3) + 1.0) - np.log(len(y) - 1 + 3)
        for comp in nb.components_:
            x = X.iloc[:, comp.attribute].to_numpy(float)
            if np.isnan(x[i]):
                continue
            for c in range(3):
                others = [j for j in range(len(y)) if j != i and codes[j] == c and not np.isnan(x[j])]
                h = comp.h_[c]
                dens = np.mean(np.exp(-0.5 * ((x[i] - x[others]) / h) ** 2) / (h * np.sqrt(2 * np.pi)))
                want[i, c] += np.log(dens)
    want -= np.logaddexp.reduce(want, axis=1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)


@pytest.mark.parametrize("model", [TAN(), KDB(k=2), SelectiveKDB(k=1), TAN(alpha=0.5, estimation="m-estimate")],
                         ids=repr)
def test_family_leave_one_out_equals_refitting_its_tables_with_the_structure_held(model):
    from seminaive.components import ConditionalTable
    from seminaive.data.encoding import encode
    from seminaive.estimation import class_log_prior
    X, y = mixed(n=45, seed=13)
    m = clone(model).fit(X, y)
    codes = np.searchsorted(m.classes_, y)
    got = leave_one_out_log_proba(m, X, y)
    want = np.empty_like(got)
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        rest, one = encode(X[keep], m.schema_), encode(X.iloc[[i]], m.schema_)
        want[i] = class_log_prior(np.bincount(codes[keep], minlength=3).astype(float), m.priors)
        for t in m.tables_:
            u = ConditionalTable(t.attribute, t.child, t.parents)
            u.estimate(u.count(rest, codes[keep], 3, None), m._estimator())
            want[i] += u.log_likelihood(one)[0]
    want -= np.logaddexp.reduce(want, axis=1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
