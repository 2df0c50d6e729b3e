"""Bad input: every case is a clear error naming where, or a documented sane result."""

import numpy as np
import pandas as pd
import pytest

from conftest import write

from seminaive import (AODE, KDB, ConstrainedNaiveBayes, DataFormatError, MultinomialNaiveBayes, NaiveBayes,
                       OffsetNaiveBayes, OneR, ParameterError)
from seminaive.data import read_arff, read_csv, read_filebase, read_keel
from seminaive.search import BSE, BSJ


def test_wrong_column_count_names_file_and_line(tmp_path):
    p = write(tmp_path, "d.csv", "a,b,c\n1,2,x\n3,4\n")
    with pytest.raises(DataFormatError, match=r"d\.csv, line 3: expected 3 values, got 2"):
        read_csv(p)


def test_non_number_in_numeric_column_arff(tmp_path):
    p = write(tmp_path, "d.arff", "@relation r\n@attribute n numeric\n@attribute c {a,b}\n@data\n1,a\nabc,b\n")
    with pytest.raises(DataFormatError, match=r"d\.arff, line 6, column 1: expected a number .*'abc'"):
        read_arff(p)


def test_undeclared_nominal_value(tmp_path):
    p = write(tmp_path, "d.arff", "@relation r\n@attribute n {x,y}\n@attribute c {a,b}\n@data\nx,a\nz,b\n")
    with pytest.raises(DataFormatError, match=r"line 6, column 1: value 'z' .* not one of the declared"):
        read_arff(p)


@pytest.mark.parametrize("reader,name", [(read_csv, "e.csv"), (read_arff, "e.arff"), (read_keel, "e.dat")])
def test_empty_file(tmp_path, reader, name):
    p = write(tmp_path, name, "\n  \n")
    with pytest.raises(DataFormatError, match="the file is empty"):
        reader(p)


def test_header_only_and_missing_file(tmp_path):
    with pytest.raises(DataFormatError, match="header but no data rows"):
        read_csv(write(tmp_path, "h.csv", "a,b\n"))
    with pytest.raises(DataFormatError, match="no such file"):
        read_csv(tmp_path / "none.csv")
    with pytest.raises(DataFormatError, match=r"fb\.des: no such file"):
        read_filebase(tmp_path / "fb")


def test_unknown_target_name(tmp_path):
    p = write(tmp_path, "d.csv", "a,b\n1,x\n")
    with pytest.raises(ParameterError, match=r"target: no column named 'zz' in .*d\.csv \(columns: a, b\)"):
        read_csv(p, target="zz")


def test_arff_without_data_and_bad_type(tmp_path):
    with pytest.raises(DataFormatError, match="no @data"):
        read_arff(write(tmp_path, "a.arff", "@relation r\n@attribute a numeric\n"))
    with pytest.raises(DataFormatError, match=r"line 2: attribute 'a': expected a type"):
        read_arff(write(tmp_path, "b.arff", "@relation r\n@attribute a relational\n@data\n"))


def test_arff_dates_are_numbers_as_in_weka_and_strings_are_refused(tmp_path):
    d = read_arff(write(tmp_path, "d.arff", "@relation r\n@attribute when date\n@attribute c {p,q}\n@data\n"
                                            "1970-01-02,p\n'2001-04-03T12:00:00',q\n?,p\n"))
    assert d.X["when"].tolist()[:2] == [86_400_000.0, 986_299_200_000.0] and np.isnan(d.X["when"].iloc[2])
    with pytest.raises(DataFormatError, match=r"line 6, column 1: expected an ISO-8601 date in attribute 'when'"):
        read_arff(write(tmp_path, "e.arff", "@relation r\n@attribute when date\n@attribute c {p,q}\n@data\n"
                                            "1970-01-02,p\nyesterday,q\n"))
    f = read_arff(write(tmp_path, "f.arff", "@relation r\n@attribute when date 'dd-MM-yyyy'\n@attribute c {p,q}\n"
                                            "@data\n02-01-1970,p\n"))  # Weka's (Java's) date formats
    assert f.X["when"].tolist() == [86_400_000.0]
    with pytest.raises(DataFormatError, match=r"line 2: attribute 'when': the date format letter 'G'"):
        read_arff(write(tmp_path, "f.arff", "@relation r\n@attribute when date 'G yyyy'\n@data\n"))
    with pytest.raises(DataFormatError, match=r"line 2: attribute 's' is a string attribute"):
        read_arff(write(tmp_path, "g.arff", "@relation r\n@attribute s string\n@attribute c {p,q}\n@data\nx,p\n"))


def test_keel_inputs_must_be_declared_and_csv_names_present(tmp_path):
    with pytest.raises(DataFormatError, match=r"line 4: @inputs names undeclared attribute\(s\) 'zz'"):
        read_keel(write(tmp_path, "k.dat", "@relation t\n@attribute a {x,y}\n@attribute c {p,q}\n"
                                           "@inputs a, zz\n@outputs c\n@data\nx,p\n"))
    with pytest.raises(DataFormatError, match=r"line 1: column 2 has no name in the header"):
        read_csv(write(tmp_path, "n.csv", "a,,c\nx,1,p\ny,2,q\n"))


def test_single_class_is_a_sane_model():
    """Documented: one class gives a model that predicts it with probability 1."""
    nb = NaiveBayes().fit([["a", 1.0], ["b", 2.0]], ["only", "only"])
    assert nb.predict([["a", 3.0]]).tolist() == ["only"]
    assert nb.predict_proba([["a", 3.0]]).tolist() == [[1.0]]


def test_class_with_one_instance_uses_pooled_variance():
    """Documented: with ddof=1 a class with one value takes the pooled variance."""
    X = np.array([[1.0], [2.0], [3.0], [10.0]])
    nb = NaiveBayes().fit(X, ["a", "a", "a", "b"])
    comp = nb.components_[0]
    assert comp.mean_[1] == 10.0
    pooled = np.var([1.0, 2.0, 3.0, 10.0], ddof=1)
    assert comp.var_[1] == pytest.approx(pooled + 1e-6 * (10.0 - 1.0) ** 2, rel=1e-12)  # and the range floor
    assert np.isfinite(nb.predict_log_proba(X)).all()


def test_constant_attribute_is_floored():
    X = np.array([[5.0, 1.0], [5.0, 2.0], [5.0, 8.0], [5.0, 9.0]])
    nb = NaiveBayes().fit(X, [0, 0, 1, 1])
    assert (nb.components_[0].var_ > 0).all()
    p = nb.predict_proba(np.array([[5.0, 1.5], [7.0, 8.5]]))
    assert np.isfinite(p).all() and p[0, 0] > 0.9 and p[1, 1] > 0.9


def test_all_missing_columns_contribute_nothing():
    X = pd.DataFrame({"n": [np.nan] * 4, "c": pd.Categorical([None] * 4, categories=["u", "v"]),
                      "ok": [1.0, 1.2, 5.0, 5.5]})
    nb = NaiveBayes().fit(X, [0, 0, 1, 1])
    parts = nb.attribute_log_likelihoods(X.assign(n=3.0, c="u"))
    assert (parts[:, 0] == 0).all()
    assert np.allclose(parts[:, 1], np.log(0.5))  # uniform over the two declared values
    assert (nb.predict(X) == [0, 0, 1, 1]).all()


def test_zero_alpha_impossible_evidence_falls_back_to_priors():
    """(a, q): q never occurs with c1 and a never with c2, so the evidence is impossible under every class
    and the posterior is the priors (2/3, 1/3), not NaN and not a class of probability 1."""
    X = pd.DataFrame({"u": ["a", "a", "b"], "v": ["p", "p", "q"]})
    nb = NaiveBayes(alpha=0, priors="mle").fit(X, ["c1", "c1", "c2"])
    p = nb.predict_proba(pd.DataFrame({"u": ["a"], "v": ["q"]}))
    np.testing.assert_allclose(p, [[2 / 3, 1 / 3]], rtol=1e-12)
    assert nb.predict(pd.DataFrame({"u": ["a"], "v": ["q"]})).tolist() == ["c1"]


@pytest.mark.parametrize("params,match", [
    ({"alpha": -1}, r"alpha: expected a number >= 0, got -1"),
    ({"priors": "bogus"}, r"priors: expected one of 'laplace', 'mle', 'uniform', 'm-estimate', got 'bogus'"),
    ({"priors": [0.5, 0.2]}, r"priors: expected non-negative probabilities summing to 1"),
    ({"ddof": 2}, r"ddof: expected an integer >= 0 and <= 1, got 2"),
    ({"nominal": ["nope"]}, r"nominal: .* 'nope' is not a column"),
])
def test_bad_parameters_name_themselves(params, match):
    with pytest.raises(ParameterError, match=match):
        NaiveBayes(**params).fit(np.array([[1.0], [2.0]]), [0, 1])


def test_missing_class_labels():
    with pytest.raises(ValueError, match="y"):
        NaiveBayes().fit(np.array([[1.0], [2.0]]), [0.0, np.nan])


def test_wrong_width_at_prediction():
    nb = NaiveBayes().fit(np.array([[1.0, 2.0], [2.0, 3.0]]), [0, 1])
    with pytest.raises(ValueError, match="2 features"):
        nb.predict(np.array([[1.0, 2.0, 3.0]]))


def test_infinity_rejected():
    with pytest.raises(DataFormatError, match="finite"):
        NaiveBayes().fit(np.array([[1.0], [np.inf]]), [0, 1])


@pytest.mark.parametrize("make, match", [
    (lambda: BSE(var_smoothing=-1), r"var_smoothing: expected a number >= 0, got -1"),
    (lambda: BSE(ddof=5), r"ddof: expected an integer >= 0 and <= 1, got 5"),
    (lambda: BSE(cv=1), r"cv: expected an integer >= 2, got 1"),
    (lambda: BSJ(priors=[0.2, 0.2]), r"priors: expected non-negative probabilities summing to 1"),
    (lambda: ConstrainedNaiveBayes(min_rates={"a": 0.5}, bisections=-3), r"bisections: expected an integer >= 0, got -3"),
    (lambda: ConstrainedNaiveBayes(min_rates={"a": 1.5}), r"min_rates\['a'\]: expected a number >= 0 and <= 1"),
    (lambda: OffsetNaiveBayes(min_rates={"a": 0.5}, max_rounds=-1), r"max_rounds: expected an integer >= 1, got -1"),
    (lambda: OneR(ties="random"), r"ties: expected one of 'class_order', 'first_met', got 'random'"),
    (lambda: MultinomialNaiveBayes(priors="flat"), r"priors: expected one of 'laplace', 'mle', 'uniform', 'm-estimate', got 'flat'"),
    (lambda: NaiveBayes(bandwidth=0), r"bandwidth: expected a number > 0, got 0"),
])
def test_parameters_are_checked_before_any_work(make, match):
    """Declared constraints, inherited, checked first in fit: the data below would fail later."""
    with pytest.raises(ParameterError, match=match):
        make().fit(np.array([[np.inf, 1.0], [2.0, 3.0]]), ["a", "b"])


def test_more_folds_than_instances_is_one_clear_line():
    X = pd.DataFrame({"u": ["a", "b", "a"]})
    with pytest.raises(ParameterError, match=r"cv: expected at most as many folds as instances \(n_samples=3\), got 10"):
        BSE(cv=10).fit(X, ["p", "q", "p"])


def test_not_fitted_is_one_class_however_it_is_reached():
    """Every model raises the NotFittedError users import (and scikit-learn's), first call or later."""
    from sklearn.exceptions import NotFittedError as SklearnNotFitted

    from seminaive import NaiveBayes, NotFittedError, OneR
    from seminaive.calibration import Calibrated
    from seminaive.search import BSE
    for model in (NaiveBayes(), OneR(), BSE(), Calibrated()):
        with pytest.raises(NotFittedError) as info:
            model.predict([["a"]])
        assert isinstance(info.value, SklearnNotFitted)


@pytest.mark.parametrize("make", [NaiveBayes, AODE, lambda: KDB(k=1)])
def test_a_refit_checks_parameters_changed_since_the_last_fit(make):
    """Parameters passed at a fit are not checked again at a refit with the same values; any value
    changed since, set through set_params or directly, and a value of another type, are."""
    X, y = pd.DataFrame({"a": ["x", "y", "x", "y"], "b": ["p", "p", "q", "q"]}), ["s", "t", "s", "t"]
    model = make().fit(X, y)
    model.set_params(alpha=-1.0)
    with pytest.raises(ParameterError, match="alpha: expected a number >= 0, got -1.0"):
        model.fit(X, y)
    model.set_params(alpha=2.0).fit(X, y)
    model.alpha = "2"
    with pytest.raises(ParameterError, match="alpha: expected a number"):
        model.fit(X, y)
    model.alpha = 2.0
    model.priors = "flat"
    with pytest.raises(ParameterError, match="priors: expected one of"):
        model.fit(X, y)
    model.priors = "laplace"
    model.fit(X, y).fit(X, y)
    model.alpha = 1.0
    model.fit(X, y)
    model.alpha = True  # equal to 1.0, but no number
    with pytest.raises(ParameterError, match="alpha: expected a number >= 0, got True"):
        model.fit(X, y)
    model.alpha = 1.0
    name = "ddof" if isinstance(model, NaiveBayes) else "min_count" if isinstance(model, AODE) else "k"
    model.set_params(**{name: 1}).fit(X, y)
    model.set_params(**{name: 1.0})  # equal to 1, but no integer
    with pytest.raises(ParameterError, match=f"{name}: expected an integer"):
        model.fit(X, y)
    model.alpha = -2
    with pytest.raises(ParameterError, match="alpha: expected a number >= 0, got -2"):
        model.fit(X, y)
