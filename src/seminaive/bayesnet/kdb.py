"""k-dependence Bayesian classifiers (Sahami 1996)."""

import numpy as np

from ..core.capabilities import Capabilities
from ..registry import register, register_variant
from .base import BayesNetClassifier
from .statistics import ARC_SCORES, arc_weights, mutual_informations, tie_rounded

__all__ = ["KDB", "kdb_parents", "sampled_order", "ORDERS"]

ORDERS = ("mi", "sampled")


def sampled_order(mi, rng):
    """ESKDB's attribute order: drawn one by one without replacement, each with probability
    proportional to its I(X; C) among those left; the attributes of no information, once only
    they are left, follow in order of position.

    Examples
    --------
    >>> sampled_order(np.array([0.0, 0.3, 0.1]), np.random.default_rng(0))
    [1, 2, 0]
    """
    left, order = list(range(len(mi))), []
    while left:
        w = np.array([mi[i] for i in left], dtype=np.float64)
        if not w.sum() > 0:
            return order + left
        order.append(left.pop(int(rng.choice(len(left), p=w / w.sum()))))
    return order


def kdb_parents(stats, k_max, rng=None, arc_score="cmi"):
    """Sahami's structure from the counts of :func:`~seminaive.bayesnet.statistics.pair_statistics`:
    attributes ordered by I(X_i; C) (largest first, ties by position; with ``rng``, the order
    :func:`sampled_order` draws); each takes as parents up to ``k_max`` earlier ones of largest
    I(X_i; X_j | C), or with ``arc_score="bayes"`` of largest gain in the Bayes score of X_i given
    the class and X_j (:func:`~seminaive.bayesnet.statistics.arc_weights`; ties by the order;
    values equal to 12 decimals are ties, :func:`.statistics.tie_rounded`). Returns (parents, order)."""
    d = len(stats["single"])
    mi = tie_rounded(mutual_informations(stats))
    order = sorted(range(d), key=lambda i: (-mi[i], i)) if rng is None else sampled_order(np.maximum(mi, 0.0), rng)
    W = arc_weights(stats, d, arc_score)
    parents, rows = [()] * d, W.tolist()
    for pos, i in enumerate(order):  # (order[:pos] is in the order: a stable sort keeps it among ties)
        parents[i] = tuple(sorted(order[:pos], key=lambda j: -rows[i][j])[:k_max])
    return parents, order


@register
class KDB(BayesNetClassifier):
    """k-dependence Bayesian classifier: each attribute takes up to ``k``
    parents besides the class, chosen among the attributes more informative
    about the class by conditional mutual information.

    Parameters
    ----------
    k : int, default 1
        The most parents an attribute takes besides the class (0 is Naive Bayes).
    order : {"mi", "sampled"}, default "mi"
        The attributes in order of I(X; C), or drawn in proportion to it (ESKDB's members;
        ``random_state`` the seed).
    arc_score : {"bayes", "cmi"}, default "bayes"
        What chooses an attribute's parents among the earlier ones: the gain in the Bayesian local
        score of X_i given the class (Dirichlet, 0.5 per cell; :class:`TAN`'s ``"bayes"``), or
        Sahami's conditional mutual information I(X_i; X_j | C) (the earlier default). Chosen by
        the benchmark's halves (``benchmarks/bench_defaults.py``, 23 sets, 10-fold): k = 1, accuracy
        84.38% against 83.73% (tuning) and equal (checking); k = 2, 84.10% against 82.94% and 85.81%
        against 85.00%; log loss lower on both halves for both.
    alpha, priors, numeric, n_bins, min_bucket, estimation, hdp_iterations, hdp_tying, random_state
        As :class:`TAN`.
    discriminative, penalty
        As :class:`TAN`.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = KDB(k=2).fit(load("weather.nominal"))
    >>> print(m.structure_.to_text(list(m.schema_.names)))
    outlook <- class
    temperature <- class, humidity, outlook
    humidity <- class, outlook
    windy <- class, outlook, humidity
    """

    capabilities = Capabilities(leave_one_out=True, passes=True)
    _param_rules = {"k": dict(kind="int", low=0), "order": dict(options=ORDERS),
                              "arc_score": dict(options=ARC_SCORES)}

    def __init__(self, *, k=1, order="mi", arc_score="bayes", alpha=1.0, priors="laplace", nominal=None, numeric="mdl_fallback",
                 integer_codes="numbers",
                 n_bins=10, min_bucket=6, estimation="frequency",
                 hdp_iterations=1000, hdp_tying="level", random_state=0, discriminative=None, penalty="auto"):
        super().__init__(alpha=alpha, priors=priors, nominal=nominal, numeric=numeric,
                         integer_codes=integer_codes, n_bins=n_bins,
                         min_bucket=min_bucket, estimation=estimation,
                         hdp_iterations=hdp_iterations, hdp_tying=hdp_tying, random_state=random_state,
                         discriminative=discriminative, penalty=penalty)
        self.k = k
        self.order = order
        self.arc_score = arc_score

    def _kdb_parents(self, stats):
        """The order and the parents of at most k: :func:`kdb_parents` with the order the parameter asks for."""
        rng = None if self.order == "mi" else np.random.default_rng(self.random_state)
        return kdb_parents(stats, self.k, rng, self.arc_score)

    def _parents_from(self, stats):
        parents, self.order_ = self._kdb_parents(stats)
        return parents

    def _describe(self):
        return (f"k={self.k}, attributes in order of I(X; C)" + (" (sampled)" if self.order == "sampled" else "")
                + (", parents by the Bayes score" if self.arc_score == "bayes" else ""))


register_variant("model", "kdb", "k-dependence Bayes, k=1 (numeric attributes in MDL/equal-frequency intervals)",
                 lambda **o: KDB(**{k: v for k, v in o.items() if k in ("alpha", "priors")}))
register_variant("compare", "kdb1", "k-dependence Bayes, k=1", lambda: KDB(k=1))
register_variant("compare", "kdb2", "k-dependence Bayes, k=2", lambda: KDB(k=2))
