"""Hierarchical Dirichlet process estimates of conditional tables (Petitjean,
Buntine, Webb and Zaidi, "Accurate parameter estimation for Bayesian network
classifiers using hierarchical Dirichlet processes", Machine Learning 2018).

P(x | c, p1..pk) is smoothed toward P(x | c, p1..pk-1), ..., toward P(x | c),
toward P(x), each level a Dirichlet process whose base is the level above; the
table counts and concentrations are sampled by collapsed Gibbs sampling
(:mod:`._hdp_sampler`) and the probabilities averaged over the sweeps after the
burn-in. A table of the family backs off through its parents in the order the
model gives them (kDB: largest conditional mutual information first, so the
least informative parent is dropped first).
"""

import numpy as np

from .._validation import check_param
from .._seeds import derived_seed
from .._state import numbers
from ..exceptions import ParameterError
from ._hdp_sampler import kernel, stirling_table

__all__ = ["HDP", "TYINGS", "SavedTables"]

TYINGS = ("level", "single", "parent", "none")


def _tree(counts, arities):
    """The nodes of the tree of ``counts`` (K, P, m) with the conditioning arities [K, v1..vk]
    (P = v1 ... vk, row-major, the last parent fastest): the nodes holding data at each depth
    (their row-major codes), the parent of every node, where each depth starts, and the leaves'
    counts (whole numbers, checked: only the rows holding data are read, as integers)."""
    m = counts.shape[-1]
    flat = counts.reshape(-1, m)
    codes = [np.flatnonzero(flat.any(axis=1))]
    data = flat[codes[0]]
    if not np.array_equal(data, np.round(data)):
        raise ParameterError("sample_weight: estimation='hdp' counts whole instances; expected integer weights")
    ups = []
    for d in range(len(arities), 0, -1):
        up, inverse = np.unique(codes[0] // arities[d - 1], return_inverse=True)
        codes.insert(0, up)
        ups.insert(0, inverse)
    if codes[0].size == 0:  # no data at all: the root alone
        codes[0] = np.zeros(1, dtype=np.intp)
    sizes = [c.size for c in codes]
    start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    parent = np.full(start[-1], -1, dtype=np.int64)
    for d, inverse in enumerate(ups, start=1):
        parent[start[d]:start[d + 1]] = start[d - 1] + inverse
    leaf = np.zeros((start[-1], m), dtype=np.int64)
    leaf[start[-2]:] = data
    return codes, parent, start, leaf


def _concentrations(tying, parent, start):
    """Which concentration each node uses (the root's, 0, stays at 2) and which are sampled."""
    n = parent.size
    depth = np.repeat(np.arange(start.size - 1), np.diff(start))
    if tying == "level":
        conc = depth
    elif tying == "single":
        conc = np.minimum(depth, 1)
    elif tying == "parent":
        conc = np.where(parent < 0, 0, parent + 1)
    else:
        conc = np.arange(n)
    n_conc = int(conc.max()) + 1 if n else 1
    sampled = np.ones(n_conc, dtype=np.bool_)
    sampled[0] = False
    return conc.astype(np.int64), n_conc, sampled


class HDP:
    """Conditional tables smoothed by a hierarchical Dirichlet process (see the module).

    Parameters
    ----------
    iterations : int, default 1000
        Gibbs sweeps; the first min(1000, iterations // 10) are burn-in.
    tying : {"level", "single", "parent", "none"}, default "level"
        Which nodes share a concentration: every node of a depth (the paper's default),
        all but the root, the children of one node, or none.
    every : int, default 5
        Sample the concentrations every ``every`` sweeps.
    random_state : int, default 0
        The seed; each table draws from its own stream (the seed and the table's key).

    Examples
    --------
    >>> counts = np.array([[[8, 0], [0, 0]], [[0, 0], [1, 3]]])  # 2 classes, a parent of 2 values, 2 values
    >>> p = np.exp(HDP(iterations=200).conditional(counts, levels=(2,)))
    >>> bool(p[0, 0, 0] > 0.8), bool(np.allclose(p.sum(axis=2), 1))
    (True, True)
    """

    def __init__(self, iterations=1000, tying="level", every=5, random_state=0):
        self.iterations = iterations
        self.tying = tying
        self.every = every
        self.random_state = random_state

    def _check(self):
        check_param("iterations", self.iterations, kind="int", low=1)
        check_param("tying", self.tying, options=TYINGS)
        check_param("every", self.every, kind="int", low=1)
        check_param("random_state", self.random_state, kind="int", low=0)

    def smooth(self, counts, levels=(), key=()):
        """The averaged probabilities of every level: a list over depths 0..k+1 of arrays
        (prod of the arities so far, m), a node without data taking its parent's row."""
        self._check()
        counts = np.asarray(counts)
        arities = [counts.shape[0], *[int(v) for v in levels]]
        codes, parent, start, leaf = _tree(counts, arities)
        conc, n_conc, sampled = _concentrations(self.tying, parent, start)
        seed = derived_seed(self.random_state, *key)
        burn_in = min(1000, self.iterations // 10)
        average = kernel("sample_tree")(leaf, parent, start, conc, n_conc, sampled, self.iterations, burn_in,
                                        self.every, seed % (2 ** 31), *stirling_table())
        m = counts.shape[-1]
        dense = [average[0:1] if start[1] > 0 else np.full((1, m), 1.0 / m)]
        for d in range(1, len(arities) + 1):
            rows = np.repeat(dense[-1], arities[d - 1], axis=0)  # each node's children start from its row
            rows[codes[d]] = average[start[d]:start[d + 1]]
            dense.append(rows)
        return dense

    def conditional(self, counts, n_values=None, backoff=None, levels=None, key=()):
        """Log P(value | class, parents), (K, P, m), from counts (K, P, m); ``levels``: the
        parents' numbers of values (default: one parent of P values)."""
        counts = np.asarray(counts)
        k, p, m = counts.shape
        levels = (p,) if levels is None else tuple(levels)
        with np.errstate(divide="ignore"):
            return np.log(self.smooth(counts, levels, key)[-1]).reshape(k, p, m)

    def categorical(self, counts, n_values=None):
        """Log P(value | class), (K, m): the tree of the class alone."""
        with np.errstate(divide="ignore"):
            return np.log(self.smooth(np.asarray(counts)[:, None, :], (1,))[1])

    def log_table(self, counts, levels, key=()):
        """The log table (parent slots, m + 1, K) of a conditional table's counts (K, slots, m),
        as :func:`~seminaive.estimation.tables.log_tables` lays it out: a row whose parents are
        missing takes P(child | class), the hierarchy's class level (such rows are not in the tree)."""
        counts = np.asarray(counts)
        k, slots, m = counts.shape
        dense = self.smooth(counts[:, :-1], levels, key)
        with np.errstate(divide="ignore"):
            present = np.log(dense[-1]).reshape(k, slots - 1, m)
            alone = np.log(dense[1])
        table = np.concatenate([present, alone[:, None, :]], axis=1)
        return np.concatenate([table.transpose(1, 2, 0), np.zeros((slots, 1, k))], axis=1)


class SavedTables:
    """The smoothed log tables a model file keeps, handed back in the order the model estimates
    them (sampling them again would take as long as the fit), each checked against its counts' shape.

    Examples
    --------
    >>> saved = SavedTables([np.zeros((2, 3, 1))], "state.hdp_tables")
    >>> saved.log_table(np.ones((1, 2, 2)), (1,)).shape
    (2, 3, 1)
    """

    def __init__(self, tables, where):
        self.tables = tables
        self.where = where
        self.used = 0

    def log_table(self, counts, levels, key=()):
        k, slots, m = np.shape(counts)
        if self.used >= len(self.tables):
            raise ValueError(f"{self.where}: expected a table for every conditional table, got {len(self.tables)}")
        table = numbers(self.tables[self.used], f"{self.where}[{self.used}]", (slots, m + 1, k))
        if (table > 0).any():
            raise ValueError(f"{self.where}[{self.used}]: expected log-probabilities (<= 0)")
        self.used += 1
        return table

    def check_used(self):
        if self.used != len(self.tables):
            raise ValueError(f"{self.where}: expected {self.used} tables, got {len(self.tables)}")
