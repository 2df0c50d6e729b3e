"""k-dependence Bayesian classifiers (Sahami 1996)."""

from ..core.capabilities import Capabilities
from ..registry import register, register_variant
from .base import BayesNetClassifier
from .statistics import cmi_matrix_from, mutual_informations, tie_rounded

__all__ = ["KDB", "kdb_parents"]


def kdb_parents(stats, k_max):
    """Sahami's structure from the counts of :func:`~seminaive.bayesnet.statistics.pair_statistics`:
    attributes ordered by I(X_i; C) (largest first, ties by position); each takes
    as parents up to ``k_max`` earlier ones of largest I(X_i; X_j | C) (ties by
    the order; informations equal to 12 decimals are ties, :func:`.statistics.tie_rounded`).
    Returns (parents, order)."""
    d = len(stats["single"])
    mi = tie_rounded(mutual_informations(stats))
    order = sorted(range(d), key=lambda i: (-mi[i], i))
    W = tie_rounded(cmi_matrix_from(stats, d))
    parents = [()] * d
    for pos, i in enumerate(order):
        earlier = sorted(order[:pos], key=lambda j: (-W[i, j], order.index(j)))
        parents[i] = tuple(earlier[:k_max])
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
    alpha, priors, numeric, n_bins, min_bucket
        As :class:`TAN`.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = KDB(k=2).fit(load("weather.nominal"))
    >>> print(m.structure_.to_text(list(m.schema_.names)))
    outlook <- class
    temperature <- class, outlook, humidity
    humidity <- class, outlook
    windy <- class, outlook, humidity
    """

    capabilities = Capabilities(leave_one_out=True, passes=True)
    _parameter_constraints = {"k": dict(kind="int", low=0)}

    def __init__(self, *, k=1, alpha=1.0, priors="laplace", nominal=None, numeric="mdl",
                 n_bins=10, min_bucket=6, estimation="frequency",
                 hdp_iterations=1000, hdp_tying="level", random_state=0):
        super().__init__(alpha=alpha, priors=priors, nominal=nominal, numeric=numeric, n_bins=n_bins,
                         min_bucket=min_bucket, estimation=estimation,
                         hdp_iterations=hdp_iterations, hdp_tying=hdp_tying, random_state=random_state)
        self.k = k

    def _parents_from(self, stats):
        parents, self.order_ = kdb_parents(stats, self.k)
        return parents

    def _describe(self):
        return f"k={self.k}, attributes in order of I(X; C)"


register_variant("model", "kdb", "k-dependence Bayes, k=1 (numeric attributes in MDL intervals)",
                 lambda **o: KDB(**{k: v for k, v in o.items() if k in ("alpha", "priors")}))
register_variant("compare", "kdb1", "k-dependence Bayes, k=1", lambda: KDB(k=1))
register_variant("compare", "kdb2", "k-dependence Bayes, k=2", lambda: KDB(k=2))
