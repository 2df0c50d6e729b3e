"""Lazy Bayesian Rules (Zheng and Webb 2000)."""

import numpy as np
from scipy.special import logsumexp

from .._state import field
from ..components import Discretized
from ..core.capabilities import Capabilities
from ..exceptions import ParameterError
from ..registry import register, register_variant
from .base import BayesNetClassifier
from .laplace_only import LaplaceOnly, row_codes
from .lbr_kernel import lbr_rows, loo_errors

__all__ = ["LBR"]


@register
class LBR(LaplaceOnly, BayesNetClassifier):
    """Lazy Bayesian Rules (Zheng and Webb 2000; Weka's ``weka.classifiers.lazy.LBR``): for each row to
    classify, a rule whose antecedent is a conjunction of the row's own attribute values, grown one at a
    time, and Naive Bayes on the training rows that satisfy it, over the attributes not in it.

    An attribute value joins the antecedent when the local Naive Bayes on the rows that have it (the
    others keeping their errors) makes the fewest leave-one-out errors of the candidates, fewer than
    before, and a one-sided sign test on the rows whose verdict changed says the new errors are
    significantly fewer (5%); the search stops below 5 errors. Every leave-one-out is worked out from
    the subset's counts (:mod:`.lbr_kernel`, compiled); fitting keeps the training rows (their codes:
    numeric attributes in intervals, as the family cuts them), so a chunked fit is refused.

    Estimates are Laplace's, as Weka's: (n_c + 1) / (n + K) and (n(c, x) + 1) / (n_c + m). Weka counts
    a missing value as the attribute's first value; here it is left out of the counts.

    Parameters
    ----------
    nominal, numeric, integer_codes, n_bins, min_bucket, random_state
        As :class:`~seminaive.bayesnet.TAN`'s (numeric attributes in intervals; Weka's LBR takes nominal
        attributes only, so its numeric sets go through its supervised Discretize filter, MDL's cuts:
        ``numeric="mdl"``).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = LBR().fit(d)
    >>> m.predict(d.X[:3]).tolist(), m.rules(d.X[:1])
    (['no', 'no', 'yes'], [[]])
    """

    capabilities = Capabilities()  # lazy: it keeps every training row, so no passes over chunks
    _in_memory_why = "(it is lazy: it keeps the training rows and searches them for each row it classifies)"

    def __init__(self, *, nominal=None, numeric="mdl_fallback", integer_codes="numbers", n_bins=10, min_bucket=6,
                 random_state=0):
        self._data_options(nominal, numeric, integer_codes, n_bins, min_bucket, random_state)

    def _learn(self, source, shared=None):
        self._in_memory_only(source)
        super()._learn(source)
        table, y, weight = source.chunk
        codes = row_codes(self.readers_, table)
        y = np.asarray(y, dtype=np.int64)
        if weight is not None:  # whole-number weights are copies of the rows
            if not np.all(weight == np.round(weight)) or (weight < 0).any():
                raise ParameterError("sample_weight: LBR takes whole-number weights (copies of rows)")
            copies = weight.astype(np.int64)
            codes, y = np.repeat(codes, copies, axis=0), np.repeat(y, copies)
        self._keep(codes, y)
        return self

    def _keep(self, codes, y):
        """The training rows and the leave-one-out verdict of Naive Bayes on all of them (the search's start)."""
        self.train_codes_, self.train_classes_ = codes, y
        self.widths_ = np.array([r.n_values for r in self.readers_], dtype=np.int64)
        self.loo_errors_, self.loo_right_ = loo_errors(codes, y, self.widths_, len(self.classes_),
                                                       np.arange(codes.shape[0]), np.arange(codes.shape[1]))

    def _search(self, X):
        """Each row's rule (-1 padded), its local Naive Bayes's log-numerators and the rows' reader codes."""
        self._check_fitted()
        table = self._encode(X)
        test = row_codes(self.readers_, table)
        found, jll = lbr_rows(self.train_codes_, self.train_classes_, self.widths_, len(self.classes_), test,
                              self.loo_right_, int(self.loo_errors_))
        return found, jll, test

    def _joint_log_likelihood(self, X):
        return self._search(X)[1]

    def _conditions(self, found, test):
        """Each row's rule as (attribute, value) pairs, from the search's attributes and the rows' codes."""
        names = list(self.schema_.names)
        out = []
        for rule, codes in zip(found, test):
            conds = []
            for a in rule[rule >= 0].tolist():
                r, code = self.readers_[a], int(codes[a])
                label = r.labels[code] if isinstance(r, Discretized) else self.schema_.attributes[r.attribute].values[code]
                conds.append((names[r.attribute], label))
            out.append(conds)
        return out

    def rules(self, X):
        """Each row's rule: the antecedent's conditions as (attribute, value) pairs, in the order taken."""
        found, _, test = self._search(X)
        return self._conditions(found, test)

    def explain(self, X, precision=3):
        """Per row: the predicted class and its probability, and the rule whose local Naive Bayes gave it
        (one search per row for both)."""
        found, jll, test = self._search(X)
        proba = np.exp(jll - logsumexp(jll, axis=1, keepdims=True))
        lines = []
        for i, (p, rule) in enumerate(zip(proba, self._conditions(found, test))):
            c = int(np.argmax(p))
            conds = " and ".join(f"{a} = {v}" for a, v in rule) or "(none: Naive Bayes on every training row)"
            lines.append(f"row {i}: {self.classes_[c]} ({p[c]:.{precision}f}); rule: {conds}")
        return "\n".join(lines)

    def merge(self, other):
        """LBR on the union of both models' training rows (their intervals must be the same)."""
        out = super().merge(other)
        out._keep(np.concatenate([self.train_codes_, other.train_codes_]),
                  np.concatenate([self.train_classes_, other.train_classes_]))
        return out

    def attribute_log_likelihoods(self, X):
        """Not defined: each row has its own local model (:meth:`rules`)."""
        raise ParameterError("LBR fits a local Naive Bayes for each row: its evidence is no fixed sum of "
                             "attribute terms (rules(X) gives each row's antecedent)")

    def _get_state(self):
        state = super()._get_state()
        state["training_rows"] = {"codes": self.train_codes_.tolist(), "classes": self.train_classes_.tolist()}
        return state

    def _set_other_state(self, state):
        rows = field(state, "training_rows", dict)
        d, k = len(self.readers_), len(self.classes_)
        try:
            codes = np.asarray(field(rows, "codes", list, "state.training_rows"), dtype=np.int64).reshape(-1, d)
            y = np.asarray(field(rows, "classes", list, "state.training_rows"), dtype=np.int64)
        except (TypeError, ValueError):
            raise ValueError(f"state.training_rows: expected rows of {d} whole-number codes and their classes")
        widths = np.array([r.n_values for r in self.readers_])
        if y.shape != (codes.shape[0],) or (y < 0).any() or (y >= k).any() or (codes < -1).any() \
                or (codes >= widths[None, :]).any():
            raise ValueError(f"state.training_rows: expected each row's codes below its attribute's number of values "
                             f"(-1: missing) and a class below {k}")
        self._keep(np.ascontiguousarray(codes), y)

    def _describe(self):
        return f"lazy: a rule and a local Naive Bayes per row, from {self.train_codes_.shape[0]} training rows"

    def _structure_text(self, names):
        return "each row: antecedent (its own values, chosen by leave-one-out) -> Naive Bayes on the rows it selects"


register_variant("model", "lbr", "lazy Bayesian rules: a rule and a local Naive Bayes per row (Zheng and Webb 2000)",
                 lambda **o: LBR())
register_variant("compare", "lbr", "lazy Bayesian rules", LBR)
