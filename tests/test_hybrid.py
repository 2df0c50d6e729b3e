"""Hybrid children (``hybrid="gaussian"``): a selective kDB swaps a numeric attribute's table for a
normal density per class, or per class and value of its first parent (shrunk toward the class's),
or adds one the selection left out, where the leave-one-out score improves.

Checked by brute force: the densities are the module's formula written out from the training rows;
the recorded score of the last step is the leave-one-out RMSE of the kept model refitted without
each row, and the model's leave-one-out posteriors are those refits'; no remaining step would
improve it (each refitted too); weights as copies equal repeated rows; partial fits and merges
equal one fit's statistics; files, Parquet and Dask equal the fit in memory; predictions do not
move when units change; model files keep the children and refuse bad ones in one line."""

import copy
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from seminaive import ESKDB, SelectiveKDB
from seminaive.components.normal_child import NormalChild
from seminaive.core.structure import Structure
from seminaive.exceptions import DataFormatError, ParameterError
from seminaive.persistence import model_from_dict, model_to_dict

from _scoring import refit_leave_one_out_jll, reference_score
from _chunked import chunked_sources
from test_dask import client  # noqa: F401  (the module's LocalCluster)


def _data(n=80, seed=0):
    """A numeric attribute normal in each class (cuts lose), one with a class boundary, a nominal one."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["p", "q"], n)
    g = rng.normal(np.where(y == "p", 0.0, 1.3), 1.0)
    b = np.where(rng.random(n) < 0.75, (y == "q") * 5.0, 2.5) + rng.uniform(0, 1, n)
    c = np.where(rng.random(n) < 0.6, np.where(y == "p", "u", "v"), rng.choice(list("uvw"), n))
    X = pd.DataFrame({"g": g * 1000.0, "b": b, "c": pd.Categorical(c), "noise": rng.normal(size=n)})
    return X, y


def _fit(X, y, **kw):
    return SelectiveKDB(k=1, hybrid="gaussian", **kw).fit(X, y)


def _seed_with_children(given=None):
    """A seed whose fit takes normal children (one given a parent, when ``given``), and that fit."""
    for seed in range(30):
        m = _fit(*_data(seed=seed))
        if m.gaussian_ and (given is None or any(bool(c.parents) == given for c in m.normal_children_)):
            return seed, m
    raise AssertionError("no seed gives such a child")


def _brute_terms(m, X, y, Xe, leave_out=None, keep=None):
    """Each normal child's log-density (n_eval, K) at the rows of ``Xe`` from the training rows
    (less row ``leave_out``), by the module's formula written out: the class's mean and sample
    variance as a prior worth m rows for the cell of the row's parent value, plus the range floor."""
    from seminaive.data.encoding import encode
    tr, ev = encode(X, m.schema_), encode(Xe, m.schema_)
    if keep is None:
        keep = np.ones(len(y), dtype=bool) if leave_out is None else np.arange(len(y)) != leave_out
    out = {}
    for c in m.normal_children_:
        x, xe = X.iloc[:, c.attribute].to_numpy(), Xe.iloc[:, c.attribute].to_numpy()
        floor = 1e-6 * (x.max() - x.min()) ** 2
        pt = c.parents[0].codes(tr) if c.parents else np.zeros(len(y), dtype=int)
        pe = c.parents[0].codes(ev) if c.parents else np.full(len(xe), -1)
        res = np.empty((len(xe), len(m.classes_)))
        for k, label in enumerate(m.classes_):
            cls = x[keep & (y == label)]
            mu, s2 = cls.mean(), cls.var(ddof=1)
            for r in range(len(xe)):
                cell = x[keep & (y == label) & (pt == pe[r])] if pe[r] >= 0 else np.zeros(0)
                n = cell.size
                xbar = cell.mean() if n else 0.0
                m2 = ((cell - xbar) ** 2).sum()
                mean = (n * xbar + c.m * mu) / (n + c.m)
                var = (m2 + c.m * s2 + n * c.m / (n + c.m) * (xbar - mu) ** 2) / (n + c.m) + floor
                res[r, k] = stats.norm.logpdf(xe[r], mean, np.sqrt(var))
        out[c.attribute] = res
    return out


@pytest.mark.parametrize("given", [False, True])
def test_the_densities_are_the_formula_written_out(given):
    seed, m = _seed_with_children(given)
    X, y = _data(seed=seed)
    terms = m.attribute_log_likelihoods(X)
    Xt, _ = _data(seed=99)
    test_terms = m.attribute_log_likelihoods(Xt)
    for a, want in _brute_terms(m, X, y, X).items():
        np.testing.assert_allclose(terms[:, a, :], want, rtol=1e-9)
    for a, want in _brute_terms(m, X, y, Xt).items():
        np.testing.assert_allclose(test_terms[:, a, :], want, rtol=1e-9)


def _refit_jll(m, X, y):
    """Leave-one-out joint log-likelihoods of the kept model: its tables refitted without each row
    (:func:`refit_leave_one_out_jll`), plus each normal child's density from the other rows."""
    tables = [g[0] for g in m.structure_.groups]
    jll, ycodes = refit_leave_one_out_jll(m, X, y, tables, m.k_)
    for r in range(len(y)):
        for part in _brute_terms(m, X, y, X.iloc[[r]], leave_out=r).values():
            jll[r] += part[0]
    return jll, ycodes


@pytest.mark.parametrize("given", [False, True])
def test_the_kept_score_and_the_leave_one_out_posteriors_are_refits(given):
    seed, m = _seed_with_children(given)
    X, y = _data(seed=seed)
    jll, ycodes = _refit_jll(m, X, y)
    assert m.hybrid_history_[-1]["score"] == pytest.approx(reference_score(jll, ycodes, "rmse"), rel=1e-9)
    want = jll - np.logaddexp.reduce(jll, axis=1, keepdims=True)
    np.testing.assert_allclose(m._loo_log_proba(X, y), want, rtol=1e-9, atol=1e-12)


def test_k_fold_selection_scores_are_refits_on_the_other_folds():
    """With ``cv=3`` the steps are scored by each fold's rows under the other folds' statistics: the
    kept score is that of the model refitted on the other folds, fold by fold (brute force)."""
    from seminaive.components import ConditionalTable
    from seminaive.core.folds import stratified_folds
    from seminaive.data.encoding import encode
    from seminaive.estimation import class_log_prior
    for seed in range(30):
        X, y = _data(seed=seed)
        m = _fit(X, y, cv=3)
        if any(c.parents for c in m.normal_children_):
            break
    fold = stratified_folds(np.asarray(m.classes_, dtype=object)[np.searchsorted(m.classes_, y)], 3, m.random_state)
    ycodes, K = np.searchsorted(m.classes_, y), len(m.classes_)
    jll = np.zeros((len(y), K))
    for f in range(3):
        train, test = fold != f, fold == f
        sub, held = encode(X[train], m.schema_), encode(X[test], m.schema_)
        jll[test] = class_log_prior(np.bincount(ycodes[train], minlength=K).astype(float), "laplace")
        for i, g in enumerate(m.structure_.groups):
            t = ConditionalTable(g[0], m.readers_[g[0]], [m.readers_[p] for p in m.structure_.parents_of(i)])
            t.estimate(t.count(sub, ycodes[train], K, None), m._count_estimator())
            jll[test] += t.log_likelihood(held)
        for part in _brute_terms(m, X, y, X[test], keep=train).values():
            jll[test] += part
    assert m.hybrid_history_[-1]["score"] == pytest.approx(reference_score(jll, ycodes, "rmse"), rel=1e-9)


def test_no_step_left_would_improve_the_refitted_score():
    """Every class-alone form not taken, added to the kept model and refitted, scores no better."""
    seed, m = _seed_with_children()
    X, y = _data(seed=seed)
    best = m.hybrid_history_[-1]["score"]
    tried = 0
    for a in [j for j in range(X.shape[1]) if j not in m.gaussian_ and X.dtypes.iloc[j] != "category"]:
        other = copy.copy(m)
        other.normal_children_ = m.normal_children_ + [NormalChild(a, m.readers_[a].column)]
        keep = [i for i, g in enumerate(m.structure_.groups) if g[0] != a]
        other.structure_ = Structure(tuple(m.structure_.groups[i] for i in keep), len(m.schema_),
                                     tuple(m.structure_.parents_of(i) for i in keep))
        assert reference_score(*_refit_jll(other, X, y), "rmse") >= best - 1e-12
        tried += 1
    assert tried


def test_both_forms_occur_and_a_stepped_boundary_keeps_its_cuts():
    """The choice can see a wrong answer: normal attributes go normal (given the class alone on some
    data, given a parent on others), a two-threshold boundary keeps its intervals."""
    assert _seed_with_children(False) and _seed_with_children(True)
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 10, 200)
    y = np.where((x > 3) & (x < 6), "in", "out")  # two thresholds: no single normal per class fits
    assert _fit(pd.DataFrame({"x": x}), y).gaussian_ == []


def test_units_do_not_change_predictions():
    seed, m = _seed_with_children()
    X, y = _data(seed=seed)
    scaled = X.assign(g=X["g"] / 1e6, b=X["b"] * 1e4, noise=X["noise"] * 1e-3)
    other = _fit(scaled, y)
    assert other.gaussian_ == m.gaussian_
    np.testing.assert_allclose(other.predict_proba(scaled), m.predict_proba(X), rtol=1e-9)


def test_weights_as_copies_equal_repeated_rows():
    seed, _ = _seed_with_children(True)
    X, y = _data(seed=seed)
    w = np.random.default_rng(1).integers(1, 4, len(y))
    weighted = SelectiveKDB(k=1, hybrid="gaussian").fit(X, y, sample_weight=w)
    rows = np.repeat(np.arange(len(y)), w)
    repeated = _fit(X.iloc[rows].reset_index(drop=True), y[rows])
    assert weighted.gaussian_ == repeated.gaussian_
    # the same steps; their scores sum weights or rows in another order (equal up to rounding, which
    # differs between machines' vector instructions)
    assert [{**h, "score": pytest.approx(h["score"], rel=1e-12)} for h in weighted.hybrid_history_] \
        == repeated.hybrid_history_
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), rtol=1e-9)


def _same_stats(a, b):
    for sa, sb in zip(a.normal_stats_, b.normal_stats_):
        for key in ("weight", "mean", "m2"):
            np.testing.assert_allclose(sa[key], sb[key], rtol=1e-10, atol=1e-12)


def test_partial_fit_and_merge_equal_the_statistics_of_one_fit():
    """A second chunk added by partial_fit, or a model of it merged in, gives the moments one count
    of both chunks gives under the first chunk's choice."""
    import warnings
    seed, _ = _seed_with_children(True)
    (X1, y1), (X2, y2) = _data(seed=seed), _data(seed=seed + 50)
    X, y = pd.concat([X1, X2], ignore_index=True), np.concatenate([y1, y2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        grown = SelectiveKDB(k=1, hybrid="gaussian").partial_fit(X[:80], y[:80], classes=["p", "q"])
        half = copy.deepcopy(grown)
        grown.partial_fit(X[80:], y[80:])
    assert grown.gaussian_
    whole = _with_counts_of(half, X, y)
    _same_stats(grown, whole)
    merged = half.merge(_with_counts_of(half, X[80:], y[80:]))
    _same_stats(merged, whole)
    np.testing.assert_allclose(merged.predict_proba(X), grown.predict_proba(X), rtol=1e-10)
    np.testing.assert_allclose(whole.predict_proba(X), grown.predict_proba(X), rtol=1e-10)


def _with_counts_of(model, X, y):
    """``model``'s structure, intervals and children with the counts of ``X``, ``y`` only."""
    from seminaive.data.encoding import encode
    out = copy.deepcopy(model)
    table, k = encode(X, model.schema_), len(model.classes_)
    yc = np.searchsorted(model.classes_, y)
    out._set_counts(model._count(table, yc, k, None))
    out.class_count_ = np.bincount(yc, minlength=k).astype(float)
    out._estimate()
    return out


def test_merging_models_with_other_children_is_refused():
    seed, m = _seed_with_children()
    other = copy.deepcopy(m)
    other.normal_children_ = other.normal_children_[:-1]
    with pytest.raises(ParameterError, match=r"merge: the models' normal children \(hybrid\) differ"):
        m.merge(other)


def test_model_files_keep_the_children_and_refuse_bad_ones():
    seed, m = _seed_with_children(True)
    X, _ = _data(seed=seed)
    d = json.loads(json.dumps(model_to_dict(m)))
    back = model_from_dict(d)
    assert back.gaussian_ == m.gaussian_ and back.hybrid_history_ == m.hybrid_history_
    np.testing.assert_array_equal(back.predict_proba(X), m.predict_proba(X))
    given = next(i for i, c in enumerate(m.normal_children_) if c.parents)
    for change, message in [(("attribute", 2), r"state.normal_children\[\d\].attribute: expected a numeric attribute, "
                                               r"got 'c' \(nominal\)"),
                            (("m2", [[-1.0, 1.0]]), r"state.normal_children\[\d\].m2"),
                            (("scale", 3.0), r"state.normal_children\[\d\].scale: expected a power of two, got 3.0")]:
        bad = json.loads(json.dumps(d))
        bad["state"]["normal_children"][given][change[0]] = change[1]
        with pytest.raises(DataFormatError, match=message):
            model_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["normal_children"][given]["parents"][0]["cuts"] = [0.5]
    with pytest.raises(DataFormatError, match=r"parents\[0\]: expected another attribute as the model reads it"):
        model_from_dict(bad)


def _weighted_setup(how):
    seed, _ = _seed_with_children(True)
    X, y = _data(seed=seed)
    m = _fit(X, y)
    table, yc = m._encode(X), np.searchsorted(m.classes_, y)
    return m, X, y, table, yc


@pytest.mark.parametrize("how", ["table", "parameter"])
def test_discriminative_weights_on_normal_children_gradient_and_weighted_sum(how):
    """The children's terms enter the objective (its gradient is its finite differences), and a
    weighted model is its terms times the weights of their cells, the children's too."""
    from scipy.optimize import check_grad
    from seminaive.bayesnet.discriminative import _layout, _objective, fit_weights, fold_weights
    m, X, y, table, yc = _weighted_setup(how)
    logs, flat, used = _layout(m, table, how)
    assert logs.shape[1] == len(m.tables_) + len(m.normal_children_)
    k = len(m.classes_)
    size = k + (logs.shape[1] if flat is None else sum(u.size for u in used) * k)
    args = (logs, flat, m.class_log_prior_, yc, np.ones(yc.size), 0.3)
    theta = np.random.default_rng(2).uniform(0.2, 1.5, size)
    assert check_grad(lambda t: _objective(t, *args)[0], lambda t: _objective(t, *args)[1], theta,
                      epsilon=1e-6) < 1e-4 * np.linalg.norm(_objective(theta, *args)[1])
    weights = fit_weights(m, table, yc, None, how, 0.3)
    terms = m.attribute_log_likelihoods(X)
    weighted = copy.deepcopy(m)
    fold_weights(weighted, weights)
    want = m.class_log_prior_ * weights["prior"]
    for t, (cells, w) in zip(list(m.tables_) + m.normal_children_, weights["tables"]):
        row = t.cells(t.columns(table), len(yc)) if hasattr(t, "log_table_") else t.parent_codes(table)
        n_cells = t.log_table_.size // k if hasattr(t, "log_table_") else t.n_configs + 1
        full = np.ones((n_cells, k))
        if cells is None:
            full[:] = w[0]
        else:
            full[cells] = w
        want = want + terms[:, t.attribute] * full[row]
    np.testing.assert_allclose(weighted._tables_sum(table), want, rtol=1e-12, atol=1e-12)
    children = np.concatenate([np.ravel(w) for _, w in weights["tables"][len(m.tables_):]])
    if how == "parameter":
        assert np.abs(children - 1).max() > 0.01  # the children's weights moved
    else:
        assert ((children >= 0) & (children <= 1)).all()  # WANBIA's bounds, the children's too


def test_weights_of_one_are_the_generative_model_and_model_files_keep_the_weights():
    from seminaive.bayesnet.discriminative import fit_weights, fold_weights
    m, X, y, table, yc = _weighted_setup("parameter")
    ones = fit_weights(m, table, yc, None, "parameter", 1.0)
    ones = {**ones, "prior": np.ones_like(ones["prior"]),
            "tables": [(c, np.ones_like(w)) for c, w in ones["tables"]]}
    same = copy.deepcopy(m)
    fold_weights(same, ones)
    np.testing.assert_array_equal(same.predict_proba(X), m.predict_proba(X))
    fitted = SelectiveKDB(k=1, hybrid="gaussian", discriminative="parameter", penalty=0.3).fit(X, y)
    assert fitted.gaussian_ and fitted.weights_ is not None
    back = model_from_dict(json.loads(json.dumps(model_to_dict(fitted))))
    np.testing.assert_array_equal(back.predict_proba(X), fitted.predict_proba(X))
    assert not np.allclose(fitted.predict_proba(X), m.predict_proba(X), atol=1e-3)


def _same(a, b, X):
    assert a.gaussian_ == b.gaussian_ and a.structure_ == b.structure_
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-10)


@pytest.mark.parametrize("seed", [0, 6])  # children: one; two, one of them an attribute the selection left out
def test_csv_parquet_and_dask_equal_the_fit_in_memory(tmp_path, client, seed):  # noqa: F811
    from seminaive.data import load_file
    from seminaive.scale import fit_file
    from seminaive.scale.dask import fit_dask
    csv, parquet, ddf = chunked_sources(tmp_path, *_data(n=150, seed=seed), row_group_size=40)
    d = load_file(str(csv))
    make = lambda: SelectiveKDB(k=2, hybrid="gaussian")  # noqa: E731
    memory = make().fit(d)
    assert memory.gaussian_
    _same(fit_file(make(), str(csv), chunksize=35), memory, d.X)
    _same(fit_file(make(), str(parquet), chunksize=35), memory, d.X)
    _same(fit_dask(make(), ddf.drop(columns="cls"), ddf["cls"]), memory, d.X)
    weighted = lambda: SelectiveKDB(k=2, hybrid="gaussian", discriminative="parameter", penalty=1.0)  # noqa: E731
    w_memory = weighted().fit(d)
    w_file = fit_file(weighted(), str(parquet), chunksize=35)
    assert w_file.gaussian_ == w_memory.gaussian_
    np.testing.assert_allclose(w_file.predict_proba(d.X), w_memory.predict_proba(d.X), atol=1e-4)
    e_memory = ESKDB(n_estimators=3, k=1, hybrid="gaussian").fit(d)
    e_file = fit_file(ESKDB(n_estimators=3, k=1, hybrid="gaussian"), str(parquet), chunksize=35)
    for a, b in zip(e_file.estimators_, e_memory.estimators_):
        _same(a, b, d.X)
    assert "; normal: " in e_memory.to_text()


def test_the_picture_and_the_text_show_the_normal_children():
    from seminaive.drawing import plot_structure
    seed, m = _seed_with_children(True)
    names = list(m.schema_.names)
    fig = plot_structure(m)
    labels = [t.get_text() for t in fig.axes[0].texts]
    for c in m.normal_children_:
        assert f"{names[c.attribute]} ~ N" in labels
        given = "".join(f", {names[p.attribute]}" for p in c.parents)
        assert f"{names[c.attribute]} ~ normal | class{given}" in m.to_text()
