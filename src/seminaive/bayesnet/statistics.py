"""What the family's structures are learned from: per attribute the counts of
its values by class, and per pair of attributes the counts of their joint
values by class (rows where one of them is missing left out). Both add over
chunks, so a structure learned from a file's or a cluster's chunks is the one
learned in memory; the information measures come from these counts alone.
"""

import numpy as np

from ..core.subset_counts import count_subsets
from ..dependence.information import information_values

__all__ = ["pair_statistics", "add_statistics", "mutual_informations", "cmi_matrix_from", "tie_rounded"]

TIE_DECIMALS = 12


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


def pair_statistics(columns, widths, y, k, weight=None):
    """``{"single": [(K, m_i)], "pairs": {(i, j): (K, m_i, m_j)}}`` of code columns
    (-1 missing) with ``widths`` m_i values, for i < j: every attribute's and every pair's
    counts in one compiled pass (:func:`~seminaive.core.subset_counts.count_subsets`), the rows
    where one of them is missing left out."""
    d = len(columns)
    subsets = [(i,) for i in range(d)] + [(i, j) for i in range(d) for j in range(i + 1, d)]
    counted = count_subsets(columns, widths, y, k, subsets, weight) if d else []
    single = [counted[i][:, :widths[i]] for i in range(d)]
    pairs = {q: t[:, :widths[q[0]], :widths[q[1]]] for q, t in zip(subsets[d:], counted[d:])}
    return {"single": single, "pairs": pairs}


def add_statistics(a, b):
    """The statistics of two chunks together."""
    return {"single": [x + z for x, z in zip(a["single"], b["single"])],
            "pairs": {key: a["pairs"][key] + b["pairs"][key] for key in a["pairs"]}}


def mutual_informations(stats):
    """I(X_i; C) of every attribute (nats)."""
    return information_values([s[None] for s in stats["single"]]).tolist()


def cmi_matrix_from(stats, d):
    """I(X_i; X_j | C) for every pair (symmetric, 0 on the diagonal)."""
    W = np.zeros((d, d))
    if stats["pairs"]:
        i, j = np.array(list(stats["pairs"]), dtype=np.int64).T
        W[i, j] = W[j, i] = information_values(list(stats["pairs"].values()))
    return W
