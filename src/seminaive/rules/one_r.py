"""1R (Holte 1993): one rule set on the single best attribute."""

import numpy as np

from ..discretize.one_r import TIES, one_r_buckets
from .._state import field, index, numbers
from ..components.checked import checked_cuts
from ..registry import register, register_variant
from .base import RuleClassifier

__all__ = ["OneR"]


@register
class OneR(RuleClassifier):
    """1R as Weka's OneR makes it (Holte 1993; its authors wrote the slides 003):
    for every attribute one rule per value (nominal) or per interval of 1R's
    discretization (numeric: :func:`~seminaive.discretize.one_r.one_r_buckets`,
    a bucket's majority class at least ``min_bucket`` strong),
    each predicting its majority class; keep the attribute whose rules get
    the most training instances right (ties: the first attribute).

    Missing is a branch of its own, predicting its majority. A numeric value
    at a cut point belongs to the interval above it (Weka's "< cut" rules).
    A tie within a nominal branch goes to the first class. Where Weka predicts
    the first class (a value with no training instance, or missing when
    training had none), this predicts the training majority; it does not
    change the training counts.

    Parameters
    ----------
    min_bucket : int, default 6
        Holte's choice; the slides use 3 in their example.
    ties : {"class_order", "first_met"}, default "class_order"
        How a numeric bucket's tie is broken: towards the first class in the
        class order (Weka), or towards the tied class met first in the bucket.
    nominal : None, "all" or list
        Columns to treat as nominal (as in NaiveBayes).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> print(OneR().fit(load("weather.nominal")).to_text())
    outlook: sunny -> no, overcast -> yes, rainy -> yes (10/14)
    >>> print(OneR(min_bucket=3).fit(load("weather.numeric")).to_text())
    humidity: < 82.5 -> yes, < 95.5 -> no, >= 95.5 -> yes (11/14)
    """

    def __init__(self, min_bucket=6, ties="class_order", nominal=None):
        self.min_bucket = min_bucket
        self.ties = ties
        self.nominal = nominal

    _param_rules = {"min_bucket": dict(kind="int", low=1), "ties": dict(options=TIES)}

    def _fit_encoded(self, table, codes, weight):
        k = len(self.classes_)
        w = np.ones(codes.size) if weight is None else weight
        default = int(np.argmax(self.class_count_))
        self.rules_ = []
        nom = num = 0
        for a in self.schema_.attributes:
            if a.is_nominal:
                branch = table.codes[:, nom].astype(np.intp)
                nom += 1
                cuts, n_branches, classes = None, a.n_values, None
            else:
                x = table.numeric[:, num]
                num += 1
                keep = ~np.isnan(x) & (w > 0)
                order = np.argsort(x[keep], kind="stable")
                xs, ys, ws = x[keep][order], codes[keep][order], w[keep][order]
                cuts, classes, _ = (one_r_buckets(xs, ys, k, self.min_bucket, ws, self.ties)
                                    if xs.size else ([], [default], None))
                cuts = np.asarray(cuts, dtype=np.float64)
                branch = _branch(x, cuts)
                n_branches = cuts.size + 1
            counts = np.zeros((n_branches + 1, k))  # last row: missing
            np.add.at(counts, (np.where(branch < 0, n_branches, branch), codes), w)
            rule_cls = [int(np.argmax(c)) if c.sum() > 0 else default for c in counts]
            if classes is not None:  # numeric: the intervals' classes from the buckets
                rule_cls[:n_branches] = [int(c) for c in classes]
            errors = float(sum(c.sum() - c[r] for c, r in zip(counts, rule_cls)))
            self.rules_.append({"cuts": None if cuts is None else cuts.tolist(), "classes": rule_cls,
                                "counts": counts.tolist(), "errors": errors})
        errs = [r["errors"] for r in self.rules_]
        self.attribute_ = int(np.argmin(errs))  # ties: the first attribute

    @property
    def n_attributes_used_(self):
        """1R decides on one attribute."""
        self._check_fitted()
        return 1

    def _branches(self, table):
        a = self.schema_.attributes[self.attribute_]
        rule = self.rules_[self.attribute_]
        if a.is_nominal:
            col = self.schema_.nominal_indices.index(self.attribute_)
            b = table.codes[:, col].astype(np.intp)
        else:
            col = self.schema_.numeric_indices.index(self.attribute_)
            b = _branch(table.numeric[:, col], np.asarray(rule["cuts"]))
        return np.where(b < 0, len(rule["classes"]) - 1, b)

    def _predict_codes(self, table):
        return np.asarray(self.rules_[self.attribute_]["classes"])[self._branches(table)]

    def _branch_counts(self, table):
        counts = np.asarray(self.rules_[self.attribute_]["counts"])
        got = counts[self._branches(table)]
        empty = got.sum(axis=1) == 0  # no training instance in the branch: class frequencies
        got[empty] = self.class_count_
        return got

    def rule_text(self, j):
        """The rule set on attribute ``j`` with its training count correct, in
        Weka's words ("< cut" for each interval but the last, ">= cut" for it)."""
        a = self.schema_.attributes[j]
        r = self.rules_[j]
        if a.is_nominal:
            names = [str(v) for v in a.values]
        else:
            c = [f"{v:.6g}" for v in r["cuts"]]
            names = [f"< {v}" for v in c] + ([f">= {c[-1]}"] if c else ["not missing"])
        counts = np.asarray(r["counts"])
        parts = [f"{v} -> {self.classes_[cl]}" for v, cl, n in zip(names, r["classes"], counts)
                 if n.sum() > 0 or not a.is_nominal]
        if counts[-1].sum() > 0:
            parts.append(f"missing -> {self.classes_[r['classes'][-1]]}")
        total = self.class_count_.sum()
        return f"{a.name}: {', '.join(parts)} ({total - r['errors']:g}/{total:g})"

    def to_text(self):
        return self.rule_text(self.attribute_)

    def _get_state(self):
        return {"class_count": self.class_count_.tolist(), "attribute": self.attribute_, "rules": self.rules_}

    def _set_state(self, state):
        k = len(self.classes_)
        self.class_count_ = numbers(state["class_count"], "state.class_count", (k,), low=0)
        self.attribute_ = index(state["attribute"], "state.attribute", len(self.schema_))
        rules = field(state, "rules", list)
        if len(rules) != len(self.schema_):
            raise ValueError(f"state.rules: expected one rule per attribute ({len(self.schema_)}), got {len(rules)}")
        for j, (a, r) in enumerate(zip(self.schema_.attributes, rules)):
            where = f"state.rules[{j}]"
            field(r, None, dict, where)
            if a.is_nominal and r.get("cuts") is not None:
                raise ValueError(f"{where}.cuts: expected null for the nominal attribute {a.name!r}")
            cuts = None if a.is_nominal else checked_cuts(r.get("cuts"), f"{where}.cuts")
            n_branches = a.n_values if a.is_nominal else cuts.size + 1
            classes = field(r, "classes", list, where)
            if len(classes) != n_branches + 1:
                raise ValueError(f"{where}.classes: expected {n_branches + 1} classes (one per branch and missing)")
            for c in classes:
                index(c, f"{where}.classes", k)
            counts = numbers(r.get("counts"), f"{where}.counts", (n_branches + 1, k), low=0)
            chosen = counts[np.arange(len(classes)), classes]
            if (chosen < counts.max(axis=1)).any():  # predict and predict_proba would disagree
                raise ValueError(f"{where}.classes: expected each branch's most frequent class ({where}.counts')")
            numbers(r.get("errors"), f"{where}.errors", (), low=0)
        self.rules_ = rules


def _branch(x, cuts):
    """Interval codes with Weka's convention: a value at a cut goes above it (-1 where missing)."""
    codes = np.searchsorted(cuts, x, side="right")
    codes[np.isnan(x)] = -1
    return codes


register_variant("model", "1r", "Holte's 1R: rules on the single best attribute",
                 lambda min_bucket=6, **o: OneR(min_bucket=min_bucket))
register_variant("compare", "1r", "Holte's 1R, minimum bucket 6", OneR)
