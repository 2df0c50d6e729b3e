"""The decision-offset baseline of the constrained Naive Bayes."""

import warnings

import numpy as np

from .._state import field, numbers
from ..naive_bayes import NaiveBayes
from ..registry import register, register_variant
from .rates import RATE_TOL, ConstraintWarning, WholeDataOnly, check_min_rates, class_rates, need_two_classes, resolve_min_rates

__all__ = ["OffsetNaiveBayes", "decision_offsets", "MAX_ROUNDS"]

MAX_ROUNDS = 50  # rounds over the constrained classes before the offsets are taken as they are


def decision_offsets(base, log_prior, ycodes, w, targets, max_rounds):
    """The shifts of the log-priors ``log_prior`` that bring each class of ``targets`` ({class code:
    minimum rate}) to its training rate, given each row's log-likelihoods ``base`` (n, K) and weights
    ``w``: class by class the smallest shift whose weighted share of positive margins reaches the
    rate, repeated (at most ``max_rounds`` times) until all hold or nothing changes."""
    offsets = np.zeros(len(log_prior))
    for _ in range(max_rounds):
        changed = False
        for c, thr in targets.items():
            jll = base + log_prior + offsets
            sel = (ycodes == c) & (w > 0)
            if not sel.any():
                continue
            margin = jll[sel, c] - np.delete(jll[sel], c, axis=1).max(axis=1)
            order = np.argsort(-margin, kind="stable")
            reach = np.cumsum(w[sel][order]) / w[sel].sum()  # weighted share kept at each margin
            idx = int(np.searchsorted(reach, thr - RATE_TOL))
            kth = margin[order][min(idx, order.size - 1)]
            if kth < 1e-9:  # shift until that instance's margin is positive
                offsets[c] += -kth + 1e-6 * (1 + abs(kth))
                changed = True
        if not changed:
            break
    return offsets


@register
class OffsetNaiveBayes(WholeDataOnly, NaiveBayes):
    """The simple baseline: plain Naive Bayes whose log-priors are shifted
    (decision offsets) until each constrained class's training rate reaches its
    threshold; the smallest shift that does so, class by class, repeated until
    all hold or nothing changes.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("iris")
    >>> m = OffsetNaiveBayes(min_rates={"versicolor": 1.0}).fit(d)
    >>> float(m.offsets_[1]) > 0
    True
    """

    def __init__(self, *, min_rates=None, max_rounds=MAX_ROUNDS, alpha=1.0, priors="laplace", ddof=1,
                 var_smoothing=None, var_smoothing_rule="range", nominal=None, numeric="gaussian", n_bins=10,
                 min_bucket=6, bandwidth="silverman", estimation="frequency", prior=None):
        super().__init__(alpha=alpha, priors=priors, ddof=ddof, var_smoothing=var_smoothing,
                         var_smoothing_rule=var_smoothing_rule, nominal=nominal, numeric=numeric, n_bins=n_bins,
                         min_bucket=min_bucket, bandwidth=bandwidth, estimation=estimation, prior=prior)
        self.min_rates = min_rates
        self.max_rounds = max_rounds

    _param_rules = {"min_rates": check_min_rates, "max_rounds": dict(kind="int", low=1)}

    def _step(self, source):
        """The offsets, from the Naive Bayes joint of the rows the counts came from."""
        table, ycodes, weight = source.chunk
        need_two_classes(self.classes_, ycodes, weight)
        w = np.ones(ycodes.size) if weight is None else weight
        targets = resolve_min_rates(self.min_rates, self.classes_, ycodes, w)
        base = self._table_jll(table) - self.class_log_prior_
        self.offsets_ = decision_offsets(base, self.class_log_prior_, ycodes, w, targets, self.max_rounds)
        self.class_log_prior_ = self.class_log_prior_ + self.offsets_
        hard = class_rates(base + self.class_log_prior_, ycodes, len(self.classes_), w)
        self.feasible_ = all(hard[c] >= t - RATE_TOL for c, t in targets.items())
        if not self.feasible_:
            warnings.warn("decision offsets could not meet every minimum rate on the training data",
                          ConstraintWarning, stacklevel=3)
        return self

    def _get_state(self):
        return {**super()._get_state(), "offsets": self.offsets_.tolist(), "feasible": self.feasible_}

    def _set_state(self, state):
        super()._set_state(state)
        self.offsets_ = numbers(state["offsets"], "state.offsets", (len(self.classes_),))
        self.class_log_prior_ = self.class_log_prior_ + self.offsets_
        self.feasible_ = bool(field(state, "feasible", bool))


register_variant("compare", "offset:R", "Naive Bayes with decision offsets, minority-class training rate >= {R}",
                 lambda r: OffsetNaiveBayes(min_rates={"minority": r}))
