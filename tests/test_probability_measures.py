"""Log loss, Brier, RMSE and calibration error in evaluate and compare, and reliability diagrams."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics

from seminaive import NaiveBayes
from seminaive.cli.main import main
from seminaive.datasets import load
from seminaive.evaluation import evaluate
from seminaive.evaluation.reliability import (add_bins, expected_calibration_error, probability_measures,
                                              reliability_bins)


@pytest.mark.parametrize("k", [2, 3])
def test_measures_equal_scikit_learn_and_a_direct_count(k):
    rng = np.random.default_rng(k)
    y = rng.integers(0, k, 300)
    proba = rng.dirichlet(np.ones(k), 300)
    m = probability_measures(proba, y)
    assert m["log_loss"] == pytest.approx(metrics.log_loss(y, proba, labels=list(range(k))), rel=1e-12)
    onehot = np.eye(k)[y]
    brier = metrics.brier_score_loss(y == 1, proba[:, 1]) if k == 2 else ((proba - onehot) ** 2).sum(1).mean()
    assert m["brier"] == pytest.approx(brier, rel=1e-12)
    assert m["rmse"] == pytest.approx(np.sqrt(metrics.mean_squared_error(onehot, proba)), rel=1e-12)
    # ECE by a direct loop over the bins
    conf, pred = proba.max(axis=1), proba.argmax(axis=1)
    ece = 0.0
    for b in range(10):
        sel = (conf >= b / 10) & ((conf < (b + 1) / 10) if b < 9 else (conf <= 1))
        if sel.any():
            ece += sel.mean() * abs((pred[sel] == y[sel]).mean() - conf[sel].mean())
    assert m["ece"] == pytest.approx(ece, rel=1e-12)
    # bins add over parts
    both = add_bins(reliability_bins(proba[:100], y[:100]), reliability_bins(proba[100:], y[100:]))
    assert expected_calibration_error(both) == pytest.approx(ece, rel=1e-12)


def test_a_calibrated_model_has_no_calibration_error_and_an_overconfident_one_has():
    rng = np.random.default_rng(0)
    p1 = rng.random(200_000)
    y = (rng.random(p1.size) < p1).astype(int)
    honest = np.column_stack([1 - p1, p1])
    sharp = np.column_stack([1 - p1 ** 3 / (p1 ** 3 + (1 - p1) ** 3), p1 ** 3 / (p1 ** 3 + (1 - p1) ** 3)])
    assert probability_measures(honest, y)["ece"] < 0.01
    assert probability_measures(sharp, y)["ece"] > 0.1
    assert probability_measures(sharp, y)["log_loss"] > probability_measures(honest, y)["log_loss"]


class _GivenFolds:
    """A protocol of folds made elsewhere (scikit-learn's), so that the test does not reuse evaluate's own."""

    def __init__(self, folds):
        self.folds = folds

    def splits(self, y):
        return self.folds

    def describe(self):
        return "given folds"


def test_evaluate_measures_each_fold_as_refits_give_them():
    from sklearn.model_selection import StratifiedKFold
    d = load("iris")
    folds = list(StratifiedKFold(5, shuffle=True, random_state=2).split(d.X, d.y))
    r = evaluate(NaiveBayes(), d, protocol=_GivenFolds(folds))
    y = np.asarray(d.y, dtype=object)
    classes = list(d.y.cat.categories)
    for f, (tr, te) in enumerate(folds):
        p = NaiveBayes().fit(d.X.iloc[tr], d.y.iloc[tr]).predict_proba(d.X.iloc[te])
        codes = np.array([classes.index(c) for c in y[te]])
        assert r.fold_probability["log_loss"][f] == pytest.approx(metrics.log_loss(codes, p, labels=[0, 1, 2]))
    out = r.to_dict()
    assert out["log_loss"] == pytest.approx(np.mean(r.fold_probability["log_loss"]))
    assert sum(out["reliability"]["count"]) == 150
    assert "expected calibration error" in r.to_text()


def test_evaluate_plot_and_compare_report(tmp_path, capsys):
    png = tmp_path / "rel.png"
    assert main(["evaluate", "iris", "--cv", "3", "--calibration", "sigmoid", "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["evaluate", "iris", "--plot", str(png)]) == 2  # never overwritten unless --force
    assert "exists" in capsys.readouterr().err
    out = tmp_path / "cmp"
    assert main(["compare", "--datasets", "iris,weather.nominal", "--models", "nb,nb-sigmoid,1r", "--cv", "3",
                 "--out", str(out)]) == 0
    report = (out / "report.md").read_text()
    assert "## Probabilities" in report and "![reliability](reliability.png)" in report
    assert (out / "reliability.png").exists()
    res = pd.read_csv(out / "results.csv")
    assert {"brier", "rmse", "ece", "reliability"} <= set(res.columns)
    assert res.loc[res.model == "1r", "log_loss"].notna().all()
    bins = json.loads(res["reliability"].iloc[0])
    assert sum(bins["count"]) == res["n_test"].iloc[0]


def test_compare_sets_aside_results_of_an_older_layout(tmp_path, capsys):
    out = tmp_path / "cmp"
    args = ["compare", "--datasets", "weather.nominal", "--models", "nb", "--cv", "2", "--out", str(out)]
    assert main(args) == 0
    old = pd.read_csv(out / "results.csv").drop(columns=["brier", "rmse", "ece", "reliability"])
    old.to_csv(out / "results.csv", index=False)
    assert main(args) == 0
    assert "kept as" in capsys.readouterr().err
    assert (out / "results.csv.old1").exists() and "brier" in pd.read_csv(out / "results.csv").columns
