"""SuperParent TAN (Keogh and Pazzani 1999, 2002): a one-dependence classifier grown one arc at a time by
the held-out score, as R's bnclassify defines it (``tan_hcsp``), through the one greedy loop."""

import numpy as np

from .._state import checked_records
from .._validation import check_cv_or_none
from ..core.capabilities import Capabilities
from ..learning.engine import Given
from ..learning.greedy import climb, in_place
from ..registry import register, register_variant
from ..scoring import check_scoring, gain
from .base import BayesNetClassifier
from .held_out import HeldOutEngine

__all__ = ["SuperParentTAN"]


@register
class SuperParentTAN(HeldOutEngine, BayesNetClassifier):
    """SuperParent TAN (Keogh and Pazzani's hill climb; bnclassify's ``tan_hcsp``): from Naive Bayes,
    each step (1) takes, of every attribute that can be a super-parent (an orphan, an attribute
    without a parent besides the class, that is neither itself nor one of its ancestors can become
    its child), the one whose model with an arc to each such orphan scores best, then (2) adds the one
    arc from it to the orphan that scores best, when that score is at least the current one plus
    ``epsilon``. It stops when no arc qualifies, one orphan is left, or (accuracy) every row is right.
    Every candidate is scored by the engine's held-out counts (leave-one-out or the folds of ``cv``):
    nothing is refitted.

    Parameters
    ----------
    scoring : {"accuracy", "log_loss", "rmse", "brier", "balanced_accuracy"}, default "accuracy"
        The held-out score (accuracy: the paper's and bnclassify's).
    cv : None, int or list of (train, test), default None
        None: exact leave-one-out (Keogh and Pazzani's); k: stratified k-fold (bnclassify's ``k``,
        5 by default there), or the given folds.
    epsilon : float, default 0.01
        The least improvement of an arc (bnclassify's ``epsilon``).
    random_state : int, default 0
        The seed of the folds.
    alpha, priors, nominal, numeric, integer_codes, n_bins, min_bucket, estimation, hdp_iterations, hdp_tying
        As :class:`~seminaive.bayesnet.TAN` (Lidstone's alpha = 1 by default; bnclassify's default is
        ``smooth = 0``, maximum likelihood, which here makes unseen values impossible); the chosen tree's
        tables may be smoothed by HDP, HGS or HLS (the search scores with Lidstone's leave-one-out).
    discriminative, penalty
        As :class:`~seminaive.bayesnet.TAN`: weights on the chosen tree's cells, fitted after the search.

    Attributes
    ----------
    history_ : list of dict
        Every step: the ``superparent`` chosen, the ``child`` its arc went to (-1 at the start) and the
        model's ``score``.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = SuperParentTAN(epsilon=0.0).fit(load("weather.nominal"))
    >>> [(h["superparent"], h["child"]) for h in m.history_][:2]
    [(-1, -1), (0, 2)]
    """

    capabilities = Capabilities(leave_one_out=True, passes=True)
    _selects = True
    hybrid = None  # (no normal children)
    _param_rules = {"scoring": check_scoring, "cv": check_cv_or_none, "random_state": dict(kind="int", low=0),
                    "epsilon": dict(kind="number", low=0)}

    def __init__(self, *, scoring="accuracy", cv=None, epsilon=0.01, random_state=0, alpha=1.0, priors="laplace",
                 nominal=None, numeric="mdl_fallback", integer_codes="numbers", n_bins=10, min_bucket=6,
                 estimation="frequency", hdp_iterations=1000, hdp_tying="level", discriminative=None, penalty="auto"):
        super().__init__(alpha=alpha, priors=priors, nominal=nominal, numeric=numeric, integer_codes=integer_codes,
                         n_bins=n_bins, min_bucket=min_bucket, estimation=estimation, hdp_iterations=hdp_iterations,
                         hdp_tying=hdp_tying, random_state=random_state, discriminative=discriminative,
                         penalty=penalty)
        self.scoring = scoring
        self.cv = cv
        self.epsilon = epsilon


    def _select(self, stats, engine):
        """The hill climb over the engine's held-out scores; the chosen tree's tables and counts."""
        d = len(self.readers_)
        start = [Given((i,), ()) for i in range(d)]
        score = engine.score_many(start, [])[0]
        self.history_ = [{"superparent": -1, "child": -1, "score": float(score)}]
        chosen = {}

        def propose(terms):
            parent = {t.child[0]: (t.parents[0] if t.parents else None) for t in terms}
            orphans = [i for i in range(d) if parent[i] is None]
            if len(orphans) <= 1 or (self.scoring == "accuracy" and self.history_[-1]["score"] >= 1.0):
                return []
            children = {}
            for f in range(d):
                above, p = set(), parent[f]
                while p is not None:
                    above.add(p)
                    p = parent[p]
                ok = [o for o in orphans if o != f and o not in above]
                if ok:
                    children[f] = ok
            if not children:
                return []
            at = {t.child[0]: t for t in terms}
            whole = [("superparent", [at[o] for o in ch], [Given((o,), (f,)) for o in ch]) for f, ch in children.items()]
            gains = gain(np.asarray(engine.score_many(terms, whole)[1:]), self.scoring)
            best = list(children)[int(np.argmax(gains))]  # ties: the first attribute
            chosen["superparent"] = best
            return [("arc", [at[o]], [Given((o,), (best,))]) for o in children[best]]

        def took(candidate, new, n):
            self.history_.append({"superparent": int(chosen["superparent"]), "child": int(candidate[2][0].child[0]),
                                  "score": float(new)})

        terms, _ = climb(engine, start, propose, self.scoring, self.epsilon, apply=in_place, on_step=took,
                         at_least=True)
        self._set_parents([t.parents for t in terms])
        self._set_counts({"stats_": [{"counts": engine.dense_counts(t).sum(axis=0)} for t in terms]})
        self.class_count_ = engine.class_counts.sum(axis=0)

    def _selection_gain(self):
        """The chosen tree's held-out score as a gain (larger is better)."""
        return gain(self.history_[-1]["score"], self.scoring)

    def _get_state(self):
        state = super()._get_state()
        state["search"] = {"history": self.history_}
        return state

    def _set_state(self, state):
        super()._set_state(state)
        d = len(self.schema_)
        history = checked_records(state.get("search", {}), "history",
                                  {"superparent": "int", "child": "int", "score": "number"}, "state.search")
        for i, h in enumerate(history):
            if not (-1 <= h["superparent"] < d and -1 <= h["child"] < d):
                raise ValueError(f"state.search.history[{i}]: expected attribute indices below {d} (or -1)")
        self.history_ = history
        self.numeric_ = self.numeric if isinstance(self.numeric, str) else self.numeric[0]

    def _describe(self):
        return f"{sum(1 for h in self.history_ if h['child'] >= 0)} arcs by held-out {self.scoring}"


register_variant("model", "tan-sp", "SuperParent TAN: arcs added one at a time by held-out accuracy (Keogh and "
                 "Pazzani; bnclassify's tan_hcsp)", lambda **o: SuperParentTAN())
register_variant("compare", "tan-sp", "SuperParent TAN (held-out accuracy)", SuperParentTAN)
