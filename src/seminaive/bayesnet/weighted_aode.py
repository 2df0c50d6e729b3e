"""AODE's relatives that weigh or prune its super-parents: WAODE (Jiang and Zhang 2006) and AODEsr
(Zheng and Webb 2006), on AODE's counts laid out by :mod:`.pair_counts`.

Both average one-dependence models, P(c, x) ~ sum_p w_p P(c, x_p) prod_{s != p} P(x_s | c, x_p),
with the references' estimates (Weka 3.6's: Cestnik's m-estimate toward the uniform, or Laplace's):
WAODE weighs each super-parent by its mutual information with the class; AODEsr gives every one
weight 1 but, for each row, first drops every value that another of the row's values specializes
(subsumption resolution), as super-parent and as child.
"""

import numpy as np
from scipy.special import logsumexp

from .._validation import check_param
from ..components.categorical import reader_codes
from ..core.subset_counts import code_matrix
from ..estimation.family import TableEstimation, table_estimations
from ..registry import register, register_variant
from .ande import AnDE
from .one_dependence_kernel import generalizations
from .one_dependence_weights import BLOCK, MIXTURE_FACTORS, mixture_factors
from .pair_counts import mutual_information, pair_counts, smoothed

__all__ = ["OneDependenceAverage", "WAODE", "AODEsr"]

# the references' estimates (Weka's m-estimate or Laplace's, from the pair counts): no table of the family's
WEKA = TableEstimation(make=lambda model: None, describe=lambda model: model._weka_text())


def check_estimation(name, value):
    """``weka`` (the references' estimates) or an estimation of the family's tables."""
    check_param(name, value, options=("weka", *table_estimations()))


def _one_hot(slots, total):
    """(rows, total) with a 1 at each row's slots (-1: none)."""
    out = np.zeros((slots.shape[0], total))
    rows = np.repeat(np.arange(slots.shape[0]), slots.shape[1])
    at = slots.ravel()
    out[rows[at >= 0], at[at >= 0]] = 1.0
    return out


class OneDependenceAverage(AnDE):
    """AODE's counts with the references' estimates, every super-parent's model worked out per row in
    numpy; a subclass says which super-parents and children each row keeps and how they are weighed
    (:meth:`_masks`, :meth:`_parent_weights`).

    The parameters every subclass takes beside its own:

    estimation : {"weka", "frequency", "m-estimate", "hdp", "hgs", "hls"}, default "weka"
        The estimates: the reference's (above), or AODE's tables under one of the family's estimations
        (as :class:`~seminaive.bayesnet.AnDE`'s ``estimation``; Lidstone's and the m-estimate with alpha 1,
        the hierarchical ones with ``hdp_iterations``).
    hdp_iterations : int, default 1000
        As :class:`~seminaive.bayesnet.AnDE`'s (with ``estimation="hdp"``).
    discriminative : {None, "table", "parameter"}, default None
        Discriminative weights fitted to the training rows' conditional log-likelihood
        (:mod:`.one_dependence_weights`): factors on each super-parent's weight (``"table"``), or on each
        super-parent value's per class (``"parameter"``); hidden Naive Bayes: the family's log-linear weights
        on each attribute's term.
    penalty : "auto" or float, default "auto"
        As :class:`~seminaive.bayesnet.AnDE`'s.
    """

    n = 1  # fixed: class attributes, not parameters
    alpha, priors, hdp_tying = 1.0, "laplace", "level"  # the family's estimations read these at their defaults
    min_count, laplace, m = 1, False, 1.0
    _weighted = False  # whether the super-parents are weighted (the printout shows the weights)
    _param_rules = {"estimation": check_estimation}
    _weighting = MIXTURE_FACTORS  # discriminative factors on the super-parents' weights (.one_dependence_weights)

    def _data_options(self, nominal, numeric, integer_codes, n_bins, min_bucket, random_state, estimation="weka",
                      hdp_iterations=1000, discriminative=None, penalty="auto"):
        """Store the family's data options, the estimation and the discriminative weights (the
        constructors' shared part)."""
        self.nominal, self.numeric, self.integer_codes = nominal, numeric, integer_codes
        self.n_bins, self.min_bucket, self.random_state = n_bins, min_bucket, random_state
        self.estimation, self.hdp_iterations = estimation, hdp_iterations
        self.discriminative, self.penalty = discriminative, penalty

    def _estimation(self):
        return WEKA if self.estimation == "weka" else super()._estimation()

    def _estimate(self, estimator=None):
        """The log-estimates every prediction reads: P(c, x_p) of each super-parent value, P(x_s | c, x_p)
        of each pair (0 where s is p's own attribute or missing), and Naive Bayes's fallback: the
        references' from the pair counts, or (``estimation`` one of the family's) AODE's tables."""
        if self.estimation != "weka":
            return self._family_estimate(estimator)
        pc = pair_counts(self)
        counts, start, widths = pc.counts, pc.start, pc.widths
        k, total = counts.shape[0], counts.shape[1]
        owner = np.repeat(np.arange(len(widths)), widths + 1)  # each slot's attribute
        width = widths[owner].astype(np.float64)
        missing = start[owner] + widths[owner]  # each slot's attribute's missing slot
        diag = counts[:, np.arange(total), np.arange(total)]  # (K, slots)
        n_missing = diag.sum(axis=0)[missing]  # rows whose slot's attribute is missing
        m, laplace = float(self.m), bool(self.laplace)
        with np.errstate(divide="ignore", invalid="ignore"):
            self.log_joint_ = np.log(smoothed(diag, pc.n_total - n_missing, k * width, m, laplace))
            present = diag[:, :, None] - counts[:, :, missing]  # N(c, u) with v's attribute present
            cond = np.log(smoothed(counts, present, width[None, None, :], m, laplace))
            nb_total = np.asarray(self.class_count_, dtype=np.float64)[:, None] - diag[:, missing]
            self.log_alone_ = np.log(smoothed(diag, nb_total, width, m, laplace))
            self.log_prior_ = np.log(smoothed(np.asarray(self.class_count_, dtype=np.float64), pc.n_total, k, m,
                                              laplace))
        cond[:, owner[:, None] == owner[None, :]] = 0.0  # a super-parent is not its own child
        cond[:, :, missing == np.arange(total)] = 0.0  # a missing child says nothing
        self.log_cond_ = cond
        self.slot_start_, self.slot_frequency_ = start, diag.sum(axis=0)
        self.class_log_prior_ = self.log_prior_
        self._pairs = pc
        self._after_estimate(pc)

    def _family_estimate(self, estimator=None):
        """AODE's tables under the family's ``estimation`` (:meth:`AnDE._estimate`), laid out as the
        references' are: with every super-parent weighing 1 and none dropped, the model is AODE's."""
        super()._estimate(estimator)
        pc = pair_counts(self)
        start, widths = pc.start, pc.widths
        k, total = len(self.classes_), pc.counts.shape[1]
        cond, joint, alone = np.zeros((k, total, total)), np.full((k, total), -np.inf), np.zeros((k, total))
        for p, (tables, logs, children) in enumerate(zip(self.parent_tables_, self.joint_log_, self._children())):
            sp, mp = start[p], widths[p]
            joint[:, sp:sp + mp] = logs[:, :mp]
            for t, a in zip(tables, children):
                cond[:, sp:sp + mp, start[a]:start[a] + widths[a]] = t.log_table_[:mp, :widths[a], :].transpose(2, 0, 1)
        for a, t in enumerate(self.tables_):
            alone[:, start[a]:start[a] + widths[a]] = t.log_table_[0, :widths[a], :].T
        self.log_joint_, self.log_cond_, self.log_alone_ = joint, cond, alone
        self.log_prior_ = np.asarray(self.class_log_prior_, dtype=np.float64)
        self.slot_start_ = start
        self.slot_frequency_ = pc.counts[:, np.arange(total), np.arange(total)].sum(axis=0)
        self._pairs = pc
        self._after_estimate(pc)

    def _after_estimate(self, pc):  # what a subclass derives from the counts (WAODE's weights)
        pass

    def _masks(self, slots, present):
        """(super-parents, children) kept per row, each (rows, d) bool: by default the present values,
        super-parents seen at least ``min_count`` times."""
        parents = present & (self.slot_frequency_[slots] >= self.min_count)
        return parents, present

    def _parent_weights(self):  # w_p of each attribute as super-parent
        return np.ones(len(self.readers_))

    def _rows(self, table):
        """Each row's slot of every attribute and whether its value is there, (rows, d) each."""
        widths = [r.n_values for r in self.readers_]
        codes = np.ascontiguousarray(code_matrix(reader_codes(self.readers_, table), widths, table.n_samples).T,
                                     dtype=np.int64)
        return self.slot_start_[None, :] + codes, codes < np.asarray(widths)[None, :]

    def _encoded_joint(self, table):
        """log of the weighted average of the kept super-parents' models (n, K); Naive Bayes where a
        row keeps none."""
        all_slots, all_present = self._rows(table)
        out = np.empty((table.n_samples, len(self.classes_)))
        weights = self._parent_weights()
        for lo in range(0, table.n_samples, BLOCK):
            slots, present = all_slots[lo:lo + BLOCK], all_present[lo:lo + BLOCK]
            parents, children = self._masks(slots, present)
            out[lo:lo + BLOCK] = self._block(slots, present, parents, children, weights)
        return out

    def _terms(self, slots, parents, children):
        """log P(c, x_p) prod_s P(x_s | c, x_p) of every kept super-parent p, (d, K, rows); -inf where p is
        not kept. Each row's children's log-probabilities given every super-parent value come from one
        matrix product per class (the row's kept values, one-hot, by the pair table)."""
        rows, d = slots.shape
        k = len(self.classes_)
        kept = _one_hot(np.where(children, slots, -1), self.log_cond_.shape[1])
        terms = np.full((d, k, rows), -np.inf)
        for c in range(k):
            given = kept @ self.log_cond_[c].T  # [r, u]: sum over the row's kept children v of log P(v | c, u)
            part = self.log_joint_[c][slots] + np.take_along_axis(given, slots, axis=1)
            terms[:, c, :] = np.where(parents, part, -np.inf).T
        return terms

    def _block(self, slots, present, parents, children, weights):
        """log sum_p w_p P(c, x_p) prod_s P(x_s | c, x_p) over the kept super-parents p (signed weights, as
        Weka sums them: an information computed as -1e-17 weighs that little; times the discriminative
        factors, where fitted), (rows, K)."""
        terms = self._terms(slots, parents, children)
        b = mixture_factors(self, slots) * weights[:, None, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            jll, sign = logsumexp(terms, axis=0, b=b, return_sign=True)
        jll = np.where(sign > 0, jll, -np.inf).T  # (rows, K)
        none = ~parents.any(axis=1)
        if none.any():  # Naive Bayes on the present values
            alone = np.where(present[none], slots[none], -1)
            nb = self.log_prior_[None, :] + np.stack(
                [np.where(alone >= 0, self.log_alone_[c][alone], 0.0).sum(axis=1) for c in range(len(self.classes_))],
                axis=1)
            jll[none] = nb
        return jll

    def _describe(self):
        return f"{len(self.readers_)} super-parents"

    def _weka_text(self):
        return "Laplace's estimates" if self.laplace else f"m-estimates toward the uniform, m={float(self.m):g}"

    def _structure_text(self, names):
        """Each super-parent (with its weight where the model weighs them)."""
        weights = self._parent_weights()
        lines = ["the average of one model per super-parent (every other attribute <- class, super-parent):"]
        lines += [f"  {n}" + (f"  weight {w:.4f}" if self._weighted else "") for n, w in zip(names, weights)]
        return "\n".join(lines)


@register
class WAODE(OneDependenceAverage):
    """Weightily averaged one-dependence estimators (Jiang and Zhang 2006; Weka's
    ``weka.classifiers.bayes.WAODE``): AODE whose super-parents are weighted by their mutual
    information with the class,

        P(c, x) ~ sum_p I(A_p; C) P(c, x_p) prod_{s != p} P(x_s | c, x_p),

    with P(c, x_p) = (n(c, x_p) + m / (K m_p)) / (N_p + m) and P(x_s | c, x_p) = (n(c, x_p, x_s) +
    m / m_s) / (n(c, x_p) + m) (Cestnik's m-estimate toward the uniform; Weka's m = 1), and the
    information in bits from the training frequencies (a term whose probabilities fall below Weka's
    1e-6 left out, as Weka leaves it). Weka takes no missing value; here a missing value is neither
    super-parent nor child, and a row whose super-parents all weigh 0 averages them equally (Weka's
    answer there is not a number).

    Parameters
    ----------
    m : float, default 1
        The m-estimate's weight (Weka's is 1).
    estimation, hdp_iterations, discriminative, penalty
        As :class:`OneDependenceAverage`'s (default: the reference's estimates, no weights).
    nominal, numeric, integer_codes, n_bins, min_bucket, random_state
        As :class:`~seminaive.bayesnet.TAN`'s (numeric attributes in intervals).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = WAODE().fit(d)
    >>> m.predict(d.X[:3]).tolist(), int(np.argmax(m.parent_weights_))  # outlook weighs most
    (['no', 'no', 'yes'], 0)
    """

    _param_rules = {"m": dict(kind="number", low=0, low_inclusive=False)}

    def __init__(self, *, m=1.0, estimation="weka", hdp_iterations=1000, discriminative=None, penalty="auto",
                 nominal=None, numeric="mdl_fallback", integer_codes="numbers", n_bins=10, min_bucket=6,
                 random_state=0):
        self._data_options(nominal, numeric, integer_codes, n_bins, min_bucket, random_state, estimation,
                           hdp_iterations, discriminative, penalty)
        self.m = m

    min_count = 0  # every super-parent value, seen or not (Weka's WAODE has no frequency limit)
    _weighted = True

    def _after_estimate(self, pc):
        self.parent_weights_ = mutual_information(pc, self.class_count_)

    def _parent_weights(self):
        return self.parent_weights_

    def _block(self, slots, present, parents, children, weights):
        jll = super()._block(slots, present, parents, children, weights)
        weight = np.where(parents, weights[None, :], 0.0).sum(axis=1)
        dead = parents.any(axis=1) & (weight <= 0)
        if dead.any():  # the kept super-parents weigh 0 together: their plain average
            jll[dead] = super()._block(slots[dead], present[dead], parents[dead], children[dead],
                                       np.ones(slots.shape[1]))
        return jll

    def _describe(self):
        return f"{len(self.readers_)} super-parents weighted by their information about the class"


@register
class AODEsr(OneDependenceAverage):
    """AODE with subsumption resolution (Zheng and Webb 2006; Weka's ``weka.classifiers.bayes.AODEsr``):
    for each row, a value x_i that another of its values x_j specializes (every training row with x_j
    has x_i, and x_j was seen more than ``critical`` times) is dropped, as super-parent and as child,
    before AODE's average (of two values that specialize each other, the later one is dropped). The
    estimates are Cestnik's m-estimate toward the uniform (``m``), or Laplace's (``laplace``), as
    Weka's ``-M`` and ``-L``; a super-parent value must have been seen ``min_count`` times (``-F``).

    Parameters
    ----------
    critical : int, default 50
        How often the specializing value must have been seen (more than this; Weka's ``-C``).
    min_count : int, default 1
        The frequency limit of super-parents (Weka's ``-F``).
    laplace : bool, default False
    m : float, default 1
    estimation, hdp_iterations, discriminative, penalty
        As :class:`OneDependenceAverage`'s (default: the reference's estimates, no weights).
    nominal, numeric, integer_codes, n_bins, min_bucket, random_state
        As :class:`~seminaive.bayesnet.TAN`'s.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> AODEsr(critical=2).fit(d).predict(d.X[:3]).tolist()
    ['no', 'no', 'yes']
    """

    _param_rules = {"critical": dict(kind="number", low=0), "min_count": dict(kind="int", low=0),
                    "laplace": dict(kind="bool"), "m": dict(kind="number", low=0, low_inclusive=False)}

    def __init__(self, *, critical=50, min_count=1, laplace=False, m=1.0, estimation="weka", hdp_iterations=1000,
                 discriminative=None, penalty="auto", nominal=None, numeric="mdl_fallback", integer_codes="numbers",
                 n_bins=10, min_bucket=6, random_state=0):
        self._data_options(nominal, numeric, integer_codes, n_bins, min_bucket, random_state, estimation,
                           hdp_iterations, discriminative, penalty)
        self.critical = critical
        self.min_count = min_count
        self.laplace = laplace
        self.m = m

    def _after_estimate(self, pc):
        self.together_ = pc.counts.sum(axis=0)  # N(u, v) over the classes

    def generalizations(self, slots, present):
        """Per row and attribute, the attribute whose value specializes it (-1: none), by Weka's
        order: attributes i in turn, the first j whose value x_j was seen more than ``critical``
        times, always with x_i, is x_i's specialization, unless x_i and x_j specialize each other and
        i < j, or x_j's own generalization is x_i."""
        return generalizations(slots, present, self.together_, self.critical)

    def _masks(self, slots, present):
        kept = present & (self.generalizations(slots, present) < 0)
        parents = kept & (self.slot_frequency_[slots] >= self.min_count)
        return parents, kept

    def _describe(self):
        return f"{len(self.readers_)} super-parents, values subsumed by another dropped per row"


register_variant("model", "waode", "AODE with super-parents weighted by mutual information (Jiang and Zhang 2006)",
                 lambda **o: WAODE())
register_variant("model", "aodesr", "AODE with subsumption resolution (Zheng and Webb 2006)",
                 lambda **o: AODEsr())
register_variant("compare", "waode", "AODE weighted by mutual information", WAODE)
register_variant("compare", "aodesr", "AODE with subsumption resolution", AODEsr)
