"""What the family's structures are learned from: per attribute the counts of
its values by class, and per pair of attributes the counts of their joint
values by class (rows where one of them is missing left out). Both add over
chunks, so a structure learned from a file's or a cluster's chunks is the one
learned in memory; the information measures come from these counts alone.
"""

import numpy as np
from scipy.special import gammaln

from ..core.subset_counts import count_subsets
from ..dependence.information import information_values

__all__ = ["pair_statistics", "add_statistics", "mutual_informations", "cmi_matrix_from", "tie_rounded",
           "bayes_arc_gains", "bayes_gains", "arc_weights", "ARC_SCORES", "shared_statistics", "with_shared"]

TIE_DECIMALS = 12
BAYES_TIE_DECIMALS = 8
BAYES_ALPHA = 0.5  # Weka's BayesNet estimator's pseudo-count per cell
ARC_SCORES = ("cmi", "bayes")  # what scores an arc X_j -> X_i: I(X_i; X_j | C), or the Bayes score's gain


def tie_rounded(values):
    """Information values (nats) rounded to 12 decimals, as structure learning compares them: two
    values equal in exact arithmetic can differ in the last bits of their floating-point sums (as
    I(temperature; outlook | C) and I(temperature; humidity | C) of the weather data do), and the
    documented tie rule (the attribute order) must decide such ties, not rounding noise.

    Examples
    --------
    >>> tie_rounded([0.2908397534988989, 0.29083975349889896]).tolist()
    [0.290839753499, 0.290839753499]
    """
    return np.round(np.asarray(values, dtype=np.float64), TIE_DECIMALS)


def pair_statistics(columns, widths, y, k, weight=None, skip=()):
    """``{"single": [(K, m_i)], "pairs": {(i, j): (K, m_i, m_j)}}`` of code columns
    (-1 missing) with ``widths`` m_i values, for i < j: every attribute's and every pair's
    counts in one compiled pass (:func:`~seminaive.core.subset_counts.count_subsets`), the rows
    where one of them is missing left out; the pairs of ``skip`` are not counted (an ensemble's
    members take them from :func:`shared_statistics`)."""
    d = len(columns)
    skip = set(skip)
    subsets = [(i,) for i in range(d)] + [(i, j) for i in range(d) for j in range(i + 1, d) if (i, j) not in skip]
    counted = count_subsets(columns, widths, y, k, subsets, weight) if d else []
    single = [counted[i][:, :widths[i]] for i in range(d)]
    pairs = {q: t[:, :widths[q[0]], :widths[q[1]]] for q, t in zip(subsets[d:], counted[d:])}
    return {"single": single, "pairs": pairs}


def shared_statistics(pairs, arc_score="cmi"):
    """What members that code some attributes alike share: those attributes' ``pairs`` counts
    (``{(i, j): (K, m_i, m_j)}``, counted once) with their conditional mutual informations and Bayes
    gains (the ``arc_score``'s, worked out once; each value is its table's alone, so a member that adds them to its own
    statistics (:func:`with_shared`) learns what it would have learned counting them itself)."""
    keys = list(pairs)
    cmi = dict(zip(keys, information_values([pairs[q] for q in keys]).tolist())) \
        if keys and arc_score == "cmi" else {}
    bayes = dict(zip(keys, map(tuple, bayes_gains([pairs[q] for q in keys]).tolist()))) \
        if keys and arc_score == "bayes" else {}
    return {"pairs": dict(pairs), "cmi": cmi, "bayes": bayes}


def with_shared(stats, shared):
    """A member's statistics (its own pairs counted, the shared ones skipped) with the shared ones added."""
    return {"single": stats["single"], "pairs": {**stats["pairs"], **shared["pairs"]},
            "cmi": shared["cmi"], "bayes": shared["bayes"]}


def add_statistics(a, b):
    """The statistics of two chunks together."""
    return {"single": [x + z for x, z in zip(a["single"], b["single"])],
            "pairs": {key: a["pairs"][key] + b["pairs"][key] for key in a["pairs"]}}


def mutual_informations(stats):
    """I(X_i; C) of every attribute (nats)."""
    return information_values([s[None] for s in stats["single"]]).tolist()


def cmi_matrix_from(stats, d):
    """I(X_i; X_j | C) for every pair (symmetric, 0 on the diagonal); a pair whose value ``stats``
    holds already (``"cmi"``, shared by an ensemble's members) is not worked out again."""
    W = np.zeros((d, d))
    known = stats.get("cmi", {})
    todo = [q for q in stats["pairs"] if q not in known]
    if todo:
        i, j = np.array(todo, dtype=np.int64).T
        W[i, j] = W[j, i] = information_values([stats["pairs"][q] for q in todo])
    for (i, j), v in known.items():
        W[i, j] = W[j, i] = v
    return W


def bayes_gains(tables, alpha=BAYES_ALPHA):
    """(P, 2): per pair's counts n (K, m_i, m_j) of ``tables``, the gains (G[i, j], G[j, i]) of
    :func:`bayes_arc_gains`, the pairs of one shape worked out at once. A child's Bayesian
    (Dirichlet, ``alpha`` per cell) log marginal likelihood given parent configurations is
    sum over configurations of [lgamma(m alpha) - lgamma(m alpha + N_config)] plus sum over cells of
    [lgamma(alpha + n) - lgamma(alpha)]; the cells' sum is the same for either direction of the arc.

    Examples
    --------
    >>> n = np.array([[[3.0, 0.0], [0.0, 3.0]]])  # one class, two attributes that agree
    >>> g = bayes_gains([n])
    >>> g.shape, bool(g[0, 0] > 0), bool(abs(g[0, 0] - g[0, 1]) < 1e-12)  # a parent helps; symmetric here
    ((1, 2), True, True)
    """
    out = np.empty((len(tables), 2))
    by_shape = {}
    for p, n in enumerate(tables):
        by_shape.setdefault(n.shape, []).append(p)
    for (_, a, b), where in by_shape.items():
        if a == 0 or b == 0:  # an attribute of no values (every row missing): no arc gains anything
            out[where] = 0.0
            continue
        n = np.stack([tables[p] for p in where]).astype(np.float64, copy=False)  # (P, K, a, b)
        cells = (gammaln(alpha + n) - gammaln(alpha)).sum(axis=(1, 2, 3))
        rows, cols = n.sum(axis=3), n.sum(axis=2)  # (P, K, a): by i's values; (P, K, b): by j's
        total = rows.sum(axis=2)  # (P, K)

        def given_class(m, margin):  # a child of m values with the class alone as its parent
            return ((gammaln(m * alpha) - gammaln(m * alpha + total)).sum(axis=1)
                    + (gammaln(alpha + margin) - gammaln(alpha)).sum(axis=(1, 2)))

        out[where, 0] = (gammaln(a * alpha) - gammaln(a * alpha + cols)).sum(axis=(1, 2)) + cells - given_class(a, rows)
        out[where, 1] = (gammaln(b * alpha) - gammaln(b * alpha + rows)).sum(axis=(1, 2)) + cells - given_class(b, cols)
    return out


def bayes_arc_gains(stats, d, alpha=BAYES_ALPHA):
    """G[i, j]: how much the Bayesian local score of X_i given the class rises when X_j becomes its
    parent too (Weka's BayesNet ``BAYES`` score, alpha = 0.5 per cell as its estimator's), both
    scores from the rows where X_i and X_j are present; pairs whose gains ``stats`` holds already
    (``"bayes"``, shared by an ensemble's members, at the default alpha) are not worked out again."""
    G = np.zeros((d, d))
    known = stats.get("bayes", {}) if alpha == BAYES_ALPHA else {}
    todo = [q for q in stats["pairs"] if q not in known]
    if todo:
        i, j = np.array(todo, dtype=np.int64).T
        gains = bayes_gains([stats["pairs"][q] for q in todo], alpha)  # n: (K, m_i, m_j)
        G[i, j], G[j, i] = gains[:, 0], gains[:, 1]
    for (i, j), (g_ij, g_ji) in known.items():
        G[i, j], G[j, i] = g_ij, g_ji
    return G


def arc_weights(stats, d, arc_score="cmi"):
    """W[i, j]: the score of X_j as a parent of X_i by ``arc_score`` (one of :data:`ARC_SCORES`),
    rounded (to 12 decimals, :func:`tie_rounded`; the Bayes gains, differences of sums of log-gamma
    terms that reach thousands, to 8) so that exact ties go by the documented order.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> cols = [rng.integers(0, 2, 50) for _ in range(3)]
    >>> stats = pair_statistics(cols, [2, 2, 2], rng.integers(0, 2, 50), 2)
    >>> W = arc_weights(stats, 3, "bayes")
    >>> W.shape, bool((np.diag(W) == 0).all())
    ((3, 3), True)
    """
    if arc_score == "bayes":  # sums of log-gamma terms in the thousands: ties are equal to 8 decimals
        return np.round(bayes_arc_gains(stats, d), BAYES_TIE_DECIMALS)
    return tie_rounded(cmi_matrix_from(stats, d))
