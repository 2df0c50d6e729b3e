"""Tree-augmented Naive Bayes (Friedman, Geiger and Goldszmidt 1997)."""

import numpy as np

from ..core.capabilities import Capabilities
from ..registry import register, register_variant
from .base import BayesNetClassifier
from .statistics import cmi_matrix_from, pair_statistics, tie_rounded

__all__ = ["TAN", "cmi_matrix", "maximum_spanning_tree"]


def cmi_matrix(columns, y, weight=None):
    """I(X_i; X_j | C) for every pair of coded attributes (symmetric, 0 on the diagonal)."""
    widths = [int(c.max()) + 1 if c.size and c.max() >= 0 else 1 for c in columns]
    k = int(y.max()) + 1 if y.size else 1
    return cmi_matrix_from(pair_statistics(columns, widths, y, k, weight), len(columns))


def maximum_spanning_tree(W, root=0):
    """Each node's parent in the maximum spanning tree of the weights ``W``,
    directed away from ``root`` (Prim's algorithm; ties go to the smaller index).

    Examples
    --------
    >>> W = np.array([[0, 3, 1], [3, 0, 2], [1, 2, 0]], dtype=float)
    >>> maximum_spanning_tree(W)
    [None, 0, 1]
    """
    d = W.shape[0]
    parent = [None] * d
    inside = np.zeros(d, dtype=bool)
    inside[root] = True
    best, source = W[root].astype(float), np.full(d, root)
    for _ in range(d - 1):
        j = int(np.argmax(np.where(inside, -np.inf, best)))  # the first of the largest
        parent[j] = int(source[j])
        inside[j] = True
        closer = W[j] > best
        best = np.where(closer, W[j], best)
        source = np.where(closer, j, source)
    return parent


@register
class TAN(BayesNetClassifier):
    """Tree-augmented Naive Bayes: every attribute but the root takes one
    parent besides the class, along the maximum spanning tree of the
    conditional mutual information I(X_i; X_j | C) (Chow and Liu's tree,
    directed away from the first attribute).

    Parameters
    ----------
    alpha : float, default 1
        Smoothing of every table: P(v | c, parent) = (n + alpha) / (n_parent + alpha m).
    priors : {"laplace", "mle", "uniform"} or array-like, default "laplace"
    nominal : None, "all" or list of columns
        Columns to read as nominal whatever their type (as :class:`~seminaive.NaiveBayes`).
    numeric : {"mdl_fallback", "mdl", "mdl_stochastic", "equal_width", "equal_frequency", "1r"}, \
default "mdl_fallback"
        How numeric attributes are cut into intervals inside ``fit``: Fayyad and Irani's MDL
        intervals, and where MDL finds no cut (small samples) min(n_bins, sqrt(n)) equal-frequency
        ones, so that no attribute silently becomes one interval; ``"mdl"`` is MDL alone (the
        earlier default: such an attribute falls to one interval and drops out); ``mdl_stochastic`` draws its cuts with
        ``random_state``, a seed per column.
    n_bins, min_bucket : int
        Intervals of the equal-width/frequency discretizers; 1R's bucket size.
    estimation : {"frequency", "m-estimate", "hdp"}, default "frequency"
        Every table's estimate: (n + alpha) / (n_parent + alpha m), the m-estimate
        (n + m p_v) / (n_parent + m) with m = ``alpha`` and p_v the value's overall
        (Laplace-smoothed) frequency, or the hierarchical Dirichlet process
        (:class:`~seminaive.estimation.HDP`: P(x | c, parents) smoothed toward P(x | c,
        fewer parents), ..., P(x | c), P(x); whole-number weights only; no leave-one-out form).
    hdp_iterations : int, default 1000
        The Gibbs sweeps of ``estimation="hdp"`` (the first tenth, at most 1000, burn-in).
    hdp_tying : {"level", "single", "parent", "none"}, default "level"
        Which nodes of the hierarchy share a concentration.
    random_state : int, default 0
        The seed of the sampler (a stream per table) and of ``mdl_stochastic``.

    Attributes
    ----------
    structure_ : Structure
        Each attribute's parents besides the class.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = TAN().fit(load("weather.nominal"))
    >>> print(m.structure_.to_text(list(m.schema_.names)))
    outlook <- class
    temperature <- class, outlook
    humidity <- class, temperature
    windy <- class, outlook
    """

    capabilities = Capabilities(leave_one_out=True, passes=True)

    def _parents_from(self, stats):
        d = len(stats["single"])
        if d == 1:
            return [()]
        tree = maximum_spanning_tree(tie_rounded(cmi_matrix_from(stats, d)))  # ties by index, not noise
        return [() if p is None else (p,) for p in tree]

    def _describe(self):
        return "tree of I(X_i; X_j | C)"


register_variant("model", "tan", "tree-augmented Naive Bayes (numeric attributes in MDL/equal-frequency intervals)",
                 lambda **o: TAN(**{k: v for k, v in o.items() if k in ("alpha", "priors")}))
register_variant("compare", "tan", "tree-augmented Naive Bayes", lambda: TAN())
