"""The semi-naive family against brute force: structures, probabilities, averaging."""

import itertools
import json

import numpy as np
import pandas as pd
import pytest

from seminaive import AODE, KDB, TAN, AnDE, DataFormatError, ParameterError, SelectiveKDB
from seminaive.bayesnet.tan import cmi_matrix, maximum_spanning_tree
from seminaive.dependence.information import conditional_mutual_information, mutual_information
from seminaive.persistence import model_from_dict, model_to_dict


def nominal_data(n=80, d=4, m=3, seed=0, missing=0.08):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.empty((n, d), dtype=object)
    prev = y
    for j in range(d):  # a chain of dependences
        col = (prev + rng.integers(0, 2, n) * (j % 2 + 1)) % m
        X[:, j] = np.array([f"v{v}" for v in col], dtype=object)
        prev = col
    X[rng.random((n, d)) < missing] = None
    return pd.DataFrame(X, columns=[f"a{j}" for j in range(d)]), np.array(["no", "yes"])[y]


def rows(X):
    """The table as lists of Python values, None where missing."""
    return [[None if pd.isna(v) else v for v in X.iloc[r]] for r in range(len(X))]


def value_lists(X):
    return [sorted({v for v in col if v is not None}) for col in zip(*rows(X))]


def brute_log_prob(X, y, classes, parents, alpha, x_row, c):
    """log P(c) + sum_i log P(x_i | c, parents) from counts taken row by row."""
    n, K = len(y), len(classes)
    data, values = rows(X), value_lists(X)
    out = np.log((np.sum(y == c) + 1.0) / (n + K))
    for i in range(X.shape[1]):
        if x_row[i] is None:
            continue
        pa = parents[i]
        if any(x_row[p] is None for p in pa):
            pa = ()
        sel = [r for r in range(n) if y[r] == c and data[r][i] is not None
               and all(data[r][p] == x_row[p] for p in pa)]
        hit = sum(data[r][i] == x_row[i] for r in sel)
        out += np.log((hit + alpha) / (len(sel) + alpha * len(values[i])))
    return out


@pytest.mark.parametrize("make", [TAN, lambda **kw: KDB(k=1, **kw), lambda **kw: KDB(k=2, **kw)])
@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_tables_equal_brute_force(make, alpha):
    X, y = nominal_data()
    m = make(alpha=alpha).fit(X, y)
    parents = [m.structure_.parents_of(i) for i in range(X.shape[1])]
    jll = m._joint_log_likelihood(X)
    for r in range(0, len(y), 7):
        row = rows(X)[r]
        want = [brute_log_prob(X, y, m.classes_, parents, alpha, row, c) for c in m.classes_]
        np.testing.assert_allclose(jll[r], want, rtol=1e-12)
    np.testing.assert_allclose(m.predict_proba(X).sum(axis=1), 1.0)


def prufer_trees(d):
    """Every spanning tree of the complete graph on d nodes, as edge lists."""
    for seq in itertools.product(range(d), repeat=d - 2):
        degree = [1] * d
        for v in seq:
            degree[v] += 1
        edges, seq = [], list(seq)
        for v in seq:
            leaf = min(u for u in range(d) if degree[u] == 1)
            edges.append((leaf, v))
            degree[leaf] -= 1
            degree[v] -= 1
        u, w = [x for x in range(d) if degree[x] == 1]
        edges.append((u, w))
        yield edges


def test_tan_tree_is_the_maximum_spanning_tree():
    X, y = nominal_data(n=200, d=5, seed=3)
    m = TAN(arc_score="cmi").fit(X, y)
    cols = [np.asarray(r.codes(m._encode(X)), dtype=np.int64) for r in m.readers_]
    ycodes = (y == "yes").astype(np.int64)
    W = np.array([[conditional_mutual_information(cols[i], cols[j], ycodes) if i != j else 0.0 for j in range(5)]
                  for i in range(5)])
    np.testing.assert_allclose(cmi_matrix(cols, ycodes), W)
    ours = sum(W[i, p] for i in range(5) for p in m.structure_.parents_of(i))
    best = max(sum(W[a, b] for a, b in t) for t in prufer_trees(5))
    assert ours == pytest.approx(best, rel=1e-12)
    assert m.structure_.parents_of(0) == () and all(len(m.structure_.parents_of(i)) == 1 for i in range(1, 5))


def test_maximum_spanning_tree_directs_edges_away_from_the_root():
    W = np.array([[0, 1, 5, 0], [1, 0, 4, 2], [5, 4, 0, 3], [0, 2, 3, 0]], dtype=float)
    assert maximum_spanning_tree(W) == [None, 2, 0, 2]
    assert maximum_spanning_tree(W, root=3) == [2, 2, 3, None]


def test_kdb_structure_follows_the_information_order():
    X, y = nominal_data(n=200, d=5, seed=4)
    m = KDB(k=2, arc_score="cmi").fit(X, y)
    cols = [np.asarray(r.codes(m._encode(X)), dtype=np.int64) for r in m.readers_]
    ycodes = (y == "yes").astype(np.int64)
    mi = [mutual_information(c, ycodes) for c in cols]
    order = sorted(range(5), key=lambda i: (-mi[i], i))
    assert m.order_ == order
    for pos, i in enumerate(order):
        earlier = order[:pos]
        score = {j: conditional_mutual_information(cols[i], cols[j], ycodes) for j in earlier}
        want = sorted(earlier, key=lambda j: (-score[j], order.index(j)))[:2]
        assert m.structure_.parents_of(i) == tuple(want)
    assert KDB(k=0).fit(X, y).structure_.parents == ((),) * 5  # k = 0: Naive Bayes


def brute_ande(X, y, classes, n, alpha, min_count, x_row):
    """AnDE's joint log-likelihood of one row, by explicit loops (the NB fallback when no set is active)."""
    N, K, d = len(y), len(classes), X.shape[1]
    values, data = value_lists(X), rows(X)
    terms = {c: [] for c in classes}
    for P in itertools.combinations(range(d), n):
        if any(x_row[p] is None for p in P):
            continue
        match = [r for r in range(N) if all(data[r][p] == x_row[p] for p in P)]
        if len(match) < max(min_count, 1):
            continue
        present = [r for r in range(N) if all(data[r][p] is not None for p in P)]
        M = int(np.prod([len(values[p]) for p in P]))
        for c in classes:
            mc = [r for r in match if y[r] == c]
            t = np.log((len(mc) + alpha) / (len(present) + alpha * K * M))
            for i in range(d):
                if i in P or x_row[i] is None:
                    continue
                sel = [r for r in mc if data[r][i] is not None]
                hit = sum(data[r][i] == x_row[i] for r in sel)
                t += np.log((hit + alpha) / (len(sel) + alpha * len(values[i])))
            terms[c].append(t)
    if not terms[classes[0]]:
        return [brute_log_prob(X, y, classes, [()] * d, alpha, x_row, c) for c in classes]
    return [np.log(np.mean(np.exp(terms[c]))) for c in classes]


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("min_count", [1, 4])
def test_ande_equals_brute_force(n, min_count):
    X, y = nominal_data(n=60, d=4, seed=5, missing=0.15)
    m = AnDE(n=n, alpha=1.0, min_count=min_count).fit(X, y)
    jll = m._joint_log_likelihood(X)
    for r in range(0, len(y), 5):
        row = rows(X)[r]
        np.testing.assert_allclose(jll[r], brute_ande(X, y, m.classes_, n, 1.0, min_count, row), rtol=1e-10)


def test_aode_is_ande_one_and_a_row_with_no_parent_gets_naive_bayes():
    X, y = nominal_data(n=60, d=3, seed=6)
    np.testing.assert_array_equal(AODE().fit(X, y).predict_proba(X), AnDE(n=1).fit(X, y).predict_proba(X))
    X.iloc[0] = None  # every value missing: no super-parent, Naive Bayes (the priors)
    m = AnDE(n=1).fit(X, y)
    np.testing.assert_allclose(m._joint_log_likelihood(X.iloc[:1])[0], m.class_log_prior_)


def test_ande_partial_fit_and_merge_equal_one_fit():
    X, y = nominal_data(n=90, d=4, seed=7)
    cats = {c: pd.CategoricalDtype(v) for c, v in zip(X.columns, value_lists(X))}
    X = X.astype(cats)
    whole = AnDE(n=2).fit(X, y)
    parts = AnDE(n=2)
    for s in (slice(0, 30), slice(30, 60), slice(60, 90)):
        parts.partial_fit(X[s], y[s], classes=["no", "yes"])
    a, b = AnDE(n=2).fit(X[:45], y[:45]), AnDE(n=2).fit(X[45:], y[45:])
    for other in (parts, a.merge(b)):
        np.testing.assert_allclose(other.predict_proba(X), whole.predict_proba(X), rtol=1e-12)


def test_numeric_attributes_are_cut_from_the_training_data_only():
    from seminaive.datasets import load
    from seminaive.discretize import DISCRETIZERS
    d = load("iris")
    part = d.X.iloc[:100], d.y[:100]
    for numeric in ("mdl", "mdl_fallback"):  # (MDL finds a cut in every column here: the two agree)
        m = TAN(numeric=numeric).fit(*part)
        for r, col in zip(m.readers_, d.X.columns):
            want = DISCRETIZERS["mdl"]().cuts_for(part[0][col].to_numpy(dtype=float),
                                                  pd.factorize(part[1], sort=True)[0])
            np.testing.assert_array_equal(r.cuts, want)
        assert f"numeric attributes in intervals ({numeric}):" in m.to_text()


@pytest.mark.parametrize("model", [TAN(), KDB(k=2), AnDE(n=2)])
def test_model_files_round_trip_and_refuse_bad_structures(model):
    X, y = nominal_data()
    m = model.fit(X, y)
    d = json.loads(json.dumps(model_to_dict(m)))
    np.testing.assert_array_equal(model_from_dict(d).predict_proba(X), m.predict_proba(X))
    bad = json.loads(json.dumps(d))
    bad["state"]["structure"]["parents"] = [[9]] * 4
    with pytest.raises(DataFormatError, match="structure"):
        model_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["counts"]["stats_"][0]["counts"] = [[1.0]]
    with pytest.raises(DataFormatError, match=r"counts\.stats_\[0\]"):
        model_from_dict(bad)


@pytest.mark.parametrize("bad,match", [(KDB(k=-1), "k"), (AnDE(n=4), "n"), (TAN(numeric="gaussian"), "numeric"),
                                       (AnDE(min_count=-1), "min_count"), (TAN(alpha=-1), "alpha")])
def test_bad_parameters_name_themselves(bad, match):
    X, y = nominal_data(n=20)
    with pytest.raises(ParameterError, match=match):
        bad.fit(X, y)


def test_one_attribute_and_unseen_values():
    X, y = nominal_data(n=40, d=1)
    for m in (TAN(), KDB(k=2), AnDE(n=1), AnDE(n=2)):
        m.fit(X, y)
        assert m.predict_proba(X).shape == (40, 2)
    with pytest.warns(UserWarning, match="not seen"):
        TAN().fit(X, y).predict(pd.DataFrame({"a0": ["never"]}))


@pytest.mark.parametrize("loss", ["rmse", "log_loss", "accuracy", "brier", "balanced_accuracy"])
@pytest.mark.parametrize("alpha,estimation", [(1.0, "frequency"), (0.3, "frequency"), (2.0, "m-estimate")])
def test_selective_kdb_leave_one_out_equals_refits(loss, alpha, estimation):
    """Every candidate's leave-one-out loss equals refitting its tables without each instance."""
    from seminaive import SelectiveKDB
    from _scoring import refit_leave_one_out_jll, reference_score
    X, y = nominal_data(n=40, d=4, seed=8, missing=0.1)
    m = SelectiveKDB(k=2, scoring=loss, alpha=alpha, estimation=estimation).fit(X, y)
    for h in m.history_:
        jll, ycodes = refit_leave_one_out_jll(m, X, y, m.order_[:h["attributes"]], h["k"])
        want = reference_score(jll, ycodes, loss)
        assert h["score"] == pytest.approx(want, rel=1e-9, abs=1e-12), h
    sign = 1 if loss in ("accuracy", "balanced_accuracy") else -1
    best = min(m.history_, key=lambda h: (-sign * h["score"], h["attributes"], h["k"]))
    assert (m.n_attributes_, m.k_) == (best["attributes"], best["k"])
    assert len(m.structure_.groups) == m.n_attributes_


SMALL = pd.DataFrame({"a": list("xyxyxyxy"), "b": list("ppqqpqpq")})
SMALL_Y = ["c1", "c2", "c1", "c2", "c1", "c1", "c2", "c2"]


@pytest.mark.parametrize("model", [KDB(k=10), AnDE(n=2), AnDE(n=3)])
def test_more_parents_than_attributes_is_naive_bayes_with_the_parents_there_are(model):
    from seminaive import NaiveBayes
    one = SMALL[["a"]]
    np.testing.assert_allclose(model.fit(one, SMALL_Y).predict_proba(one),
                               NaiveBayes().fit(one, SMALL_Y).predict_proba(one), rtol=1e-12)
    two = KDB(k=10).fit(SMALL, SMALL_Y)
    assert max(len(two.structure_.parents_of(i)) for i in range(2)) == 1


@pytest.mark.parametrize("model", [TAN(), KDB(k=2), SelectiveKDB(k=2), AnDE(n=1)])
def test_an_all_missing_column_changes_nothing(model):
    """(Not A2DE here: n is capped at the attributes less one, so on these two attributes A2DE is
    AODE, while with a third, empty one it averages the pair's model.)"""
    from sklearn.base import clone
    with_empty = SMALL.assign(m=pd.Series([None] * 8, dtype=object))
    np.testing.assert_allclose(clone(model).fit(with_empty, SMALL_Y).predict_proba(with_empty),
                               clone(model).fit(SMALL, SMALL_Y).predict_proba(SMALL), rtol=1e-12)


@pytest.mark.parametrize("model", [TAN(), KDB(k=2), SelectiveKDB(), AnDE(n=1), AnDE(n=2)])
def test_a_single_class_is_certain(model):
    p = model.fit(SMALL, ["only"] * 8).predict_proba(SMALL)
    assert p.shape == (8, 1) and np.all(p == 1.0)


@pytest.mark.parametrize("model", [TAN(), KDB(k=2), SelectiveKDB(k=1)])
def test_explanations_add_up_to_the_log_odds(model):
    X, y = nominal_data(n=60, seed=9)
    m = model.fit(X, y)
    parts = m.attribute_log_likelihoods(X)
    np.testing.assert_allclose(parts.sum(axis=1) + m.class_log_prior_, m._joint_log_likelihood(X), rtol=1e-12)
    text = m.explain(X.iloc[:2])
    assert text.startswith("instance 1: ") and "a0 = " in text


def test_ande_says_why_it_has_no_explanation():
    X, y = nominal_data(n=30)
    with pytest.raises(ParameterError, match="no additive explanation"):
        AnDE(n=1).fit(X, y).explain(X)


def test_m_estimate_tables_equal_the_formula():
    """(n + m p_v) / (n_parent + m), p_v the child's Laplace-smoothed overall frequency."""
    X, y = nominal_data(n=80, seed=10)
    m = TAN(estimation="m-estimate", alpha=2.0).fit(X, y)
    data, values = rows(X), value_lists(X)
    i = 1
    p = m.structure_.parents_of(i)[0]
    present = [r for r in range(len(y)) if data[r][i] is not None and data[r][p] is not None]
    overall = {v: sum(data[r][i] == v for r in present) for v in values[i]}
    for c in m.classes_:
        for vp in values[p]:
            sel = [r for r in present if y[r] == c and data[r][p] == vp]
            for v in values[i]:
                pv = (overall[v] + 1) / (len(present) + len(values[i]))
                want = (sum(data[r][i] == v for r in sel) + 2.0 * pv) / (len(sel) + 2.0)
                row = X.iloc[[0]].copy()
                row.iloc[0, i], row.iloc[0, p] = v, vp
                got = m.attribute_log_likelihoods(row)[0, i, list(m.classes_).index(c)]
                assert np.exp(got) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("loss", ["rmse", "accuracy", "log_loss"])
def test_selective_kdb_k_fold_equals_refits_per_fold(loss):
    """Every candidate's k-fold loss equals refitting its tables on the other folds."""
    from _scoring import reference_score
    from seminaive.components import ConditionalTable
    from seminaive.data.encoding import encode
    from seminaive.estimation import class_log_prior
    from seminaive.core.folds import stratified_folds
    X, y = nominal_data(n=60, d=4, seed=12, missing=0.1)
    m = SelectiveKDB(k=2, scoring=loss, cv=4, random_state=3).fit(X, y)
    ycodes = np.searchsorted(m.classes_, y)
    fold = stratified_folds(y, 4, 3)
    for h in m.history_:
        jll = np.empty((len(y), 2))
        for f in range(4):
            train, held = fold != f, fold == f
            sub, test = encode(X[train], m.schema_), encode(X[held], m.schema_)
            jll[held] = class_log_prior(np.bincount(ycodes[train], minlength=2).astype(float), "laplace")
            for i in m.order_[:h["attributes"]]:
                t = ConditionalTable(i, m.readers_[i], [m.readers_[p] for p in m._full_parents[i][:h["k"]]])
                t.estimate(t.count(sub, ycodes[train], 2, None), m._estimator())
                jll[held] += t.log_likelihood(test)
        assert h["score"] == pytest.approx(reference_score(jll, ycodes, loss), rel=1e-9, abs=1e-12), h


def test_k_fold_selection_from_chunks_is_refused():
    from seminaive.scale import fit_file
    import os
    with pytest.raises(ParameterError, match="cv"):
        fit_file(SelectiveKDB(cv=5), os.path.join(os.path.dirname(__file__), "data", "weka", "vote.arff"))
