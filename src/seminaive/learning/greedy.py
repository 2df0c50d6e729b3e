"""The one greedy selection loop, over any engine that scores the current groups and candidate changes
in one pass (``engine.score_many(groups, candidates)``: the current score first, then each
candidate's): Pazzani's searches (:mod:`seminaive.search`) and the hybrid's swap of tables for normal
terms (:mod:`seminaive.bayesnet.hybrid`) both climb through it.

A candidate is a change ``(operator, remove, add)``. Each round takes the candidate whose score
improves the current one most, by more than ``tol`` (ties: the first), and stops when none does.
Scored lazily (``lazy``), a candidate's last gain stands for its gain now until it is scored again:
the candidates of largest gain are scored first, ``LAZY_BATCH`` at a time, and one is taken when its
fresh gain is at least every stale one; before stopping, every candidate is scored afresh, so that the
loop stops only where the eager loop would.
"""

import numpy as np

from ..scoring import gain

__all__ = ["climb", "appended", "in_place", "LAZY_BATCH"]

LAZY_BATCH = 8  # candidates scored together in a lazy round


def appended(groups, remove, add):
    """``groups`` without ``remove``, ``add`` appended (the searches' change)."""
    return [g for g in groups if g not in remove] + list(add)


def in_place(groups, remove, add):
    """``groups`` with the one group of ``remove`` replaced where it stands by the one of ``add``,
    or ``add`` appended when nothing is removed (the hybrid's swap)."""
    groups = list(groups)
    if remove:
        groups[groups.index(remove[0])] = add[0]
        return groups
    return groups + list(add)


def climb(engine, groups, propose, scoring, tol=0.0, lazy=False, apply=appended, on_step=None, at_least=False):
    """Climb from ``groups`` by the best change ``propose(groups)`` offers while one improves the score.

    Parameters
    ----------
    engine : object with ``score_many(groups, candidates)``
    groups : list
        The starting groups.
    propose : callable
        ``propose(groups)``: the candidate changes ``(operator, remove, add)`` from ``groups``.
    scoring : str
        The score's name (:func:`seminaive.scoring.gain` makes larger better).
    tol : float
        A change is taken when its gain exceeds the current one by more than ``tol``.
    lazy : bool
        Score lazily (module docstring); the eager loop scores every candidate each round.
    apply : callable
        ``apply(groups, remove, add)``: the groups after a change (:func:`appended`, :func:`in_place`).
    on_step : callable, optional
        ``on_step(candidate, score, n_candidates)`` after each change taken.
    at_least : bool
        Take a change whose gain is at least the current one's plus ``tol`` (bnclassify's rule; eager
        loop only), not more than it.

    Returns
    -------
    (groups, score) : the groups where the climb stopped and their score.

    Examples
    --------
    >>> class Sums:  # a toy engine: the groups' sum is the score (accuracy: larger is better)
    ...     n_evaluated = 0
    ...     def score_many(self, groups, cands):
    ...         return [sum(groups)] + [sum(appended(groups, r, a)) for _, r, a in cands]
    >>> offer = lambda gs: [("add", (), (v,)) for v in (3, -1, 5) if v not in gs]
    >>> climb(Sums(), [], offer, "accuracy")
    ([5, 3], 8.0)
    >>> climb(Sums(), [], offer, "accuracy", lazy=True)
    ([5, 3], 8.0)
    >>> climb(Sums(), [], offer, "log_loss")  # a loss: smaller is better
    ([-1], -1.0)
    """
    score = engine.score_many(groups, [])[0]
    last = {}  # lazy: each candidate's gain when last scored
    while True:
        cands = list(propose(groups))
        if not cands:
            break
        if lazy:
            best, new = _lazy_best(engine, groups, cands, last, scoring, tol)
        else:
            scores = engine.score_many(groups, cands)[1:]
            gains = gain(np.asarray(scores), scoring)
            best = int(np.argmax(gains))  # the first best: ties go to the first candidate
            new = scores[best]
            bar = gain(score, scoring) + tol
            if not (gains[best] >= bar if at_least else gains[best] > bar):
                best = None
        if best is None:
            break
        op, remove, add = cands[best]
        groups, score = apply(groups, remove, add), float(new)
        if on_step is not None:
            on_step(cands[best], score, len(cands))
    return groups, score


def _key(candidate):
    op, remove, add = candidate
    return op, tuple(remove), tuple(add)


def _lazy_best(engine, groups, cands, last, scoring, tol):
    """The index of a candidate that improves the score of ``groups`` by more than ``tol`` and its
    score, or (None, None) when none does (every candidate scored afresh); ``last`` is updated."""
    keys = [_key(c) for c in cands]
    fresh = {}  # the candidates scored in this call: their scores
    while True:
        order = sorted(range(len(cands)), key=lambda t: (-last.get(keys[t], np.inf), t))
        top = order[0]
        if top in fresh and last[keys[top]] > tol:
            return top, fresh[top]
        if len(fresh) == len(cands):
            return None, None
        stale = [t for t in order if t not in fresh]
        batch = stale if top in fresh else stale[:LAZY_BATCH]  # no fresh gain above tol: score every other one
        scores = engine.score_many(groups, [cands[t] for t in batch])
        for t, s in zip(batch, scores[1:]):
            last[keys[t]], fresh[t] = gain(s, scoring) - gain(scores[0], scoring), float(s)
