"""Streaming: partial fits and merges equal one fit on the union."""

import numpy as np
import pandas as pd
import pytest

from seminaive import DataFormatError, NaiveBayes, ParameterError

from conftest import mixed_frame


def declared(X, y):
    """The mixed frame with every nominal value declared (as a file header would)."""
    X = X.copy()
    X["size"] = pd.Categorical(X["size"], categories=["s", "m", "l", "xl"])
    return X, pd.Series(pd.Categorical(y, categories=["high", "low", "mid"]))


def data_units(stats):
    """Gaussian statistics in the data's units (they are kept divided by a power of two)."""
    s = stats["scale"][0]
    return {"weight": stats["weight"], "mean": stats["mean"] * s, "m2": stats["m2"] * s * s}


def assert_same(a, b):
    for sa, sb, c in zip(a.stats_, b.stats_, a.components_):
        if c.kind == "gaussian":
            sa, sb = data_units(sa), data_units(sb)
        for key in sa:
            if c.kind in ("categorical",) or key == "weight":
                np.testing.assert_array_equal(sa[key], sb[key])  # counts: exactly
            elif c.kind == "kernel":
                np.testing.assert_array_equal(np.sort(sa[key]), np.sort(sb[key]))
            else:
                np.testing.assert_allclose(sa[key], sb[key], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(a.class_count_, b.class_count_)
    for ca, cb in zip(a.components_, b.components_):
        if ca.kind == "gaussian":
            np.testing.assert_allclose(ca.mean_, cb.mean_, rtol=1e-12)
            np.testing.assert_allclose(ca.var_, cb.var_, rtol=1e-12)


@pytest.mark.parametrize("numeric", ["gaussian", "kernel"])
@pytest.mark.parametrize("seed", [0, 1])
def test_partial_fits_equal_a_full_fit(numeric, seed):
    X, y = declared(*mixed_frame(500, seed=seed, missing=0.15))
    full = NaiveBayes(numeric=numeric).fit(X, y)
    cuts = np.sort(np.random.default_rng(seed).choice(np.arange(1, 500), 6, replace=False))
    part = NaiveBayes(numeric=numeric)
    for lo, hi in zip(np.r_[0, cuts], np.r_[cuts, 500]):
        part.partial_fit(X.iloc[lo:hi], y.iloc[lo:hi])
    assert_same(full, part)
    np.testing.assert_allclose(full.predict_proba(X), part.predict_proba(X), rtol=1e-10)


def test_merge_equals_a_full_fit_and_weights_work():
    X, y = declared(*mixed_frame(400, seed=5))
    w = np.random.default_rng(5).integers(1, 4, 400).astype(float)
    a = NaiveBayes().fit(X.iloc[:150], y.iloc[:150], sample_weight=w[:150])
    b = NaiveBayes().fit(X.iloc[150:], y.iloc[150:], sample_weight=w[150:])
    full = NaiveBayes().fit(X, y, sample_weight=w)
    assert_same(full, a.merge(b))
    assert_same(full, b.merge(a))


def test_numeric_only_gaussian_moments_stay_accurate():
    """Large offsets: naive sums of squares would lose the variance; Chan's update does not."""
    rng = np.random.default_rng(0)
    X = 1e6 + rng.normal(0, 1, (3000, 2))
    y = rng.integers(0, 2, 3000)
    full = NaiveBayes(ddof=0, var_smoothing=0).fit(X, y)
    part = NaiveBayes(ddof=0, var_smoothing=0)
    for s in range(0, 3000, 700):
        part.partial_fit(X[s:s + 700], y[s:s + 700], classes=[0, 1])
    for a, b in zip(full.components_, part.components_):
        np.testing.assert_allclose(a.var_, b.var_, rtol=1e-9)
        np.testing.assert_allclose(a.var_, [X[y == c, a.column].var() for c in (0, 1)], rtol=1e-9)
    naive = [(X[y == c, 0] ** 2).mean() - X[y == c, 0].mean() ** 2 for c in (0, 1)]
    assert np.max(np.abs(np.array(naive) / full.components_[0].var_ - 1)) > 1e-6  # what sums of squares lose


def test_partial_fit_errors_are_clear():
    X, y = mixed_frame(60, seed=2)
    with pytest.raises(ParameterError, match="classes: the first partial_fit call must declare"):
        NaiveBayes().partial_fit(X, y)
    mdl = NaiveBayes(numeric="mdl").partial_fit(X.iloc[:30], y[:30], classes=["high", "low", "mid"])
    cuts = mdl.components_[2].cuts.copy()
    mdl.partial_fit(X.iloc[30:], y[30:])
    np.testing.assert_array_equal(mdl.components_[2].cuts, cuts)  # cut points from the first chunk, kept
    nb = NaiveBayes().partial_fit(X.iloc[:30], y[:30], classes=["high", "low", "mid"])
    later = X.iloc[30:].assign(size="xxl")
    with pytest.raises(DataFormatError, match="'size' have values the first chunk did not declare"):
        nb.partial_fit(later, y[30:])
    with pytest.raises(ParameterError, match="class 'other' is not one of the declared classes"):
        nb.partial_fit(X.iloc[30:], np.array(["other"] * 30, dtype=object))
    with pytest.raises(ParameterError, match="merge: the models must"):
        nb.merge(NaiveBayes(alpha=2).fit(X, y))


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli"])
def test_count_models_partial_fit(kind):
    import scipy.sparse as sp
    from seminaive import BernoulliNaiveBayes, MultinomialNaiveBayes
    rng = np.random.default_rng(1)
    X = sp.csr_matrix(rng.poisson(0.5, (300, 40)))
    y = rng.integers(0, 3, 300)
    make = MultinomialNaiveBayes if kind == "multinomial" else BernoulliNaiveBayes
    full = make().fit(X, y)
    part = make()
    for s in range(0, 300, 70):
        part.partial_fit(X[s:s + 70], y[s:s + 70], classes=[0, 1, 2])
    np.testing.assert_array_equal(full.feature_count_, part.feature_count_)
    np.testing.assert_allclose(full.predict_proba(X), part.predict_proba(X), rtol=1e-12)


def test_streamed_files_equal_in_memory_fits(tmp_path):
    from seminaive.data import load_file
    from seminaive.datasets import dataset_path
    from seminaive.datasets.keel import keel_path
    from seminaive.scale import fit_file
    # CSV with a header, missing values and mixed types
    X, y = mixed_frame(300, seed=9, missing=0.1)
    p = tmp_path / "m.csv"
    X.assign(cls=y).to_csv(p, index=False, na_rep="?")
    for path in (p, keel_path("crx"), dataset_path("weather.numeric"), dataset_path("iris")):
        d = load_file(path)
        a = fit_file(NaiveBayes(), path, chunksize=37)
        b = NaiveBayes().fit(d)
        assert a.schema_ == b.schema_
        assert_same(b, a)


def test_streamed_file_errors_name_the_line(tmp_path):
    from seminaive.scale import fit_file
    p = tmp_path / "bad.csv"
    p.write_text("a,b,c\n1,2,x\n3,4,y\n5,oops,x\n" + "6,7,y\n" * 10)
    nb = fit_file(NaiveBayes(), p, chunksize=2)  # 'b' becomes nominal, as the in-memory reader decides
    assert nb.schema_.attributes[1].is_nominal
    q = tmp_path / "short.csv"
    q.write_text("a,b,c\n1,2,x\n3,4\n")
    with pytest.raises(DataFormatError, match=r"short\.csv, line 3: expected 3 values"):
        fit_file(NaiveBayes(), q, chunksize=10)


def test_cli_chunked_fit_and_predict(tmp_path, capsys, monkeypatch):
    from seminaive import _progress
    from seminaive.cli.main import main
    from seminaive.datasets.keel import keel_path
    model, out = tmp_path / "m.json", tmp_path / "pred.csv"
    # progress asked for (as on a terminal), every step shown: the rows read, chunk by chunk, to the end
    monkeypatch.setenv("SEMINAIVE_PROGRESS", "always")
    monkeypatch.setattr(_progress, "EVERY", 0.0)
    assert main(["fit", keel_path("splice"), "--chunksize", "500", "-m", str(model)]) == 0
    err = capsys.readouterr().err
    assert "rows: 500 " in err and "rows: 3,190 of 3,190" in err
    monkeypatch.setenv("SEMINAIVE_PROGRESS", "never")
    assert main(["fit", keel_path("splice"), "--chunksize", "500", "-m", str(model), "--force"]) == 0
    assert "rows:" not in capsys.readouterr().err
    assert main(["predict", "-m", str(model), keel_path("splice"), "--chunksize", "700", "-o", str(out), "--proba"]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3191 and lines[0].startswith("actual,prediction,P(")
    assert main(["predict", "-m", str(model), keel_path("splice"), "--chunksize", "700", "-o", str(out)]) == 2
