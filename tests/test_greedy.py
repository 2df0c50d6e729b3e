"""The one greedy selection loop (seminaive.learning.greedy.climb) against a greedy written plainly,
and its lazy scoring against the eager one, on toy engines whose scores are known."""

import itertools

import numpy as np
import pytest

from seminaive.learning.greedy import appended, climb, in_place


class Table:
    """A toy engine: a set of items scores the sum of the items' values plus each pair's interaction."""

    def __init__(self, values, pairs):
        self.values, self.pairs, self.calls = values, pairs, 0

    def score(self, groups):
        s = sum(self.values[g] for g in groups)
        return float(s + sum(self.pairs[a, b] for a, b in itertools.combinations(sorted(groups), 2)))

    def score_many(self, groups, cands):
        self.calls += 1
        return [self.score(groups)] + [self.score(appended(groups, r, a)) for _, r, a in cands]


def offers(n):
    def propose(groups):  # add an unused item, or drop a used one
        return ([("add", (), (j,)) for j in range(n) if j not in groups]
                + [("delete", (g,), ()) for g in groups])
    return propose


def plain_greedy(engine, n, tol):
    """The greedy climb written plainly: every change scored by itself, the first best taken."""
    groups = []
    while True:
        best, best_score = None, engine.score(groups) + tol
        for op, r, a in offers(n)(groups):
            s = engine.score(appended(groups, r, a))
            if s > best_score:
                best, best_score = (r, a), s
        if best is None:
            return groups
        groups = appended(groups, *best)


@pytest.mark.parametrize("seed", range(30))
def test_eager_climb_is_the_plain_greedy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    engine = Table(rng.normal(size=n).round(2), rng.normal(scale=0.5, size=(n, n)).round(2))
    tol = float(rng.choice([0.0, 0.1]))
    got, score = climb(engine, [], offers(n), "accuracy", tol)
    assert got == plain_greedy(engine, n, tol)
    assert score == engine.score(got)


@pytest.mark.parametrize("seed", range(30))
def test_lazy_climb_stops_only_at_a_local_best_and_equals_eager_on_additive_scores(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 20))
    values = rng.normal(size=n)
    interacting = Table(values, rng.normal(scale=0.5, size=(n, n)))
    got, score = climb(interacting, [], offers(n), "accuracy", lazy=True)
    assert score == interacting.score(got)
    assert all(interacting.score(appended(got, r, a)) <= score for _, r, a in offers(n)(got))
    additive = Table(values, np.zeros((n, n)))  # no interaction: a change's gain never goes stale
    lazy = climb(additive, [], offers(n), "accuracy", lazy=True)
    assert lazy == climb(additive, [], offers(n), "accuracy")
    assert sorted(lazy[0]) == np.flatnonzero(values > 0).tolist()  # the additive optimum: every positive item

def test_losses_climb_down_and_in_place_keeps_the_position():
    engine = Table(np.array([1.0, -2.0, 3.0]), np.zeros((3, 3)))
    assert climb(engine, [], offers(3), "log_loss") == ([1], -2.0)
    assert in_place([(0,), (1,), (2,)], [(1,)], [(9,)]) == [(0,), (9,), (2,)]
    assert in_place([(0,)], [], [(9,)]) == [(0,), (9,)]
    assert appended([(0,), (1,), (2,)], [(1,)], [(9,)]) == [(0,), (2,), (9,)]
