"""Minimum class rates: naming the classes, measuring the rates, and what the
models built on them share."""

import numpy as np

from .._validation import check_param
from ..base import decide
from ..exceptions import ParameterError
from ..core.counting import count_classes

__all__ = ["ConstraintWarning", "check_min_rates", "resolve_min_rates", "class_rates", "shortfalls", "need_two_classes", "WholeDataOnly",
           "RATE_TOL"]

RATE_TOL = 1e-12  # a rate this close below its minimum holds (rates are sums of weights: rounding, not a miss)


class ConstraintWarning(UserWarning):
    """The requested minimum rates could not all be met on the training data.

    Examples
    --------
    >>> import warnings
    >>> from seminaive import ConstrainedNaiveBayes, ConstraintWarning
    >>> X, y = [["a"], ["a"], ["b"], ["b"]], ["p", "q", "p", "q"]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     m = ConstrainedNaiveBayes(min_rates={"p": 1.0, "q": 1.0}).fit(X, y)
    >>> m.feasible_, any(w.category is ConstraintWarning for w in caught)
    (False, True)
    """


def resolve_min_rates(min_rates, classes, y_codes, weight=None):
    """``{class index: threshold}`` from ``{class label or "minority": threshold}``
    (the minority class by weighted count)."""
    check_min_rates("min_rates", min_rates)
    labels = [str(c) for c in classes]
    out = {}
    for key, thr in min_rates.items():
        if key == "minority":
            counts = count_classes(y_codes, len(classes), weight)
            counts[counts == 0] = np.inf
            k = int(np.argmin(counts))
        elif str(key) in labels:
            k = labels.index(str(key))
        else:
            raise ParameterError(f"min_rates: {key!r} is not a class (classes: {', '.join(labels)}, or 'minority')")
        out[k] = float(thr)
    return out


def check_min_rates(name, value):
    """``{class label or "minority": minimum rate in [0, 1]}``, not empty (the labels are
    matched against the classes when fitting)."""
    if not isinstance(value, dict) or not value:
        raise ParameterError(f"{name}: expected a dict {{class: minimum rate}}, got {value!r}")
    for key, thr in value.items():
        check_param(f"{name}[{key!r}]", thr, kind="number", low=0, high=1)
    return value


def class_rates(jll, y, k, w=None):
    """Each class's (weighted) correct classification rate."""
    pred = decide(jll)
    w = np.ones(y.size) if w is None else w
    out = []
    for c in range(k):
        sel = y == c
        out.append(np.sum(w[sel] * (pred[sel] == c)) / w[sel].sum() if w[sel].sum() > 0 else np.nan)
    return np.array(out)


def need_two_classes(classes, y_codes, weight):
    weight = None if weight is None else np.asarray(weight, dtype=np.float64)
    present = np.count_nonzero(count_classes(y_codes, len(classes), weight) > 0)
    if present < 2:
        raise ParameterError(f"y: a model with minimum class rates needs at least two classes with "
                             f"instances; got {present} class")


def shortfalls(rates, targets):
    """``{class index: threshold - rate}`` for the classes whose rate falls short."""
    return {c: t - rates[c] for c, t in targets.items() if rates[c] < t - RATE_TOL}


class WholeDataOnly:
    """Hides ``partial_fit`` and ``merge``: these models solve for their
    parameters over all the data, so their statistics cannot simply add.
    (``hasattr(model, "partial_fit")`` is then false, as tools expect.)"""

    @property
    def partial_fit(self):
        raise AttributeError(f"{type(self).__name__} has no partial_fit: its parameters are chosen over all the "
                             f"training data at once; stream the data into NaiveBayes.partial_fit instead")

    @property
    def merge(self):
        raise AttributeError(f"{type(self).__name__} has no merge: its parameters are not sums of statistics")


