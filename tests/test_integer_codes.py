"""Integer codes read as what they are (issue 65): a numeric column of few distinct values is offered one
interval per value beside the discretizer's intervals, chosen by exact leave-one-out.

The score is checked against refits by brute force (every row left out and the one-attribute model
counted again), the choice against the brute-force choice, the selective models' choice from memory
against files, Parquet and Dask, and the gain on data whose codes have no order."""

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

from seminaive import ESKDB, KDB, SelectiveKDB
from seminaive.discretize import apply_cuts, learn_cuts
from seminaive.discretize.base import value_counts
from seminaive.discretize.few_values import choose_reading, few_values, reading_score, value_cuts
from seminaive.exceptions import ParameterError
from seminaive.persistence import load_model, save_model
from seminaive.scale import fit_file
from seminaive.scale.dask import fit_dask


def brute_score(x, y, cuts, k, alpha=1.0):
    """Leave-one-out log-likelihood by refitting: each row out, the counts of the rest, Laplace
    estimates of P(c) and P(interval | c), the row's class posterior."""
    codes = apply_cuts(x, cuts)
    m = len(cuts) + 1
    total = 0.0
    for i in range(x.size):
        keep = np.arange(x.size) != i
        joint = np.empty(k)
        for c in range(k):
            nc = np.sum(y[keep] == c)
            ncv = np.sum((y[keep] == c) & (codes[keep] == codes[i]))
            joint[c] = np.log((nc + 1.0) / (keep.sum() + k)) + np.log((ncv + alpha) / (nc + alpha * m))
        total += joint[y[i]] - np.logaddexp.reduce(joint)
    return total


def nominal_codes(seed, n=300, values=12, k=3):
    """A frame whose first column is a code without order (its class a function of the code, with
    noise) and whose second is an ordered number, and their classes."""
    rng = np.random.default_rng(seed)
    code = rng.integers(0, values, n)
    label = (code * 5 + 1) % k  # neighbouring codes hold different classes
    y = np.where(rng.random(n) < 0.7, label, rng.integers(0, k, n))
    z = np.round(rng.normal(y * 0.7, 1.0), 2)
    return pd.DataFrame({"code": code.astype(float), "z": z}), pd.Series(np.array(["a", "b", "c"])[y], name="cls")


@pytest.mark.parametrize("seed", range(6))
def test_score_equals_refits(seed):
    rng = np.random.default_rng(seed)
    k = 2 + seed % 3
    x = rng.integers(0, 5, 40).astype(float)
    y = rng.integers(0, k, 40)
    y[:k] = np.arange(k)
    order = np.argsort(x, kind="stable")
    table = value_counts(x[order], y[order], k)
    for cuts in (np.array([]), np.array([1.5]), value_cuts(np.unique(x)), np.array([0.5, 2.5, 3.5])):
        assert reading_score(table, cuts) == pytest.approx(brute_score(x, y, cuts, k), abs=1e-10)


@pytest.mark.parametrize("seed", range(12))
def test_choice_equals_brute_choice(seed):
    rng = np.random.default_rng(100 + seed)
    x = rng.integers(0, 3 + seed % 4, 30).astype(float)
    y = ((x + rng.integers(0, 2, 30) * (seed % 2)) % 2).astype(np.int64)
    y[:2] = [0, 1]
    cuts = learn_cuts("mdl_fallback", x, y)
    chosen, _, reading = choose_reading(x, y, None, cuts)
    mine = value_cuts(np.unique(x))
    values_better = brute_score(x, y, mine, 2) > brute_score(x, y, cuts, 2) + 1e-9
    intervals_better = brute_score(x, y, cuts, 2) > brute_score(x, y, mine, 2) + 1e-9
    if values_better:
        assert reading == "values" and chosen.tolist() == mine.tolist()
    if intervals_better:
        assert reading == "numbers" and chosen.tolist() == cuts.tolist()


def test_weights_are_rows():
    """Whole weights count as repeated rows, each left out in turn."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, 25).astype(float)
    y = rng.integers(0, 2, 25)
    w = rng.integers(1, 4, 25)
    order = np.argsort(x, kind="stable")
    weighted = value_counts(x[order], y[order], 2, w[order].astype(float))
    xr, yr = np.repeat(x, w), np.repeat(y, w)
    for cuts in (np.array([1.5]), value_cuts(np.unique(x))):
        assert reading_score(weighted, cuts) == pytest.approx(brute_score(xr, yr, cuts, 2), abs=1e-10)


def test_only_few_values_are_offered():
    assert few_values(np.array([1.0, 2.5])).tolist() == [1.0, 2.5]  # whole numbers or not
    assert few_values(np.arange(65.0)) is None
    assert few_values(np.array([7.0, 7.0, np.nan])) is None  # one value: nothing to read
    assert few_values(np.array([1.0, np.inf])) is None
    assert few_values(np.arange(64.0) / 10).size == 64


@pytest.mark.parametrize("factor", [0.37, 1e-300, 1e300, 3.0])
def test_the_choice_does_not_follow_the_units(factor):
    """A code column in other units (times 0.37, 1e-300, 1e300) is read alike: the same
    probabilities for every model that chooses."""
    from seminaive import NaiveBayes
    from seminaive.search import BSEJ
    X, y = nominal_codes(10, n=150)
    Xs = X.assign(code=X["code"] * factor)
    for make in (lambda: SelectiveKDB(k=1), lambda: NaiveBayes(integer_codes="auto"),
                 lambda: NaiveBayes(numeric="mdl", integer_codes="auto"), lambda: BSEJ(integer_codes="auto")):
        want = make().fit(X, y).predict_proba(X)
        assert np.ptp(want, axis=0).max() > 0.3
        assert make().fit(Xs, y).predict_proba(Xs) == pytest.approx(want, abs=1e-12), make()


def test_unordered_codes_are_read_as_values():
    X, y = nominal_codes(0)
    auto = SelectiveKDB(k=1).fit(X, y)
    assert auto.numeric_ == "mdl_fallback+values"
    assert auto.readers_[0].cuts.tolist() == value_cuts(np.arange(12.0)).tolist()
    numbers = SelectiveKDB(k=1, integer_codes="numbers").fit(X, y)
    assert auto.readers_[1].cuts.tolist() == numbers.readers_[1].cuts.tolist()
    Xt, yt = nominal_codes(1)
    acc = {c: np.mean(SelectiveKDB(k=1, integer_codes=c).fit(X, y).predict(Xt) == yt)
           for c in ("auto", "numbers")}
    assert acc["auto"] > acc["numbers"] + 0.05, acc


def test_ordered_numbers_keep_their_intervals():
    """A column of whole numbers whose class follows its order: its own leave-one-out keeps the intervals."""
    rng = np.random.default_rng(5)
    v = rng.integers(0, 60, 400)
    y = pd.Series(np.where(v + rng.normal(0, 8, 400) > 30, "hi", "lo"))
    m = SelectiveKDB(k=1).fit(pd.DataFrame({"v": v.astype(float)}), y)
    assert m.numeric_ == "mdl_fallback" and len(m.readers_[0].cuts) < 10


def test_fixed_structures_keep_intervals_unless_asked():
    X, y = nominal_codes(2)
    assert len(KDB(k=1).fit(X, y).readers_[0].cuts) < 11
    assert len(KDB(k=1, integer_codes="values").fit(X, y).readers_[0].cuts) == 11
    assert len(KDB(k=1, integer_codes="auto").fit(X, y).readers_[0].cuts) == 11


def test_bad_option_is_one_line():
    X, y = nominal_codes(0, n=30)
    with pytest.raises(ParameterError, match="integer_codes"):
        SelectiveKDB(integer_codes="nominal").fit(X, y)


@pytest.mark.parametrize("make", [lambda: SelectiveKDB(k=2), lambda: ESKDB(n_estimators=3, k=2)],
                         ids=["skdb", "eskdb"])
def test_same_reading_from_every_source(make, tmp_path):
    X, y = nominal_codes(4, n=200)
    whole = make().fit(X, y)
    assert (whole.estimators_[0] if hasattr(whole, "estimators_") else whole).numeric_.endswith("+values")
    frame = X.assign(cls=y)
    csv, parquet = tmp_path / "d.csv", tmp_path / "d.parquet"
    frame.to_csv(csv, index=False, float_format="%.17g")
    frame.to_parquet(parquet, index=False)
    ddf = dd.from_pandas(frame, npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        on_dask = fit_dask(make(), ddf.drop(columns="cls"), ddf["cls"])
    fits = {"csv in chunks": fit_file(make(), csv, chunksize=37), "parquet": fit_file(make(), parquet, chunksize=50),
            "dask": on_dask}
    save_model(whole, tmp_path / "m.json")
    fits["saved"] = load_model(tmp_path / "m.json")
    want = whole.predict_proba(X)
    for name, m in fits.items():
        assert m.predict_proba(X) == pytest.approx(want, abs=1e-12), name


@pytest.mark.parametrize("seed", range(4))
def test_gaussian_score_equals_refits(seed):
    """Naive Bayes's Gaussian term's leave-one-out, against refitting a one-column Naive Bayes
    without each row (the extremes held twice, so that the range floor is every refit's)."""
    from seminaive import NaiveBayes
    from seminaive.discretize.few_values import value_table
    from seminaive.learning.readings import gaussian_score
    rng = np.random.default_rng(seed)
    x = np.r_[0.0, 0.0, 6.0, 6.0, rng.integers(0, 7, 30).astype(float)]
    y = rng.integers(0, 2, x.size)
    y[:4] = [0, 1, 0, 1]
    X = pd.DataFrame({"x": x})
    brute = 0.0
    for i in range(x.size):
        keep = np.arange(x.size) != i
        m = NaiveBayes().fit(X[keep], y[keep])
        brute += np.log(m.predict_proba(X.iloc[[i]])[0, list(m.classes_).index(y[i])])
    nb = NaiveBayes()
    assert gaussian_score(value_table(x, y), nb._estimator(None)) == pytest.approx(brute, abs=1e-9)


def test_naive_bayes_reads_codes_by_their_leave_one_out(tmp_path):
    from seminaive import NaiveBayes
    from seminaive.components import Discretized, Gaussian
    X, y = nominal_codes(6)
    m = NaiveBayes(integer_codes="auto").fit(X, y)
    assert isinstance(m.components_[0], Discretized) and isinstance(m.components_[1], Gaussian)
    assert NaiveBayes(integer_codes="values").fit(X, y).components_[1].kind == "gaussian"  # z: more than 64 values
    Xt, yt = nominal_codes(7)
    assert np.mean(m.predict(Xt) == yt) > np.mean(NaiveBayes().fit(X, y).predict(Xt) == yt) + 0.05
    intervals = NaiveBayes(numeric="mdl", integer_codes="auto").fit(X, y)
    assert intervals.components_[0].cuts.tolist() == value_cuts(np.arange(12.0)).tolist()
    frame = X.assign(cls=y)
    csv, parquet = tmp_path / "d.csv", tmp_path / "d.parquet"
    frame.to_csv(csv, index=False, float_format="%.17g")
    frame.to_parquet(parquet, index=False)
    ddf = dd.from_pandas(frame, npartitions=3)
    for make in (lambda: NaiveBayes(integer_codes="auto"), lambda: NaiveBayes(numeric="mdl", integer_codes="auto")):
        want = make().fit(X, y).predict_proba(X)
        with dask.config.set(scheduler="synchronous"):
            on_dask = fit_dask(make(), ddf.drop(columns="cls"), ddf["cls"])
        for name, fitted in {"csv": fit_file(make(), csv, chunksize=41), "parquet": fit_file(make(), parquet),
                             "dask": on_dask}.items():
            assert fitted.predict_proba(X) == pytest.approx(want, abs=1e-12), name
        save_model(make().fit(X, y), tmp_path / "nb.json", overwrite=True)
        assert load_model(tmp_path / "nb.json").predict_proba(X) == pytest.approx(want, abs=1e-12)


def test_kernel_refuses_auto_in_one_line():
    from seminaive import NaiveBayes
    X, y = nominal_codes(0, n=40)
    with pytest.raises(ParameterError, match="integer_codes: 'auto'.*kernel"):
        NaiveBayes(numeric="kernel", integer_codes="auto").fit(X, y)
    assert NaiveBayes(numeric="kernel", integer_codes="values").fit(X, y).components_[0].kind == "discretized"


def test_searches_read_codes_by_their_leave_one_out(tmp_path):
    """In memory, and streamed from CSV, Parquet and Dask alike (one pass gathers the values met)."""
    from seminaive.search import BSEJ
    X, y = nominal_codes(8)
    m = BSEJ(integer_codes="auto").fit(X, y)
    assert m._numeric_alone == [False, True]  # the code by its values, z a Gaussian
    assert m.cuts_[0].tolist() == value_cuts(np.arange(12.0)).tolist()
    Xt, yt = nominal_codes(9)
    assert np.mean(m.predict(Xt) == yt) > np.mean(BSEJ().fit(X, y).predict(Xt) == yt) + 0.05
    frame = X.assign(cls=y)
    frame.to_csv(tmp_path / "d.csv", index=False, float_format="%.17g")
    frame.to_parquet(tmp_path / "d.parquet", index=False)
    from seminaive.search.distributed import search_dask
    ddf = dd.from_pandas(frame, npartitions=3)
    for make in (lambda: BSEJ(integer_codes="auto"), lambda: BSEJ(integer_codes="auto", numeric="discretize"),
                 lambda: BSEJ(integer_codes="values", cv=3)):
        want = make().fit(X, y)
        with dask.config.set(scheduler="synchronous"):
            on_dask = search_dask(make(), ddf.drop(columns="cls"), ddf["cls"])
        for name, streamed in {"csv": fit_file(make(), tmp_path / "d.csv", chunksize=50),
                               "parquet": fit_file(make(), tmp_path / "d.parquet", chunksize=70),
                               "dask": on_dask}.items():
            assert streamed.structure_ == want.structure_ and streamed._numeric_alone == want._numeric_alone, name
            assert streamed.predict_proba(X) == pytest.approx(want.predict_proba(X), abs=1e-12), name


def test_eskdb_members_follow_the_first_selection():
    """The first member's selection decides; the others read each column by its own leave-one-out
    (one selection each): equal to members fitted with integer_codes="column"."""
    X, y = nominal_codes(4, n=200)
    m = ESKDB(n_estimators=3, k=2).fit(X, y)
    assert m.estimators_[0].numeric_.endswith("+values")
    alone = ESKDB(n_estimators=3, k=2, integer_codes="column").fit(X, y)
    for a, b in zip(m.estimators_[1:], alone.estimators_[1:]):
        assert a.predict_proba(X) == pytest.approx(b.predict_proba(X), abs=1e-12)
    X2, y2 = nominal_codes(5, n=200)
    X2["code"] = np.round(X2["z"] * 3) + 10  # whole numbers in the order of the class: kept as numbers
    kept = ESKDB(n_estimators=3, k=2).fit(X2, y2)
    assert kept.estimators_[0].numeric_ == "mdl_stochastic"
    numbers = ESKDB(n_estimators=3, k=2, integer_codes="numbers").fit(X2, y2)
    assert kept.predict_proba(X2) == pytest.approx(numbers.predict_proba(X2), abs=1e-12)


def test_the_command_line_takes_the_option(tmp_path, capsys):
    """``--model nb:integer_codes=auto`` fits the library's model (the same probabilities from the
    saved file), and a wrong value is one line, exit 2."""
    from seminaive import NaiveBayes
    from seminaive.cli.main import main
    X, y = nominal_codes(3, n=120)
    data, model = tmp_path / "d.csv", tmp_path / "m.json"
    X.assign(cls=y).to_csv(data, index=False, float_format="%.17g")
    from seminaive.data import load_file
    d = load_file(data)
    want = NaiveBayes(integer_codes="auto").fit(d).predict_proba(d.X)
    for how in (["--model", "nb:integer_codes=auto"], ["--integer-codes", "auto"]):
        assert main(["fit", str(data), *how, "--model-file", str(model), "--force"]) == 0
        assert load_model(model).predict_proba(d.X) == pytest.approx(want, abs=1e-12)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["fit", str(data), "--model", "nb:integer_codes=bogus"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "integer_codes: expected one of 'auto', 'numbers', 'values', 'column'" in err[0]


def noisy_copy(seed, n=90):
    """An ordered code that is a noisy copy of a numeric column: its own leave-one-out may prefer its
    values where the selection, which has the number, does not."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    z = np.round(rng.normal(y * 1.5, 1.0), 2)
    code = np.clip(np.round(z * 2) + rng.integers(-1, 2, n), -3, 6)
    return pd.DataFrame({"code": code.astype(float), "z": z}), np.array(["a", "b"])[y]


@pytest.mark.parametrize("data, won", [(lambda: nominal_codes(0, n=90), "mdl_fallback+values"),
                                       (lambda: noisy_copy(22), "mdl_fallback")], ids=["values win", "numbers win"])
def test_the_selections_choice_is_the_best_refit_score(data, won):
    """Selective kDB's two candidates (its intervals; the columns whose own leave-one-out prefers their
    values) are scored as refitting the kept model's tables without each row gives (brute force), and
    the better is kept: the model equals that candidate fitted alone. Each side wins on one data set."""
    from test_numeric_choice import _refit_score
    X, y = data()
    y = np.asarray(y)
    auto = SelectiveKDB(k=1).fit(X, y)
    alone = {"mdl_fallback": SelectiveKDB(k=1, integer_codes="numbers").fit(X, y),
             "mdl_fallback+values": SelectiveKDB(k=1, integer_codes="column").fit(X, y)}
    assert set(auto.numeric_scores_) == set(alone)
    for name, m in alone.items():
        assert -m._selection_gain() == pytest.approx(_refit_score(m, X, y), rel=1e-9)
        assert auto.numeric_scores_[name] == pytest.approx(m._selection_gain(), rel=1e-12)
    best = max(alone, key=lambda n: (alone[n]._selection_gain(), n == "mdl_fallback"))
    assert auto.numeric_ == best == won
    assert auto.predict_proba(X) == pytest.approx(alone[best].predict_proba(X), abs=1e-12)
