"""Averaged n-dependence estimators (Webb, Boughton and Wang 2005; Webb et al. 2012)."""

import functools
import math
from collections import namedtuple
from itertools import combinations

import numpy as np

from .ande_counts import set_counts
from .ande_estimate import lidstone_joints, lidstone_stacks
from ..core.counting import count_codes
from ..estimation import class_log_prior
from .._memory import check_memory, machine_memory
from ..components import ConditionalTable
from ..components.categorical import reader_codes
from ..registry import register, register_variant
from .base import BayesNetClassifier
from ..data.encoding import EncodedTable
from .ande_kernel import average_sets
from .ande_weights import MIXTURE
from ..exceptions import ParameterError

__all__ = ["AnDE", "AODE"]


def _set_cells(m, n):
    """The sum, over every set P of ``n`` of the attributes of ``m`` values, of (prod_P m + 1) (sum m -
    sum_P m): the cells per class of all the sets' children's tables, from elementary symmetric sums
    (no loop over the sets).

    Examples
    --------
    >>> m = np.array([2.0, 3.0, 4.0])  # sets {0}: 3 x 7, {1}: 4 x 6, {2}: 5 x 5
    >>> float(_set_cells(m, 1))
    70.0
    """
    e = np.zeros(n + 1)
    e[0] = 1.0
    for x in m:  # e[j]: the sum over the sets of j attributes of their products
        e[1:] = e[1:] + x * e[:-1]
    without = np.ones_like(m)  # e[n - 1] of the attributes but i, by e_j(-i) = e_j - m_i e_(j-1)(-i)
    for j in range(1, n):
        without = e[j] - m * without
    total = m.sum()
    return (e[n] * total - np.dot(m * m, without) + math.comb(m.size, n) * total
            - math.comb(m.size - 1, n - 1) * total)


def _stacked(tables_counts, k):
    """Per-table counts (K, slots, m) of children sharing their parents, stacked (children, K, slots,
    widest), zero beyond a child's values."""
    top = max(c.shape[-1] for c in tables_counts)
    out = np.zeros((len(tables_counts), k, tables_counts[0].shape[1], top))
    for c, counts in enumerate(tables_counts):
        out[c, :, :, :counts.shape[-1]] = counts
    return out


_Layout = namedtuple("_Layout", "widths at total views alone_counts alone_size alone_cells alone_logs")


@functools.lru_cache(maxsize=32)
def _layout(stack_shapes, table_shapes, widths, n):
    """What AnDE's estimate works out from the counts' shapes (the sets' stacks, Naive Bayes's tables),
    the attributes' numbers of values and n alone: each stack's children's numbers of values (Naive
    Bayes's tables last, as one more stack), where each stack's logs start in the flat block (the
    last one: Naive Bayes's) and its views there, and where each Naive Bayes table's counts go in
    its stack. Kept for the next fit of the same layout; never written to."""
    d = len(widths)
    children = [tuple(widths[i] for i in range(d) if i not in P) for P in combinations(range(d), n)] if n else []
    k, slots, top = table_shapes[0][0], table_shapes[0][1], max(s[-1] for s in table_shapes)
    alone_counts = (d, k, slots, top)
    shapes = [(c, q, w + 1, kk) for c, kk, q, w in (*stack_shapes, alone_counts)]  # log_stack_shape's
    at = np.cumsum([0] + [math.prod(s) for s in shapes], dtype=np.int64)
    cells = np.arange(math.prod(alone_counts)).reshape(alone_counts)
    alone_cells = np.concatenate([cells[i, :s[0], :s[1], :s[2]].ravel() for i, s in enumerate(table_shapes)])
    views = [(a, b, s) for a, b, s in zip(at[:-2].tolist(), at[1:-1].tolist(), shapes[:-1])]
    return _Layout((*children, widths), at[:-1], int(at[-1]), views, alone_counts, cells.size, alone_cells,
                   shapes[-1])


@functools.lru_cache(maxsize=32)
def _present_cells(widths, k):
    """Where AODE's Naive Bayes tables (attributes, K, 2, widest) take their counts from the sets' own
    counts (each (K, m + 1), end to end): the cells of present values, both positions. Never written to."""
    top = max(widths)
    src = [a + c * (m + 1) + np.arange(m) for a, m in zip(np.cumsum([0] + [k * (m + 1) for m in widths]), widths)
           for c in range(k)]
    dst = [(i * k + c) * 2 * top + np.arange(m) for i, m in enumerate(widths) for c in range(k)]
    return np.concatenate(src).astype(np.int64), np.concatenate(dst).astype(np.int64)


@register
class AnDE(BayesNetClassifier):
    """Averaged n-dependence estimators: the average, over every set P of ``n``
    super-parent attributes, of the model in which P is a parent of every
    other attribute:

        P(c, x) ~ mean over active P of  P(c, x_P) prod_{i not in P} P(x_i | c, x_P),

    a set P being active for an instance when its values are present and were
    seen at least ``min_count`` times in training (an instance with none
    active gets Naive Bayes). No structure is searched: fitting is one pass of
    counting, so the model is incremental (``partial_fit``) and mergeable.
    n = 1 is AODE, n = 2 A2DE; n = 0 is Naive Bayes. n is capped at the number of
    attributes less one, so that every model keeps a child (on two attributes,
    A2DE is AODE).

    Parameters
    ----------
    n : int, default 1
    min_count : int, default 1
        How often a super-parent value must have been seen (Weka's frequency limit).
    alpha, priors, numeric, n_bins, min_bucket
        As :class:`~seminaive.bayesnet.TAN`; ``alpha`` smooths P(c, x_P) as
        (n(c, x_P) + alpha) / (N_P + alpha K M_P) too (N_P: instances with x_P
        present, M_P: the number of joint values of P).
    discriminative : {None, "table", "parameter"}, default None
        Weights on the logarithms of every set's estimates, fitted to the conditional
        log-likelihood of the training rows inside the average
        (:mod:`seminaive.bayesnet.ande_weights`): one per set's table, or one per class
        and cell (ALR^n's parameters). Without a super-parent set (n = 0, or one attribute)
        the model is Naive Bayes and nothing is weighted (``weights_`` None; WANBIA weights Naive Bayes).
    penalty : "auto" or float, default "auto"
        As :class:`~seminaive.bayesnet.TAN`'s.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = AnDE(n=1).fit(d)
    >>> m.predict(d.X[:3]).tolist()
    ['no', 'no', 'yes']
    """

    _param_rules = {"n": dict(kind="int", low=0, high=3), "min_count": dict(kind="int", low=0)}
    _fixed_structure = True
    _weighting = MIXTURE  # weights inside the average (bayesnet.ande_weights)

    def __init__(self, *, n=1, min_count=1, alpha=1.0, priors="laplace", nominal=None, numeric="mdl_fallback",
                 integer_codes="numbers",
                 n_bins=10, min_bucket=6, estimation="frequency", hdp_iterations=1000, hdp_tying="level",
                 random_state=0, discriminative=None, penalty="auto"):
        super().__init__(alpha=alpha, priors=priors, nominal=nominal, numeric=numeric,
                         integer_codes=integer_codes, n_bins=n_bins,
                         min_bucket=min_bucket, estimation=estimation, hdp_iterations=hdp_iterations,
                         hdp_tying=hdp_tying, random_state=random_state, discriminative=discriminative,
                         penalty=penalty)
        self.n = n
        self.min_count = min_count

    def _order(self):
        return self.n

    def _make_tables(self):
        """The Naive Bayes tables (the fallback) and the super-parent sets (their children's tables
        are made when first asked for: :attr:`parent_tables_`)."""
        r, d = self.readers_, len(self.readers_)
        n = min(self._order(), d - 1) if d > 1 else 0
        self._check_size(n)
        self.parent_sets_ = [tuple(p) for p in combinations(range(d), n)] if n else []
        self.tables_ = [ConditionalTable(i, r[i]) for i in range(d)]
        self.__dict__.pop("_parent_tables", None)

    def _children(self):
        """Per super-parent set, its children: every other attribute, in order."""
        d = len(self.readers_)
        return [[i for i in range(d) if i not in P] for P in self.parent_sets_]

    @property
    def parent_tables_(self):
        """Per super-parent set, its children's tables P(x_i | c, x_P), their log tables views into
        the set's stacked logs (``set_logs_``). Made when first asked for: fitting with Lidstone's
        estimates and predicting read the stacks, not 1,000 table objects."""
        tables = self.__dict__.get("_parent_tables")
        if tables is None:
            r = self.readers_
            tables = [[ConditionalTable(i, r[i], [r[p] for p in P]) for i in children]
                      for P, children in zip(self.parent_sets_, self._children())]
            self._parent_tables = tables
            self._view_logs()
        return tables

    def _view_logs(self):
        """Point the tables made so far at their rows of the stacked logs."""
        for ts, logs in zip(self.__dict__.get("_parent_tables") or [], getattr(self, "set_logs_", [])):
            for c, t in enumerate(ts):
                t.log_table_ = logs[c, :, :t.n_values + 1, :]

    def _all_tables(self):
        return list(self.tables_) + [t for ts in self.parent_tables_ for t in ts]

    def _check_size(self, n):
        """Refuse, before any table is made, a model this machine cannot hold: per super-parent set
        P its children's counts (classes x P's joint values x each child's values), counted, estimated
        and kept as logs, and an object per table."""
        if not n:
            return
        widths, k = [rd.n_values for rd in self.readers_], len(self.classes_)
        d, top = len(widths), max(widths)
        sets = math.comb(d, n)
        tables = sets * (d - n)
        total = machine_memory()  # a bound on the cells first (every child as wide as the widest): no sum over sets
        if total is None or 3 * 8 * k * tables * (top + 1) ** n * top + 2048 * tables <= total / 2:
            return
        m = np.array(widths, dtype=np.float64)
        cells = _set_cells(m, n)
        check_memory(3 * 8 * k * cells + 2048 * tables,
                     f"AnDE(n={n}) on {d} attributes ({sets:,} super-parent sets, {tables:,} tables)",
                     "n=1 (AODE) or fewer attributes")

    def _count_shapes(self):
        """The counts' shapes in a model file: per super-parent set, per child (K, slots, m)."""
        k, m = len(self.classes_), [r.n_values for r in self.readers_]
        shapes = super()._count_shapes()
        slots = [math.prod(m[p] for p in P) + 1 for P in self.parent_sets_]
        shapes["parent_stats_"] = [[(k, s, m[i]) for i in ch] for s, ch in zip(slots, self._children())]
        shapes["joint_stats_"] = [(k, s) for s in slots]
        return shapes

    def _file_counts(self):
        """The counts as a model file holds them: each child's table apart (``parent_stats_`` holds
        each set's children stacked)."""
        counts = super()._file_counts()
        m = [r.n_values for r in self.readers_]
        counts["parent_stats_"] = [[{"counts": stack[c, :, :, :m[i]]} for c, i in enumerate(ch)]
                                   for stack, ch in zip(self.parent_stats_, self._children())]
        return counts

    def _set_counts(self, counts):
        tables = counts.get("parent_stats_")
        if tables and isinstance(tables[0], list):  # a model file's tables, one by one: stacked per set
            counts = dict(counts, parent_stats_=[_stacked([st["counts"] for st in ts], len(self.classes_))
                                                 for ts in tables])
        super()._set_counts(counts)

    def _count(self, table, y, k, weight, columns=None):
        """Every table's counts, from one compiled pass over the rows counting the joint values of
        every n + 1 attributes by class, each super-parent set's tables then summed from those
        cells (:func:`~seminaive.bayesnet.ande_counts.set_counts`): per set, its children's counts
        stacked (children, K, slots, widest child), and its own (K, slots)."""
        columns = reader_codes(self.readers_, table) if columns is None else columns
        m = [r.n_values for r in self.readers_]
        stats = {"parent_stats_": [], "joint_stats_": []}
        n = len(self.parent_sets_[0]) if self.parent_sets_ else 0
        if n:
            stats["parent_stats_"], stats["joint_stats_"] = set_counts(columns, m, y, k, n, weight)
        alone = np.zeros((len(m), k, 2, max(m, default=1)))  # Naive Bayes's tables: no parent, none missing
        if n == 1 and weight is None:  # each set's own counts are its attribute's, by class (missing last; whole
            # counts, so the same numbers as a pass over the rows: weighted ones keep the rows' order)
            src, dst = _present_cells(tuple(m), k)
            alone.ravel()[dst] = np.concatenate([j.ravel() for j in stats["joint_stats_"]])[src]
        else:
            alone[:, :, :1] = count_codes(list(columns), max(m, default=1), y, k, weight=weight)[:, 0]  # one pass
        stats["stats_"] = [{"counts": alone[i, :, :, :mi]} for i, mi in enumerate(m)]
        return stats

    def _count_names(self):
        return ("stats_", "parent_stats_", "joint_stats_")

    def _estimate(self, estimator=None):
        self.weighted_ = None  # discriminative weights are folded in after (ande_weights)
        lidstone = estimator is None and self.estimation == "frequency"
        # per super-parent set, its children's log tables in one stacked array (the tables' own
        # log_table_ are views into it): estimated in one call (Lidstone), one gather per set in prediction
        alone = [st["counts"] for st in self.stats_]
        lay = _layout(tuple(st.shape for st in self.parent_stats_), tuple(c.shape for c in alone),
                      tuple(r.n_values for r in self.readers_), len(self.parent_sets_[0]) if self.parent_sets_ else 0)
        if lidstone:  # Naive Bayes's tables stacked after the sets' and estimated with them, in one call
            self.class_log_prior_ = class_log_prior(self.class_count_, self.priors)
            stack = np.zeros(lay.alone_size)
            stack[lay.alone_cells] = np.concatenate([c.ravel() for c in alone])
            block = np.zeros(lay.total)
            lidstone_stacks([*self.parent_stats_, stack.reshape(lay.alone_counts)], lay.widths, self.alpha, block,
                            lay.at)
            logs = block[lay.at[-1]:].reshape(lay.alone_logs)
            for i, t in enumerate(self.tables_):
                t.log_table_ = logs[i, :, :t.n_values + 1, :]
        else:
            super()._estimate(estimator)
            block = np.zeros(lay.total)
        block = block[:lay.at[-1]]
        self.set_logs_block_ = (block, lay.at[:-1])  # every set's stack, end to end (the kernel's)
        self.set_logs_ = [block[a:b].reshape(shape) for a, b, shape in lay.views]
        if lidstone:
            self._view_logs()
        else:  # table by table, each copied into its set's stack
            estimator = self._estimator() if estimator is None else estimator
            for ts, stack, out in zip(self.parent_tables_, self.parent_stats_, self.set_logs_):
                for c, t in enumerate(ts):
                    t.estimate({"counts": stack[c, :, :, :t.n_values]}, estimator)
                    out[c, :, :t.n_values + 1, :] = t.log_table_
                    t.log_table_ = out[c, :, :t.n_values + 1, :]
        self.joint_log_ = lidstone_joints(self.joint_stats_, self.alpha)  # P(c, x_P), every set at once

    def _joint_log_likelihood(self, X):
        return self._encoded_joint(self._encode(X))

    def _encoded_joint(self, table):
        """The joint log-likelihood (n, K) of an encoded table (with the weights, if any)."""
        if not self.parent_sets_:
            return self._tables_sum(table)
        out = np.empty((table.n_samples, len(self.classes_)))
        none = average_sets(self, reader_codes(self.readers_, table), out)
        if none.any():  # no super-parent set active: Naive Bayes
            out[none] = self._tables_sum(EncodedTable(table.codes[none], table.numeric[none], table.unseen))
        return out

    def attribute_log_likelihoods(self, X):
        """Not defined: AnDE averages models, so its log-likelihood is no sum of attribute terms."""
        raise ParameterError(f"{type(self).__name__} averages {len(self.parent_sets_)} models: its evidence is no "
                             f"sum of one term per attribute, so it has no additive explanation (TAN, KDB and "
                             f"SelectiveKDB have)")

    def _describe(self):
        return f"n={self._order()}, {len(self.parent_sets_)} super-parent sets"

    def _structure_text(self, names):
        if not self.parent_sets_:
            return self.structure_.to_text(names)
        lines = [f"the average of {len(self.parent_sets_)} models; in each, one super-parent set is a parent "
                 f"of every other attribute (attribute <- class, set):"]
        lines += ["  " + ", ".join(names[p] for p in P) for P in self.parent_sets_[:12]]
        if len(self.parent_sets_) > 12:
            lines.append(f"  ... and {len(self.parent_sets_) - 12} more sets")
        return "\n".join(lines)


@register
class AODE(AnDE):
    """Averaged one-dependence estimators: :class:`AnDE` with n = 1 (Webb,
    Boughton and Wang 2005), under the name people search for.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> bool((AODE().fit(d).predict_proba(d.X) == AnDE(n=1).fit(d).predict_proba(d.X)).all())
    True
    """

    n = 1  # fixed: a class attribute, not a parameter

    def __init__(self, *, min_count=1, alpha=1.0, priors="laplace", nominal=None, numeric="mdl_fallback",
                 integer_codes="numbers",
                 n_bins=10, min_bucket=6, estimation="frequency", hdp_iterations=1000, hdp_tying="level",
                 random_state=0, discriminative=None, penalty="auto"):
        BayesNetClassifier.__init__(self, alpha=alpha, priors=priors, nominal=nominal, numeric=numeric,
                                    integer_codes=integer_codes,
                                    n_bins=n_bins, min_bucket=min_bucket, estimation=estimation,
                                    hdp_iterations=hdp_iterations, hdp_tying=hdp_tying, random_state=random_state,
                                    discriminative=discriminative, penalty=penalty)
        self.min_count = min_count


register_variant("model", "aode", "averaged one-dependence estimators (numeric attributes in MDL intervals)",
                 lambda **o: AnDE(n=1, **{k: v for k, v in o.items() if k in ("alpha", "priors")}))
register_variant("model", "a2de", "averaged two-dependence estimators (numeric attributes in MDL intervals)",
                 lambda **o: AnDE(n=2, **{k: v for k, v in o.items() if k in ("alpha", "priors")}))
register_variant("model", "aode-disc", "AODE with discriminative weights per cell inside the average (ALR^n's "
                 "parameters; penalty chosen by held-out folds)",
                 lambda **o: AnDE(n=1, discriminative="parameter", **{k: v for k, v in o.items() if k in ("alpha", "priors")}))
register_variant("compare", "aode", "averaged one-dependence estimators", lambda: AnDE(n=1))
register_variant("compare", "aode-disc", "AODE with discriminative weights per cell",
                 lambda: AnDE(n=1, discriminative="parameter"))
register_variant("compare", "a2de", "averaged two-dependence estimators", lambda: AnDE(n=2))
