"""What the multinomial and Bernoulli event models share: count data (dense or
scipy sparse), per-class feature totals by one sparse-friendly matrix product."""

import copy

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils.validation import _check_sample_weight, validate_data

from ._state import field, numbers
from ._target import class_codes, declare_classes, encode_target, unwrap
from .base import BaseNaiveBayes
from .data.encoding import select_columns
from .data.schema import Schema
from .exceptions import DataFormatError, ParameterError

__all__ = ["CountModel"]


class CountModel(BaseNaiveBayes):
    """Base of the event models over count or binary features.

    Statistics: ``class_count_`` (K,) and ``feature_count_`` (K, d), the
    (weighted) sums of each feature's values per class; they add across data.
    Missing values are not allowed (a count is never unknown in these models).
    """

    _param_rules = {"alpha": dict(kind="number", low=0)}

    def _validate(self, X, reset):
        if not reset and isinstance(X, pd.DataFrame) and hasattr(self, "feature_names_in_"):
            names = [str(c) for c in X.columns]  # columns matched by name, as the tabular models match them
            missing = [n for n in self.feature_names_in_ if n not in names]
            if missing:
                raise ParameterError(f"X: the model's feature(s) {', '.join(map(repr, missing[:5]))} are not columns "
                                     f"(columns: {', '.join(names[:10])}{' ...' if len(names) > 10 else ''})")
            X = select_columns(X, self.schema_)  # (the encoder's one way of taking a model's columns by name)
        if not reset and getattr(X, "shape", (1,))[0] == 0 and hasattr(self, "n_features_in_"):
            if len(X.shape) != 2 or X.shape[1] != self.n_features_in_:
                raise ParameterError(f"X: expected {self.n_features_in_} features, got shape {X.shape}")
            return np.zeros((0, self.n_features_in_))  # no rows: no predictions
        try:
            return validate_data(self, X, accept_sparse="csr", reset=reset, dtype=np.float64)
        except ValueError as e:
            if "contains NaN" in str(e) or "contains infinity" in str(e):
                cols = getattr(X, "columns", None)
                bad = [c for c in cols if pd.to_numeric(X[c], errors="coerce").isna().any()] if cols is not None \
                    else []
                where = f" (column {bad[0]!r})" if bad else ""
                raise DataFormatError(f"X: {type(self).__name__} counts features, and a count cannot be missing "
                                      f"or infinite{where}; fill or drop such rows first") from None
            if "could not convert" not in str(e) and "convert string" not in str(e):
                raise
            bad = [c for c in getattr(X, "columns", []) if not pd.api.types.is_numeric_dtype(X[c])]
            where = f"column(s) {', '.join(map(repr, bad))} hold" if bad else "X holds"
            raise DataFormatError(f"X: {type(self).__name__} counts numeric features; {where} text (use "
                                  f"NaiveBayes for nominal attributes)") from None

    def _transform_input(self, X):
        return X

    def fit(self, X, y=None, sample_weight=None):
        """Sum each feature per class (one matrix product with the one-hot classes); ``X`` may be a
        Dataset, which brings its class."""
        X, y = unwrap(X, y)
        self._check_params()
        X = self._transform_input(self._validate(X, reset=True))
        codes, self.classes_ = encode_target(y, X.shape[0])
        self.class_count_, self.feature_count_ = self._counts(X, codes, len(self.classes_), sample_weight)
        self._name_features()
        self._estimate()
        return self

    def _name_features(self):
        """The schema of the features (numeric attributes, named as the fitted frame's columns, else
        ``x0``, ``x1``, ...): files are read for the model by it, and it names the features."""
        names = getattr(self, "feature_names_in_", None)
        self.schema_ = Schema.of_numeric([str(n) for n in names] if names is not None
                                         else [f"x{j}" for j in range(self.n_features_in_)])

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Add a chunk's counts; the first call must list every class in ``classes``."""
        first = not hasattr(self, "feature_count_")
        if first:
            self._check_params()
            self.classes_ = declare_classes(y, classes)
        X = self._transform_input(self._validate(X, reset=first))
        codes = class_codes(y, self.classes_)
        class_count, feature_count = self._counts(X, codes, len(self.classes_), sample_weight)
        if first:
            self.class_count_, self.feature_count_ = class_count, feature_count
            self._name_features()
        else:
            self.class_count_ = self.class_count_ + class_count
            self.feature_count_ = self.feature_count_ + feature_count
        self._estimate()
        return self

    def merge(self, other):
        """A new model fitted on the union of the two models' data: the counts add.

        Both models must be of the same kind, with the same parameters, classes and features.
        """
        self._check_mergeable(other)
        if other.n_features_in_ != self.n_features_in_:
            raise ParameterError("merge: the models must share the features")
        out = copy.deepcopy(self)
        out.class_count_ = self.class_count_ + other.class_count_
        out.feature_count_ = self.feature_count_ + other.feature_count_
        out._estimate()
        return out

    def _counts(self, X, codes, k, sample_weight):
        onehot = sp.csr_matrix((np.ones(codes.size), (codes, np.arange(codes.size))), shape=(k, codes.size))
        if sample_weight is not None:
            onehot = onehot @ sp.diags(_check_sample_weight(sample_weight, X))
        fc = onehot @ X
        return (np.asarray(onehot.sum(axis=1)).ravel(),
                np.asarray(fc.todense() if sp.issparse(fc) else fc, dtype=np.float64))

    def _joint_log_likelihood(self, X):
        X = self._transform_input(self._validate(X, reset=False))
        jll = X @ self._weights_.T
        return np.asarray(jll) + self._bias_

    def to_text(self):
        """Class priors and each class's most probable features."""
        lines = [f"{type(self).__name__}: {self.n_features_in_} features, {len(self.classes_)} classes"]
        for c, lp, row in zip(self.classes_, self.class_log_prior_, self.feature_log_prob_):
            top = np.argsort(-row)[:5]
            lines.append(f"  {c}: P(class) {np.exp(lp):.4f}; most probable features "
                         + ", ".join(f"{self.schema_.names[j]} {np.exp(row[j]):.4f}" for j in top))
        return "\n".join(lines)

    def _get_state(self):
        return {"classes": self.classes_.tolist(), "class_count": self.class_count_.tolist(),
                "feature_count": self.feature_count_.tolist()}

    def _set_state(self, state):
        self.classes_ = np.asarray(state["classes"])
        k = len(self.classes_)
        self.class_count_ = numbers(state["class_count"], "state.class_count", (k,), low=0)
        d = len(field(state, "feature_count", list)[0]) if state["feature_count"] else 0
        self.feature_count_ = numbers(state["feature_count"], "state.feature_count", (k, d), low=0)
        if hasattr(self, "schema_") and len(self.schema_) != d:
            raise ValueError(f"state.schema: expected {d} attributes (state.feature_count's), got {len(self.schema_)}")
        if hasattr(self, "schema_") and self.schema_.nominal_indices:
            raise ValueError("state.schema: expected numeric attributes (counts)")
        self.n_features_in_ = d
        if not hasattr(self, "schema_"):
            self._name_features()
        self._estimate()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.poor_score = True  # count models, not for the checks' Gaussian blobs
        return tags
