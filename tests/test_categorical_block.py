"""The search engine's contributions of many categorical groups at once against the group-by-group
path they replace: the same bits, for k-fold and leave-one-out scoring, estimators covered and not."""

import numpy as np
import pytest

from seminaive.estimation import Frequency, MEstimate
from seminaive.learning import categorical_block
from seminaive.learning.engine import BaseAttribute, Engine


def _engine(seed, estimator, folds):
    rng = np.random.default_rng(seed)
    n, k = 300, int(rng.integers(2, 5))
    y = rng.integers(0, k, n)
    widths = rng.integers(2, 6, 5)
    attrs = []
    for j, m in enumerate(widths):
        codes = (y + rng.integers(0, m, n)) % m
        codes[rng.random(n) < 0.1] = -1  # missing values read a contribution of 0
        if j == 4:
            codes[y == 0] = 0  # a value never met in class 0 at all: an empty cell
        attrs.append(BaseAttribute(f"x{j}", codes, int(m)))
    splits = None if not folds else [(np.flatnonzero(np.arange(n) % folds != f), np.flatnonzero(np.arange(n) % folds == f))
                                     for f in range(folds)]
    return Engine(attrs, y, k, estimator, splits=splits)


@pytest.mark.parametrize("folds", [0, 5])
@pytest.mark.parametrize("estimator", [Frequency(alpha=1.0), Frequency(alpha=0.0), Frequency(alpha=0.3), MEstimate(m=2.0)])
@pytest.mark.parametrize("seed", range(3))
def test_block_contributions_have_the_bits_of_the_group_by_group_path(monkeypatch, seed, estimator, folds):
    groups = [(0,), (1,), (2,), (3,), (4,), (0, 2), (1, 3, 4)]  # attributes and joined groups
    engine = _engine(seed, estimator, folds)
    engine.ensure(groups)
    _, codes, xs, y = next(iter(engine.source))[:4]
    f = engine._folds(0, y.size)
    block = categorical_block.block_contributions(engine, groups, codes, xs, y, f)
    covered = not folds or not isinstance(estimator, MEstimate)  # the m-estimate's fold tables mix classes
    assert sorted(block) == sorted(groups)
    made_alone = []
    monkeypatch.setattr(engine, "_contribution", lambda g, *a: made_alone.append(g) or Engine._contribution(engine, g, *a))
    categorical_block.block_contributions(engine, groups, codes, xs, y, f)
    assert made_alone == ([] if covered else groups)
    for g, got in block.items():
        want = engine._contribution(g, codes, xs, y, f)
        assert got.shape == want.shape and got.flags.c_contiguous
        np.testing.assert_array_equal(got, want)  # NaN and -inf where they are, bit for bit
    assert len({float(np.nansum(np.where(np.isfinite(a), a, 0))) for a in block.values()}) == len(groups)


def test_the_engine_takes_the_block_path_and_scores_as_without_it(monkeypatch):
    engine = _engine(7, Frequency(alpha=1.0), 5)
    groups = [(j,) for j in range(5)]
    candidates = [("delete", [g], []) for g in groups] + [("join", [(0,), (1,)], [(0, 1)])]
    with_block = engine.score_many(groups, candidates)
    assert set(engine._cache) >= set(groups)
    alone = lambda engine, groups, codes, xs, y, f: {g: engine._contribution(g, codes, xs, y, f) for g in groups}  # noqa
    monkeypatch.setattr("seminaive.learning.engine.block_contributions", alone)
    assert _engine(7, Frequency(alpha=1.0), 5).score_many(groups, candidates).tolist() == with_block.tolist()
