"""What outside data, hostile files and saved ensembles still broke (issue 64): each case as a
user met it, then the rule that fixed it where it starts. (Saved ensembles, impossible evidence:
``test_registered_models.py``; the order of values: ``test_value_order.py``.)"""

import warnings

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes
from seminaive.data import load_file
from seminaive.exceptions import UnseenValueWarning
from seminaive.scale import fit_file


def _quiet_proba(model, X):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnseenValueWarning)  # an unseen value is the defect here
        return model.predict_proba(X)


def test_numbers_made_nominal_meet_their_text_on_every_route(tmp_path):
    """``nominal=["a"]`` in memory kept the numbers, from the file their text: text values such as '1'
    were unseen by the first model. A number and its text now meet one value whichever the model holds."""
    path = tmp_path / "n.csv"
    path.write_text("a,b,cls\n1,x,p\n2,y,q\n1,y,p\n3,x,q\n2,x,p\n10,y,q\n")
    memory = NaiveBayes(nominal=["a"]).fit(load_file(path, target="cls"))
    streamed = fit_file(NaiveBayes(nominal=["a"]), path, target="cls")
    assert memory.schema_.attributes[0].values == (1, 2, 3, 10)
    assert streamed.schema_.attributes[0].values == ("1", "2", "3", "10")
    expected = _quiet_proba(memory, pd.DataFrame({"a": [1, 2, 3, 10], "b": ["x", "y", "x", "y"]}))
    assert np.ptp(expected[:, 0]) > 0.1
    for a in (["1", "2", "3", "10"], [1.0, 2.0, 3.0, 10.0], pd.Categorical(["1", "2.0", "3", "10"]), [1, 2, 3, 10]):
        X = pd.DataFrame({"a": a, "b": ["x", "y", "x", "y"]})
        np.testing.assert_array_equal(_quiet_proba(memory, X), expected)
        np.testing.assert_array_equal(_quiet_proba(streamed, X), expected)
    with pytest.warns(UnseenValueWarning):  # text that is no number stays unseen
        memory.predict_proba(pd.DataFrame({"a": ["one"], "b": ["x"]}))


def _saved(model, X, y):
    from seminaive.persistence import model_to_dict
    import json
    return json.loads(json.dumps(model_to_dict(model.fit(X, y))))


@pytest.mark.parametrize("change, field", [
    (lambda d: d["state"].__setitem__("classes", ["p", "q", "p"]), "state.classes"),
    (lambda d: d["state"].__setitem__("classes", ["p", 1, "1"]), "state.classes"),
    (lambda d: d["state"]["schema"]["attributes"][0]["values"].__setitem__(1, True), "state.schema.attributes[0]"),
])
def test_a_model_file_with_labels_of_another_meaning_is_refused(change, field):
    """A class label twice (the third class predicted as the first) and true among texts (a value then
    unseen) loaded with another meaning; each is refused naming the field."""
    from seminaive.exceptions import DataFormatError
    from seminaive.persistence import model_from_dict
    from conftest import mixed_frame
    X, y = mixed_frame(120, seed=2)
    d = _saved(NaiveBayes(), X.astype({"size": "category"}), y)
    change(d)
    with pytest.raises(DataFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        model_from_dict(d)


def test_a_normal_child_s_prior_weight_below_a_millionth_of_a_row_is_refused():
    """m = 5e-324 loaded, and an empty cell's mean m * mu / m underflowed (predict and predict_proba
    disagreed)."""
    from seminaive import SelectiveKDB
    from seminaive.exceptions import DataFormatError
    from seminaive.persistence import model_from_dict
    rng = np.random.default_rng(0)
    n = 400
    a, y = rng.integers(0, 3, n), rng.integers(0, 2, n)
    X = pd.DataFrame({"a": np.array(list("abc"), dtype=object)[a], "x": rng.normal(y + a, 0.5),
                      "z": rng.normal(y, 1, n)})
    d = _saved(SelectiveKDB(k=1, hybrid="gaussian"), X, y)
    assert d["state"]["normal_children"]
    for m in (5e-324, 0.0, 1e-9):
        d["state"]["normal_children"][0]["m"] = m
        with pytest.raises(DataFormatError, match=r"state\.normal_children\[0\]\.m"):
            model_from_dict(d)
    d["state"]["normal_children"][0]["m"] = 4.0  # another weight the fit could have chosen loads
    model_from_dict(d).predict_proba(X)


@pytest.mark.parametrize("make", ["tan", "kdb2", "skdb", "eskdb"])
def test_discriminative_weights_choose_folds_from_the_rows_they_have(make):
    """Every class of fewer rows than the penalty's five folds: scikit-learn's StratifiedKFold refused
    (n_splits=5 cannot be greater than the number of members in each class); the project's fold maker
    deals each class into as many folds as it has rows. And a class of three rows among larger ones."""
    from seminaive.models import make_model
    from conftest import mixed_frame
    spec = {"eskdb": "eskdb:n_estimators=2"}.get(make, make)
    X, y = mixed_frame(150, seed=5, missing=0.0)
    y = y.copy()
    y[:3] = "rare"  # three rows of a fourth class
    for rows in (slice(0, 11), slice(None)):  # 11 rows: classes of 3 and 4 rows; then all 150
        model = make_model(spec).set_params(discriminative="parameter").fit(X[rows], y[rows])
        p = model.predict_proba(X)
        assert "rare" in model.classes_ and np.allclose(p.sum(axis=1), 1.0)
        assert (model.predict(X[rows]) == y[rows]).mean() > 0.5


@pytest.mark.parametrize("make", ["nb", "tan", "skdb", "eskdb", "kdb:k=1:estimation=hls",
                                  "kdb:k=1:estimation=hgs", "kdb:k=1:estimation=hdp:hdp_iterations=10"])
def test_a_column_of_no_values_is_an_attribute_that_says_nothing(make):
    """``Codes`` with ``n_values=[0, 2]`` (documented: every code -1, as a categorical with no categories)
    raised numpy's reshape errors in the subset counts and the hierarchical estimators. Such an
    attribute has no cell: the model is the one without it."""
    from seminaive.data import Codes
    from seminaive.models import make_model
    rng = np.random.default_rng(0)
    b = rng.integers(0, 2, 60)
    y = np.where(rng.random(60) < 0.8, b, 1 - b)
    spec = {"eskdb": "eskdb:n_estimators=2"}.get(make, make)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        empty = make_model(spec).fit(Codes(np.column_stack([np.full(60, -1), b]), n_values=[0, 2]), y)
        alone = make_model(spec).fit(Codes(b[:, None], n_values=[2]), y)
        got = empty.predict_proba(Codes(np.column_stack([np.full(60, -1), b]), n_values=[0, 2]))
    if "hdp" in make:  # the sampler's stream is seeded by each table's place, which the empty column moves
        assert (empty.classes_[got.argmax(axis=1)] == b).all() and np.allclose(got.sum(axis=1), 1.0)
        return
    np.testing.assert_allclose(got, alone.predict_proba(Codes(b[:, None], n_values=[2])), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("y, says", [
    (np.array([0.5, 1.5, 0.5, 1.5]), r"y: expected class labels \(discrete values\), got numbers with fractions"),
    (np.array([1, "1", 2, 1], dtype=object), r"y: expected class labels of one kind, got numbers and text"),
    (np.array([1.0, np.nan, 0.0, 1.0]), r"y: 1 class labels are missing \(NaN\)"),
    (np.array([1.0, np.inf, 0.0, 1.0]), r"y: expected finite class labels"),
])
def test_labels_scikit_learn_refused_are_refused_in_one_line_naming_y(y, says):
    from seminaive.exceptions import ParameterError
    with pytest.raises(ParameterError, match=says) as e:
        NaiveBayes().fit(pd.DataFrame({"a": list("xyxy")}), y)
    assert "\n" not in str(e.value)


def test_codes_with_no_rows_are_refused_naming_x():
    from seminaive.data import Codes
    from seminaive.exceptions import ParameterError
    with pytest.raises(ParameterError, match="X: expected at least one instance"):
        NaiveBayes().fit(Codes(np.zeros((0, 2), dtype=int), n_values=[2, 2]), np.array([]))


@pytest.mark.parametrize("make", ["multinomial", "bernoulli"])
def test_count_models_match_columns_by_name_as_the_tabular_models(make):
    """Reordered, extra, missing or renamed columns and no rows: scikit-learn's feature-name errors before."""
    from seminaive.exceptions import ParameterError
    from seminaive.models import make_model
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 4, (30, 3)), columns=["w1", "w2", "w3"])
    y = np.where(X["w1"] + rng.integers(0, 2, 30) > 2, "p", "q")
    m = make_model(make).fit(X, y)
    expected = m.predict_proba(X)
    np.testing.assert_array_equal(m.predict_proba(X[["w3", "w1", "w2"]]), expected)
    np.testing.assert_array_equal(m.predict_proba(X.assign(w0=7)), expected)
    assert m.predict_proba(X.iloc[:0]).shape == (0, 2) and m.predict(X.iloc[:0]).shape == (0,)
    for bad in (X[["w1", "w2"]], X.rename(columns={"w1": "v1"})):
        with pytest.raises(ParameterError, match="X: the model's feature"):
            m.predict_proba(bad)


def test_a_declared_width_beyond_the_limit_is_refused_before_anything_is_built():
    """``Codes([[0], [1]], n_values=[10**12])`` made every default label as text and grew until the kernel
    killed the process (21 GiB)."""
    from seminaive.data import Codes
    from seminaive.data.codes import MAX_N_VALUES
    from seminaive.exceptions import ParameterError
    with pytest.raises(ParameterError, match=r"n_values: column 0 \(x0\) declares 1,000,000,000,000 values; at most"):
        Codes([[0], [1]], n_values=[10 ** 12])
    assert Codes([[0], [1]], n_values=[MAX_N_VALUES // 1000]).n_values.tolist() == [MAX_N_VALUES // 1000]


def test_an_arff_date_format_giving_a_field_twice_is_refused_naming_the_line(tmp_path):
    from seminaive.exceptions import DataFormatError
    path = tmp_path / "d.arff"
    path.write_text('@relation t\n@attribute d date "yy-MM-yydd"\n@attribute c {p,q}\n@data\n"20-01-2001",p\n')
    with pytest.raises(DataFormatError, match=r"line 2: attribute 'd': the date format 'yy-MM-yydd' gives the year "
                                              r"twice"):
        load_file(path)


def test_a_dictionary_entry_no_row_uses_is_not_reported_as_a_row_s_value():
    """A damaged Parquet file's dictionary held an entry outside the model's values that no row used: the
    error message itself raised IndexError (it looked for such a row)."""
    import pyarrow as pa
    from seminaive.data.arrow_values import encode_arrow
    from seminaive.data.schema import Attribute
    from seminaive.exceptions import DataFormatError
    a = Attribute("b", "nominal", ("x", "y"))
    unused = pa.DictionaryArray.from_arrays(pa.array([0, 1, 0], type=pa.int32()), pa.array(["x", "y", "zz"]))
    assert encode_arrow(unused, a, "f.parquet").codes.tolist() == [0, 1, 0]
    used = pa.DictionaryArray.from_arrays(pa.array([0, 2, 0], type=pa.int32()), pa.array(["x", "y", "zz"]))
    with pytest.raises(DataFormatError, match="f.parquet, column b: value zz is not one of"):
        encode_arrow(used, a, "f.parquet")


@pytest.mark.parametrize("npartitions", [None, 4])
def test_a_parquet_read_by_dask_with_category_columns_and_class_fits_as_in_memory(tmp_path, npartitions):
    """``dd.read_parquet(f).repartition(npartitions=4)`` with category columns: dask does not know their
    categories; the class's placeholder category was taken for the classes (every label missing), and the
    ``cat`` accessor of an attribute failed on some dask versions. Categories come from the partitions."""
    import dask
    import dask.dataframe as dd
    from seminaive import TAN
    from seminaive.scale.dask import fit_dask
    rng = np.random.default_rng(0)
    n = 200
    df = pd.DataFrame({"a": pd.Categorical(rng.choice(["x", "y", "z"], n)), "b": rng.normal(size=n),
                       "cls": pd.Categorical(rng.choice(["p", "q"], n))})
    df.to_parquet(tmp_path / "c.parquet")
    ddf = dd.read_parquet(tmp_path / "c.parquet")
    ddf = ddf.repartition(npartitions=npartitions) if npartitions else ddf
    X = df.drop(columns="cls")
    for make in (NaiveBayes, TAN):
        with dask.config.set(scheduler="synchronous"):
            got = fit_dask(make(), ddf.drop(columns="cls"), ddf["cls"])
        np.testing.assert_allclose(got.predict_proba(X), make().fit(X, df["cls"]).predict_proba(X), rtol=1e-12,
                                   atol=1e-12)


def test_a_wide_file_of_text_columns_is_read_in_a_bounded_number_of_passes(tmp_path, monkeypatch):
    """A 50-row CSV of 10,000 columns took more than 90 s: each column holding text after numbers made the
    reader start the file again. After two such columns one pass as text finds the rest."""
    from seminaive.data import arrow_csv
    rng = np.random.default_rng(0)
    d = 600
    X = pd.DataFrame({f"c{j}": rng.choice(["1", "2", "x"] if j % 2 else ["1.5", "2"], 40) for j in range(d)})
    X.iloc[0, 1::2] = "1"  # text after a number in every odd column
    X.assign(cls=rng.choice(["p", "q"], 40)).to_csv(tmp_path / "wide.csv", index=False)
    calls = []
    real = arrow_csv.csv_batches
    monkeypatch.setattr(arrow_csv, "csv_batches", lambda *a, **k: calls.append(1) or real(*a, **k))
    data = load_file(tmp_path / "wide.csv", target="cls")
    assert len(calls) <= 5
    numeric = [c for c in data.X.columns if data.X[c].dtype == np.float64]
    assert numeric == [f"c{j}" for j in range(0, d, 2)]
    expected = pd.read_csv(tmp_path / "wide.csv").drop(columns="cls")
    for c in ("c0", "c1", "c599"):
        assert [str(v) for v in data.X[c]] == [str(v) for v in expected[c]]


def test_a_model_file_over_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    """A 600 MB model file was refused only after 34 s and 3.1 GB (parsed first): the size is checked
    first, against 256 MiB by default, a larger limit given by the caller or the environment."""
    from seminaive import save_model, load_model
    from seminaive.exceptions import DataFormatError
    from seminaive.persistence import MAX_BYTES
    assert MAX_BYTES == 256 << 20
    path = tmp_path / "m.json"
    with open(path, "wb") as fh:  # a sparse file: its size without its bytes
        fh.truncate(MAX_BYTES + 1)
    import seminaive.persistence as persistence
    monkeypatch.setattr(persistence, "open", lambda *a, **k: pytest.fail("the file was opened"), raising=False)
    with pytest.raises(DataFormatError, match=r"the file holds 268,435,457 bytes, more than a model file may"):
        load_model(path)
    monkeypatch.delattr(persistence, "open")
    good = tmp_path / "good.json"
    X = pd.DataFrame({"a": list("xyxy")})
    save_model(NaiveBayes().fit(X, ["p", "q", "p", "q"]), good)
    size = good.stat().st_size
    with pytest.raises(DataFormatError, match=f"the file holds {size:,} bytes"):
        load_model(good, max_bytes=size - 1)
    monkeypatch.setenv("SEMINAIVE_MAX_MODEL_BYTES", str(size - 1))
    with pytest.raises(DataFormatError, match=f"more than a model file may \\({size - 1:,}"):
        load_model(good)
    assert load_model(good, max_bytes=size).classes_.tolist() == ["p", "q"]


def _cli(argv, capsys):
    from seminaive.cli.main import main
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_evaluate_names_the_class_column_and_warns_where_it_cannot_be_the_class(tmp_path, capsys):
    """Forgetting --target on mtcars used carb (two one-row classes); a one-class file reported 100%; a
    row-id class 0% with 150 per-class rates; a class smaller than the folds went unsaid."""
    one = tmp_path / "one.csv"
    one.write_text("a,b,cls\nx,1,p\ny,2,p\nx,1,p\ny,1,p\n")
    code, out, err = _cli(["evaluate", str(one), "--cv", "2"], capsys)
    assert code in (0, None) and "one: 4 instances; class 'cls': 1 class (p 4)" in out
    assert "warning: one: class 'cls' holds one class ('p')" in err
    ids = tmp_path / "ids.csv"
    ids.write_text("a,id\n" + "".join(f"x{i % 3},r{i}\n" for i in range(60)))
    code, out, err = _cli(["evaluate", str(ids), "--cv", "3"], capsys)
    assert "class 'id' holds 60 values among 60 instances: an identifier" in err
    assert "(30 more: --format json lists every one)" in out
    small = tmp_path / "small.csv"
    small.write_text("a,cls\n" + "".join(f"x{i % 2},{'q' if i < 2 else 'p'}\n" for i in range(20)))
    code, out, err = _cli(["evaluate", str(small)], capsys)
    assert "class 'cls': q has 2 instances, fewer than the 10 folds" in err
    assert "class 'cls': 2 classes (p 18, q 2)" in out
    code, out, err = _cli(["compare", str(small), "--models", "nb", "--cv", "3", "--out", str(tmp_path / "c")], capsys)
    assert "small.csv: class 'cls': 2 classes (p 18, q 2)" in err and "q has 2 instances, fewer than the 3" in err


def test_a_test_set_s_probabilities_are_not_called_a_mean_over_folds(capsys):
    from seminaive.datasets import dataset_path
    path = str(dataset_path("weather.nominal"))
    code, out, err = _cli(["evaluate", path, "--test", path], capsys)
    assert "probabilities (on the test instances)" in out and "mean over folds" not in out


def test_a_column_of_numbers_read_as_nominal_says_why(tmp_path):
    """One stray word made a numeric column nominal, and --decimal . on a decimal-comma file made every
    number nominal (three of six classes never predicted): silently. Each now warns in one line; a
    column of words does not."""
    from seminaive import KindWarning
    stray = tmp_path / "stray.csv"
    stray.write_text("a,b,cls\n1.5,x,p\n2.25,y,q\n3.5,x,p\n4.75,y,q\noops,x,p\n6.5,y,q\n")
    with pytest.warns(KindWarning, match=r"stray.csv: column 'a' is read as nominal: 1 of its 6 values \('oops'\)"):
        load_file(stray)
    comma = tmp_path / "comma.csv"
    comma.write_text("a;b;cls\n1,5;x;p\n2,25;y;q\n3,5;x;p\n4,75;y;q\n5,5;x;p\n6,5;y;q\n")
    with pytest.warns(KindWarning, match=r"column 'a' is read as nominal: its values are numbers with a decimal "
                                         r"comma \('1,5'\); --decimal ,"):
        load_file(comma, decimal=".")
    words = tmp_path / "words.csv"
    words.write_text("a,cls\n" + "".join(f"w{i},p\n" for i in range(8)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", KindWarning)
        load_file(words)
        load_file(comma)  # its decimal found: numbers, nothing to say


def test_compare_bolds_every_result_that_ties_the_best_as_printed():
    """Means equal as printed but not as floats were bold in one column only."""
    from seminaive.evaluation.report_files import comparison_table
    third = [1 / 3, 1 / 3, 1 / 3]
    other = [1 / 3 - 1e-12, 1 / 3, 1 / 3]
    assert np.mean(third) != np.mean(other) and f"{np.mean(third):.4f}" == f"{np.mean(other):.4f}"
    rows = [{"dataset": "d", "model": m, "split": k, "accuracy": a, "n_train": 20, "n_test": 10} for m, accs in (("a", third), ("b", other),
                                                                                      ("c", [0.2] * 3))
            for k, a in enumerate(accs)]
    table = comparison_table(pd.DataFrame(rows), "c")
    line = next(l for l in table.splitlines() if l.startswith("| d |"))
    assert line.count("**") == 4 and "**33.33 ± 0.00**" in line


@pytest.mark.parametrize("chunksize", [None, 1, 2])
def test_an_infinite_number_in_a_file_is_refused_naming_the_file_and_line(tmp_path, chunksize):
    """The infinity error named neither file nor line (in memory), and streamed it came out as NaN moments
    with numpy's warnings."""
    from seminaive.exceptions import DataFormatError
    path = tmp_path / "inf.csv"
    path.write_text("a,b,cls\n1,x,p\n2,y,q\ninf,y,q\n3,x,p\n")
    with pytest.raises(DataFormatError, match=r"inf.csv, line 4, column 1: numeric attribute 'a' holds 'inf'"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            if chunksize is None:
                NaiveBayes().fit(load_file(path))
            else:
                fit_file(NaiveBayes(), path, chunksize=chunksize)
    arff = tmp_path / "inf.arff"
    arff.write_text("@relation t\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p\n-inf,q\n")
    with pytest.raises(DataFormatError, match=r"inf.arff, line 6, column 1: numeric attribute 'a' holds '-inf'"):
        load_file(arff)


def test_predict_names_the_classes_of_a_file_the_model_does_not_know(tmp_path, capsys):
    from seminaive.datasets import dataset_path
    import pathlib
    text = pathlib.Path(dataset_path("weather.nominal")).read_text()
    other = tmp_path / "w2.arff"
    other.write_text(text.replace("{yes,no}", "{yes,no,maybe}").replace(",no\n", ",maybe\n"))
    model = tmp_path / "m.json"
    _cli(["fit", str(dataset_path("weather.nominal")), "-m", str(model)], capsys)
    for extra in ([], ["-o", str(tmp_path / "p.csv")]):
        code, out, err = _cli(["predict", "-m", str(model), str(other), *extra], capsys)
        assert "warning: 5 instances of the file have a class the model does not know: 'maybe' (5); they are " \
               "counted wrong" in err
        assert "accuracy: 9 of 14 instances with a known class correct" in err


def test_one_instance_is_one_instance(tmp_path, capsys):
    path = tmp_path / "m.csv"
    path.write_text("a,cls\nx,p\ny,q\nx,\ny,q\nx,p\n")
    code, out, err = _cli(["evaluate", str(path), "--cv", "2"], capsys)
    assert "note: 1 instance with a missing class was left out" in err


def test_eskdb_says_auto_for_each_smoothing_s_own_tying():
    """hdp_tying was None in ESKDB beside "none" (a tying) in kDB; None still loads (model files)."""
    from seminaive import ESKDB
    assert ESKDB().hdp_tying == "auto" and ESKDB()._tying() == "none" and ESKDB(estimation="hdp")._tying() == "level"
    assert ESKDB(hdp_tying=None)._tying() == "none" and ESKDB(hdp_tying="single")._tying() == "single"


def test_columns_are_left_out_by_name_and_row_names_by_themselves(tmp_path, capsys):
    """No --ignore, no index column: R's default write.csv output (row names under an empty first header)
    could not be read, a leaking column could not be left out, and an ARFF string attribute's error said
    'leave the attribute out' with no way to. Every route leaves them out alike."""
    from seminaive import TAN
    rng = np.random.default_rng(0)
    n = 60
    b = rng.choice(["x", "y"], n)
    y = np.where((b == "x") ^ (rng.random(n) < 0.2), "p", "q")
    leak = np.where(y == "p", 1.0, 2.0) + rng.normal(0, 0.01, n)
    frame = pd.DataFrame({"a": rng.normal(size=n), "b": b, "leak": leak, "cls": y},
                         index=[f"r{i}" for i in range(n)])
    path = tmp_path / "r.csv"
    frame.to_csv(path)  # pandas writes the index under an empty header name, as R's write.csv does
    assert path.read_text().startswith(",a,b,leak,cls")
    kept = frame[["a", "b"]].reset_index(drop=True)
    expected = TAN().fit(kept, y).predict_proba(kept)
    d = load_file(path, ignore=["leak"])
    assert list(d.X.columns) == ["a", "b"]
    np.testing.assert_allclose(TAN().fit(d).predict_proba(kept), expected, rtol=1e-12, atol=1e-12)
    for size in (7, 60):
        streamed = fit_file(TAN(), path, chunksize=size, ignore="leak")
        np.testing.assert_allclose(streamed.predict_proba(kept), expected, rtol=1e-12, atol=1e-12)
    model = tmp_path / "m.json"
    code, out, err = _cli(["fit", str(path), "--ignore", "leak", "--model", "tan", "-m", str(model)], capsys)
    code, out, err = _cli(["predict", "-m", str(model), str(path), "--ignore", "leak", "--format", "csv"], capsys)
    assert "accuracy:" in err  # the file's row names and leaking column are not the model's: left out
    frame.reset_index(drop=True).to_parquet(tmp_path / "r.parquet")  # Parquet and Feather leave out alike
    frame.reset_index(drop=True).to_feather(tmp_path / "r.feather")
    for name in ("r.parquet", "r.feather"):
        d = load_file(tmp_path / name, ignore=["leak"])
        assert list(d.X.columns) == ["a", "b"]
        np.testing.assert_allclose(TAN().fit(d).predict_proba(kept), expected, rtol=1e-12, atol=1e-12)
        streamed = fit_file(TAN(), tmp_path / name, chunksize=7, ignore="leak")
        np.testing.assert_allclose(streamed.predict_proba(kept), expected, rtol=1e-12, atol=1e-12)
    plain = tmp_path / "plain.csv"
    frame.reset_index().rename(columns={"index": "id"}).to_csv(plain, index=False)
    np.testing.assert_allclose(TAN().fit(load_file(plain, index_col="id", ignore=[3])).predict_proba(kept),
                               expected, rtol=1e-12, atol=1e-12)
    arff = tmp_path / "s.arff"
    arff.write_text("@relation t\n@attribute id string\n@attribute a {x,y}\n@attribute c {p,q}\n@data\n"
                    "'r1',x,p\n'r2',y,q\n'r3',x,p\n")
    from seminaive.exceptions import DataFormatError, ParameterError
    with pytest.raises(DataFormatError, match=r"leave the attribute out \(--ignore id"):
        load_file(arff)
    assert list(load_file(arff, ignore="id").X.columns) == ["a"]
    with pytest.raises(ParameterError, match="ignore: 'cls' is the class column"):
        load_file(path, ignore="cls")


def test_a_file_in_another_encoding_is_read_with_its_encoding_and_named_without(tmp_path, capsys):
    """No --encoding: a Latin-1 or UTF-16 CSV got 'not UTF-8 text (byte 16 of a block)' with no line."""
    from seminaive import TAN
    from seminaive.exceptions import DataFormatError
    rows = "a,b,cls\n" + "".join(f"{'xy'[i % 2]},{['café', 'thé', 'crème'][i % 3]},{'pq'[i % 2 ^ (i % 5 == 0)]}\n"
                                 for i in range(30))
    utf8, latin, utf16 = tmp_path / "u8.csv", tmp_path / "l1.csv", tmp_path / "u16.csv"
    utf8.write_text(rows, encoding="utf-8")
    latin.write_text(rows, encoding="latin-1")
    utf16.write_text(rows, encoding="utf-16")
    with pytest.raises(DataFormatError, match=r"l1.csv, line 2: not UTF-8 text \(byte 0xe9, byte 6 of the line\).*--encoding"):
        load_file(latin)
    with pytest.raises(DataFormatError, match=r"u16.csv: UTF-16 text .*--encoding utf-16"):
        load_file(utf16)
    expected = TAN().fit(load_file(utf8)).predict_proba(load_file(utf8).X)
    for path, encoding in ((latin, "latin-1"), (utf16, "utf-16")):
        d = load_file(path, encoding=encoding)
        assert d.schema.attributes[1].values == ("café", "thé", "crème")
        np.testing.assert_allclose(TAN().fit(d).predict_proba(d.X), expected, rtol=1e-12, atol=1e-12)
        streamed = fit_file(TAN(), path, chunksize=4, encoding=encoding)
        np.testing.assert_allclose(streamed.predict_proba(d.X), expected, rtol=1e-12, atol=1e-12)
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"a,cls\nx,p\n\xff,q\n")
    with pytest.raises(DataFormatError, match=r"bad.csv, line 3"):
        fit_file(NaiveBayes(), bad, chunksize=1)
    code, out, err = _cli(["evaluate", str(latin), "--encoding", "latin-1", "--cv", "3"], capsys)
    assert "l1: 30 instances" in out
    code, out, err = _cli(["fit", str(latin), "--encoding", "klingon"], capsys)
    assert code == 2 and "encoding: no such text encoding 'klingon'" in err


def test_the_reliability_histograms_of_one_figure_share_one_scale(tmp_path, monkeypatch):
    """One model's histogram on a log axis beside another's on a linear one: the counts looked alike."""
    import seminaive.evaluation.reliability as reliability
    seen = []
    monkeypatch.setattr(reliability, "save_figure", lambda fig, path, overwrite=False: seen.append(fig) or path)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 2000)
    sure = np.where(rng.random(2000) < 0.99, 0.995, 0.6)  # almost every prediction in the last bin: log
    even = rng.uniform(0.5, 1.0, 2000)  # spread: linear on its own
    bins = {name: reliability.reliability_bins(np.column_stack([1 - p, p]), y) for name, p in (("sure", sure),
                                                                                              ("even", even))}
    reliability.plot_reliability(bins, tmp_path / "r.png")
    fig = seen[0]
    import matplotlib.pyplot as plt
    hist = [ax for ax in fig.axes if ax.get_ylabel().startswith("predictions")]
    scales, limits, label = {ax.get_yscale() for ax in hist}, [ax.get_ylim() for ax in hist], hist[0].get_ylabel()
    plt.close(fig)
    assert len(hist) == 2 and scales == {"log"}
    assert limits[0] == limits[1] and "log scale" in label


def test_blank_mic_cells_are_explained_in_the_picture_and_the_text(tmp_path, monkeypatch):
    import seminaive.dependence.matrices as matrices
    from seminaive.datasets import load
    seen = []
    monkeypatch.setattr(matrices, "save_figure", lambda fig, path, overwrite=False: seen.append(fig) or path)
    d = load("weather.numeric")  # two numeric attributes, two nominal: MIC for one pair only
    mats = matrices.dependence_matrices(d, measures=("mi", "mic"))
    matrices.plot_matrices(mats, tmp_path / "m.png")
    import matplotlib.pyplot as plt
    titles = [ax.get_title() for ax in seen[0].axes if ax.get_title()]
    plt.close(seen[0])
    assert any("blank: a pair not both numeric" in t for t in titles)
    assert "(blank: a pair not both numeric, MIC needs two numbers)" in matrices.format_matrices(mats)
