"""Hidden Naive Bayes (Zhang, Jiang and Su 2005), on AODE's counts laid out by :mod:`.pair_counts`."""

import numpy as np

from ..registry import register, register_variant
from .pair_counts import conditional_mutual_information, smoothed
from .one_dependence_weights import HIDDEN_TERMS, hidden_joint
from .weighted_aode import OneDependenceAverage

__all__ = ["HNB"]


@register
class HNB(OneDependenceAverage):
    """Hidden Naive Bayes (Zhang, Jiang and Su 2005; Weka's ``weka.classifiers.bayes.HNB``): each
    attribute gets a hidden parent, a mixture of one-dependence estimates given each other attribute
    weighted by their conditional mutual information given the class,

        P(c, x) ~ P(c) prod_s sum_{p != s} W_sp P(x_s | c, x_p),   W_sp = I(A_s; A_p | C) / sum_p I(A_s; A_p | C),

    with P(c) = (n_c + m / K) / (N + m) and P(x_s | c, x_p) = (n(c, x_p, x_s) + m / m_s) / (n(c, x_p) + m)
    (Cestnik's m-estimate toward the uniform; Weka's m = 1); an attribute whose weights are all 0
    takes P(x_s | c) alone. The information is in bits from the training frequencies, a term whose
    probabilities' products fall below Weka's 1e-6 left out, as Weka leaves it. Weka takes no missing
    value; here a missing value is neither a child nor a parent (the weights of a row's present
    parents are renormalized).

    Parameters
    ----------
    m : float, default 1
    estimation, hdp_iterations, discriminative, penalty
        As :class:`~seminaive.bayesnet.weighted_aode.OneDependenceAverage`'s (default: the reference's estimates, no weights).
    nominal, numeric, integer_codes, n_bins, min_bucket, random_state
        As :class:`~seminaive.bayesnet.TAN`'s (numeric attributes in intervals).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = HNB().fit(d)
    >>> m.predict(d.X[:3]).tolist(), m.hidden_weights_.shape
    (['no', 'no', 'yes'], (4, 4))
    """

    _param_rules = {"m": dict(kind="number", low=0, low_inclusive=False)}

    _weighting = HIDDEN_TERMS  # the family's log-linear weights on each attribute's term

    def __init__(self, *, m=1.0, estimation="weka", hdp_iterations=1000, discriminative=None, penalty="auto",
                 nominal=None, numeric="mdl_fallback", integer_codes="numbers", n_bins=10, min_bucket=6,
                 random_state=0):
        self._data_options(nominal, numeric, integer_codes, n_bins, min_bucket, random_state, estimation,
                           hdp_iterations, discriminative, penalty)
        self.m = m

    def _after_estimate(self, pc):
        """The hidden parents' weights (the information of every ordered pair) and P(c) = (n_c + m / K) / (N + m)."""
        # with missing values a pair's information comes from other totals than its parts' and can fall below
        # 0 (-0.007): no negative weight in a mixture (its log would not be a number)
        self.information_ = np.maximum(conditional_mutual_information(pc, self.class_count_), 0.0)
        self.cond_ = np.exp(self.log_cond_)  # P(x_s | c, x_p) at [c, slot of x_p, slot of x_s]
        total = self.information_.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            self.hidden_weights_ = np.where(total > 0, self.information_ / total, 0.0)
        k = len(self.classes_)
        if self.estimation == "weka":  # else the family's P(c), as AODE's
            self.class_log_prior_ = self.log_prior_ = np.log(smoothed(np.asarray(self.class_count_, dtype=np.float64),
                                                                      pc.n_total, k, float(self.m)))

    def _encoded_joint(self, table):
        """log P(c) + sum_s log of the hidden parent's mixture (n, K), by the compiled per-row loop
        (:func:`~.one_dependence_kernel.hidden_parents`), with the discriminative weights where fitted."""
        return hidden_joint(self, *self._rows(table))

    def _describe(self):
        return f"{len(self.readers_)} attributes, each with a hidden parent mixing the others"

    def _structure_text(self, names):
        """Each attribute's hidden parent: its heaviest components and their weights."""
        lines = ["each attribute <- class, hidden parent (a mixture of the others; the heaviest three):"]
        for s, row in enumerate(self.hidden_weights_):
            top = [p for p in np.argsort(-row, kind="stable")[:3] if row[p] > 0]
            mix = ", ".join(f"{names[p]} {row[p]:.3f}" for p in top) or "none (given the class alone)"
            lines.append(f"  {names[s]}: {mix}")
        return "\n".join(lines)


register_variant("model", "hnb", "hidden Naive Bayes: each attribute's parent a mixture weighted by conditional "
                 "mutual information (Zhang, Jiang and Su 2005)", lambda **o: HNB())
register_variant("compare", "hnb", "hidden Naive Bayes", HNB)
