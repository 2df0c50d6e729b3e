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
from .._seeds import SEED_LIMIT, derived_seed
from .._state import numbers
from ._hdp_sampler import kernel, stirling_table
from ._tree import TYINGS, Hierarchy, dense_levels, probability_tree, tied_groups, tree_steps
from .family import TableEstimation, declare

__all__ = ["HDP", "TYINGS", "SavedTables"]


def _concentrations(tying, parent, start):
    """Which concentration each node uses (the root's, 0, stays at 2) and which are sampled."""
    conc = tied_groups(tying, parent, start)
    n_conc = int(conc.max()) + 1 if conc.size else 1
    sampled = np.ones(n_conc, dtype=np.bool_)
    sampled[0] = False
    return conc, n_conc, sampled


class HDP(Hierarchy):
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
        arities = tree_steps(counts.shape[0], levels)
        codes, parent, start, leaf = probability_tree(counts, arities, "hdp")
        conc, n_conc, sampled = _concentrations(self.tying, parent, start)
        seed = derived_seed(self.random_state, *key)
        burn_in = min(1000, self.iterations // 10)
        average = kernel("sample_tree")(leaf, parent, start, conc, n_conc, sampled, self.iterations, burn_in,
                                        self.every, seed % SEED_LIMIT, *stirling_table())
        return dense_levels(average, codes, start, arities, counts.shape[-1])


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


declare("hdp", "hierarchical Dirichlet process (Petitjean et al.)",
        TableEstimation(make=lambda m: HDP(iterations=m.hdp_iterations, tying=m.hdp_tying, random_state=m.random_state),
                        describe=lambda m: f"hdp smoothing: {m.hdp_iterations} sweeps, {m.hdp_tying} tying, "
                                           f"seed {m.random_state}",
                        hierarchical=True, rank=2))
