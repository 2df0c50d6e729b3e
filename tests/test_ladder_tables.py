"""Smoothing along the interval hierarchy inside the family's tables (issue 44): a parent whose
intervals come from a ladder of nested cuts backs off to the coarser interval that holds it before
it is dropped. Brute force: the same estimator on the same counts with every coarser level as an
explicit parent column, just before the fine one."""

import json

import numpy as np
import pandas as pd
import pytest

from seminaive import KDB
from seminaive._target import class_codes
from seminaive.components.discretized import Discretized
from seminaive.data.encoding import encode
from seminaive.discretize import ResolutionDiscretizer, StochasticResolutionDiscretizer, apply_cuts
from seminaive.discretize.mdl import value_counts
from seminaive.discretize.resolution import choose_level, ladder
from seminaive.estimation import HDP, HGS, HLS, Ladder
from seminaive.estimation._tree import canonical_orders
from seminaive.persistence import model_from_dict, model_to_dict

ESTIMATORS = [HGS(), HGS(tying="none"), HGS(tying="parent"), HDP(iterations=40, tying="single"), HLS()]


def _nested_maps(rng, n_values, depth):
    """Maps of ``n_values`` ordered values to ``depth`` coarser levels, coarse to fine, each level's
    values contiguous runs of the next finer level's."""
    maps, current = [], np.arange(n_values)
    for _ in range(depth):
        width = int(current.max()) + 1
        if width < 2:
            break
        starts = np.flatnonzero(np.r_[True, rng.random(width - 1) < 0.5])  # runs of the finer values
        merged = np.searchsorted(starts, np.arange(width), side="right") - 1
        current = merged[current]
        maps.insert(0, current)
    return maps


def _explicit(counts, arities, position, maps):
    """The counts (K, configurations, m) with the ladder parent at ``position`` of ``arities``
    preceded by every coarser level as a column of its own (only the consistent cells hold data)."""
    k, _, m = counts.shape
    full = counts.reshape(k, *arities, m)
    widths = [int(c.max()) + 1 for c in maps]
    out = np.zeros((k, *arities[:position], *widths, *arities[position:], m))
    for v in range(arities[position]):
        index = (slice(None),) * (1 + position) + tuple(int(c[v]) for c in maps)
        out[index + (v,)] = np.take(full, v, axis=1 + position)
    return out.reshape(k, -1, m), [*arities[:position], *widths, *arities[position:]]


def _pick(table, arities, position, maps, k, m):
    """The explicit table's rows of the consistent configurations, laid out as the ladder's."""
    widths = [int(c.max()) + 1 for c in maps]
    full = table.reshape(k, *arities[:position], *widths, *arities[position:], m)
    parts = [full[(slice(None),) * (1 + position) + tuple(int(c[v]) for c in maps) + (v,)]
             for v in range(arities[position])]
    return np.stack(parts, axis=1 + position).reshape(k, -1, m)


def _tree_estimate(estimator, counts, levels):
    """log P(value | class, parents) of the estimator's tree in the values' order as given (``smooth``;
    the estimator's tables take the values in an order of their counts first, which an explicit
    coarse parent column changes)."""
    k, p, m = counts.shape
    return np.log(estimator.smooth(counts, tuple(levels))[-1]).reshape(k, p, m)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=["hgs", "hgs-none", "hgs-parent", "hdp-single", "hls"])
@pytest.mark.parametrize("seed", range(4))
def test_a_ladder_parent_is_the_explicit_tree(estimator, seed):
    rng = np.random.default_rng(seed)
    k, m = int(rng.integers(2, 4)), int(rng.integers(2, 4))
    arities = [int(a) for a in rng.integers(2, 4, size=int(rng.integers(1, 3)))]
    position = int(rng.integers(0, len(arities) + 1))
    fine = int(rng.integers(4, 9))
    arities.insert(position, fine)
    maps = _nested_maps(rng, fine, int(rng.integers(1, 3)))
    counts = rng.poisson(rng.uniform(0.3, 3.0), size=(k, int(np.prod(arities)), m)).astype(float)
    levels = [*arities]
    levels[position] = Ladder(fine, tuple(tuple(c.tolist()) for c in maps))
    implicit = _tree_estimate(estimator, counts, levels)
    explicit_counts, explicit_levels = _explicit(counts, arities, position, maps)
    explicit = _tree_estimate(estimator, explicit_counts, explicit_levels)
    assert np.array_equal(implicit, _pick(explicit, arities, position, maps, k, m))
    assert np.allclose(np.exp(implicit).sum(axis=2), 1.0)


def test_the_ladder_changes_the_table():
    """Not a relabelling: where the fine intervals inside a coarse one share their pattern, a fine
    interval of one row takes the coarse interval's estimate instead of its one row's."""
    counts = np.zeros((2, 8, 2))
    counts[0] = [[3, 0], [0, 1], [2, 1], [3, 0], [0, 3], [1, 2], [1, 2], [1, 2]]  # class 0: value 0 on the left
    counts[1] = counts[0][:, ::-1]
    flat = np.exp(HGS().conditional(counts, levels=(8,)))
    laddered = np.exp(HGS().conditional(counts, levels=(Ladder(8, ((0, 0, 0, 0, 1, 1, 1, 1),)),)))
    assert flat[0, 1, 0] < 0.5 < laddered[0, 1, 0]  # interval 1's one row (value 1) against its neighbours'


def test_a_readers_ladder_maps_each_interval_to_the_coarse_interval_holding_it():
    rng = np.random.default_rng(3)
    for _ in range(50):
        cuts = np.unique(rng.normal(size=int(rng.integers(2, 12))).round(2))
        levels = rng.integers(1, 4, size=cuts.size)
        level = Discretized(0, 0, cuts, levels).level
        x = np.r_[rng.normal(size=200), cuts]  # the cut points themselves fall on the left
        distinct = np.unique(levels)
        if distinct.size < 2:
            assert level == cuts.size + 1
            continue
        assert isinstance(level, Ladder) and len(level.coarser) == distinct.size - 1
        for lv, coarse in zip(distinct, level.coarser):
            assert np.array_equal(np.asarray(coarse)[apply_cuts(x, cuts)], apply_cuts(x, cuts[levels <= lv]))


@pytest.mark.parametrize("kind", [ResolutionDiscretizer, StochasticResolutionDiscretizer])
def test_the_levels_of_a_resolution_cut_are_the_ladder(kind):
    """The cuts of levels up to l are the ladder's level l, written out from :func:`ladder`."""
    rng = np.random.default_rng(5)
    for seed in range(20):
        x = rng.normal(size=300).round(1)
        y = (x + rng.normal(scale=0.7, size=300) > 0).astype(int) + (x > 1.2)
        disc = kind(random_state=seed) if kind is StochasticResolutionDiscretizer else kind()
        cuts, levels = disc.ladder_for(x, y)
        assert np.array_equal(cuts, disc.cuts_for(x, y))
        order = np.argsort(x, kind="stable")
        values, counts = value_counts(x[order], y[order], 3)
        rung = disc._rng()
        steps = ladder(values, counts, disc._coarse(values, counts, rung), disc.max_bins, rung)
        chosen = choose_level(counts, steps)
        assert levels.size == cuts.size and (levels.size == 0 or levels.max() == chosen)
        for lv in range(1, chosen + 1):
            want = (values[steps[lv] - 1] + values[steps[lv]]) / 2
            assert np.allclose(cuts[levels <= lv], want)


@pytest.fixture(scope="module")
def numeric_frame():
    rng = np.random.default_rng(11)
    n = 400
    a, b = rng.normal(size=n), rng.normal(size=n)
    y = np.where(np.sin(3 * a) + b + rng.normal(scale=0.5, size=n) > 0, "p", "q")
    X = pd.DataFrame({"a": a, "b": b, "c": a * b + rng.normal(size=n)})
    return X, pd.Series(y)


def test_a_kdb_on_ladder_intervals_estimates_the_explicit_tree(numeric_frame):
    X, y = numeric_frame
    model = KDB(k=2, numeric="resolution", estimation="hgs").fit(X, y)
    laddered = [t for t in model.tables_ if any(isinstance(p.level, Ladder) for p in t.parents)]
    assert laddered, "the data were built for fine intervals; no parent has a ladder"
    compared = 0
    for table in laddered:
        counts = table.count(encode(X, model.schema_), class_codes(y, model.classes_), 2, None)["counts"][:, :-1]
        levels = [p.level for p in table.parents]
        position = next(i for i, v in enumerate(levels) if isinstance(v, Ladder))
        arities = [int(v[0]) if isinstance(v, Ladder) else int(v) for v in levels]
        maps = [np.asarray(c) for c in levels[position].coarser]
        other = [v for i, v in enumerate(levels) if i != position]
        if any(isinstance(v, Ladder) for v in other):
            continue  # written out for one ladder parent at a time
        # the model's table is the estimator's on the ladder's counts, in the values' order of the counts ...
        canonical = HGS()._smooth(counts, levels)
        assert np.array_equal(table.log_table_[:-1, :-1].transpose(2, 0, 1), np.log(canonical[-1]).reshape(
            counts.shape))
        # ... which is the explicit tree's on those counts taken in that order
        full = counts.reshape(2, *arities, table.n_values)
        free = tuple(a for a, lv in enumerate(levels, start=1) if not isinstance(lv, Ladder)) + (full.ndim - 1,)
        orders = canonical_orders(full, free)
        ordered = full[np.ix_(*orders)].reshape(counts.shape)
        explicit_counts, explicit_levels = _explicit(ordered, arities, position, maps)
        explicit = _pick(_tree_estimate(HGS(), explicit_counts, explicit_levels), arities, position, maps, 2,
                         table.n_values)
        back = np.ix_(*[np.argsort(o) for o in orders])
        assert np.array_equal(np.log(canonical[-1]).reshape(full.shape),
                              explicit.reshape(full.shape)[back])
        compared += 1
    assert compared


def test_a_model_file_keeps_the_ladder(numeric_frame):
    X, y = numeric_frame
    model = KDB(k=2, numeric="resolution", estimation="hgs").fit(X, y)
    d = json.loads(json.dumps(model_to_dict(model)))
    assert np.array_equal(model_from_dict(d).predict_proba(X), model.predict_proba(X))
    readers = d["state"]["readers"]
    i = next(i for i, r in enumerate(readers) if r and len(set(r.get("levels", []))) > 1)
    readers[i]["levels"] = readers[i]["levels"][:-1]
    with pytest.raises(Exception, match=rf"state.readers\[{i}\].levels: expected a whole number >= 1"):
        model_from_dict(d)
