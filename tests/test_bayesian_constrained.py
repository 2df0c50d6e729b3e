"""Bayesian estimation against numerical maximization; the constrained model and its baseline."""


import pathlib

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import minimize

from seminaive import ConstrainedNaiveBayes, ConstraintWarning, NaiveBayes, OffsetNaiveBayes
from seminaive.components import variance_floor
from seminaive.data import EncodedTable, read_arff
from seminaive.datasets import load
from seminaive.estimation import normal_gamma_posterior
from seminaive.estimation.plots import normal_gamma_logpdf, plot_prior_posterior


@pytest.mark.parametrize("prior", [None, {"mu0": 1.0, "k0": 2.0, "a0": 3.0, "b0": 0.5}])
def test_map_equals_numerical_maximization(prior):
    """Maximize the posterior density NG(mu, lambda | mu_n, k_n, a_n, b_n) numerically
    (Nelder-Mead, as the thesis's nmkb) and compare with the closed form."""
    d = load("iris")
    nb = NaiveBayes(estimation="map", prior=prior).fit(d)
    comp, st = nb.components_[2], nb.stats_[2]
    sc = st["scale"][0]  # the statistics are of the values over a power of two; the posterior back in data units
    (mn, kn, an, bn), _ = normal_gamma_posterior(st["weight"], st["mean"], st["m2"], nb._estimator("petal_length").prior, sc)
    mn, bn = mn * sc, bn * sc * sc
    floor = variance_floor([st], nb.var_smoothing, nb.var_smoothing_rule)[0] * sc * sc
    assert floor == pytest.approx(1e-6 * np.ptp(d.X["petal_length"]) ** 2, rel=1e-12)
    for c in range(3):
        def f(p, c=c):
            return -normal_gamma_logpdf(p[0], p[1], mn[c], kn[c], an[c], bn[c]) if p[1] > 0 else np.inf
        res = minimize(f, [mn[c] + 0.1, an[c] / bn[c]], method="Nelder-Mead",
                       options={"xatol": 1e-12, "fatol": 1e-14, "maxiter": 20000})
        assert res.x[0] == pytest.approx(comp.mean_[c], abs=1e-6)
        lam_closed = 1.0 / (comp.var_[c] - floor)  # the closed form's precision, before the floor is added
        assert res.x[1] == pytest.approx(lam_closed, rel=1e-6)


def test_vague_prior_tends_to_maximum_likelihood():
    d = load("iris")
    mle = NaiveBayes(ddof=0, var_smoothing=0.0).fit(d)
    vague = NaiveBayes(estimation="map", var_smoothing=0.0, prior={"k0": 1e-10, "a0": 0.5, "b0": 1e-10}).fit(d)
    for a, b in zip(mle.components_, vague.components_):
        np.testing.assert_allclose(a.mean_, b.mean_, rtol=1e-8)
        np.testing.assert_allclose(a.var_, b.var_, rtol=1e-8)


def test_predictive_student_t_integrates_to_one():
    d = load("iris")
    nb = NaiveBayes(estimation="predictive").fit(d)
    comp = nb.components_[0]
    assert comp.df_ is not None and (comp.df_ > 50).all()
    def dens(v, c):
        t = EncodedTable(np.empty((1, 0), int), np.array([[v, 0, 0, 0.0]]), np.zeros(0))
        return float(np.exp(comp.log_likelihood(t))[0, c])
    total, _ = quad(lambda v: dens(v, 1), -20, 40, limit=200)
    assert total == pytest.approx(1.0, abs=1e-7)


def test_per_attribute_priors_and_bad_priors():
    d = load("iris")
    nb = NaiveBayes(estimation="map", prior={"petal_width": {"mu0": 0.0, "k0": 1000.0}}).fit(d)
    assert (np.abs(nb.components_[3].mean_) < 0.2).all()  # a strong prior at 0 pulls the means there
    assert abs(nb.components_[2].mean_[0] - 1.46) < 0.05  # others keep the defaults
    with pytest.raises(ValueError, match="prior: 'nope' is neither"):
        NaiveBayes(estimation="map", prior={"nope": {}}).fit(d)


def test_prior_posterior_plot(tmp_path):
    nb = NaiveBayes(estimation="map").fit(load("iris"))
    path = plot_prior_posterior(nb, "petal_length", "setosa", str(tmp_path / "ng.png"))
    assert open(path, "rb").read(4) == b"\x89PNG"


def test_constrained_meets_the_threshold_on_training_data():
    d = load("iris")
    plain = NaiveBayes().fit(d)
    def rate(m):
        return np.mean(m.predict(d.X)[np.asarray(d.y) == "versicolor"] == "versicolor")
    assert rate(plain) < 1.0
    m = ConstrainedNaiveBayes(min_rates={"versicolor": 1.0}).fit(d)
    assert m.feasible_ and rate(m) == 1.0
    assert m.constraints_[0]["train_rate"] == 1.0 and m.constraints_[0]["unconstrained_train_rate"] == rate(plain)
    o = OffsetNaiveBayes(min_rates={"versicolor": 1.0}).fit(d)
    assert o.feasible_ and rate(o) == 1.0
    # the unconstrained start is the Naive Bayes of the same rows, a model that predicts (its held blocks kept)
    np.testing.assert_allclose(m.unconstrained_.predict_proba(d.X), plain.predict_proba(d.X), rtol=1e-12)
    assert not np.allclose(m.predict_proba(d.X), plain.predict_proba(d.X))


def test_minority_rate_on_imbalanced_data():
    d = load("keel-imb:haberman")
    minority = d.y.value_counts().idxmin()
    plain = NaiveBayes().fit(d)
    def r(m):
        return np.mean(m.predict(d.X)[np.asarray(d.y) == minority] == minority)
    assert r(plain) < 0.3
    m = ConstrainedNaiveBayes(min_rates={"minority": 0.8}).fit(d)
    assert m.feasible_ and r(m) >= 0.8 and m.constraints_[0]["train_rate"] == r(m)
    o = OffsetNaiveBayes(min_rates={"minority": 0.8}).fit(d)
    assert r(o) >= 0.8
    # what the selection guarantees, whatever path the optimizer took: the chosen candidate meets the bound
    # and is the most likely of those that do, the decision-offset baseline among them
    feasible = [h for h in m.history_ if h["largest_shortfall"] <= 0]
    assert any(h["candidate"] == "decision offsets" for h in feasible)
    chosen = min(feasible, key=lambda h: h["objective"])
    assert chosen["objective"] <= next(h for h in feasible if h["candidate"] == "decision offsets")["objective"]


def test_infeasible_thresholds_warn_and_return_the_closest():
    """Two classes cannot both be classified perfectly from sepal width alone."""
    d = load("iris")
    X = d.X[["sepal_width"]]
    with pytest.warns(ConstraintWarning, match="cannot all be met"):
        m = ConstrainedNaiveBayes(min_rates={"versicolor": 1.0, "virginica": 1.0}).fit(X, d.y)
    assert not m.feasible_
    assert any(not r["holds"] for r in m.constraints_)
    assert np.isfinite(m.predict_proba(X)).all()


def test_validation_rates_are_reported():
    d = load("iris")
    idx = np.arange(150)
    tr, va = idx % 3 != 0, idx % 3 == 0
    m = ConstrainedNaiveBayes(min_rates={"virginica": 1.0}).fit(d.X[tr], d.y[tr], X_val=d.X[va], y_val=d.y[va])
    yv = np.asarray(d.y[va])
    want = np.mean(m.predict(d.X[va])[yv == "virginica"] == "virginica")
    assert m.constraints_[0]["validation_rate"] == want
    assert f"{want:.3f}" in m.constraint_report().splitlines()[-1] and "validation rate" in m.constraint_report()


def test_whole_data_models_have_no_partial_fit():
    for m in (ConstrainedNaiveBayes(min_rates={"minority": 0.8}), OffsetNaiveBayes(min_rates={"minority": 0.8})):
        assert not hasattr(m, "partial_fit") and not hasattr(m, "merge")
        with pytest.raises(AttributeError, match="stream the data into NaiveBayes.partial_fit"):
            m.partial_fit


def _objective_gradient(nb, X, y, shift=0.0):
    from seminaive.constrained.model import _Problem
    from seminaive.constrained.objective import Objective
    w = np.ones(len(y))
    codes = np.array([list(nb.classes_).index(v) for v in np.asarray(y)])
    problem = _Problem(Objective(nb, nb._encode(X), w, penalized=True), codes, w, {0: 0.5}, penalized=True)
    return problem.gradient(problem.obj.x0 + shift)


@pytest.mark.parametrize("params", [dict(), dict(alpha=0.5, priors="mle", ddof=0), dict(estimation="map"),
                                    dict(estimation="m-estimate", alpha=2.0), dict(priors="uniform", alpha=3.0)],
                         ids=repr)
def test_naive_bayes_is_the_optimum_of_the_penalized_objective(params):
    """The constrained model maximizes Naive Bayes's own objective: its gradient vanishes at NB's estimate
    (no variance floor, so that NB's estimate is the exact optimum) and not beside it."""
    d = load("weather.numeric")
    nb = NaiveBayes(var_smoothing=0.0, **params).fit(d)
    assert np.abs(_objective_gradient(nb, d.X, d.y)).max() < 1e-10
    assert np.abs(_objective_gradient(nb, d.X, d.y, shift=0.05)).max() > 1e-3


def test_slack_bounds_give_naive_bayes_itself():
    """weather.numeric, minority rate 0.8: NB already has 0.8, so the answer is NB with its smoothing."""
    d = load("weather.numeric")
    nb = NaiveBayes().fit(d)
    m = ConstrainedNaiveBayes(min_rates={"minority": 0.8}).fit(d)
    assert m.fitted_as_.startswith("Naive Bayes's estimate") and m.history_ == []
    np.testing.assert_array_equal(m.predict_proba(d.X), nb.predict_proba(d.X))
    outlook = m.components_[0]
    assert np.exp(outlook.log_table_[1, 1]) == pytest.approx(1 / 8)  # P(overcast | no) = (0 + 1) / (5 + 3)
    assert "ddof=1" in m.to_text() and "alpha=1" in m.to_text()


def test_binding_bounds_keep_the_smoothing():
    """A binding bound: with alpha=1 no probability is zero (the Dirichlet term keeps them inside)."""
    d = load("weather.nominal")
    m = ConstrainedNaiveBayes(min_rates={"no": 1.0}).fit(d)
    assert m.feasible_ and not m.fitted_as_.startswith("Naive Bayes's estimate")
    for c in m.components_:
        assert (np.exp(c.log_table_[:-1]) > 1e-6).all()
    assert "constrained fit, penalized objective" in m.to_text()


def test_infeasible_bounds_are_never_further_than_naive_bayes():
    """credit-g (Weka's copy): 0.99 for both classes cannot be met; the answer minimizes the largest shortfall
    and is never worse than NB by it."""
    d = read_arff(pathlib.Path(__file__).parent / "data" / "weka" / "credit-g.arff")
    with pytest.warns(ConstraintWarning, match="smallest largest shortfall"):
        m = ConstrainedNaiveBayes(min_rates={"good": 0.99, "bad": 0.99}).fit(d)
    worst = max(r["threshold"] - r["train_rate"] for r in m.constraints_)
    nb_worst = max(r["threshold"] - r["unconstrained_train_rate"] for r in m.constraints_)
    assert worst <= nb_worst
    assert worst == pytest.approx(min(h["largest_shortfall"] for h in m.history_))
