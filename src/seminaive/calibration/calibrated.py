"""A model whose probabilities are calibrated on its own out-of-sample predictions."""

import re

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from ..core.folds import make_folds
from .._names import CALIBRATIONS
from .._target import class_codes, unwrap
from .._validation import ValidatedParams
from ..base import decide
from ..exceptions import ParameterError, require_fitted
from ..naive_bayes import NaiveBayes
from ..registry import SavedModel, register, register_variant
from .calibrators import CALIBRATORS, calibrator_from_dict
from .out_of_sample import has_leave_one_out, leave_one_out_log_proba, out_of_fold_log_proba
from .._validation import check_cv
from ..persistence import model_to_dict
from ..persistence import model_from_dict

__all__ = ["Calibrated"]


def _check_cv(name, value):
    if isinstance(value, str):
        if value not in ("auto", "loo"):
            raise ParameterError(f"{name}: expected 'auto', 'loo', a number of folds >= 2 or the folds, got {value!r}")
        return
    check_cv(name, value)


def _check_estimator(name, value):
    if value is not None and not (hasattr(value, "fit") and hasattr(value, "predict_log_proba")):
        raise ParameterError(f"{name}: expected a classifier with fit and predict_log_proba, got {value!r}")


@register
class Calibrated(ValidatedParams, SavedModel, ClassifierMixin, BaseEstimator):
    """A classifier whose probabilities are mapped by a calibration fitted on
    its own out-of-sample probabilities.

    Naive Bayes pushes probabilities towards 0 and 1. Here the model is fitted
    once on all the data; the calibration map is fitted on each training
    instance's probabilities from the model *without that instance*, from the
    counts less its own, without refitting
    (:mod:`seminaive.calibration.out_of_sample`): for a
    :class:`~seminaive.NaiveBayes` with nominal and Gaussian attributes exactly
    what refitting gives; for discretized and kernel attributes, a wrapper
    search's final model, TAN, kDB and selective kDB with the parts learned
    from all the data held fixed (cut points, bandwidths, structure). Any other
    model (AnDE, other libraries' models) is refitted on k folds for them.
    Prediction maps the model's probabilities (one model, not an ensemble of
    fold models as scikit-learn's ``CalibratedClassifierCV``).

    Parameters
    ----------
    estimator : classifier, default NaiveBayes()
    method : {"sigmoid", "isotonic", "temperature"}, default "sigmoid"
        Platt scaling of each class's log-odds, an isotonic (non-decreasing)
        map of each class's probability, or one temperature dividing every
        log-posterior (:mod:`seminaive.calibration.calibrators`). Beyond two
        classes the first two map each class against the rest and renormalize.
    cv : "auto", "loo", int or list of (train, test), default "auto"
        Where the out-of-sample probabilities come from: "loo" exact
        leave-one-out (an error for a model without it), a number of folds
        (stratified, shuffled with ``random_state``) or the folds; "auto" is
        "loo" where the model has it and 5 folds otherwise.
    random_state : int, default 0

    Attributes
    ----------
    estimator_ : the model fitted on all the data
    calibrator_ : the fitted map (None with a single class: every probability is 1)
    cv_used_ : str
        "leave-one-out" or "k-fold (k refits)".

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = Calibrated(NaiveBayes(), method="temperature").fit(d.X, d.y)
    >>> m.cv_used_, m.predict_proba(d.X).sum(axis=1).round(12).tolist() == [1.0] * 14
    ('leave-one-out', True)
    """

    _param_rules = {"estimator": _check_estimator, "method": dict(options=CALIBRATIONS), "cv": _check_cv,
                              "random_state": dict(kind="int", low=0)}

    def __init__(self, estimator=None, method="sigmoid", cv="auto", random_state=0):
        self.estimator = estimator
        self.method = method
        self.cv = cv
        self.random_state = random_state

    def _base(self):
        if self.estimator is None:
            return NaiveBayes()
        return self.estimator

    def fit(self, X, y=None):
        """Fit the model on ``X``, ``y`` and the calibration on its out-of-sample probabilities."""
        self._check_params()
        X, y = unwrap(X, y)
        base = self._base()
        loo = self.cv == "loo" or (self.cv == "auto" and has_leave_one_out(base))
        if self.cv == "loo" and not has_leave_one_out(base):
            raise ParameterError(f"cv: {type(base).__name__} with these parameters has no leave-one-out from its "
                                 f"counts (Naive Bayes, TAN, kDB, selective kDB and the wrapper searches scored by "
                                 f"leave-one-out do); use cv='auto' or a number of folds")
        self.estimator_ = clone(base)
        self.estimator_.fit(X, y)
        for name in ("classes_", "n_features_in_", "feature_names_in_", "schema_"):
            if hasattr(self.estimator_, name):
                setattr(self, name, getattr(self.estimator_, name))
        ycodes = class_codes(y, self.classes_)
        if len(self.classes_) < 2:
            self.calibrator_, self.cv_used_ = None, "none (a single class)"
            return self
        if loo:
            log_p = leave_one_out_log_proba(self.estimator_, X, y)
            self.cv_used_ = "leave-one-out"
        else:
            folds = make_folds(np.asarray(self.classes_, dtype=object)[ycodes], 5 if self.cv == "auto" else self.cv,
                               self.random_state)
            log_p = out_of_fold_log_proba(base, X, y, folds, self.classes_)
            self.cv_used_ = f"{len(folds)}-fold ({len(folds)} refits)"
        self.calibrator_ = CALIBRATORS[self.method]().fit(log_p, ycodes)
        return self

    def _check_fitted(self):
        require_fitted(self, "calibrator_")

    def predict_proba(self, X):
        """Calibrated posteriors (n, K); rows sum to 1."""
        self._check_fitted()
        log_p = self.estimator_.predict_log_proba(X)
        return np.exp(log_p) if self.calibrator_ is None else self.calibrator_.transform(log_p)

    def predict_log_proba(self, X):
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        log_p = self.predict_log_proba(X)
        return self.classes_[decide(log_p)]

    def to_text(self):
        """The calibration map, then the model."""
        self._check_fitted()
        lines = [f"Calibrated {type(self.estimator_).__name__}: {self.method} calibration from {self.cv_used_} "
                 f"probabilities"]
        lines += self.calibrator_.describe([str(c) for c in self.classes_]) if self.calibrator_ else \
            ["  (nothing to calibrate)"]
        if hasattr(self.estimator_, "to_text"):
            lines += ["", self.estimator_.to_text()]
        return "\n".join(lines)

    def _json_params(self):
        return {"method": self.method, "cv": self.cv, "random_state": self.random_state}

    def _get_state(self):
        return {"estimator": model_to_dict(self.estimator_), "cv_used": self.cv_used_,
                "calibrator": None if self.calibrator_ is None else self.calibrator_.to_dict()}

    def _set_state(self, state):
        self.estimator_ = model_from_dict(state["estimator"], source="state.estimator")
        self.estimator = clone(self.estimator_)
        if list(map(str, self.estimator_.classes_)) != list(map(str, self.classes_)):
            raise ValueError("state.estimator: its classes differ from the calibrated model's")
        for name in ("n_features_in_", "feature_names_in_", "schema_"):
            if hasattr(self.estimator_, name):
                setattr(self, name, getattr(self.estimator_, name))
        used = state.get("cv_used", "")
        known = r"|leave-one-out|none \(a single class\)|\d+-fold \(\d+ refits\)"
        if not isinstance(used, str) or not re.fullmatch(known, used):
            raise ValueError(f"state.cv_used: expected leave-one-out or K-fold (K refits), got {str(used)[:40]!r}")
        self.cv_used_ = used
        cal = state.get("calibrator")
        self.calibrator_ = None if cal is None and len(self.classes_) < 2 else calibrator_from_dict(
            cal, len(self.classes_))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


for _method in CALIBRATIONS:
    register_variant("compare", f"nb-{_method}", f"Naive Bayes, {_method} calibration from leave-one-out",
                     lambda m=_method: Calibrated(NaiveBayes(), method=m))
