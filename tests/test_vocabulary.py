"""One command-line vocabulary: every model named the same way on every subcommand, every data option
wherever data are read, every option with help (issue 21)."""

import argparse
import io
import json
import pathlib
import re

import numpy as np
import pandas as pd
import pytest

from conftest import write
from seminaive import KDB, NaiveBayes, load_file, load_model
from seminaive.cli.main import build_parser, main, options_table
from seminaive.datasets import load
from seminaive.evaluation import evaluate
from seminaive.models import compare_model, make_model, model_names

README = (pathlib.Path(__file__).parents[1] / "README.md").read_text()


def run(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:  # argparse's errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def _subparsers():
    return build_parser()._subparsers._group_actions[0].choices


def test_every_option_has_help():
    missing = [(name, a.option_strings or a.dest) for name, p in _subparsers().items() for a in p._actions
               if not isinstance(a, argparse._HelpAction) and not (a.help or "").strip()]
    assert missing == []


def test_the_readme_table_is_the_parser():
    table = README.split("<!-- options table -->\n", 1)[1].split("\n<!-- end of the options table -->", 1)[0]
    assert table == options_table(), "run: python -c 'from seminaive.cli.main import options_table; " \
                                     "print(options_table())' and paste it into the README"


@pytest.mark.parametrize("argv", [["fit", "weather.nominal", "--bogus"], ["fit", "weather.nominal", "--numeric", "x"],
                                  ["search", "weather.nominal", "--scoring", "x"], ["evaluate", "iris", "--cv"]])
def test_a_bad_option_points_to_the_subcommand_help(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"seminaive {argv[0]}: error: ") and f"'seminaive {argv[0]} --help'" in err


DATA_READERS = ["fit", "predict", "evaluate", "show", "subsets", "search", "dependencies", "compare", "test",
                "accuracy"]


@pytest.mark.parametrize("name", DATA_READERS)
def test_every_data_option_wherever_data_are_read(name):
    options = {o for a in _subparsers()[name]._actions for o in a.option_strings}
    assert {"--target", "--sep", "--nominal", "--no-header", "--input-format"} <= options


MODEL_BUILDERS = ["fit", "evaluate", "show", "subsets", "search"]


@pytest.mark.parametrize("name", MODEL_BUILDERS)
def test_every_model_option_wherever_models_are_built(name):
    options = {o for a in _subparsers()[name]._actions for o in a.option_strings}
    assert {"--model", "--alpha", "--k", "--numeric", "--min-rate", "--calibration", "--scoring"} <= options


@pytest.mark.parametrize("name", [n for n in model_names("compare") if not n.endswith(":R")]
                         + ["cnb:0.8", "offset:0.8", "kdb", "cnb", "multinomial", "bernoulli"])
def test_every_compare_name_is_a_model_name(name):
    from seminaive.evaluation.experiment import stable_description
    if name == "lightgbm":  # a peer of the benchmark extra, which the tests do not need
        pytest.importorskip("lightgbm")
    model = make_model(name)
    assert type(model) is type(compare_model(name))
    assert stable_description(model) == stable_description(compare_model(name))


def test_parameters_in_the_name_or_as_options_are_the_same():
    a, b, c = make_model("kdb:k=2:alpha=0.5"), make_model("kdb", k=2, alpha=0.5), make_model("kdb2", alpha=0.5)
    assert a.get_params() == b.get_params() == c.get_params() == KDB(k=2, alpha=0.5).get_params()
    assert make_model("nb-isotonic", alpha=0.5).estimator.alpha == 0.5  # a wrapper passes them on
    with pytest.raises(Exception, match=r"k: model 'nb' has no such parameter"):
        make_model("nb", k=2)
    with pytest.raises(Exception, match=r"alpha: given twice"):
        make_model("nb:alpha=1", alpha=0.5)
    with pytest.raises(Exception, match=r"model: expected one of .*got 'kbd'"):
        make_model("kbd")


def test_kdb_k_on_the_command_line_equals_the_library(capsys, tmp_path):
    d = load("weather.nominal")
    want = KDB(k=2).fit(d).to_text()
    for argv in (["--model", "kdb", "--k", "2"], ["--model", "kdb:k=2"], ["--model", "kdb2"]):
        code, out, err = run(capsys, "fit", "weather.nominal", *argv)
        assert code == 0 and out.strip() == want, err


def test_searches_fit_like_any_model(capsys, tmp_path):
    d = load("weather.nominal")
    code, out, err = run(capsys, "fit", "weather.nominal", "--model", "bse", "-m", tmp_path / "bse.json")
    assert code == 0, err
    code, steps, err = run(capsys, "search", "weather.nominal", "--model", "bse", "--quiet")
    assert code == 0 and steps == out
    code, older, err = run(capsys, "search", "weather.nominal", "--method", "bse", "--quiet")
    assert older == out
    assert load_model(tmp_path / "bse.json").structure_ == make_model("bse").fit(d).structure_
    code, out, err = run(capsys, "search", "weather.nominal", "--model", "tan")
    assert code == 2 and "--model: expected a search" in err


def test_streamed_search_reads_as_the_in_memory_one(capsys, tmp_path):
    """--nominal and --sep mean the same with --chunksize (the in-memory start score was 1.000, the
    streamed one 0.667 with a read as numeric)."""
    path = write(tmp_path, "six.csv", "a;b;cls\n1;x;p\n2;y;q\n1;x;p\n2;y;q\n1;y;p\n2;x;q\n")
    base = ["search", path, "--nominal", "a", "--sep", ";", "--model", "bse", "--quiet"]
    code, memory, err = run(capsys, *base)
    assert code == 0 and "score 1.0000" in memory, err
    code, streamed, err = run(capsys, *base, "--chunksize", "2")
    assert code == 0 and streamed == memory, err
    code, fitted, err = run(capsys, "fit", path, "--nominal", "a", "--sep", ";", "--model", "bse", "--chunksize", "2")
    assert code == 0 and fitted.splitlines()[1:] == memory.splitlines()[1:]


CLASS_FIRST = "cls;colour;size\n" + "".join(f"{c};{a};{s}\n" for c, a, s in [
    ("p", "red", "1.5"), ("q", "blue", "2.5"), ("p", "red", "1.0"), ("q", "blue", "3.0"), ("p", "blue", "1.2"),
    ("q", "red", "2.8"), ("p", "red", "0.9"), ("q", "blue", "2.2"), ("p", "red", "1.4"), ("q", "blue", "2.9")])


def test_a_csv_with_its_class_first_everywhere(capsys, tmp_path):
    path = write(tmp_path, "first.csv", CLASS_FIRST)
    opts = ["--target", "cls", "--sep", ";"]
    d = load_file(path, target="cls", sep=";")
    assert run(capsys, "fit", path, *opts)[1].strip() == NaiveBayes().fit(d).to_text()
    assert run(capsys, "show", path, *opts)[1].strip() == NaiveBayes().fit(d).to_text()
    code, out, err = run(capsys, "evaluate", path, *opts, "--cv", "2")
    assert code == 0 and "2-fold" in out, err
    code, out, err = run(capsys, "compare", "--datasets", path, "--models", "nb,kdb:k=1", *opts, "--cv", "2",
                         "--out", tmp_path / "report")
    assert code == 0, err
    done = json.loads((tmp_path / "report" / "experiment.json").read_text())
    assert done["datasets"] == ["first.csv"] and done["models"]["kdb:k=1"]["params"]["k"] == 1
    code, out, err = run(capsys, "subsets", path, *opts, "--cv", "2")
    assert code == 0, err
    code, out, err = run(capsys, "accuracy", path, "--test", path, *opts)
    assert code == 0 and out.strip() == f"accuracy: {100 * np.mean(NaiveBayes().fit(d).predict(d.X) == d.y):.2f}%"


def test_evaluate_protocols_and_a_separate_test_file(capsys, tmp_path):
    code, out, err = run(capsys, "evaluate", "iris", "--cv", "3", "--repeats", "2", "--format", "json")
    r = json.loads(out)
    assert code == 0 and len(r["fold_accuracy"]) == 6 and "repeated 2 times" in r["protocol"]
    code, out, err = run(capsys, "evaluate", "weather.nominal", "--loo", "--format", "json")
    assert len(json.loads(out)["fold_accuracy"]) == 14
    d = load("iris")
    train = write(tmp_path, "train.csv", d.X.assign(cls=d.y).iloc[::2].to_csv(index=False))
    test = write(tmp_path, "test.csv", d.X.assign(cls=d.y).iloc[1::2].to_csv(index=False))
    code, out, err = run(capsys, "evaluate", train, "--test", test, "--format", "json")
    r = json.loads(out)
    lib = NaiveBayes().fit(load_file(train))
    t = load_file(test)
    assert r["correct"] == int((lib.predict(t.X) == np.asarray(t.y)).sum()) and r["n_instances"] == 75
    assert evaluate(NaiveBayes(), load_file(train), test=load_file(test)).correct == r["correct"]


def test_predict_on_a_labelled_file_shows_the_class_and_the_accuracy(capsys, tmp_path):
    d = load("iris")
    data = write(tmp_path, "iris.csv", d.X.assign(cls=d.y).to_csv(index=False))
    assert run(capsys, "fit", data, "-m", tmp_path / "m.json")[0] == 0
    model = load_model(tmp_path / "m.json")
    pred = model.predict(d.X)
    right = int((pred == np.asarray(d.y)).sum())
    for chunks in ([], ["--chunksize", "40", "-o", tmp_path / "p.csv"]):
        code, out, err = run(capsys, "predict", "-m", tmp_path / "m.json", data, "--format", "csv", *chunks)
        text = (tmp_path / "p.csv").read_text() if chunks else out
        rows = [line.split(",") for line in text.strip().splitlines()]
        assert rows[0] == ["actual", "prediction"]
        assert [r[0] for r in rows[1:]] == list(d.y.astype(str)) and [r[1] for r in rows[1:]] == list(pred)
        assert f"accuracy: {right:,} of 150 instances with a known class correct ({100 * right / 150:.2f}%)" in err


def test_a_search_prints_a_summary_and_the_tables_on_request(capsys):
    code, out, err = run(capsys, "search", "keel:monk-2", "--model", "bsej", "--quiet")
    assert code == 0 and len(out.splitlines()) < 30
    assert "prints its tables" in out and not re.search(r"^\S+\s+\(nominal, Laplace", out, re.M)
    code, full, err = run(capsys, "search", "keel:monk-2", "--model", "bsej", "--quiet", "--tables")
    assert len(full.splitlines()) > 2 * len(out.splitlines()) and "P(class)" in full
    assert full.splitlines()[:3] == out.splitlines()[:3]


def test_models_lists_every_name(capsys):
    code, out, err = run(capsys, "models", "--format", "json")
    names = [r["name"] for r in json.loads(out)]
    assert code == 0 and {"nb", "kdb", "kdb2", "bsej", "nb-isotonic", "cnb:R", "tree"} <= set(names)


@pytest.mark.parametrize("seed", range(6))
def test_predict_in_memory_and_streamed_agree_on_generated_files(capsys, tmp_path, seed):
    """Generated labelled files (nominal and numeric columns, missing values, classes and values the model
    has not seen, a class column anywhere): the in-memory and the chunked predictions, their actual column
    and their accuracy line are the same, row for row."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 40))
    frame = pd.DataFrame({"a": rng.choice(["x", "y", "z", "?"], n), "b": np.round(rng.normal(size=n), 3),
                          "cls": rng.choice(["p", "q", "r", ""], n, p=[0.4, 0.3, 0.2, 0.1])})
    frame.loc[rng.random(n) < 0.1, "b"] = np.nan
    order = list(rng.permutation(frame.columns))
    train = tmp_path / "train.csv"
    frame[frame["cls"] != "r"].replace({"cls": {"": "p"}})[order].to_csv(train, index=False)  # r: unseen class
    test = tmp_path / "test.csv"
    frame[order].to_csv(test, index=False)
    assert run(capsys, "fit", train, "--target", "cls", "-m", tmp_path / "m.json")[0] == 0
    code, memory, err_m = run(capsys, "predict", "-m", tmp_path / "m.json", test, "--target", "cls", "--proba",
                              "--format", "csv")
    chunk = str(int(rng.integers(1, 8)))
    code2, _, err_s = run(capsys, "predict", "-m", tmp_path / "m.json", test, "--target", "cls", "--proba",
                          "--chunksize", chunk, "-o", tmp_path / "p.csv")
    assert code == code2 == 0, err_m + err_s
    got = pd.read_csv(tmp_path / "p.csv", keep_default_na=False)
    want = pd.read_csv(io.StringIO(memory), keep_default_na=False)
    assert list(got.columns) == list(want.columns) and list(got.columns)[:2] == ["actual", "prediction"]
    assert got["actual"].astype(str).tolist() == want["actual"].astype(str).tolist()
    assert got["prediction"].tolist() == want["prediction"].tolist()
    np.testing.assert_allclose(got.iloc[:, 2:].to_numpy(float), want.iloc[:, 2:].to_numpy(float), rtol=1e-12)
    line = [x for x in err_m.splitlines() if x.startswith("accuracy:")]
    assert line == [x for x in err_s.splitlines() if x.startswith("accuracy:")]


@pytest.mark.parametrize("seed", range(4))
def test_search_in_memory_and_streamed_agree_with_every_data_option(capsys, tmp_path, seed):
    """Generated files read with --sep, --nominal (a column of numbers made nominal) and --target (the class
    first): the in-memory search and the streamed one print the same steps, structure and model."""
    rng = np.random.default_rng(10 + seed)
    n = int(rng.integers(8, 40))
    y = rng.choice(["p", "q"], n)
    frame = pd.DataFrame({"cls": y, "code": np.where(rng.random(n) < 0.7, (y == "p") * 2 + 1, rng.integers(1, 4, n)),
                          "v": rng.choice(["s", "t", "u"], n), "x": np.round(rng.normal(size=n) + (y == "p"), 2)})
    path = tmp_path / "d.txt"
    frame.to_csv(path, index=False, sep=";")
    base = ["search", path, "--sep", ";", "--nominal", "code", "--target", "cls", "--model", "bsej", "--quiet"]
    code, memory, err = run(capsys, *base)
    assert code == 0, err
    code, streamed, err = run(capsys, *base, "--chunksize", str(int(rng.integers(1, 6))))
    assert code == 0 and streamed == memory, err


def test_the_lightgbm_peer_without_its_package_is_one_line(monkeypatch, capsys, tmp_path):
    import sys
    from seminaive.exceptions import ParameterError
    from seminaive.models import compare_model
    monkeypatch.setitem(sys.modules, "lightgbm", None)  # as where the benchmark extra is not installed
    with pytest.raises(ParameterError, match=r"models: 'lightgbm' needs the lightgbm package.*\[bench\]"):
        compare_model("lightgbm")
    code, out, err = run(capsys, "compare", "weather.nominal", "--models", "nb,lightgbm", "--cv", "2", "--out",
                         tmp_path / "c")
    assert code == 2 and len(err.splitlines()) == 1 and "needs the lightgbm package" in err


def test_the_lightgbm_peer_runs_on_one_thread_in_a_comparison(tmp_path):
    pytest.importorskip("lightgbm")
    from seminaive.datasets import load
    from seminaive.evaluation import evaluate
    from seminaive.models import compare_model
    model = compare_model("lightgbm")
    assert model[-1].get_params()["n_jobs"] == 1
    assert evaluate(model, load("keel:monk-2"), cv=3).accuracy > 0.9
