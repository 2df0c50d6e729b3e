"""Every fast path against a brute-force computation of the same thing."""

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes
from seminaive.components._moments import class_moments


def brute_moments(X, y, k, weight=None):
    """Per-class weight, mean and m2 of each column, one class and column at a time."""
    w = np.ones(len(y)) if weight is None else weight
    out = np.zeros((3, k, X.shape[1]))
    for c in range(k):
        for j in range(X.shape[1]):
            keep = (y == c) & ~np.isnan(X[:, j])
            x, ww = X[keep, j], w[keep]
            tot = ww.sum()
            mean = (ww * x).sum() / tot if tot > 0 else 0.0
            out[:, c, j] = tot, mean, (ww * (x - mean) ** 2).sum()
    return out


@pytest.mark.parametrize("weighted", [False, True])
def test_one_pass_moments_equal_brute_force(weighted):
    rng = np.random.default_rng(3)
    n = 20_000  # several chunks
    y = rng.integers(0, 4, n)
    X = rng.normal(y[:, None] * 100.0 + 1e6, 1.0, (n, 5))  # large mean, small spread: cancellation-prone
    X[rng.random((n, 5)) < 0.05] = np.nan
    X[:9000, 2] = np.nan  # whole chunks without values
    X[y == 3, 4] = np.nan  # a class without values
    w = rng.integers(0, 3, n).astype(float) if weighted else None
    got = np.array(class_moments(X, y, 4, w))
    want = brute_moments(X, y, 4, w)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-14)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-9)
    assert got[2, 3, 4] == 0 and got[0, 3, 4] == 0


def test_gaussian_fit_rescales_only_extreme_columns():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 3000)
    base = rng.normal(y[:, None], 1.0, (3000, 4))
    X = base * np.array([1.0, 1e150, 1e-150, 3.0])
    nb = NaiveBayes().fit(X, y)
    ref = NaiveBayes().fit(base, y)
    for j, f in enumerate([1.0, 1e150, 1e-150, 3.0]):
        np.testing.assert_allclose(nb.components_[j].mean_, ref.components_[j].mean_ * f, rtol=1e-12)
        np.testing.assert_allclose(nb.components_[j].var_, ref.components_[j].var_ * f * f, rtol=1e-12)
    np.testing.assert_allclose(nb.predict_proba(X), ref.predict_proba(base), rtol=1e-9)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.uint64])
def test_integer_block_fit_equals_general_path(dtype):
    rng = np.random.default_rng(5)
    n = 50_000
    y = rng.integers(0, 3, n)
    X = ((rng.integers(0, 6, (n, 7)) + y[:, None]) % 6 * 2).astype(dtype)  # even values only: gaps
    X[:, 3] = np.where(X[:, 3] == 4, 10, X[:, 3])  # value 4 never occurs there
    fast = NaiveBayes(nominal="all").fit(X, y)
    frame = pd.DataFrame({f"x{j}": pd.Categorical(X[:, j].astype(np.int64)) for j in range(X.shape[1])})
    slow = NaiveBayes().fit(frame, y)
    assert fast.schema_ == slow.schema_
    assert fast.schema_.attributes[3].values == (0, 2, 6, 8, 10)
    for a, b in zip(fast.stats_, slow.stats_):
        np.testing.assert_array_equal(a["counts"], b["counts"])
    # brute force: one count per class and value
    want = [[np.sum((y == c) & (X[:, 3] == v)) for v in (0, 2, 6, 8, 10)] for c in range(3)]
    np.testing.assert_array_equal(fast.stats_[3]["counts"], want)
    np.testing.assert_allclose(fast.predict_proba(X[:500]), slow.predict_proba(frame[:500]), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.int64, np.int16, np.uint8])
def test_integer_array_encoding_by_the_schemas_table_equals_each_columns_own(dtype):
    """An integer array against a schema of integer values with gaps (a fold's training rows did not
    show every value): one look-up in the schema's table of codes gives each column's own encoding,
    values outside a list (and beyond them all, and negative) unseen, counted per column."""
    from seminaive.data import encode
    from seminaive.data.schema import Attribute, Schema
    rng = np.random.default_rng(8)
    values = [(0, 2, 5), (1,), (0, 1, 2, 3), (3, 7, 8, 30)]
    schema = Schema(tuple(Attribute(f"x{j}", "nominal", v) for j, v in enumerate(values)))
    X = rng.integers(0, 35, (500, 4))
    common = rng.random((500, 4)) < 0.4  # values in the lists, often
    X[common] = rng.choice([0, 1, 2, 3, 5, 7], (500, 4))[common]
    if np.dtype(dtype).kind == "i":
        X[::37, 2] = -3
    X = X.astype(dtype)
    assert schema.integer_lut is not None and not schema.values_are_codes
    fast = encode(X, schema)
    slow = encode(pd.DataFrame(X, columns=[f"x{j}" for j in range(4)]).astype(object), schema)
    np.testing.assert_array_equal(fast.codes, slow.codes)
    np.testing.assert_array_equal(fast.unseen, slow.unseen)
    want = [[v.index(x) if x in v else -1 for x in X[:, j].tolist()] for j, v in enumerate(values)]
    np.testing.assert_array_equal(fast.codes, np.array(want).T)
    assert (fast.unseen > 0).all() and (fast.codes >= 0).any(axis=0).all()
    assert Schema((Attribute("a", "nominal", (True, False)),)).integer_lut is None  # booleans: not integers


def test_integer_block_with_weights_and_partial_columns_takes_the_general_path():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 400)
    X = rng.integers(0, 4, (400, 3))
    w = rng.integers(0, 3, 400).astype(float)
    a = NaiveBayes(nominal="all").fit(X, y, sample_weight=w)
    b = NaiveBayes(nominal="all").fit(np.repeat(X, w.astype(int), axis=0), np.repeat(y, w.astype(int)))
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-12)
    mixed = NaiveBayes(nominal=[0, 2]).fit(X, y)
    assert [at.kind for at in mixed.schema_.attributes] == ["nominal", "numeric", "nominal"]


@pytest.mark.parametrize("dtype", [object, "str"])
def test_text_columns_fit_equals_categorical_columns(dtype):
    rng = np.random.default_rng(7)
    n = 5000
    y = rng.integers(0, 3, n)
    vals = np.array(["sunny", "rainy", "overcast", "fog", None], dtype=object)
    cols = {f"a{j}": vals[(rng.integers(0, 5, n) + y) % 5] for j in range(4)}
    text = pd.DataFrame(cols).astype(dtype)
    labels = np.array(["no", "yes", "maybe"], dtype=object)[y]
    fast = NaiveBayes().fit(text, labels)
    cats = pd.DataFrame({k: pd.Categorical(v, categories=sorted(set(v) - {None})) for k, v in cols.items()})
    slow = NaiveBayes().fit(cats, pd.Categorical(labels, categories=["maybe", "no", "yes"]))
    assert fast.schema_ == slow.schema_
    assert list(fast.classes_) == ["maybe", "no", "yes"]
    for a, b in zip(fast.stats_, slow.stats_):
        np.testing.assert_array_equal(a["counts"], b["counts"])
    # brute force: the count of one value in one class
    want = np.sum((labels == "yes") & (cols["a2"] == "rainy"))
    assert fast.stats_[2]["counts"][2, fast.schema_.attributes[2].values.index("rainy")] == want
    np.testing.assert_allclose(fast.predict_proba(text), slow.predict_proba(cats), rtol=1e-12)


def test_mixed_type_text_column_keeps_first_appearance_order():
    X = pd.DataFrame({"a": ["x", 3, None, "x", 3.5], "b": ["p", "q", "p", "q", "p"]})
    nb = NaiveBayes().fit(X, [0, 1, 0, 1, 0])
    assert nb.schema_.attributes[0].values == ("x", 3, 3.5)
    assert nb.stats_[0]["counts"].tolist() == [[1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]


@pytest.mark.parametrize("offset", [0.0, 1e6, 1e-200, 1e200])
def test_gaussian_log_likelihood_equals_brute_force(offset):
    from scipy.stats import norm
    rng = np.random.default_rng(8)
    n = 70_000  # several prediction chunks
    y = rng.integers(0, 3, n)
    X = rng.normal(y[:, None] * 0.5, 1.0 + y[:, None], (n, 3))
    X = X * (offset if offset < 1 and offset else 1.0) + (offset if offset >= 1 else 0.0)
    X[rng.random((n, 3)) < 0.02] = np.nan
    nb = NaiveBayes(priors="mle", var_smoothing=0).fit(X, y)
    want = np.tile(nb.class_log_prior_, (n, 1))
    for j, c in enumerate(nb.components_):
        term = norm.logpdf(X[:, j, None], c.mean_, c.sd_)
        want += np.where(np.isnan(term), 0.0, term)
    got = nb._joint_log_likelihood(X)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-9)
    frame = pd.DataFrame(np.asfortranarray(X), columns=["a", "b", "c"])  # a single block: no copy
    np.testing.assert_allclose(NaiveBayes(priors="mle", var_smoothing=0).fit(frame, y).predict_proba(frame),
                               nb.predict_proba(X), rtol=1e-12, atol=1e-15)  # sums in another order


def test_many_string_classes_fit_without_a_warning():
    """scikit-learn's target check sees the distinct labels only: its many-classes heuristic must stay quiet."""
    import warnings
    rng = np.random.default_rng(11)
    y = np.array([chr(65 + v) for v in rng.integers(0, 26, 300)], dtype=object)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NaiveBayes().fit(rng.normal(size=(300, 2)), y)
    with pytest.raises(ValueError, match="continuous"):
        NaiveBayes().fit(rng.normal(size=(300, 2)), rng.random(300))


@pytest.mark.parametrize("alpha", [1.0, 0.5, 0.0])
def test_categorical_components_estimated_in_one_batch_equal_each_estimated_alone(alpha):
    """Lidstone's estimates of many nominal attributes, stacked by number of values and computed in
    one call, equal each attribute's own (classes without any count included, where alpha = 0 gives
    the uniform distribution); another estimator keeps estimating one by one, as before."""
    from seminaive.components import Categorical
    from seminaive.estimation import Frequency, MEstimate
    rng = np.random.default_rng(9)
    widths = rng.integers(1, 6, 40)
    stats = [{"counts": rng.integers(0, 4, (3, m)).astype(float) * (rng.random((3, 1)) < 0.8)} for m in widths]
    for est in (Frequency(alpha=alpha), MEstimate(m=2.0)):
        batch = [Categorical(j, j, m) for j, m in enumerate(widths)]
        Categorical.estimate_many(batch, stats, est, [f"x{j}" for j in range(len(widths))])
        for c, st in zip(batch, stats):
            alone = Categorical(c.attribute, c.column, c.n_values)
            alone.estimate(st, est)
            np.testing.assert_array_equal(c.log_table_, alone.log_table_)
            assert c.log_table_.shape == (c.n_values + 1, 3) and not c.log_table_[-1].any()
    assert any(not st["counts"][0].any() for st in stats)  # a class without counts was among them


@pytest.mark.parametrize("seed", range(5))
def test_categorical_columns_read_without_a_series_equal_the_series(seed):
    """The schema and codes of categorical columns, read from pandas' arrays without a Series made for
    each, against the same columns read one Series at a time (the path of a pandas without that
    access): unused and non-string categories, missing values, numeric columns between them."""
    from seminaive.data import kinds
    from seminaive.data.encoding import encode
    rng = np.random.default_rng(seed)
    n = 50
    cols = {}
    for j in range(6):
        if j % 3 == 2:
            cols[f"x{j}"] = rng.normal(size=n)
            continue
        cats = [f"v{c}" for c in range(4)] if j % 2 else [3, 1, 2, 9]  # (9 never used)
        codes = np.where(rng.random(n) < 0.2, -1, rng.integers(0, 3, n))
        cols[f"x{j}"] = pd.Categorical.from_codes(codes, categories=cats)
    X = pd.DataFrame(cols)

    class NoArrayAccess(pd.DataFrame):  # a frame as an older pandas gives it: columns only as Series
        @property
        def _constructor(self):
            return NoArrayAccess

        def __getattribute__(self, name):
            if name == "_get_column_array":
                raise AttributeError(name)
            return super().__getattribute__(name)

    found_fast, found_slow = {}, {}
    fast = kinds.infer_schema(X, None, found_fast)
    slow = kinds.infer_schema(NoArrayAccess(X), None, found_slow)
    assert fast == slow
    assert [a.values for a in fast.attributes if a.is_nominal] == [tuple(X[c].cat.categories.tolist())
                                                                   for c in X if isinstance(X[c].dtype, pd.CategoricalDtype)]
    assert sorted(found_fast) == sorted(found_slow) == [c for c in X if isinstance(X[c].dtype, pd.CategoricalDtype)]
    for name in found_fast:
        assert found_fast[name].tolist() == found_slow[name].tolist() == X[name].cat.codes.tolist()
    # encoding against the schema (prediction's path: no codes found), here and through Series, and with
    # categories in another order and a value the schema lacks (unseen)
    shuffled = X.copy()
    for c in found_fast:
        cats = list(X[c].cat.categories)
        shuffled[c] = X[c].cat.set_categories(cats[::-1] + ["new"])
        shuffled.loc[shuffled.index[:3], c] = "new"
    for frame in (X, shuffled):
        a, b, c = encode(frame, fast, found_codes=found_fast if frame is X else None), encode(frame, fast), \
            encode(NoArrayAccess(frame), fast)
        for got in (a, b):
            assert np.array_equal(got.codes, c.codes) and np.array_equal(got.numeric, c.numeric, equal_nan=True)
            assert got.unseen.tolist() == c.unseen.tolist()
    assert encode(shuffled, fast).unseen.sum() == 3 * len(found_fast)


@pytest.mark.parametrize("columns", [["a", "b"], ["a", 1], [0, 1]])
def test_recording_string_column_names_is_scikit_learns_record(columns):
    """The names recorded at fit without scikit-learn's check (string names) are what its check records;
    other names go through its check (which records none for integers and refuses mixed ones)."""
    from sklearn.utils.validation import validate_data
    from seminaive._target import check_names
    X = pd.DataFrame([[1.0, 2.0], [3.0, 4.0]], columns=columns)
    ours, theirs = NaiveBayes(), NaiveBayes()
    try:
        validate_data(theirs, X, reset=True, skip_check_array=True)
    except TypeError as e:
        with pytest.raises(TypeError, match=str(e)[:30]):
            check_names(ours, X, reset=True)
        return
    check_names(ours, X, reset=True)
    assert ours.n_features_in_ == theirs.n_features_in_
    assert hasattr(ours, "feature_names_in_") == hasattr(theirs, "feature_names_in_")
    if hasattr(theirs, "feature_names_in_"):
        assert ours.feature_names_in_.tolist() == theirs.feature_names_in_.tolist()
        assert ours.feature_names_in_.dtype == theirs.feature_names_in_.dtype
