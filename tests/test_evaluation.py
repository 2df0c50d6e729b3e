"""Measures against scikit-learn, tests against scipy, resampling, the runner, the studies."""

import json
import os

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn import metrics as skm
from sklearn.feature_selection import SelectKBest, chi2
from sklearn.pipeline import make_pipeline

from seminaive import NaiveBayes, OneR
from seminaive.data import Dataset
from seminaive.datasets import load, make_thesis_simulation
from seminaive.evaluation.experiment import Experiment, run_experiment
from seminaive.evaluation.metrics import measures, summarize
from seminaive.evaluation.report_files import write_report
from seminaive.evaluation.resampling import Protocol, per_class_holdout, repeated_kfold
from seminaive.evaluation.significance import corrected_t_test, paired_t_test, wilcoxon_test
from seminaive.evaluation.subsets import subset_study
from seminaive.exceptions import SeminaiveError


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_measures_match_sklearn(seed):
    rng = np.random.default_rng(seed)
    classes = ["a", "b", "c"]
    y = rng.choice(classes, 200)
    proba = rng.dirichlet([1, 1, 1], 200)
    proba[np.arange(200), [classes.index(v) for v in y]] += 0.5 * rng.random(200)
    proba /= proba.sum(axis=1, keepdims=True)
    pred = np.array(classes)[proba.argmax(axis=1)]
    m = measures(y, pred, classes, proba)
    assert m["accuracy"] == pytest.approx(skm.accuracy_score(y, pred))
    assert m["kappa"] == pytest.approx(skm.cohen_kappa_score(y, pred))
    assert list(m["recall"].values()) == pytest.approx(skm.recall_score(y, pred, labels=classes, average=None))
    assert list(m["precision"].values()) == pytest.approx(skm.precision_score(y, pred, labels=classes, average=None))
    assert m["macro_f1"] == pytest.approx(skm.f1_score(y, pred, labels=classes, average="macro"))
    assert m["log_loss"] == pytest.approx(skm.log_loss(y, proba, labels=classes))
    assert m["auc"] == pytest.approx(skm.roc_auc_score(y, proba, multi_class="ovr", labels=classes))
    assert m["confusion"] == skm.confusion_matrix(y, pred, labels=classes).tolist()


def test_binary_auc_matches_sklearn():
    rng = np.random.default_rng(7)
    y = rng.choice(["no", "yes"], 100)
    p = np.clip(0.5 + 0.3 * (y == "yes") + rng.normal(0, 0.25, 100), 0.01, 0.99)
    proba = np.column_stack([1 - p, p])
    m = measures(y, np.where(p > 0.5, "yes", "no"), ["no", "yes"], proba)
    assert m["auc"] == pytest.approx(skm.roc_auc_score(y == "yes", p))


def test_summary_matches_numpy():
    v = [0.9, 0.8, 1.0, 0.95]
    s = summarize(v)
    assert s["sd"] == pytest.approx(np.std(v, ddof=1)) and s["cv"] == pytest.approx(np.std(v, ddof=1) / np.mean(v))


def test_t_tests_match_scipy():
    rng = np.random.default_rng(0)
    a, b = rng.normal(0.8, 0.05, 10), rng.normal(0.78, 0.05, 10)
    plain = paired_t_test(a, b)
    ref = stats.ttest_rel(a, b)
    assert plain.statistic == pytest.approx(ref.statistic) and plain.p_value == pytest.approx(ref.pvalue)
    # with no training overlap correction the corrected test is the paired t-test
    zero = corrected_t_test(a, b, 0.0)
    assert zero.statistic == pytest.approx(ref.statistic) and zero.p_value == pytest.approx(ref.pvalue)
    corrected = corrected_t_test(a, b, 0.1)  # 10-fold: 1/10 + 1/9 instead of 1/10
    assert corrected.p_value > plain.p_value
    assert corrected.statistic == pytest.approx(ref.statistic * np.sqrt((1 / 10) / (1 / 10 + 1 / 9)))
    w = wilcoxon_test(a, b)
    assert w.p_value == pytest.approx(stats.wilcoxon(a, b).pvalue)


def test_resampling_is_reproducible_and_partitions():
    y = np.array(["a"] * 30 + ["b"] * 20)
    s1, s2 = repeated_kfold(y, 5, 2, seed=4), repeated_kfold(y, 5, 2, seed=4)
    assert all((a[1] == b[1]).all() for a, b in zip(s1, s2))
    for r in range(2):
        test = np.sort(np.concatenate([te for _, te in s1[5 * r:5 * r + 5]]))
        assert (test == np.arange(50)).all()
    assert not all((a[1] == b[1]).all() for a, b in zip(s1[:5], s1[5:]))
    for tr, te in per_class_holdout(np.repeat(["x", "y", "z"], 50), 35, 15, repeats=10, seed=1):
        assert len(tr) == 105 and len(te) == 45 and not set(tr) & set(te)
    assert len(Protocol("loo").splits(y)) == 50


def test_runner_resumes_and_refuses_other_experiments(tmp_path):
    folder = str(tmp_path / "run")
    exp = Experiment({"nb": NaiveBayes(), "1r": OneR()}, ["iris", "weather.nominal"], Protocol("kfold", 5))
    full = run_experiment(exp, folder, progress=None)
    assert len(full) == 2 * 2 * 5
    # simulate an interruption: drop the last 7 rows, run again
    path = os.path.join(folder, "results.csv")
    lines = open(path).read().splitlines()
    open(path, "w").write("\n".join(lines[:-7]) + "\n")
    again = run_experiment(exp, folder, progress=None)
    key = ["dataset", "model", "split"]
    pd.testing.assert_frame_equal(again.sort_values(key).reset_index(drop=True)[key + ["accuracy"]],
                                  full.sort_values(key).reset_index(drop=True)[key + ["accuracy"]])
    other = Experiment({"nb": NaiveBayes()}, ["iris"], Protocol("kfold", 3))
    with pytest.raises(SeminaiveError, match="different experiment"):
        run_experiment(other, folder, progress=None)
    report = write_report(again, folder, exp.protocol.describe(), "nb")
    text = open(report).read()
    assert "| iris |" in text and "wins/ties/losses" in text and "![accuracy](accuracy.png)" in text
    for f in ("accuracy.png", "cpu_time.png", "report.html", "results.json"):
        assert os.path.getsize(os.path.join(folder, f)) > 0
    assert open(os.path.join(folder, "accuracy.png"), "rb").read(4) == b"\x89PNG"
    assert "<table>" in open(os.path.join(folder, "report.html")).read()
    assert json.load(open(os.path.join(folder, "results.json")))["baseline"] == "nb"


def test_nested_evaluation_is_honest(tmp_path):
    """Pure noise: 300 random binary attributes, random classes. Choosing the 5
    best attributes on all the data and then cross-validating (leaky) looks far
    better than chance; the runner fits the whole pipeline inside each training
    fold (nested) and reports about chance."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, (80, 300)), columns=[f"a{j}" for j in range(300)])
    y = pd.Series(pd.Categorical(rng.choice(["p", "q"], 80)), name="class")
    d = Dataset.from_frame(X.assign(cls=y), target="cls", name="noise")
    protocol = Protocol("kfold", 10, repeats=3)
    chosen = SelectKBest(chi2, k=5).fit(X, y).get_support()
    leaky_data = Dataset.from_frame(X.loc[:, chosen].assign(cls=y), target="cls", name="noise")
    leaky = run_experiment(Experiment({"nb": NaiveBayes()}, [leaky_data], protocol), str(tmp_path / "a"),
                           progress=None)["accuracy"].mean()
    nested = run_experiment(Experiment({"nb": make_pipeline(SelectKBest(chi2, k=5), NaiveBayes())}, [d],
                                       protocol), str(tmp_path / "b"), progress=None)["accuracy"].mean()
    assert leaky > 0.7 and abs(nested - 0.5) < 0.12 and leaky - nested > 0.2


def test_iris_subsets_reproduce_the_thesis_protocol():
    """Table 2.9: all four attributes, 35/15 per class, 10 repetitions: 95.78% in
    the thesis; another draw of splits lands within its spread."""
    table = subset_study(NaiveBayes(), load("iris"), Protocol("per_class_holdout", repeats=10,
                                                              train_per_class=35, test_per_class=15, seed=0))
    assert len(table) == 15
    allfour = table.iloc[-1]
    assert allfour["size"] == 4 and abs(100 * allfour["accuracy mean"] - 95.78) < 3
    assert allfour["rate setosa mean"] == 1.0
    one = table.set_index("combination")
    # the thesis: sepal width alone is the worst single attribute, petal ones the best
    assert one.loc["sepal_width", "accuracy mean"] < one.loc["sepal_length", "accuracy mean"] \
        < one.loc["petal_length", "accuracy mean"]


def test_simulation_subset_m2_m3_m4_beats_all_four():
    """Table 2.1: dropping M1 (correlated 0.9 with M2) helps; averaged over 10 draws."""
    gains = []
    for seed in range(10):
        t = subset_study(NaiveBayes(), make_thesis_simulation(1000, random_state=100 + seed),
                         test=make_thesis_simulation(300, random_state=200 + seed)).set_index("combination")
        gains.append(t.loc["M2, M3, M4", "accuracy mean"] - t.loc["M1, M2, M3, M4", "accuracy mean"])
    assert np.mean(gains) > 0.005 and np.mean(np.array(gains) >= 0) >= 0.7


def test_the_accuracy_plot_starts_at_zero_and_keeps_its_legend_beside(tmp_path, monkeypatch):
    """Bars from 0 to 100% (a cut axis misleads), error bars inside 0..100, the legend outside the axes."""
    import seminaive.evaluation.report_files as rf
    from seminaive import NaiveBayes, OneR
    from seminaive.datasets import load
    from seminaive.evaluation.experiment import Experiment, run_experiment
    from seminaive.evaluation.resampling import Protocol
    figures = {}
    monkeypatch.setattr(rf, "save_figure", lambda fig, path, overwrite=False: figures.setdefault(
        __import__("os").path.basename(path), fig))
    res = run_experiment(Experiment({"nb": NaiveBayes(), "1r": OneR()}, [load("iris"), load("led")],
                                    Protocol("kfold", 3, seed=0)), str(tmp_path / "r"), progress=None)
    rf._plots(res, str(tmp_path / "r"))
    ax = figures["accuracy.png"].axes[0]
    assert ax.get_ylim() == (0.0, 100.0)
    tops = [line.get_ydata().max() for line in ax.lines if len(line.get_ydata())]
    assert max(tops) <= 100.0 + 1e-9
    legend = ax.get_legend()
    figures["accuracy.png"].canvas.draw()
    assert legend.get_window_extent().x0 >= ax.get_window_extent().x1 - 1  # right of the plotting area


def test_evaluate_takes_integer_labels_as_it_takes_their_names():
    """Integer labels in a numpy array (they were made objects, which scikit-learn's target check refuses)."""
    from seminaive.evaluation import evaluate
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 3)) + (np.arange(60) % 3)[:, None] * 0.7
    y = np.arange(60) % 3
    by_int = evaluate(NaiveBayes(), X, y, cv=5, random_state=1)
    by_name = evaluate(NaiveBayes(), X, np.array(["a", "b", "c"])[y], cv=5, random_state=1)
    assert by_int.accuracy == by_name.accuracy and 0.5 < by_int.accuracy < 1
