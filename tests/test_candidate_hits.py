"""The engine's compiled candidate decisions against the numpy rule they replace in the search
loop: the same changed sums, the same decisions, row for row."""

import numpy as np
import pytest

from seminaive.learning.decide import candidate_hits, correct


def _brute(S, remove, add, y):
    """The candidate's sum as the engine's numpy path forms it, decided by :func:`correct`, or
    -1 where a row's largest is not finite."""
    Sc = S.copy()
    for a in remove:
        Sc -= a
    for a in add:
        Sc += a
    with np.errstate(invalid="ignore"):
        if not np.isfinite(Sc.max(axis=0)).all():
            return -1
    return int(correct(Sc, y).sum())


@pytest.mark.parametrize("k", [2, 3, 5])  # two classes: a loop of their own
@pytest.mark.parametrize("seed", range(4))
def test_candidate_hits_equal_the_numpy_decisions(seed, k):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 1500))
    y = rng.integers(0, k, n)
    S = rng.normal(size=(k, n)) * 3
    parts = [np.round(rng.normal(size=(k, n)), int(rng.integers(0, 3))) for _ in range(6)]  # rounded: exact ties
    S[:, : n // 4] = np.round(S[:, : n // 4])
    S[1, : n // 8] = S[0, : n // 8] * (1 + 1e-13)  # within rtol of each other: the first class wins
    changes = [([], [])] + [([parts[i]], []) for i in range(6)] + [([parts[0], parts[1]], [parts[2]]),
                                                                   ([], [parts[3], parts[4]]), ([parts[5]], [parts[5]])]
    got = candidate_hits(S, changes, y)
    want = [_brute(S, r, a, y) for r, a in changes]
    assert got.tolist() == want
    assert len(set(want)) > 3  # candidates that decide differently


def test_a_row_whose_largest_is_not_finite_is_left_to_the_general_path():
    S = np.array([[0.0, 1.0, -np.inf], [1.0, 0.0, 2.0]])
    y = np.array([1, 0, 1])
    big = np.array([[0.0, 0.0, 0.0], [np.inf, 0.0, 0.0]])
    nan = np.array([[np.nan, 0.0, 0.0], [0.0, 0.0, 0.0]])
    assert candidate_hits(S, [([], []), ([], [big]), ([nan], [])], y).tolist() == [3, -1, -1]
    S3, big3, nan3 = (np.vstack([a, a[1] - 5.0]) for a in (S, big, nan))  # three classes: the general loop
    assert candidate_hits(S3, [([], []), ([], [big3]), ([nan3], [])], y).tolist() == [3, -1, -1]


@pytest.mark.parametrize("compiled_from, loaded", [(0, False), (10 ** 12, False), (10 ** 12, True)])
def test_the_engine_scores_candidates_as_the_general_path(monkeypatch, compiled_from, loaded):
    """BSE's candidate scores with the compiled decisions (every search; none; those of a process
    that has loaded the loop) equal those of the numpy path (the engine's own general path, forced
    by weights of 1), step after step (the current sum carried from step to step) and from a
    fresh engine."""
    from seminaive.learning import engine as engine_module
    from seminaive.learning.engine import BaseAttribute, Engine
    monkeypatch.setattr(engine_module, "COMPILED_FROM", compiled_from)
    monkeypatch.setattr(engine_module, "hits_loaded", lambda: loaded)
    calls, real = [], engine_module.candidate_hits
    monkeypatch.setattr(engine_module, "candidate_hits", lambda *a, **k: calls.append(1) or real(*a, **k))
    from seminaive.estimation import Frequency
    rng = np.random.default_rng(3)
    n = 400
    y = rng.integers(0, 3, n)
    attrs = [BaseAttribute(f"x{j}", (y + rng.integers(0, 3, n)) % 4, 4) for j in range(6)]
    splits = [(np.flatnonzero(np.arange(n) % 5 != f), np.flatnonzero(np.arange(n) % 5 == f)) for f in range(5)]
    groups = [(j,) for j in range(6)]
    candidates = [("remove", [g], []) for g in groups] + [("join", [(0,), (1,)], [(0, 1)])]
    engine = Engine(attrs, y, 3, Frequency(alpha=1.0), splits=splits)
    reference = Engine(attrs, y, 3, Frequency(alpha=1.0), splits=splits, weight=np.ones(n))
    fast, general = engine.score_many(groups, candidates), reference.score_many(groups, candidates)
    assert fast.tolist() == general.tolist()
    assert len(set(fast.tolist())) > 2
    # a next step of the same engine: its compiled loop reuses the contributions it was handed
    later = [("remove", [g], []) for g in groups[2:]] + [("add", [], [(0,)])]
    want = reference.score_many(groups[2:], later).tolist()
    assert engine.score_many(groups[2:], later).tolist() == want
    assert Engine(attrs, y, 3, Frequency(alpha=1.0), splits=splits).score_many(groups[2:], later).tolist() == want
    assert bool(calls) == (compiled_from == 0 or loaded)  # the compiled path ran, or did not


def test_a_kept_pool_reads_each_array_where_it_was_handed_over():
    """A caller's pool hands each array to the loop once, by address: arrays converted on the way
    (a float32 one, a transposed view) are kept in the pool as their copies, so later calls read the
    same values; an array of another shape than the sum is refused, not read past its end."""
    rng = np.random.default_rng(7)
    k, n = 3, 700
    y = rng.integers(0, k, n)
    S = rng.normal(size=(k, n))
    a = rng.normal(size=(k, n)).astype(np.float32)
    b = np.asfortranarray(rng.normal(size=(k, n)))
    c = rng.normal(size=(k, n))
    pool = {}
    first = candidate_hits(S, [([a], []), ([], [b])], y, pool=pool)
    later = candidate_hits(S, [([], [c]), ([a], [b]), ([], [b])], y, pool=pool)
    assert first.tolist() == [_brute(S, [a.astype(float)], [], y), _brute(S, [], [b], y)]
    assert later.tolist() == [_brute(S, [], [c], y), _brute(S, [a.astype(float)], [b], y), first[1]]
    assert len(pool["arrays"]) == 3
    with pytest.raises(ValueError, match=r"shape \(3, 699\)"):
        candidate_hits(S, [([], [c[:, 1:]])], y, pool=pool)
