"""Checking and encoding the class labels ``y``."""

import warnings
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, column_or_1d, validate_data

from .data.dataset import declared_labels, is_declared
from .data.encoding import check_2d, encode, is_codes, refuse_undeclared, select_columns
from .data.kinds import infer_schema
from .data.value_index import ValueIndex, gather
from .exceptions import ParameterError

__all__ = ["fit_table", "FitTable", "encode_target", "unwrap", "declared_labels", "prediction_input", "class_codes", "declare_classes",
           "chunk_class_codes", "check_names", "chunk_table"]


def unwrap(X, y=None):
    """Accept a Dataset in place of ``X`` (its class serving as ``y`` when none is given)."""
    if hasattr(X, "schema") and hasattr(X, "X") and isinstance(X.X, pd.DataFrame):
        if y is None and X.y is not None:
            y = declared_labels(X.y.copy(deep=False))  # the file's class order holds (encode_target)
        X = X.X
    X, y = _as_pandas(X), _as_pandas(y)
    return X, y


def _as_pandas(v):
    """A polars or pyarrow frame or series as pandas (their column names kept); anything else as it is."""
    module = type(v).__module__.split(".")[0]
    if module in ("polars", "pyarrow") and hasattr(v, "to_pandas"):
        return v.to_pandas()
    return v


def fit_input(estimator, X, y):
    """``X``, ``y`` ready for ``fit``: the estimator's parameters checked, a Dataset unwrapped,
    ``X`` checked to be 2-D and its feature count and names recorded as scikit-learn does.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> m = NaiveBayes()
    >>> X, y = fit_input(m, pd.DataFrame({"a": [1.0, 2.0]}), ["p", "q"])
    >>> m.n_features_in_, m.feature_names_in_.tolist(), y
    (1, ['a'], ['p', 'q'])
    """
    estimator._check_params()
    X, y = unwrap(X, y)
    check_2d(X)
    check_names(estimator, X, reset=True)
    return X, y


class FitTable(NamedTuple):
    """What the opening of a fit gives (:func:`fit_table`)."""
    X: object
    schema: object
    table: object
    codes: np.ndarray
    classes: np.ndarray
    weight: object


def fit_table(estimator, X, y, sample_weight=None, nominal=None, check_finite=True):
    """The opening of every ``fit`` on a table, written once: the input checked (:func:`fit_input`),
    the schema by the one rule for a column's kind (``nominal``: the model's option), the table
    encoded by the one encoder, the classes by the one rule of class order and their codes, the
    weights checked.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> got = fit_table(NaiveBayes(), pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]}), ["q", "p"])
    >>> got.schema.names, got.codes.tolist(), got.classes.tolist(), got.weight
    (('a', 'b'), [1, 0], ['p', 'q'], None)
    """
    X, y = fit_input(estimator, X, y)
    found = {}  # text columns: codes found with their values, by one hashing pass
    schema = infer_schema(X, nominal, found)
    table = encode(X, schema, check_finite=check_finite, found_codes=found)
    codes, classes = encode_target(y, table.n_samples)
    weight = None if sample_weight is None else _check_sample_weight(sample_weight, np.empty((table.n_samples, 0)))
    return FitTable(X, schema, table, codes, classes, weight)


def check_names(estimator, X, reset):
    """scikit-learn's record (``reset``) or check of ``X``'s feature count and names (``validate_data``
    without its array checks). Column names held as strings of a string dtype are handed over as
    Python strings: scikit-learn reads them one by one, 8 ms for 10,000 pyarrow strings against 1 ms.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> X = pd.DataFrame([[1.0], [2.0]], columns=pd.Index(["a"], dtype="string"))
    >>> nb = NaiveBayes()
    >>> check_names(nb, X, reset=True)
    >>> nb.feature_names_in_.tolist(), nb.n_features_in_
    (['a'], 1)
    """
    if is_codes(X):  # integer codes name their attributes themselves
        if reset:
            estimator.n_features_in_, estimator.feature_names_in_ = len(X.names), np.asarray(X.names, dtype=object)
        return
    if isinstance(X, pd.DataFrame):
        names = X.columns.tolist()
        if reset and names and all(type(n) is str for n in names):  # scikit-learn's record, without its
            # column copy and dataframe interchange (150 us for 36 columns)
            estimator.n_features_in_, estimator.feature_names_in_ = len(names), np.asarray(names, dtype=object)
            return
        known = getattr(estimator, "feature_names_in_", None)
        if not reset and known is not None and len(names) == len(known) and names == known.tolist():
            return  # the names it was fitted on, in their order: scikit-learn's check has nothing to say
        if isinstance(X.columns.dtype, pd.StringDtype):
            X = X.set_axis(X.columns.astype(object), axis=1)
    validate_data(estimator, X, reset=reset, skip_check_array=True)


def prediction_input(estimator, X):
    """``X`` ready for a fitted estimator: a Dataset unwrapped, checked to be
    2-D, its columns matched to the estimator's schema by name, and its
    feature count and names checked as scikit-learn does."""
    X, _ = unwrap(X)
    if is_codes(X):  # checked against the schema where they are encoded
        return X
    check_2d(X)
    names = list(estimator.schema_.names)
    if isinstance(X, pd.DataFrame):
        have = {str(c) for c in X.columns.tolist()}
        missing = [n for n in names if n not in have]
        if missing and hasattr(estimator, "feature_names_in_") \
                and not all(isinstance(c, (int, np.integer)) for c in X.columns.tolist()):
            raise ParameterError(f"X: the model's attribute(s) {', '.join(map(repr, missing))} are not columns "
                                 f"(columns: {', '.join(map(str, X.columns))})")
    elif hasattr(estimator, "feature_names_in_") and not hasattr(X, "tocsr"):
        arr = np.asarray(X, dtype=object) if isinstance(X, (list, tuple)) else np.asarray(X)
        if arr.ndim == 2 and arr.shape[1] == len(names):  # rows in the training column order
            X = pd.DataFrame(arr, columns=names)
            X = X.infer_objects()
    X = select_columns(X, estimator.schema_)
    check_names(estimator, X, reset=False)
    return X


def class_codes(y, classes, strict=True, name="y"):
    """The codes of labels ``y`` against known ``classes`` (vectorized: a hash
    lookup in C, not a Python loop); -1 for a label outside them, or, with
    ``strict``, an error naming the first such label.

    Examples
    --------
    >>> class_codes(np.array(["b", "a", "b"]), np.array(["a", "b"])).tolist()
    [1, 0, 1]
    >>> class_codes([2, 7], np.array([1, 2]), strict=False).tolist()
    [1, -1]
    """
    known = ValueIndex(np.asarray(classes).tolist())  # the one encoder: the distinct labels looked up once
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        codes = gather(known.codes(list(y.cat.categories)), y.cat.codes.to_numpy())
    else:
        values = y.to_numpy() if isinstance(y, pd.Series) else np.asarray(y)
        rows, labels = pd.factorize(values.ravel(), use_na_sentinel=True)
        codes = gather(known.codes(list(pd.Index(labels, dtype=object))), rows)
    codes = np.asarray(codes, dtype=np.intp)
    if strict and (codes < 0).any():
        bad = np.asarray(y, dtype=object)[codes < 0][0]
        raise ParameterError(f"{name}: class {bad!r} is not one of the declared classes "
                             f"({', '.join(map(str, known.values))})")
    return codes


def declare_classes(y, classes):
    """The classes a first ``partial_fit`` call declares: ``classes`` (sorted
    distinct values), or the categories of a categorical ``y``."""
    if classes is not None:
        return np.unique(np.asarray(classes))
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        classes = np.asarray(pd.Index(y.cat.categories))
        return classes if is_declared(y) else _sorted_classes(classes, np.arange(classes.size))[0]
    raise ParameterError("classes: the first partial_fit call must declare every class (classes=[...]) "
                         "unless y is a categorical declaring them")


def _factorize_classes(y):
    """Sorted classes and codes of labels by one hashing pass (``pandas.factorize``);
    scikit-learn's target checks look at the distinct labels only."""
    try:
        codes, uniques = pd.factorize(y, use_na_sentinel=True)
    except TypeError:  # unhashable labels: scikit-learn's checks name the problem
        check_classification_targets(y)
        raise
    if (codes < 0).any():
        raise ParameterError(f"y: {int(np.count_nonzero(codes < 0))} class labels are missing; drop those "
                             f"instances first")
    uniques = np.asarray(uniques)
    kinds = {"text" if isinstance(v, (str, bytes)) else "number" for v in uniques.tolist()}
    if len(kinds) > 1:  # 1 and "1" would be two classes that print alike
        number = next(v for v in uniques.tolist() if not isinstance(v, (str, bytes)))
        text = next(v for v in uniques.tolist() if isinstance(v, (str, bytes)))
        raise ParameterError(f"y: expected class labels of one kind, got numbers and text (such as {number!r} and "
                             f"{text!r}); Unknown label type: unknown")
    with warnings.catch_warnings():  # its many-classes heuristic would look at the distinct labels as samples
        warnings.filterwarnings("ignore", message="The number of unique classes is greater than 50%")
        try:
            check_classification_targets(uniques)
        except ValueError as e:  # scikit-learn's words kept at the end (its estimator checks look for them)
            first = str(e).split(". ")[0]
            raise ParameterError(f"y: expected class labels (discrete values), got {_kind_of(uniques)}; "
                                 f"{first}") from None
    try:
        return _sorted_classes(uniques, codes, strict=True)
    except TypeError:  # labels of mixed types: numpy's message
        return np.unique(y, return_inverse=True)


def _kind_of(uniques):
    """What a column of distinct labels holds, in a few words (for an error)."""
    sample = ", ".join(repr(v) for v in uniques.tolist()[:3])
    if uniques.dtype.kind == "f":
        return f"numbers with fractions ({sample}, ...)"
    return f"values such as {sample}"


def _sorted_classes(classes, codes, strict=False):
    """``classes`` sorted and ``codes`` renumbered to match; classes of mixed types
    stay as they are (or, ``strict``, raise numpy's TypeError)."""
    try:
        order = np.argsort(classes, kind="stable")
    except TypeError:
        if strict:
            raise
        return classes, codes
    if (order[1:] > order[:-1]).all():  # sorted already: the codes stand
        return classes, codes
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return classes[order], rank[codes]


def encode_target(y, n_samples):
    """Return ``(codes, classes)`` for class labels ``y``.

    A categorical ``y`` keeps its declared classes, even those without
    instances, sorted as scikit-learn's ``classes_`` are (its meta-estimators,
    such as ``CalibratedClassifierCV``, assume that order); a Dataset's class
    (a file's declaration) keeps the file's order; any other ``y`` gets its
    sorted distinct values.

    Examples
    --------
    >>> codes, classes = encode_target(["q", "p", "q"], 3)
    >>> codes.tolist(), classes.tolist()
    ([1, 0, 1], ['p', 'q'])
    """
    if y is None:
        raise ParameterError("y: this estimator requires y to be passed, but the target y is None")
    if n_samples == 0:
        raise ParameterError("X: expected at least one instance, got 0 (0 sample(s))")
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        codes = y.array.codes.astype(np.intp)  # (the Categorical's own codes: -1 where missing)
        if codes.size and codes.min() < 0:
            raise ParameterError(f"y: {int((codes < 0).sum())} class labels are missing; drop those "
                                 f"instances first (d, dropped = dataset.labelled())")
        classes = np.asarray(y.dtype.categories)
        if not is_declared(y):
            classes, codes = _sorted_classes(classes, codes)
    else:
        y = column_or_1d(np.asarray(y) if not isinstance(y, pd.Series) else y.to_numpy(), warn=True)
        if y.dtype.kind in "fc":
            if np.isnan(y).any():
                raise ParameterError(f"y: {int(np.isnan(y).sum())} class labels are missing (NaN); drop those "
                                     f"instances first")
            if not np.isfinite(y).all():
                raise ParameterError(f"y: expected finite class labels, got {y[~np.isfinite(y)][0]!r}")
        if y.dtype.kind in "iu" and y.size and y.min() >= 0 and y.max() < 1 << 20:
            present = np.bincount(y) > 0  # integer labels: no sort needed
            classes = np.flatnonzero(present).astype(y.dtype)
            lut = np.cumsum(present) - 1
            codes = y.astype(np.intp) if classes.size == present.size else lut[y]
        else:
            classes, codes = _factorize_classes(y)
    if n_samples == 0:
        raise ParameterError("X: expected at least one instance, got 0 (0 sample(s))")
    if codes.shape[0] != n_samples:
        raise ParameterError(f"y: expected {n_samples} class labels (one per instance), "
                             f"got {codes.shape[0]}")
    return codes, classes


def chunk_class_codes(estimator, y, n, first):
    """Class codes of a chunk of ``n`` rows for ``partial_fit``: on the first chunk of an
    estimator without declared classes they declare them (``estimator.classes_``); later,
    against the declared classes."""
    if first and not hasattr(estimator, "classes_"):
        codes, estimator.classes_ = encode_target(y, n)
        return codes
    codes = class_codes(y, estimator.classes_)
    if codes.shape[0] != n:
        raise ParameterError(f"y: expected {n} class labels (one per instance), got {codes.shape[0]}")
    return codes


def chunk_table(estimator, X, y, classes=None, sample_weight=None, first=True, nominal=None):
    """The opening of every ``partial_fit`` on a table, written once: on the ``first`` chunk the
    parameters checked, the input's feature count and names recorded, the schema by the one rule
    for a column's kind (``nominal``: the model's option) and the classes declared (``classes``, or
    a categorical ``y``'s); on a later chunk the columns chosen and checked against those; the chunk
    encoded (a value outside the schema is an error), its class codes and weights checked.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> m = NaiveBayes()
    >>> got = chunk_table(m, pd.DataFrame({"a": ["x", "y"]}), ["q", "p"], classes=["p", "q"])
    >>> m.schema_.names, got.codes.tolist(), m.classes_.tolist()
    (('a',), [1, 0], ['p', 'q'])
    """
    X, y = unwrap(X, y)
    check_2d(X)
    if first:
        estimator._check_params()
        check_names(estimator, X, reset=True)
        estimator.schema_ = infer_schema(X, nominal)
        estimator.__dict__.pop("classes_", None)
        if classes is not None or not (isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype)):
            estimator.classes_ = declare_classes(y, classes)
    else:
        X = select_columns(X, estimator.schema_)
        check_names(estimator, X, reset=False)
    table = refuse_undeclared(encode(X, estimator.schema_), estimator.schema_)
    codes = chunk_class_codes(estimator, y, table.n_samples, first)
    weight = None if sample_weight is None else _check_sample_weight(sample_weight, np.empty((table.n_samples, 0)))
    return FitTable(X, estimator.schema_, table, codes, estimator.classes_, weight)
