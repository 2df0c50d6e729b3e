"""The wrapper searches: engine scores against brute-force refitting, and what
the searches find on data built to show it."""

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes
from seminaive.datasets import make_thesis_simulation
from seminaive.search import BSE, BSEJ, BSJ, FSSJ, Structure


def random_mixed(n=60, seed=0, missing=0.1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({
        "a": rng.choice(["p", "q", "r"], n), "b": np.where(rng.random(n) < 0.6, y % 2, 1 - y % 2).astype(str),
        "c": rng.choice(["u", "v", "w", "z"], n),
        "x": rng.normal(y, 1.5, n), "z": rng.normal(-y, 2.0, n)})
    for col in X.columns:
        X.loc[rng.random(n) < missing, col] = np.nan
    return X, np.array(["k0", "k1", "k2"])[y]


STRUCTURES = [((0,), (1,), (2,), (3,), (4,)), ((0,), (2,), (3,)), ((0, 1), (2,), (4,)), ((0, 3), (1,), (2, 4)),
              ((3, 4), (0,)), ((0, 1, 2),), ((2, 0), (1, 4, 3))]


def brute_force_score(search, X, y, groups, splits):
    """Refit a NaiveBayes on the structured table per split and score it."""
    codes, xs = search._prepare(X)
    st = Structure(tuple(groups), X.shape[1])
    frame = st.frame(list(X.columns), codes, search._values, search._numeric_alone, xs)
    yc = pd.Series(pd.Categorical(y, categories=sorted(set(y))))
    correct = []
    for tr, te in splits:
        nb = NaiveBayes(alpha=search.alpha, priors=search.priors, ddof=search.ddof, var_smoothing=0.0)
        nb.fit(frame.iloc[tr].reset_index(drop=True), yc.iloc[tr].reset_index(drop=True))
        correct.extend(nb.predict(frame.iloc[te]) == np.asarray(y)[te])
    return float(np.mean(correct))


@pytest.mark.parametrize("scoring", ["loo", "cv"])
@pytest.mark.parametrize("priors,alpha,ddof", [("laplace", 1.0, 1), ("mle", 0.5, 0), ("m-estimate", 1.0, 1)])
@pytest.mark.parametrize("seed", [0, 1])
def test_engine_equals_brute_force(scoring, priors, alpha, ddof, seed):
    X, y = random_mixed(seed=seed)
    s = BSEJ(cv=(5 if scoring == "cv" else None), priors=priors, alpha=alpha, ddof=ddof, var_smoothing=0.0, n_bins=4,
             random_state=seed)
    engine, *_ = s.build_engine(X, y)
    splits = s._splits(engine.y) if scoring == "cv" else [(np.delete(np.arange(len(y)), i), np.array([i]))
                                                           for i in range(len(y))]
    for groups in STRUCTURES:
        got = engine.score(engine.joint(groups))
        assert got == brute_force_score(s, X, y, groups, splits), groups
        # and the incremental form: start from all singles, apply the change by arithmetic
        S = engine.joint([(j,) for j in range(5)])
        for g in [(j,) for j in range(5)]:
            if g not in groups:
                S = S - engine.contribution(g)
        for g in groups:
            if len(g) > 1 or g not in [(j,) for j in range(5)]:
                S = S + engine.contribution(g)
        assert engine.score(S) == got


def test_xor_is_joined():
    rng = np.random.default_rng(1)
    n = 400
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    X = pd.DataFrame({"a": a, "b": b, **{f"n{k}": rng.integers(0, 2, n) for k in range(4)}}).astype(str)
    y = (a ^ b).astype(str)
    assert NaiveBayes().fit(X, y).score(X, y) < 0.6
    Xt = pd.DataFrame({"a": rng.integers(0, 2, 200), "b": rng.integers(0, 2, 200),
                       **{f"n{k}": rng.integers(0, 2, 200) for k in range(4)}}).astype(str)
    yt = (Xt["a"].astype(int) ^ Xt["b"].astype(int)).astype(str)
    for method in (BSJ, BSEJ):
        m = method().fit(X, y)
        assert (0, 1) in m.structure_.groups
        assert m.score(Xt, yt) > 0.97


def test_correlated_simulation_features_are_repaired():
    """The thesis's M1 and M2 (correlation 0.9): BSE or BSEJ deletes or joins
    them and beats plain Naive Bayes on held-out data."""
    gains = []
    for seed in range(5):
        train = make_thesis_simulation(1000, random_state=10 + seed)
        test = make_thesis_simulation(2000, random_state=20 + seed)
        nb = NaiveBayes().fit(train).score(test.X, test.y)
        m = BSEJ().fit(train)
        touched = {j for g in m.structure_.groups if len(g) > 1 for j in g} | set(m.structure_.excluded)
        assert touched & {0, 1}
        gains.append(m.score(test.X, test.y) - nb)
    assert np.mean(gains) > 0.003


def test_history_and_determinism(weather):
    a, b = BSEJ().fit(weather), BSEJ().fit(weather)
    assert a.history_ == b.history_
    assert a.history_[0]["operator"] == "start"
    assert all(h2["score"] > h1["score"] for h1, h2 in zip(a.history_, a.history_[1:]))
    assert "final structure" in a.to_text()


def test_fssj_starts_from_the_priors(weather):
    m = FSSJ().fit(weather)
    assert m.history_[0]["attributes"].startswith("(no attribute")
    assert m.predict_proba(weather.X).shape == (14, 2)


def test_tol_and_min_attributes(weather):
    full = BSE(tol=1.0).fit(weather)  # nothing can improve by more than 1
    assert full.structure_.n_used == 4 and len(full.history_) == 1
    keep = BSE(tol=-np.inf, min_attributes=2).fit(weather)  # accept every step down to 2
    assert keep.structure_.n_used == 2


def test_candidate_pairs_limits_joins():
    X, y = random_mixed(80, seed=3)
    m = BSJ(candidate_pairs=1).fit(X, y)
    assert m.n_candidates_ <= 1 + 5


@pytest.mark.parametrize("estimation", ["frequency", "predictive"])
@pytest.mark.parametrize("method", [BSE, BSEJ, FSSJ])
@pytest.mark.parametrize("scoring", ["loo", "cv"])
def test_streamed_search_equals_in_memory(tmp_path, method, scoring, estimation):
    """Scores from merged statistics over chunks equal the in-memory engine's, with any estimator."""
    from seminaive.data import load_file
    from seminaive.core.folds import stratified_folds
    from seminaive.search.streamed import search_file
    X, y = random_mixed(n=90, seed=4)
    path = tmp_path / "d.csv"
    X.assign(cls=y).to_csv(path, index=False, na_rep="?")
    kw = dict(cv=(5 if scoring == "cv" else None), var_smoothing=0.0, n_bins=4, random_state=3, estimation=estimation)
    streamed = search_file(method(**kw), path, chunksize=17)
    d = load_file(path)
    folds = stratified_folds(d.y, 5, 3)
    cv = [(np.flatnonzero(folds != f), np.flatnonzero(folds == f)) for f in range(5)]
    memory = method(**{**kw, "cv": cv if scoring == "cv" else None}).fit(d)
    assert [(h["operator"], h["attributes"], h["score"]) for h in streamed.history_] == \
        [(h["operator"], h["attributes"], h["score"]) for h in memory.history_]
    assert streamed.structure_ == memory.structure_
    np.testing.assert_allclose(streamed.predict_proba(d.X), memory.predict_proba(d.X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("scoring", ["loo", "cv"])
def test_streamed_search_joins_like_in_memory(tmp_path, scoring):
    from seminaive.data import load_file
    from seminaive.core.folds import stratified_folds
    from seminaive.search.streamed import search_file
    rng = np.random.default_rng(7)
    n = 240
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    X = pd.DataFrame({"a": a.astype(str), "b": b.astype(str), "n1": rng.integers(0, 3, n).astype(str),
                      "x": rng.normal(a ^ b, 2.0, n)})
    path = tmp_path / "xor.csv"
    X.assign(cls=np.where(a ^ b, "odd", "even")).to_csv(path, index=False)
    kw = dict(cv=(4 if scoring == "cv" else None), var_smoothing=0.0, random_state=1)
    streamed = search_file(BSEJ(**kw), path, chunksize=50)
    d = load_file(path)
    folds = stratified_folds(d.y, 4, 1)
    cv = [(np.flatnonzero(folds != f), np.flatnonzero(folds == f)) for f in range(4)]
    memory = BSEJ(**{**kw, "cv": cv if scoring == "cv" else None}).fit(d)
    assert any(h["operator"] == "join" for h in streamed.history_)
    assert [(h["operator"], h["attributes"], h["score"]) for h in streamed.history_] == \
        [(h["operator"], h["attributes"], h["score"]) for h in memory.history_]
    np.testing.assert_allclose(streamed.predict_proba(d.X), memory.predict_proba(d.X), rtol=1e-9, atol=1e-12)


def brute_force_log_proba(search, X, y, groups, splits):
    """Each held-out row's log-posteriors from a NaiveBayes refitted without it (with the search's
    estimation options), in the engine's row order."""
    codes, xs = search._prepare(X)
    st = Structure(tuple(groups), X.shape[1])
    frame = st.frame(list(X.columns), codes, search._values, search._numeric_alone, xs)
    yc = pd.Series(pd.Categorical(y, categories=sorted(set(y))))
    out = np.empty((len(y), yc.cat.categories.size))
    for tr, te in splits:
        nb = search._final_model(list(frame.columns)).set_params(var_smoothing=0.0)
        nb.fit(frame.iloc[tr].reset_index(drop=True), yc.iloc[tr].reset_index(drop=True))
        out[te] = nb.predict_log_proba(frame.iloc[te])
    return out  # in the instances' order, as the engine holds them


@pytest.mark.parametrize("scoring", ["loo", "cv"])
@pytest.mark.parametrize("params", [dict(estimation="map"), dict(estimation="predictive"),
                                    dict(estimation="map", prior={"k0": 2.0, "a0": 3.0, "x": {"mu0": 1.0, "b0": 4.0}}),
                                    dict(estimation="m-estimate", alpha=2.0), dict(alpha=0.5, priors="mle", ddof=0)],
                         ids=repr)
def test_every_estimator_scores_as_refits_do(scoring, params):
    """Leave-one-out and k-fold contributions apply the model's own estimator to the statistics
    less the held-out part: the engine's log-posteriors equal refits without each held-out part."""
    X, y = random_mixed(seed=3)
    s = BSEJ(cv=(5 if scoring == "cv" else None), var_smoothing=0.0, n_bins=4, random_state=3, **params)
    engine, *_ = s.build_engine(X, y)
    splits = s._splits(engine.y) if scoring == "cv" else [(np.delete(np.arange(len(y)), i), np.array([i]))
                                                           for i in range(len(y))]
    for groups in STRUCTURES:
        S = engine.joint(groups).T
        got = S - np.logaddexp.reduce(S, axis=1, keepdims=True)
        np.testing.assert_allclose(got, brute_force_log_proba(s, X, y, groups, splits), rtol=0, atol=1e-9)
        assert engine.score(engine.joint(groups)) == brute_force_score_with(s, X, y, groups, splits)


def brute_force_score_with(search, X, y, groups, splits):
    yt = np.asarray(y)
    pred = np.array(sorted(set(y)))[brute_force_log_proba(search, X, y, groups, splits).argmax(axis=1)]
    return float(np.mean(pred == yt))


def test_bsej_with_map_estimates_fits_its_final_model_with_them():
    X, y = random_mixed(seed=4)
    m = BSEJ(estimation="map").fit(X, y)
    assert m.model_.estimation == "map"
    assert m.history_[0]["score"] == pytest.approx(
        brute_force_score_with(m, X, y, [(j,) for j in range(5)],
                               [(np.delete(np.arange(len(y)), i), np.array([i])) for i in range(len(y))]))


@pytest.mark.parametrize("rule", ["accuracy", "balanced_accuracy", "log_loss", "brier", "rmse"])
@pytest.mark.parametrize("cv", [None, 4])
@pytest.mark.parametrize("seed,missing", [(0, 0.1), (5, 0.0)])
def test_scoring_rules_equal_refits(rule, cv, seed, missing):
    """Every rule's leave-one-out and k-fold score of every structure (nominal, Gaussian, joined
    and missing values) equals the rule computed from refits without each held-out part, and a
    step's candidates scored incrementally (score_many) equal them too."""
    from _scoring import reference_score
    X, y = random_mixed(n=50, seed=seed, missing=missing)
    s = BSEJ(scoring=rule, cv=cv, var_smoothing=0.0, n_bins=4, random_state=seed)
    engine, *_ = s.build_engine(X, y)
    splits = s._splits(engine.y) if cv else [(np.delete(np.arange(len(y)), i), np.array([i]))
                                             for i in range(len(y))]
    singles = [(j,) for j in range(5)]
    want = []
    for groups in STRUCTURES:
        ref = reference_score(brute_force_log_proba(s, X, y, groups, splits), engine.y, rule)
        assert engine.score(engine.joint(groups), groups) == pytest.approx(ref, rel=1e-9, abs=1e-12), groups
        want.append(ref)
    cands = [("change", [g for g in singles if g not in groups], [g for g in groups if g not in singles])
             for groups in STRUCTURES]
    got = engine.score_many(singles, cands)
    np.testing.assert_allclose(got[1:], want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("rule", ["log_loss", "brier", "rmse", "balanced_accuracy"])
def test_search_by_a_loss_improves_it_at_every_step(rule):
    from seminaive.scoring import greater_is_better
    X, y = random_mixed(n=120, seed=2)
    m = BSEJ(scoring=rule).fit(X, y)
    scores = [h["score"] for h in m.history_]
    sign = 1 if greater_is_better(rule) else -1
    assert all(sign * (b - a) > 0 for a, b in zip(scores, scores[1:]))
    assert f"leave-one-out {rule.replace('_', ' ')}" in m.to_text()


def test_a_misspelled_scoring_rule_is_named():
    from seminaive.exceptions import ParameterError
    X, y = random_mixed(n=30, seed=1)
    with pytest.raises(ParameterError, match=r"scoring: expected one of 'accuracy', .*, got 'logloss'"):
        BSE(scoring="logloss").fit(X, y)
    with pytest.raises(ParameterError, match=r"scoring: expected one of"):
        BSE(scoring="loo").fit(X, y)


@pytest.mark.parametrize("rule", ["balanced_accuracy", "log_loss", "rmse"])
@pytest.mark.parametrize("cv", [None, 5])
def test_streamed_search_by_a_scoring_rule_equals_in_memory(tmp_path, rule, cv):
    """The rules' sums add over chunks: a file searched in chunks takes the in-memory steps."""
    from seminaive.data import load_file
    from seminaive.core.folds import stratified_folds
    from seminaive.search.streamed import search_file
    X, y = random_mixed(n=90, seed=6)
    path = tmp_path / "d.csv"
    X.assign(cls=y).to_csv(path, index=False, na_rep="?")
    kw = dict(scoring=rule, var_smoothing=0.0, n_bins=4, random_state=3)
    streamed = search_file(BSEJ(cv=cv, **kw), path, chunksize=17)
    d = load_file(path)
    folds = stratified_folds(d.y, 5, 3)
    memory = BSEJ(cv=None if cv is None else [(np.flatnonzero(folds != f), np.flatnonzero(folds == f))
                                              for f in range(5)], **kw).fit(d)
    assert [(h["operator"], h["attributes"]) for h in streamed.history_] == \
        [(h["operator"], h["attributes"]) for h in memory.history_]
    np.testing.assert_allclose([h["score"] for h in streamed.history_], [h["score"] for h in memory.history_],
                               rtol=1e-12)
