"""The command line: the J calls on a filebase, fit/predict/evaluate/show, errors."""

import json
import subprocess
import sys

import numpy as np
import pytest

from seminaive import NaiveBayes, jcalls
from seminaive.cli.main import main
from seminaive.data import read_filebase, write_filebase
from seminaive.datasets import dataset_path, make_led


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def led_filebase(tmp_path):
    """A freshly generated filebase (not the bundled one)."""
    def rows(d, labelled=True):
        codes = d.X.apply(lambda c: c.cat.codes).to_numpy().tolist()
        return [r + [c] for r, c in zip(codes, d.y.cat.codes.tolist())] if labelled else codes
    learn, test, cls = (make_led(300, noise=0.1, random_state=s) for s in (11, 12, 13))
    base = tmp_path / "led"
    write_filebase(base, learn.schema, rows(learn), rows(test), rows(cls, False))
    return base


def test_filebase_round_trip(capsys, led_filebase):
    fb = read_filebase(led_filebase)
    lib = NaiveBayes(alpha=1, priors="laplace").fit(fb.learn.X, fb.learn.y)
    code, out, _ = run(capsys, "test", led_filebase)
    assert code == 0 and out.split() == [str(v) for v in lib.predict(fb.test.X)]
    code, out, _ = run(capsys, "classify", led_filebase)
    assert code == 0 and out.split() == [str(v) for v in lib.predict(fb.classify.X)]
    expected = 100 * np.mean(lib.predict(fb.test.X) == np.asarray(fb.test.y, dtype=object))
    code, out, _ = run(capsys, "accuracy", led_filebase, "--format", "json")
    assert json.loads(out)["accuracy"] == pytest.approx(expected)
    assert 50 < expected < 90  # ten classes, 10% segment noise
    code, out, _ = run(capsys, "priors", led_filebase, "--format", "json")
    counts = np.bincount(fb.learn.y.cat.codes, minlength=10)
    assert list(json.loads(out).values()) == pytest.approx(((counts + 1) / (300 + 10)).tolist())
    code, out, _ = run(capsys, "learn", led_filebase)
    assert code == 0 and "a7 (nominal, alpha=1)" in out and "Class priors (laplace)" in out


def test_j_calls_match_library_on_bundled_wave():
    from seminaive.datasets import filebase_path
    base = filebase_path("wave")
    fb = read_filebase(base)
    lib = jcalls.j_model().fit(fb.learn.X, fb.learn.y)
    assert (jcalls.classify(base) == lib.predict(fb.classify.X)).all()
    assert jcalls.accuracy(base) > 60


def test_fit_predict_show_evaluate(capsys, tmp_path):
    data = dataset_path("weather.numeric")
    model = tmp_path / "m.json"
    code, out, err = run(capsys, "fit", data, "--model-file", model, "--alpha", "0", "--priors", "mle")
    assert code == 0 and "temperature (numeric, Gaussian" in out and model.exists()
    code, out, _ = run(capsys, "predict", "--model-file", model, data, "--proba", "--format", "csv")
    lines = out.strip().splitlines()
    assert lines[0] == "actual,prediction,P(yes),P(no)" and len(lines) == 15  # a labelled file: its class first
    code, out, _ = run(capsys, "show", model)
    assert "Class priors (mle)" in out
    code, out, _ = run(capsys, "evaluate", data, "--cv", "2", "--format", "json")
    assert code == 0 and 0 <= json.loads(out)["accuracy"] <= 1
    code, out, _ = run(capsys, "evaluate", data, "--holdout", "0.5")
    assert "hold-out" in out


def test_output_is_atomic_and_never_overwrites(capsys, tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("precious")
    code, _, err = run(capsys, "accuracy", dataset_path("led")[:-4], "--output", target)
    assert code == 2 and "exists" in err and target.read_text() == "precious"
    code, _, _ = run(capsys, "accuracy", dataset_path("led")[:-4], "--output", target, "--force")
    assert code == 0 and target.read_text().startswith("accuracy:")
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]  # no temporary left behind


@pytest.mark.parametrize("content,needle", [
    ("a,b,c\n1,2,x\n3,4\n", "line 3: expected 3 values, got 2"),
    ("", "the file is empty"),
])
def test_errors_are_one_line_exit_2(capsys, tmp_path, content, needle):
    p = tmp_path / "bad.csv"
    p.write_text(content)
    code, out, err = run(capsys, "evaluate", p)
    assert code == 2 and needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_unknown_target_exits_2(capsys):
    code, _, err = run(capsys, "fit", dataset_path("ihealth"), "--target", "nope")
    assert code == 2 and "target: no column named 'nope'" in err


def test_module_entry_point_has_no_traceback(tmp_path):
    p = tmp_path / "x.arff"
    p.write_text("@relation r\n@attribute n numeric\n@attribute c {a,b}\n@data\nabc,a\n")
    r = subprocess.run([sys.executable, "-m", "seminaive", "fit", str(p)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "x.arff, line 5, column 1: expected a number" in r.stderr


def test_predict_unlabelled_csv(capsys, tmp_path):
    model = tmp_path / "m.json"
    assert run(capsys, "fit", dataset_path("ihealth"), "-m", model)[0] == 0
    p = tmp_path / "new.csv"
    p.write_text("main_interest,current_exercise_level,motivation,comfort_with_tech\n"
                 "health,moderate,moderate,yes\n")
    code, out, _ = run(capsys, "predict", "-m", model, p, "--unlabelled", "--format", "json")
    assert code == 0 and json.loads(out)[0]["prediction"] == "i500"


def test_fit_one_r_from_the_command_line(capsys, tmp_path):
    model = tmp_path / "r.json"
    code, out, _ = run(capsys, "fit", dataset_path("weather.numeric"), "--model", "1r", "--min-bucket", "3",
                       "-m", model)
    assert code == 0 and out.strip() == "humidity: < 82.5 -> yes, < 95.5 -> no, >= 95.5 -> yes (11/14)"
    code, out, err = run(capsys, "predict", "-m", model, dataset_path("weather.numeric"))
    assert code == 0 and len(out.split()) == 2 * 15 and out.split()[:2] == ["actual", "prediction"]
    assert "accuracy: 11 of 14 instances with a known class correct (78.57%)" in err


@pytest.mark.parametrize("numeric", ["kernel", "equal_width", "equal_frequency", "mdl", "1r"])
def test_numeric_options_from_the_command_line(capsys, tmp_path, numeric):
    model = tmp_path / "m.json"
    code, out, _ = run(capsys, "fit", dataset_path("weather.numeric"), "--numeric", numeric, "-m", model)
    assert code == 0 and "temperature (numeric," in out
    code, out, _ = run(capsys, "show", model)
    assert code == 0 and "temperature (numeric," in out


def test_compare_writes_the_report_and_resumes(capsys, tmp_path):
    out = tmp_path / "rep"
    code, text, err = run(capsys, "compare", "--datasets", "iris,weather.nominal", "--models", "nb,1r,zeror",
                          "--cv", "3", "--out", out)
    assert code == 0 and "| iris |" in text and "wins/ties/losses" in text and "report:" in text
    assert "[2/2] weather.nominal" in err
    assert {"report.md", "report.html", "accuracy.png", "cpu_time.png", "results.csv"} <= {p.name for p in out.iterdir()}
    code, _, err = run(capsys, "compare", "--datasets", "iris,weather.nominal", "--models", "nb,1r,zeror",
                       "--cv", "3", "--out", out)
    assert code == 0 and "3 resumed, 0 run" in err
    code, _, err = run(capsys, "compare", "--datasets", "iris", "--models", "nb", "--out", out)
    assert code == 2 and "different experiment" in err


def test_datasets_and_subsets_commands(capsys):
    code, out, _ = run(capsys, "datasets", "--source", "bundled", "--format", "csv")
    lines = out.strip().splitlines()
    assert code == 0 and lines[0].startswith("name,instances,nominal,numeric,classes")
    assert any(line.startswith("iris,150,0,4,3") for line in lines)
    code, out, _ = run(capsys, "subsets", "weather.nominal", "--cv", "2", "--format", "csv")
    assert code == 0 and len(out.strip().splitlines()) == 1 + 15


def test_unknown_model_or_dataset_is_a_clear_error(capsys, tmp_path):
    code, _, err = run(capsys, "compare", "--datasets", "iris,nope", "--models", "nb", "--out", tmp_path / "x")
    assert code == 2 and "'nope': neither a data file nor a data set name" in err
    assert not (tmp_path / "x").exists()  # checked before any work: nothing to --force later
    code, _, err = run(capsys, "compare", "--datasets", "iris", "--models", "nb,bogus", "--out", tmp_path / "y")
    assert code == 2 and "bogus" in err


def test_search_and_dependencies_commands(capsys, tmp_path):
    code, out, err = run(capsys, "search", dataset_path("weather.nominal"), "--method", "bse")
    assert code == 0 and "final structure: outlook, humidity" in out and "step 1: delete" in err
    plot = tmp_path / "d.png"
    code, out, err = run(capsys, "dependencies", "iris", "--plot", plot)
    assert code == 0 and "maximal information coefficient" in out and plot.exists()
    code, _, err = run(capsys, "dependencies", "iris", "--plot", plot)
    assert code == 2 and "exists" in err  # never overwrites unasked


def test_compare_constrained_models(capsys, tmp_path):
    code, text, _ = run(capsys, "compare", "--datasets", "keel-imb:haberman", "--models", "nb,offset:0.8,cnb:0.8",
                        "--cv", "3", "--out", tmp_path / "c")
    assert code == 0 and "| keel-imb:haberman |" in text
    assert "constrained Naive Bayes, minority-class training rate >= 0.8" in (tmp_path / "c" / "report.md").read_text()


def test_streamed_search_from_the_command_line(capsys, tmp_path):
    from seminaive.datasets.keel import keel_path
    model = tmp_path / "s.json"
    code, out, err = run(capsys, "search", keel_path("monk-2"), "--method", "bsj", "--chunksize", "100",
                         "-m", model, "--quiet")
    assert code == 0 and "streamed in chunks of 100 rows" in err and "final structure" in out
    code, mem, _ = run(capsys, "search", keel_path("monk-2"), "--method", "bsj", "--quiet")
    assert out.split("final structure")[1].splitlines()[0] == mem.split("final structure")[1].splitlines()[0]
    assert model.exists()


def test_constrained_fit_says_what_it_fitted_and_warns_in_one_line(capsys):
    weka = __import__("pathlib").Path(__file__).parent / "data" / "weka"
    code, out, err = run(capsys, "fit", dataset_path("weather.numeric"), "--min-rate", "minority=0.8")
    assert code == 0 and "Parameters: Naive Bayes's estimate (it meets every minimum rate)" in out
    assert "overcast  0.4167 (4)  0.1250 (0)" in out and err == ""
    code, out, err = run(capsys, "fit", weka / "credit-g.arff", "--min-rate", "good=0.99", "--min-rate", "bad=0.99")
    assert code == 0 and "Parameters: the constrained optimum" in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("seminaive: warning: the minimum rates cannot all be met")


def test_the_same_compare_twice_resumes_everything(capsys, tmp_path):
    """Scikit-learn pipelines (column selectors) are described by stable parameters, and the generated sets'
    integer classes reach scikit-learn's estimators as integers."""
    argv = ["compare", "--datasets", "wave-1000,iris", "--models", "nb,tree,svm", "--cv", "3", "--out", tmp_path / "c"]
    code, first, err = run(capsys, *argv)
    assert code == 0 and "| wave-1000 |" in first and "0 resumed, 3 run" in err
    results = (tmp_path / "c" / "results.csv").read_text()
    assert results.count("\n") == 1 + 2 * 3 * 3
    code, second, err = run(capsys, *argv)
    assert code == 0 and err.count("3 resumed, 0 run") == 6 and "run in" in err
    assert (tmp_path / "c" / "results.csv").read_text() == results and second == first


def test_evaluate_labels_the_mean_over_folds_and_the_pooled_count(capsys):
    code, out, _ = run(capsys, "evaluate", dataset_path("weather.nominal"), "--cv", "10")
    line = out.splitlines()[1]
    assert code == 0 and "mean accuracy over 10 folds" in line and "pooled over the folds" in line
    correct, total = map(int, line.split("pooled over the folds: ")[1].split(" correct")[0].split(" of "))
    assert f"({100 * correct / total:.2f}%)" in line
    code, out, _ = run(capsys, "evaluate", dataset_path("weather.nominal"), "--cv", "10", "--format", "csv")
    assert out.splitlines()[0] == "fold,accuracy" and len(out.splitlines()) == 11


def test_predict_finds_the_class_column_by_name_or_does_without(capsys, tmp_path):
    """The README's predict command on a file without a class column; columns matched by name."""
    model = tmp_path / "m.json"
    assert run(capsys, "fit", dataset_path("weather.nominal"), "-m", model)[0] == 0
    new = tmp_path / "new.csv"
    new.write_text("outlook,temperature,humidity,windy\nsunny,cool,high,TRUE\n")
    code, out, err = run(capsys, "predict", "--model-file", model, new, "--proba", "--format", "csv")
    assert code == 0 and err == "" and out.splitlines()[1].startswith("no,0.2")
    shuffled = tmp_path / "shuffled.csv"
    shuffled.write_text("play,windy,humidity,outlook,temperature\nno,TRUE,high,sunny,cool\n")
    code, out2, _ = run(capsys, "predict", "--model-file", model, shuffled, "--proba", "--format", "csv")
    assert code == 0 and out2 == out.replace("prediction,", "actual,prediction,").replace("\nno,", "\nno,no,")
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    code, _, err = run(capsys, "predict", "--model-file", model, other)
    assert code == 2 and err.count("\n") == 1
    assert "the model's attribute(s) 'outlook', 'temperature', 'humidity', 'windy' are not columns" in err
    assert "(columns: a, b)" in err


def test_every_destination_is_checked_before_any_work(capsys, tmp_path):
    existing = tmp_path / "existing.txt"
    existing.write_text("keep me")
    model = tmp_path / "new.json"
    code, _, err = run(capsys, "fit", dataset_path("weather.nominal"), "-m", model, "-o", existing)
    assert code == 2 and "existing.txt: the file exists" in err and not model.exists()
    code, _, err = run(capsys, "fit", dataset_path("weather.nominal"), "-o", tmp_path / "a" / "b" / "out.txt")
    assert code == 2 and "does not exist; create it first" in err and not (tmp_path / "a").exists()
    assert existing.read_text() == "keep me"


def test_outputs_get_the_users_permissions_and_never_follow_a_planted_link(capsys, tmp_path):
    import os
    import stat
    old = os.umask(0o022)
    try:
        out = tmp_path / "out.txt"
        assert run(capsys, "fit", dataset_path("weather.nominal"), "-o", out)[0] == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
        victim = tmp_path / "victim.txt"
        victim.write_text("precious")
        for name in (".tmp-plot.png", ".tmp-d.png"):  # the names a predictable writer would use
            os.symlink(victim, tmp_path / name)
        assert run(capsys, "dependencies", "iris", "--no-mic", "--plot", tmp_path / "plot.png")[0] == 0
        assert victim.read_text() == "precious" and (tmp_path / "plot.png").read_bytes()[:4] == b"\x89PNG"
    finally:
        os.umask(old)



def test_compare_takes_files_and_reports_attributes_used(capsys, tmp_path):
    import csv as _csv
    code, text, _ = run(capsys, "compare", "--datasets", f"{dataset_path('weather.numeric')},iris", "--models",
                        "nb,1r,zeror", "--cv", "2", "--out", tmp_path / "c")
    assert code == 0 and "| weather.numeric.arff |" in text
    rows = list(_csv.DictReader(open(tmp_path / "c" / "results.csv")))
    used = {r["model"]: int(r["n_attributes"]) for r in rows if r["dataset"] == "iris"}
    assert used == {"nb": 4, "1r": 1, "zeror": 0}


def test_names_for_data_sets_and_filebases(capsys):
    code, out, _ = run(capsys, "accuracy", "led")
    assert code == 0 and out.strip() == "accuracy: 78.00%"
    code, _, err = run(capsys, "fit", "keel:nosuch")
    assert code == 2 and "'keel:nosuch' is neither a data file nor a data set name" in err


@pytest.mark.parametrize("argv", [["evaluate", "iris", "--calibration", "foo"],
                                  ["search", "iris", "--cv", "x"], ["nope"]])
def test_a_bad_option_is_one_line_and_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and len(err.strip().splitlines()) == 1 and "error: argument" in err
    assert "--help' lists the options" in err


@pytest.mark.parametrize("argv, expected", [
    (["search", "iris", "--scoring", "logloss"], "scoring: expected one of"),
    (["fit", "iris", "--model", "kdb", "--estimation", "map"], "estimation: expected one of 'frequency'"),
    (["fit", "iris", "--numeric", "discretize"], "numeric: expected one of 'gaussian'"),
    (["fit", "iris", "--model", "tan", "--numeric", "gaussian"], "numeric: expected one of 'equal_width'")])
def test_a_model_option_is_checked_against_the_chosen_model_before_the_data(capsys, argv, expected):
    """The choices of a model option are the model's own declaration (no second list in the
    command line): a value the model refuses is one line and exit 2 before any data are read."""
    with pytest.raises(SystemExit) as info:  # the subcommand's usage error, as argparse's own
        main(argv)
    out, err = capsys.readouterr()
    assert info.value.code == 2 and len(err.strip().splitlines()) == 1 and expected in err, err
    assert err.startswith(f"seminaive {argv[0]}: error: ") and " on iris" not in err and not out


@pytest.mark.parametrize("argv", [["fit", "iris", "--model", "kdb", "--estimation", "hgs"],
                                  ["fit", "iris", "--model", "kdb:estimation=hgs"],
                                  ["search", "iris", "--numeric", "discretize", "--model", "bse"]])
def test_every_value_a_model_declares_passes_the_command_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0, err
