"""Complement Naive Bayes against scikit-learn's ComplementNB (to 1e-12) and Weka 3.6's
ComplementNaiveBayes (its classes: Weka gives no probabilities), and its own paths agreeing:
partial fits, merges, weights, sparse input, the model file and the command line."""

import json
import pathlib

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.naive_bayes import ComplementNB

from seminaive import ComplementNaiveBayes, load_model, save_model
from seminaive._scale import TIE_RTOL
from seminaive.cli.main import main
from seminaive.exceptions import DataFormatError

REFERENCE = pathlib.Path(__file__).parent / "data" / "reference" / "weka_complement.json"


def counts(seed, n=80, d=12, k=3):
    rng = np.random.default_rng(seed)
    y = rng.choice(k, size=n, p=np.arange(1, k + 1) / np.arange(1, k + 1).sum())
    X = rng.poisson(rng.gamma(1.0, 1.5, size=(k, d))[y])
    return X.astype(float), np.array(["abcdefg"[c] for c in y])


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("alpha,norm", [(1.0, False), (0.5, True), (2.5, False), (0.0, False), (1e-3, True)])
def test_equal_to_scikit_learns_complement_nb(seed, alpha, norm):
    X, y = counts(seed, d=int(3 + seed % 9), k=int(2 + seed % 4))
    ours = ComplementNaiveBayes(alpha=alpha, norm=norm).fit(X, y)
    ref = ComplementNB(alpha=alpha, norm=norm, force_alpha=True).fit(X, y)
    with np.errstate(all="ignore"):
        test = counts(seed + 100, n=40, d=X.shape[1])[0]
        np.testing.assert_array_equal(ours.classes_, ref.classes_)
        np.testing.assert_allclose(ours.feature_log_prob_, ref.feature_log_prob_, rtol=1e-12, atol=1e-12)
        for rows in (X, test):
            p, q = ours.predict_proba(rows), ref.predict_proba(rows)
            finite = np.isfinite(q).all(axis=1)
            np.testing.assert_allclose(p[finite], q[finite], rtol=1e-12, atol=1e-12)
            jll = ours._joint_log_likelihood(rows)
            np.testing.assert_allclose(jll, ref.predict_joint_log_proba(rows), rtol=1e-12, atol=1e-12)
            top = np.sort(jll, axis=1)
            clear = finite & (top[:, -1] - top[:, -2] > 10 * TIE_RTOL * (1 + np.abs(top[:, -1])))
            np.testing.assert_array_equal(ours.predict(rows)[clear], ref.predict(rows)[clear])
            # a tie (normalized weights score a row of equal counts alike in every class): the package's one
            # rule, the first class within TIE_RTOL of the largest (scikit-learn's argmax follows float noise)
            first = np.argmax(jll >= top[:, -1:] - TIE_RTOL * (1 + np.abs(top[:, -1:])), axis=1)
            np.testing.assert_array_equal(ours.predict(rows)[finite], ours.classes_[first[finite]])
            np.testing.assert_allclose(p.sum(axis=1)[finite], 1.0, rtol=1e-12)


def test_weights_partial_fits_merges_and_sparse_input_equal_one_fit():
    X, y = counts(7, n=90, d=10)
    w = np.random.default_rng(0).integers(0, 4, size=len(y)).astype(float)
    one = ComplementNaiveBayes(alpha=0.7).fit(np.repeat(X, w.astype(int), axis=0), np.repeat(y, w.astype(int)))
    weighted = ComplementNaiveBayes(alpha=0.7).fit(X, y, sample_weight=w)
    sparse = ComplementNaiveBayes(alpha=0.7).fit(sp.csr_matrix(X), y, sample_weight=w)
    parts = ComplementNaiveBayes(alpha=0.7)
    for a, b in ((0, 30), (30, 61), (61, 90)):
        parts.partial_fit(X[a:b], y[a:b], classes=np.unique(y), sample_weight=w[a:b])
    merged = ComplementNaiveBayes(alpha=0.7).fit(X[:40], y[:40], sample_weight=w[:40]).merge(
        ComplementNaiveBayes(alpha=0.7).fit(X[40:], y[40:], sample_weight=w[40:]))
    want = one.predict_proba(X)
    for m in (weighted, sparse, parts, merged):
        np.testing.assert_allclose(m.predict_proba(X), want, rtol=1e-12)
    assert not np.allclose(want, ComplementNaiveBayes(alpha=0.7).fit(X, y).predict_proba(X))  # weights matter


def test_the_complement_of_a_class_is_what_decides_with_unequal_classes():
    """Rennie et al.'s point: with a large and a small class the multinomial model's estimates for
    the small class rest on few counts; the complement's rest on the other class's many. A worked
    case where the two models disagree, with the complement weights by hand."""
    from seminaive import MultinomialNaiveBayes
    X = np.array([[5, 0], [4, 1], [6, 0], [5, 1], [0, 1]])
    y = np.array(["big"] * 4 + ["small"])
    m = ComplementNaiveBayes().fit(X, y)
    np.testing.assert_allclose(m.feature_log_prob_, -np.log([[1 / 3, 2 / 3], [21 / 24, 3 / 24]]), rtol=1e-12)
    row = [[1, 1]]
    assert m.predict(row).tolist() == ["small"]
    assert MultinomialNaiveBayes().fit(X, y).predict(row).tolist() == ["big"]


@pytest.mark.skipif(not REFERENCE.exists(), reason="reference outputs not generated")
@pytest.mark.parametrize("name", ["seed0", "seed1", "seed2", "seed3"])
def test_classes_equal_wekas(name):
    """Weka 3.6's classes (scripts/reference/make_weka_complement.py): -S is alpha, -N the norm."""
    entry = json.loads(REFERENCE.read_text())[name]
    X, y = np.array(entry["X"], dtype=float), np.array(entry["y"])
    for option, (alpha, norm) in {"S1": (1.0, False), "S0.5-N": (0.5, True), "S2": (2.0, False)}.items():
        got = ComplementNaiveBayes(alpha=alpha, norm=norm).fit(X, y).predict(X)
        assert got.tolist() == entry["predicted"][option], option


def test_model_file_command_line_and_bad_input(tmp_path, capsys):
    X, y = counts(3, n=50, d=6)
    frame = pd.DataFrame(X, columns=[f"w{j}" for j in range(6)]).assign(label=y)
    path = tmp_path / "counts.csv"
    frame.to_csv(path, index=False)
    m = ComplementNaiveBayes(alpha=0.5, norm=True).fit(frame.drop(columns="label"), frame["label"])
    save_model(m, tmp_path / "m.json")
    again = load_model(tmp_path / "m.json")
    np.testing.assert_array_equal(again.predict_proba(X), m.predict_proba(X))
    assert again.get_params() == m.get_params()
    assert main(["fit", str(path), "--model", "complement", "--target", "label", "-m", str(tmp_path / "cli.json")]) == 0
    np.testing.assert_allclose(load_model(tmp_path / "cli.json").predict_proba(X),
                               ComplementNaiveBayes().fit(X, y).predict_proba(X), rtol=1e-12)
    with pytest.raises(DataFormatError, match="non-negative counts"):
        ComplementNaiveBayes().fit(-X, y)
    with pytest.raises(Exception, match="norm"):
        ComplementNaiveBayes(norm="yes").fit(X, y)
    assert "w" in m.to_text() and "normalized" in m.to_text()


def test_compare_runs_it_on_the_same_folds_as_the_other_models(tmp_path):
    """``seminaive compare`` takes complement Naive Bayes beside the others: each fold's accuracy in its
    results is scikit-learn's ComplementNB refitted on that fold's rows (the folds the protocol draws)."""
    from seminaive.evaluation.resampling import kfold
    X, y = counts(5, n=120, d=8)
    frame = pd.DataFrame(X, columns=[f"w{j}" for j in range(8)]).assign(label=y)
    path = tmp_path / "counts.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "report"
    assert main(["compare", f"{path}:label", "--models", "complement,multinomial", "--cv", "4", "-o", str(out)]) == 0
    res = pd.read_csv(out / "results.csv")
    got = res[res.model == "complement"].sort_values("split").accuracy.to_numpy()
    want = []
    for train, test in kfold(y, k=4, seed=0):
        guess = ComplementNB().fit(X[train], y[train]).predict(X[test])
        want.append(np.mean(guess == y[test]))
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert set(res.model) == {"complement", "multinomial"}
