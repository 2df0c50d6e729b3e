"""What a practitioner meets on their own data (issue 21): each case as the user meets it."""

import json
import re
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from conftest import mixed_frame, write
from seminaive import AODE, KDB, TAN, NaiveBayes, SelectiveKDB, load_file, load_model, save_model
from seminaive.bayesnet import ChunkWarning
from seminaive.calibration.calibrators import Sigmoid
from seminaive.cli.main import main
from seminaive.dependence.information import _cmi
from seminaive.exceptions import DataFormatError, ParameterError


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# 1. a selective kDB model file shows, loads and prints as the fitted model
def test_selective_kdb_model_file_shows(capsys, tmp_path):
    path = tmp_path / "skdb.json"
    code, _, err = run(capsys, "fit", "iris", "--model", "skdb", "-m", path)
    assert code == 0, err
    code, out, err = run(capsys, "show", path)
    assert code == 0 and err == ""
    assert out.startswith("SelectiveKDB (k=2, chosen by leave-one-out rmse:")
    from seminaive.datasets import load
    iris = load("iris")
    fitted = SelectiveKDB().fit(iris)
    loaded = load_model(path)
    assert loaded.to_text() == fitted.to_text()
    assert (loaded.n_attributes_, loaded.k_, loaded.order_) == (fitted.n_attributes_, fitted.k_, fitted.order_)
    assert [(h["attributes"], h["k"]) for h in loaded.history_] == [(h["attributes"], h["k"]) for h in fitted.history_]
    assert np.allclose([h["score"] for h in loaded.history_], [h["score"] for h in fitted.history_], rtol=1e-15)
    np.testing.assert_allclose(loaded.predict_proba(iris.X), fitted.predict_proba(iris.X), rtol=1e-12)


def test_selective_kdb_model_file_selection_is_checked(tmp_path):
    import json
    from seminaive.datasets import load
    path = tmp_path / "skdb.json"
    save_model(SelectiveKDB(k=1).fit(load("weather.nominal")), path)
    doc = json.loads(path.read_text())
    for key, bad, field in [("order", [0, 0, 1, 2], "order"), ("attributes", 9, "attributes"), ("k", -1, "k"),
                            ("history", [{"attributes": 0, "k": 0, "score": "x"}], "history[0].score")]:
        broken = json.loads(json.dumps(doc))
        broken["state"]["selection"][key] = bad
        p = tmp_path / f"bad-{key}.json"
        p.write_text(json.dumps(broken))
        with pytest.raises(Exception, match=re.escape(f"selection.{field}")):
            load_model(p)


# 2. polars and pyarrow frames keep their column names
@pytest.mark.parametrize("model", [NaiveBayes, TAN, AODE])
def test_polars_frames_keep_their_names(model):
    pl = pytest.importorskip("polars")
    X, y = mixed_frame(120, seed=3, missing=0)
    X = X.astype({"colour": str})
    frame = pl.from_pandas(X.assign(cls=y))
    m = model().fit(frame.drop("cls"), frame["cls"])
    ref = model().fit(X, y)
    assert list(m.feature_names_in_) == list(X.columns)
    assert m.to_text() == ref.to_text()
    for data in (frame.drop("cls"), frame.drop("cls").to_pandas(), X):
        np.testing.assert_allclose(m.predict_proba(data), ref.predict_proba(X), rtol=1e-12)


def test_pyarrow_tables_keep_their_names():
    import pyarrow as pa
    X, y = mixed_frame(100, seed=4, missing=0.1)
    X = X.astype({"colour": str})
    m = NaiveBayes().fit(pa.Table.from_pandas(X), pa.array(y))
    ref = NaiveBayes().fit(X, y)
    assert list(m.feature_names_in_) == list(X.columns) and m.to_text() == ref.to_text()
    np.testing.assert_allclose(m.predict_proba(pa.Table.from_pandas(X)), ref.predict_proba(X), rtol=1e-12)


# 3. a numeric class is refused, not treated as 116 classes
NUMERIC_CLASS_ARFF = "@relation cpu\n@attribute a numeric\n@attribute class numeric\n@data\n" + "".join(
    f"{i},{i * 1.5 + 3}\n" for i in range(30))


def _continuous_last_csv(n=60):
    rng = np.random.default_rng(0)
    rows = [f"{c},{rng.normal():.4f},{int(rng.integers(300, 1700))}" for c in rng.choice(["1", "2", "3"], n)]
    return "label,x,proline\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize("streamed", [False, True])
def test_numeric_class_is_refused(capsys, tmp_path, streamed):
    chunks = ["--chunksize", "7", "-m", tmp_path / "m.json"] if streamed else []
    arff = write(tmp_path, "cpu.arff", NUMERIC_CLASS_ARFF)
    code, out, err = run(capsys, "fit", arff, *chunks)
    assert code == 2 and out == "" and [line for line in err.splitlines() if "error" in line] == [err.splitlines()[-1]]
    assert f"{arff}: the class column 'class' is declared numeric" in err and "--nominal class" in err
    csv = write(tmp_path, "wine.csv", _continuous_last_csv())
    code, out, err = run(capsys, "fit", csv, *chunks)
    assert code == 2 and "the class column 'proline' holds" in err and "--target" in err
    code, out, err = run(capsys, "fit", csv, "--target", "label", *chunks)
    assert code == 0, err


def test_numeric_class_rule(tmp_path):
    with pytest.raises(DataFormatError, match="numbers that are not whole"):
        load_file(write(tmp_path, "a.csv", "x,c\n" + "".join(f"{i},{i / 3:.3f}\n" for i in range(10))))
    # whole numbers with few distinct values are class labels (digits 0-9, 1-3)
    d = load_file(write(tmp_path, "b.csv", "x,c\n" + "".join(f"{i},{i % 10}\n" for i in range(40))))
    assert d.schema.target.n_values == 10
    # 21 distinct whole numbers averaging more than 5 instances each are classes too
    d = load_file(write(tmp_path, "c.csv", "x,c\n" + "".join(f"{i},{i % 21}\n" for i in range(21 * 6))))
    assert d.schema.target.n_values == 21
    with pytest.raises(DataFormatError, match="21 distinct numbers in 42 instances"):
        load_file(write(tmp_path, "d.csv", "x,c\n" + "".join(f"{i},{i % 21}\n" for i in range(42))))
    # made nominal by the user: its values are the classes
    d = load_file(write(tmp_path, "e.arff", NUMERIC_CLASS_ARFF), nominal=["class"])
    assert d.schema.target.n_values == 30


# 4. Weka's supermarket.arff: a comment after a value list
def test_arff_comment_after_value_list(capsys, tmp_path):
    p = write(tmp_path, "s.arff", "@relation s\n@attribute 'total' { low, high} % low < 100\n"
                                  "@attribute a {'x}y', z} % a } in a comment\n@attribute c {p,q}\n"
                                  "@data\nlow,'x}y',p\nhigh,z,q\nlow,z,p\n")
    d = load_file(p)
    assert d.schema.attributes[0].values == ("low", "high") and d.schema.attributes[1].values == ("x}y", "z")
    assert run(capsys, "fit", p, "--chunksize", "2", "-m", tmp_path / "m.json")[0] == 0
    assert load_model(tmp_path / "m.json").to_text() == NaiveBayes().fit(d).to_text()
    bad = write(tmp_path, "b.arff", "@relation s\n@attribute t {low, high} junk\n@attribute c {p,q}\n@data\nlow,p\n")
    code, _, err = run(capsys, "show", bad)
    assert code == 2 and "line 2: expected a value list closed by '}'" in err


# 5. a closed pipe is not an error
@pytest.mark.parametrize("argv", [["search", "--method", "bse", "weather.nominal"], ["show", "weather.nominal"]])
def test_closed_pipe_is_not_an_error(argv):
    proc = subprocess.Popen([sys.executable, "-m", "seminaive", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and "error" not in err and "Traceback" not in err


# 6. one extreme log-odds does not flatten Platt's map
def test_sigmoid_survives_an_extreme_log_odds():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 80)
    f = 3.0 * (2 * y - 1) + rng.normal(0, 2.0, 80)
    f[0], y[0] = 8.47e7, 1  # as one leave-one-out Gaussian log-odds of labor.arff
    log_p = np.column_stack([-np.logaddexp(0, f), -np.logaddexp(0, -f)])
    s = Sigmoid().fit(log_p, y)
    rest = Sigmoid().fit(log_p[1:], y[1:])
    assert s.a_[1] > 0.3 * rest.a_[1]  # it was 1e-3 of it: every row one class
    predicted = s.transform(log_p).argmax(axis=1)
    assert (predicted == (f > 0)).mean() > 0.95


def test_sigmoid_calibration_keeps_naive_bayes_accuracy():
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from seminaive.calibration import Calibrated
    rng = np.random.default_rng(2)
    n = 60
    y = np.repeat([0, 1], n // 2)
    X = pd.DataFrame({"a": rng.normal(y * 1.5, 1.0), "b": rng.normal(-y, 1.0),
                      # constant within class 1 but for one row: its leave-one-out variance vanishes
                      "c": np.where(y == 1, 5.0, rng.normal(0, 1.0, n))})
    X.loc[n - 1, "c"] = 5.5
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    nb = cross_val_score(NaiveBayes(), X, y, cv=cv).mean()
    cal = cross_val_score(Calibrated(NaiveBayes(), method="sigmoid"), X, y, cv=cv).mean()
    assert cal >= nb - 0.05 and cal > 0.9


# 7. AODE's partial_fit and merge: exact on nominal data, and said when not
def test_aode_merge_and_partial_fit_equal_fit_on_nominal_data():
    X, y = mixed_frame(400, seed=5, missing=0.1)
    X = X[["colour", "size"]].astype("category")
    full = AODE().fit(X, y)
    merged = AODE().fit(X[:150], y[:150]).merge(AODE().fit(X[150:], y[150:]))
    np.testing.assert_allclose(merged.predict_proba(X), full.predict_proba(X), rtol=1e-12)
    part = AODE()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ChunkWarning)  # nothing fixed by the first chunk: no warning
        for s in range(0, 400, 70):
            part.partial_fit(X[s:s + 70], y[s:s + 70], classes=np.unique(y))
    np.testing.assert_allclose(part.predict_proba(X), full.predict_proba(X), rtol=1e-12)


def test_family_partial_fit_and_merge_say_what_differs():
    X, y = mixed_frame(300, seed=6, missing=0)
    with pytest.warns(ChunkWarning, match="the intervals of 'height', 'weight' are learned from this first chunk"):
        AODE().partial_fit(X[:100], y[:100], classes=np.unique(y))
    with pytest.warns(ChunkWarning, match="the structure and the intervals"):
        TAN().partial_fit(X[:100], y[:100], classes=np.unique(y))
    with pytest.raises(ParameterError, match="merge: the models' intervals of the numeric attributes"):
        AODE().fit(X[:150], y[:150]).merge(AODE().fit(X[150:], y[150:]))


# 8. scikit-learn's meta-estimators with a categorical y whose categories are not sorted
@pytest.mark.parametrize("method", ["sigmoid", "isotonic"])
def test_calibrated_classifier_cv_with_unsorted_categorical(method):
    from sklearn.calibration import CalibratedClassifierCV
    X, y = mixed_frame(200, seed=7, missing=0)
    labels = np.where(y == "low", "good", "bad")
    cat = pd.Series(pd.Categorical(labels, categories=["good", "bad"]))
    a = CalibratedClassifierCV(NaiveBayes(), method=method, cv=5).fit(X, cat)
    b = CalibratedClassifierCV(NaiveBayes(), method=method, cv=5).fit(X, labels)
    assert list(a.classes_) == ["bad", "good"] == list(NaiveBayes().fit(X, cat).classes_)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-12)


def test_declared_classes_keep_the_file_order(weather):
    assert list(NaiveBayes().fit(weather).classes_) == ["yes", "no"]  # the file's order
    assert list(NaiveBayes().fit(weather.X, weather.y).classes_) == ["no", "yes"]  # scikit-learn's
    unseen = pd.Series(pd.Categorical(["b", "b", "a"], categories=["c", "b", "a"]))
    assert list(NaiveBayes().fit([["x"], ["y"], ["x"]], unseen).classes_) == ["a", "b", "c"]


# 10. exact ties in the information measures are broken by the rule, not by rounding
def test_information_is_exact_under_permutations():
    rng = np.random.default_rng(3)
    for _ in range(200):
        t = rng.integers(0, 9, size=(3, 4, 5)).astype(float)
        base = _cmi(t)
        assert _cmi(t.transpose(0, 2, 1)) == base
        assert _cmi(t[rng.permutation(3)][:, rng.permutation(4)][:, :, rng.permutation(5)]) == base


@pytest.mark.parametrize("seed", range(12))
def test_kdb_and_tan_break_ties_by_the_order(seed):
    rng = np.random.default_rng(seed)
    n = 200
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    relabel = rng.permutation(3)
    x = np.where(rng.random(n) < 0.6, a, rng.integers(0, 3, n))
    X = pd.DataFrame({"a": a, "b": relabel[a], "x": x}).astype(str)  # b: a renamed, so every tie is exact
    parents = KDB(k=1).fit(X, y).structure_.parents_of(2)
    assert parents == (0,)  # a and b tie; a comes first
    tan = TAN().fit(X, y).structure_
    assert tan.parents_of(2) in ((0,), ())
    assert tan.parents_of(1) == (0,)


# friction: the report, the conventions, the picture
def test_report_html_aligns_numbers_right_and_text_left():
    from seminaive.evaluation.report_files import markdown_to_html
    html = markdown_to_html("| model | log loss / Brier | note |\n|---|---|---|\n| nb | **0.100** / 0.300 | text |")
    assert '<td class="t">text</td>' in html and '<td class="t">nb</td>' in html
    assert "<td><b>0.100</b> / 0.300</td>" in html


def test_probabilities_section_bolds_log_loss_and_brier_apart(tmp_path):
    from seminaive.evaluation.report_files import _probability_lines
    bins = json.dumps({"count": [1] * 10, "confidence": [0.5] * 10, "right": [1] * 10})
    rows = [{"dataset": "d", "model": m, "log_loss": ll, "brier": br, "rmse": 0.1, "ece": 0.1, "reliability": bins}
            for m, ll, br in (("a", 0.10, 0.30), ("b", 0.20, 0.05))]
    row = next(line for line in _probability_lines(pd.DataFrame(rows), str(tmp_path)) if line.startswith("| d |"))
    assert row == "| d | **0.100** / 0.300 | 0.200 / **0.050** |"


def test_calibrated_compare_names_record_their_model():
    from seminaive.evaluation.experiment import stable_description
    from seminaive.models import compare_model
    assert stable_description(compare_model("nb-isotonic"))["params"]["estimator"]["class"].endswith("NaiveBayes")


def test_ece_bins_are_closed_on_the_right_as_scikit_learns():
    from sklearn.calibration import calibration_curve
    from seminaive.evaluation.reliability import reliability_bins
    rng = np.random.default_rng(0)
    conf = np.concatenate([np.round(rng.uniform(0.5, 1.0, 300), 1), [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]])  # on edges
    proba = np.column_stack([conf, 1 - conf])
    y = (rng.random(conf.size) > conf).astype(int)  # 0 (the predicted class) with probability conf
    b = reliability_bins(proba, y)
    right = (y == 0).astype(float)
    share, mean_conf = calibration_curve(right, conf, n_bins=10, strategy="uniform")
    filled = b["count"] > 0
    np.testing.assert_allclose(b["right"][filled] / b["count"][filled], share, rtol=1e-12)
    np.testing.assert_allclose(b["confidence"][filled] / b["count"][filled], mean_conf, rtol=1e-12)


def test_log_loss_clips_as_scikit_learn():
    from sklearn.metrics import log_loss
    from seminaive.evaluation.reliability import probability_measures
    proba = np.array([[1.0, 0.0], [0.3, 0.7], [0.0, 1.0], [1e-17, 1 - 1e-17]])
    y = np.array([1, 1, 0, 0])
    got = probability_measures(proba, y)["log_loss"]
    assert got == pytest.approx(log_loss(y, proba, labels=[0, 1]), rel=1e-12)


@pytest.mark.parametrize("d", [20, 60])
def test_a_large_structure_picture_stays_readable(d):
    """One attribute a row, no two labels overlapping, every parent lane right of every label."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.lines import Line2D
    from seminaive.drawing import plot_structure
    rng = np.random.default_rng(d)
    n = 300
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({f"attribute_number_{j}": np.where(rng.random(n) < 0.5, y, rng.integers(0, 3, n)).astype(str)
                      for j in range(d)})
    model = KDB(k=2).fit(X, y)
    fig = plot_structure(model)
    ax = fig.axes[0]
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in ax.texts]
    assert len(boxes) == d + 1
    for a, b in zip(boxes, boxes[1:]):
        assert a.y0 >= b.y1  # one a row, top to bottom, none overlapping
    right = max(b.x1 for b in boxes)
    lanes = [line for line in ax.lines if isinstance(line, Line2D) and len(line.get_xdata()) == 3]
    assert len(lanes) == len({p for i in range(d) for p in model.structure_.parents_of(i)})
    for line in lanes:
        x = ax.transData.transform(np.column_stack([line.get_xdata(), line.get_ydata()]))[1:, 0]
        assert (x > right).all()
    arrows = len(ax.patches)
    assert arrows == sum(len(model.structure_.parents_of(i)) for i in range(d))


# the issue's own reproductions, on the Weka files the suite keeps
WEKA = __import__("pathlib").Path(__file__).parent / "data" / "weka"


def test_labor_sigmoid_calibration_keeps_its_accuracy(capsys):
    accuracy = {}
    for extra in ([], ["--calibration", "sigmoid"]):
        code, out, err = run(capsys, "evaluate", WEKA / "labor.arff", *extra, "--format", "json")
        assert code == 0, err
        accuracy[bool(extra)] = json.loads(out)["accuracy"]
    assert accuracy[False] == pytest.approx(0.91, abs=1e-9)
    assert accuracy[True] > 0.85  # it was 0.6633: every row "good"


def test_soybean_kdb_parents_follow_the_rule():
    d = load_file(WEKA / "soybean.arff")
    m = KDB(k=2, arc_score="cmi").fit(d)  # the rule: parents by conditional mutual information
    names = list(d.X.columns)
    parents = {names[g[0]]: [names[p] for p in m.structure_.parents_of(i)] for i, g in enumerate(m.structure_.groups)}
    assert parents["leaf-mild"] == ["fruit-spots", "canker-lesion"]


def test_credit_g_calibrated_classifier_cv_and_aode_merge():
    from sklearn.calibration import CalibratedClassifierCV
    d = load_file(WEKA / "credit-g.arff")
    assert list(d.y.cat.categories) == ["good", "bad"]  # the file's order, not sorted
    c = CalibratedClassifierCV(NaiveBayes(), method="sigmoid", cv=5).fit(d.X, d.y)
    assert list(c.classes_) == ["bad", "good"] and np.isfinite(c.predict_proba(d.X)).all()
    nominal = d.X[[n for n in d.X.columns if isinstance(d.X[n].dtype, pd.CategoricalDtype)]]
    full = AODE().fit(nominal, d.y)
    merged = AODE().fit(nominal[:500], d.y[:500]).merge(AODE().fit(nominal[500:], d.y[500:]))
    np.testing.assert_allclose(merged.predict_proba(nominal), full.predict_proba(nominal), rtol=1e-12)
