"""AnDE's estimates in a few array operations against the general path: the sets' own tables
P(c, x_P) (lidstone_joints) against lidstone_log set by set, and a fitted model's every log table
(the sets' children, Naive Bayes's fallback tables, the sets' own) against the table-by-table
estimate that an explicit estimator takes; the prediction's tables kept for a model, made again
whenever the model changes."""

import numpy as np
import pandas as pd
import pytest

from seminaive import AnDE
from seminaive.bayesnet.ande_estimate import lidstone_joints
from seminaive.estimation import Frequency, lidstone_log


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("whole", [True, False])
def test_joint_estimates_equal_lidstone_log_set_by_set(alpha, whole):
    """Sets of different sizes (no present value, 1 to 40 values; 1 to 4 classes); some counted
    nowhere (minus infinity when alpha is 0). Whole counts bitwise (any order of sums gives the same
    totals); fractional ones to rounding (the totals summed in order, numpy's pairwise)."""
    rng = np.random.default_rng(int(alpha * 10) + 2 * whole)
    for _ in range(60):
        k = int(rng.integers(1, 5))
        joints = []
        for _ in range(int(rng.integers(1, 10))):
            j = rng.integers(0, 4, (k, int(rng.integers(1, 41)))).astype(float)
            j = j if whole else j * rng.random(j.shape)
            joints.append(j * (rng.random() > 0.2))
        for j, got in zip(joints, lidstone_joints(joints, alpha)):
            cells = k * (j.shape[1] - 1)
            want = lidstone_log(j[:, :-1].ravel(), alpha, cells).reshape(k, -1)
            if j[:, :-1].sum() + alpha * cells <= 0:
                want[:] = -np.inf
            assert got.shape == want.shape
            if whole:
                np.testing.assert_array_equal(got, want)
            else:
                np.testing.assert_allclose(got, want, rtol=1e-13)
    assert lidstone_joints([], 1.0) == []


def _data(seed):
    """Attributes of 2 to 6 values (so that the stacks are padded), missing values, three classes."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"a{j}": pd.Series(rng.integers(0, m, 120).astype(str), dtype=object)
                      for j, m in enumerate([2, 6, 3, 5, 4])})
    X = X.mask(rng.random(X.shape) < 0.1)
    return X, rng.integers(0, 3, 120), rng.random(120) * 2


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_every_table_of_the_one_call_estimate_equals_its_own_estimate(n, weighted, alpha):
    """The Lidstone estimate of the whole model at once (``_estimate()``) against the table-by-table
    path (``_estimate(Frequency(alpha))``: each table's own estimate, Naive Bayes's tables by the
    base class): every log table, the sets' own and the predictions."""
    X, y, w = _data(7 + n)
    fast = AnDE(n=n, alpha=alpha).fit(X, y, sample_weight=w if weighted else None)
    slow = AnDE(n=n, alpha=alpha).fit(X, y, sample_weight=w if weighted else None)
    slow._estimate(Frequency(alpha=alpha))
    for a, b in zip(fast.tables_, slow.tables_):  # Naive Bayes's fallback
        np.testing.assert_allclose(a.log_table_, b.log_table_, rtol=1e-13)
    for a, b in zip(fast.set_logs_, slow.set_logs_):  # every set's children, stacked
        np.testing.assert_allclose(a, b, rtol=1e-13)
    for a, b in zip(fast.joint_log_, slow.joint_log_):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(fast.predict_proba(X), slow.predict_proba(X), rtol=1e-12)
    assert len({p.round(6).tobytes() for p in fast.predict_proba(X)}) > 20  # the rows differ


def test_kept_prediction_tables_follow_the_model(monkeypatch):
    """The tables a prediction works out are kept (outside the model: predicting leaves it as it was)
    and made again whenever what they come from changes: a threshold set after the fit, a partial
    fit, a refit; the same predictions as when none are kept (KEEP_BYTES 0); gone with their model."""
    import gc
    import pickle

    from seminaive.bayesnet import ande_kernel
    X, y, _ = _data(3)
    model = AnDE(n=1).fit(X.iloc[:80], y[:80])
    state = dict(model.__dict__)
    before = model.predict_proba(X)
    assert model.__dict__ == state and id(model.set_logs_block_[0]) in ande_kernel._KEPT
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(model)).predict_proba(X), before)
    model.set_params(min_count=30)  # fewer active sets: other probabilities
    np.testing.assert_array_equal(model.predict_proba(X), AnDE(n=1, min_count=30).fit(X.iloc[:80], y[:80])
                                  .predict_proba(X))
    assert np.abs(model.predict_proba(X) - before).max() > 1e-3
    model.set_params(min_count=1).partial_fit(X.iloc[80:], y[80:])
    whole = AnDE(n=1).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(model.predict_proba(X), whole, rtol=1e-12)
    np.testing.assert_array_equal(model.fit(X.iloc[:80], y[:80]).predict_proba(X), before)
    key = id(model.set_logs_block_[0])
    del model
    gc.collect()
    assert key not in ande_kernel._KEPT
    monkeypatch.setattr(ande_kernel, "KEEP_BYTES", 0)
    fresh = AnDE(n=1).fit(X.iloc[:80], y[:80])
    np.testing.assert_array_equal(fresh.predict_proba(X), before)
    assert id(fresh.set_logs_block_[0]) not in ande_kernel._KEPT
