"""Lazy Bayesian Rules against Weka 3.6's LBR (tests/data/reference/weka_lbr.json, made by
scripts/reference/make_weka_lbr.py), its leave-one-out against refits, its search against the
definition written plainly, its refusals and its model file."""

import json
import os

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

from seminaive import LBR, NaiveBayes, load_model, save_model
from seminaive.bayesnet.lbr_kernel import loo_errors
from seminaive.datasets import load
from seminaive.exceptions import ParameterError
from seminaive.scale import fit_file

from _weka_data import weka_data

HERE = os.path.dirname(__file__)
REFERENCE = json.load(open(os.path.join(HERE, "data", "reference", "weka_lbr.json")))


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_class_distributions_equal_wekas(name):
    ref = REFERENCE[name]
    d = weka_data(name)
    m = LBR(numeric="mdl").fit(d)
    assert len(ref["rows"]) == len(ref["proba"])
    got = m.predict_proba(d.X.iloc[ref["rows"]])
    if ref["classes"] is not None:
        got = got[:, [list(map(str, m.classes_)).index(c) for c in ref["classes"]]]
    np.testing.assert_allclose(got, np.asarray(ref["proba"]), rtol=1e-9, atol=1e-12)


def test_the_reference_can_see_a_wrong_model():
    """Plain Naive Bayes (LBR with an empty rule everywhere) differs from Weka's LBR where rules are found."""
    ref = REFERENCE["keel:tic-tac-toe"]
    d = weka_data("keel:tic-tac-toe")
    nb = NaiveBayes().fit(d).predict_proba(d.X.iloc[ref["rows"]])
    nb = nb[:, [list(map(str, NaiveBayes().fit(d).classes_)).index(c) for c in ref["classes"]]]
    assert np.abs(nb - np.asarray(ref["proba"])).max() > 0.05


def generate(seed, n=90, d=5, missing=0.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=n)
    cols = {}
    for j in range(d):
        m = int(rng.integers(2, 4))
        v = np.where(rng.random(n) < 0.55, (y * (j + 1)) % m, rng.integers(0, m, size=n))
        v = np.where(rng.random(n) < missing, -1, v)
        cols[f"a{j}"] = pd.Categorical.from_codes(v, categories=[f"v{i}" for i in range(m)])
    return pd.DataFrame(cols), np.array(["n", "p"])[y]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_leave_one_out_equals_refits(seed, missing):
    """The kernel's leave-one-out verdicts on a subset of rows and attributes against Naive Bayes (Laplace)
    refitted without each row."""
    X, y = generate(seed, missing=missing)
    m = LBR().fit(X, y)
    rows = np.flatnonzero(np.random.default_rng(seed).random(len(y)) < 0.7)
    atts = np.array([0, 2, 3])
    errors, right = loo_errors(m.train_codes_, m.train_classes_, m.widths_, 2, rows, atts)
    cols = [X.columns[a] for a in atts]
    want = []
    for r in rows:
        others = rows[rows != r]
        nb = NaiveBayes(alpha=1.0, priors="laplace").fit(X.iloc[others][cols], y[others])
        proba = nb.predict_proba(X.iloc[[r]][cols])[0]
        if len(nb.classes_) < 2:  # a class absent from the others: it cannot be predicted
            want.append(nb.classes_[0] == y[r])
            continue
        want.append(nb.classes_[int(np.argmax(proba))] == y[r])
    np.testing.assert_array_equal(right[rows], want)
    assert errors == len(rows) - sum(want)


def plain_lbr(X, y, x):
    """Zheng and Webb's search for one row written plainly with refits (no missing values)."""
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])
    xc = [list(X[c].cat.categories).index(v) for c, v in zip(X.columns, x)]

    def loo(rows, atts):
        right = {}
        for r in rows:
            others = [o for o in rows if o != r]
            scores = []
            for c in ("n", "p"):
                own = [o for o in others if y[o] == c]
                p = (len(own) + 1) / (len(others) + 2)
                for a in atts:
                    m = len(X[X.columns[a]].cat.categories)
                    p *= (sum(codes[o, a] == codes[r, a] for o in own) + 1) / (len(own) + m)
                scores.append(p)
            right[r] = ("n", "p")[int(np.argmax(scores))] == y[r]
        return right

    rows, atts = list(range(len(y))), list(range(codes.shape[1]))
    right = loo(rows, atts)
    errors, rule = sum(not v for v in right.values()), []
    while errors >= 5:
        best = None
        for a in atts:
            sub = [r for r in rows if codes[r, a] == xc[a]]
            if len(sub) >= len(rows):
                continue
            remainder = sum(not right[r] for r in rows if codes[r, a] != xc[a])
            new = loo(sub, [b for b in atts if b != a])
            worse = sum(1 for r in sub if not new[r] and right[r])
            better = sum(1 for r in sub if new[r] and not right[r])
            total = sum(not v for v in new.values()) + remainder
            p = 1.0 if worse == worse + better else binom.cdf(worse, worse + better, 0.5)
            if total < (best[0] if best else len(rows) + 1) and p < 0.05:
                best = (total, a, sub, new)
        if best is None:
            break
        errors, a, rows, sub_right = best
        right.update(sub_right)
        atts = [b for b in atts if b != a]
        rule.append(a)
    return rule


@pytest.mark.parametrize("seed", range(3))
def test_rules_equal_the_search_written_plainly(seed):
    X, y = generate(seed, n=70, d=4)
    m = LBR().fit(X, y)
    found = m._search(X.iloc[::7])[0]
    for i, r in enumerate(range(0, len(y), 7)):
        rule = found[i][found[i] >= 0].tolist()
        assert rule == plain_lbr(X, y, list(X.iloc[r])), r


def test_rules_name_the_row_s_values():
    d = load("keel:tic-tac-toe")
    m = LBR().fit(d)
    rules = m.rules(d.X.iloc[:5])
    assert any(rules)
    for i, rule in enumerate(rules):
        for name, value in rule:
            assert d.X.iloc[i][name] == value


def test_weights_are_copies_and_chunks_are_refused(tmp_path):
    X, y = generate(1)
    w = np.random.default_rng(0).integers(0, 3, size=len(y)).astype(float)
    weighted = LBR().fit(X, y, sample_weight=w)
    copies = LBR().fit(X.loc[X.index.repeat(w.astype(int))], np.repeat(y, w.astype(int)))
    np.testing.assert_allclose(weighted.predict_proba(X), copies.predict_proba(X), rtol=1e-12)
    with pytest.raises(ParameterError, match="whole-number"):
        LBR().fit(X, y, sample_weight=w + 0.5)
    path = tmp_path / "d.csv"
    X.assign(y=y).to_csv(path, index=False)
    with pytest.raises(ParameterError, match="lazy: it keeps the training rows"):
        fit_file(LBR(), path, chunksize=20)
    assert not hasattr(LBR(), "partial_fit")


def test_model_file_keeps_the_training_rows(tmp_path):
    d = load("keel:housevotes")
    m = LBR().fit(d)
    save_model(m, tmp_path / "lbr.json")
    again = load_model(tmp_path / "lbr.json")
    np.testing.assert_array_equal(again.predict_proba(d.X), m.predict_proba(d.X))
    assert "lazy" in again.to_text()


def test_explain_and_merge():
    d = load("keel:tic-tac-toe")
    m = LBR().fit(d)
    text = m.explain(d.X.iloc[:2])
    assert text.startswith("row 0: ") and "rule: x" in text
    half = len(d.y) // 2
    a, b = LBR().fit(d.X.iloc[:half], d.y[:half]), LBR().fit(d.X.iloc[half:], d.y[half:])
    merged = a.merge(b)
    np.testing.assert_allclose(merged.predict_proba(d.X.iloc[::50]), m.predict_proba(d.X.iloc[::50]), rtol=1e-12)
