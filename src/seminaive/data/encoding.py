"""Encoding tables (DataFrames, arrays, lists) against a schema.

Nominal attributes become small integer codes (-1 for missing), numeric ones
float64 (NaN for missing). This is the only place that looks at raw values:
every model works on the encoded arrays.
"""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from ..exceptions import DataFormatError, ParameterError
from .factorize import NUMBER_KINDS, is_text_column
from .int_block import LUT_LIMIT, code_dtype, encode_int_block
from .schema import NOMINAL, Attribute, Schema, numeric_attribute, resolve_columns
from .times import is_time_dtype, time_ms
from .value_index import ValueIndex, gather

__all__ = ["EncodedTable", "encode", "refuse_infinite", "as_columns", "code_dtype", "check_2d",
           "select_columns", "refuse_undeclared"]


@dataclass
class EncodedTable:
    """Encoded attribute columns of ``n_samples`` instances.

    Attributes
    ----------
    codes : ndarray of shape (n_samples, n_nominal)
        Codes of the nominal attributes, -1 where missing or outside the value list
        (any integer type; an integer input array may serve as its own codes).
    numeric : ndarray of shape (n_samples, n_numeric)
        The numeric attributes, NaN where missing.
    unseen : ndarray of shape (n_nominal,)
        How many values of each nominal attribute were outside its value list
        (they are encoded as missing).

    Examples
    --------
    >>> import numpy as np
    >>> t = EncodedTable(np.array([[0], [1]]), np.array([[1.5], [np.nan]]), np.zeros(1))
    >>> t.n_samples
    2
    """

    codes: np.ndarray
    numeric: np.ndarray
    unseen: np.ndarray

    @property
    def n_samples(self):
        return self.codes.shape[0] if self.codes.shape[1] else self.numeric.shape[0]


def is_codes(X):
    """Whether ``X`` is nominal data held as integer codes (:class:`~seminaive.data.codes.Codes`),
    which every step of the front end reads as it is."""
    return hasattr(X, "encoded_for")


def frame_of(X):
    """The DataFrame of ``X`` (a Dataset's), or None where ``X`` holds none.

    Examples
    --------
    >>> frame_of(pd.DataFrame({"a": [1]})).shape, frame_of(np.zeros((2, 2)))
    ((1, 1), None)
    """
    frame = X.X if hasattr(X, "X") and isinstance(getattr(X, "X", None), pd.DataFrame) else X
    return frame if isinstance(frame, pd.DataFrame) else None


def column_array(frame, j):
    """The array (a Categorical, a numpy or Arrow array) of a DataFrame's column ``j``, taken without a
    Series made for it where this pandas allows (its ``_get_column_array``: 0.4 us a column against
    6 us for a Series; the Series's array otherwise).

    Examples
    --------
    >>> column_array(pd.DataFrame({"a": pd.Categorical(["x", None, "y"])}), 0).codes.tolist()
    [0, -1, 1]
    """
    take = getattr(frame, "_get_column_array", None)
    return take(j) if take is not None else frame.iloc[:, j].array


def as_columns(X):
    """Return ``(names, get_column, n_rows, is_frame)`` for a 2-D table.

    ``names`` are the column names (``x0``, ``x1``, ... for arrays).
    """
    frame = frame_of(X)  # a DataFrame, or a Dataset's
    X = X if frame is None else frame
    if isinstance(X, pd.DataFrame):
        if X.shape[1] == 0:
            raise ParameterError(f"X: 0 feature(s) (shape={X.shape}) while a minimum of 1 is required.")
        columns = []  # every column, taken out once when the first is asked for (iloc costs ~30 us a column)

        def column(j):
            if not columns:
                columns.extend(c for _, c in X.items())
            return columns[j]
        return [str(c) for c in X.columns.tolist()], column, len(X), True
    if is_codes(X):
        return list(X.names), (lambda j: X.codes[:, j]), len(X), False
    if isinstance(X, pd.Series):
        raise ParameterError("X: expected a 2-D table (DataFrame or array), got a Series")
    if hasattr(X, "tocsr"):
        raise ParameterError("X: sparse input is not supported by this estimator; "
                             "expected a dense array or DataFrame")
    arr = np.asarray(X)
    if arr.dtype.kind in "US" and isinstance(X, (list, tuple)):
        arr = np.asarray(X, dtype=object)  # keep the numbers of mixed rows as numbers
    if arr.dtype.kind == "c" or (arr.dtype == object and any(isinstance(v, complex) for v in arr.ravel()[:1000])):
        raise ParameterError("X: Complex data not supported; expected real numbers or nominal values")
    if arr.dtype.kind not in "biufcUSOM":
        arr = arr.astype(object)
    if arr.ndim != 2:
        raise ParameterError(f"X: expected a 2-D table (n_samples, n_attributes), got an "
                             f"array with {arr.ndim} dimension(s). Reshape your data with "
                             f"X.reshape(-1, 1) for a single feature or X.reshape(1, -1) "
                             f"for a single sample")
    if arr.shape[1] == 0:
        raise ParameterError(f"X: 0 feature(s) (shape={arr.shape}) while a minimum of 1 is required.")
    return list(_array_names(arr.shape[1])), (lambda j: arr[:, j]), arr.shape[0], False


@lru_cache(maxsize=8)
def _array_names(d):
    """The names of an array's ``d`` columns, x0, x1, ... (made once per width: a wide array's
    fit and prediction ask for them several times)."""
    return tuple(f"x{j}" for j in range(d))


def check_2d(X):
    """Raise a clear error for a 1-D (or 3-D) X before anything else looks at it."""
    if not isinstance(X, (pd.DataFrame, pd.Series)) and not hasattr(X, "schema") and not hasattr(X, "tocsr"):
        as_columns(X)


def select_columns(X, schema):
    """A DataFrame holding every attribute of ``schema`` (among others, in any
    order) reduced to those attributes, in schema order; anything else as it is."""
    if isinstance(X, pd.DataFrame):
        cols = [str(c) for c in X.columns.tolist()]
        names = list(schema.names)
        if cols != names and set(names) <= set(cols):
            return X.iloc[:, [cols.index(n) for n in names]]
    return X


def _missing(v):
    return v is None or v is pd.NA or (isinstance(v, (float, np.floating)) and v != v)


def _encode_nominal(col, attribute, out):
    """Write the codes of ``col`` for ``attribute`` into ``out``; return how many were unseen. The
    distinct entries found (a categorical's categories, pandas' hashing), each entry's code from the
    attribute's index, the rows gathered (:mod:`.value_index`); small non-negative integers against
    integer values through a look-up table of the same codes."""
    values = attribute.values
    if isinstance(col.dtype, pd.CategoricalDtype):
        cat = col.array if isinstance(col, pd.Series) else col  # the Categorical itself (no accessor, no Series)
        cats, rows = cat.categories.tolist(), cat.codes
        if cats == list(values):
            out[:] = rows
            return 0
        entry = _entry_codes(attribute, cats)
    else:
        arr = col.to_numpy() if isinstance(col, pd.Series) and not is_text_column(col) else col
        if (isinstance(arr, np.ndarray) and arr.dtype.kind in "iu" and values
                and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
                and min(values) >= 0 and max(values) < LUT_LIMIT):
            return _encode_by_table(arr, values, out)
        try:
            rows, uniques = pd.factorize(arr, use_na_sentinel=True)
        except TypeError:  # an unhashable value (a list in an object column)
            raise ParameterError(f"X: attribute {attribute.name!r} holds a value that is no nominal value "
                                 f"(an unhashable {type(_first_unhashable(arr)).__name__})") from None
        entry = _entry_codes(attribute, list(pd.Index(uniques, dtype=object)))
    out[:] = gather(entry, rows)  # row code -1 (missing) picks the appended -1
    return int(np.count_nonzero((out == -1) & (rows >= 0)))


def _first_unhashable(arr):
    for v in arr:
        try:
            hash(v)
        except TypeError:
            return v
    return None


def _encode_by_table(arr, values, out):
    """Integer codes through a look-up table of the attribute's codes (values beyond it: -1, unseen)."""
    lut = np.full(max(values) + 2, -1, dtype=out.dtype)
    lut[np.asarray(values)] = np.arange(len(values), dtype=out.dtype)
    idx = arr if arr.size == 0 or (arr.min() >= 0 and arr.max() <= max(values)) else \
        np.where((arr < 0) | (arr > max(values)), max(values) + 1, arr)
    out[:] = lut[idx]
    return int(np.count_nonzero(out == -1))


def _entry_codes(attribute, entries):
    """The codes of distinct ``entries`` against the attribute's values, a number and its text meeting
    one value across the kinds: numbers against values held as text (a column of numbers made nominal
    and read from a file) and text against values held as numbers (the same column made nominal in
    memory), each where every value stands for one number."""
    values = attribute.values
    plain = attribute.index.codes(entries)
    if not entries or (plain >= 0).all():
        return plain
    index = _number_index(values)  # text values, each one number's text
    if index is None and values and all(_is_number(v) for v in values):
        index = ValueIndex([float(v) for v in values])  # numeric values
        index = index if len(index.values) == len(set(index.values)) else None
    if index is None:
        return plain
    return np.where(plain >= 0, plain, index.codes([_as_number(v) for v in entries]))


def _is_number(v):
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _as_number(v):
    """The number an entry is or reads as (text), else None."""
    if _is_number(v):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return None
    return None


def _number_index(values):
    """The numbers a nominal attribute's text values stand for (a column of numbers made nominal and read
    from a file: '2', '9', '10'), as an index to look numbers up in; None unless every value is such text
    and no two stand for one number."""
    if not values or not all(isinstance(v, str) for v in values):
        return None
    try:
        numbers = np.asarray(values, dtype=np.float64).tolist()
    except ValueError:
        return None
    return ValueIndex(numbers) if len(set(numbers)) == len(numbers) else None


def _encode_numeric(col, name):
    if isinstance(col, pd.Series):
        if is_time_dtype(col.dtype):
            return time_ms(col)
        if pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype):
            return col.to_numpy(dtype=np.float64, na_value=np.nan)
        col = col.to_numpy(dtype=object)
    if col.dtype.kind in "iuf":
        return col.astype(np.float64, copy=False)
    if pd.api.types.infer_dtype(col, skipna=True) in NUMBER_KINDS:  # vectorized; None/NaN/NA -> NaN
        return pd.to_numeric(pd.Series(col, dtype=object), errors="coerce").to_numpy(dtype=np.float64)
    out = np.empty(col.shape[0], dtype=np.float64)
    for i, v in enumerate(col):
        if _missing(v):
            out[i] = np.nan
        elif isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)):
            out[i] = v
        else:
            raise DataFormatError(f"expected a number in numeric attribute {name!r}, got {v!r}",
                                  line=None, column=name)
    return out


def encode(X, schema, check_finite=True, found_codes=None):
    """Encode a table against a schema.

    Columns are matched by name when ``X`` is a DataFrame holding every attribute,
    otherwise by position. Nominal values outside an attribute's list are encoded
    as missing and counted in ``unseen``. Infinite numeric values are an error
    (unless ``check_finite`` is False: the caller then checks, with
    :func:`refuse_infinite`, after a pass of its own that would show them).
    ``found_codes`` are codes :func:`~seminaive.data.kinds.infer_schema` found for this same ``X``.

    Examples
    --------
    >>> from seminaive.data.kinds import infer_schema
    >>> s = infer_schema([["a", 1.0], ["b", 2.0]])
    >>> t = encode([["b", 3.5], ["z", None]], s)
    >>> t.codes[:, 0].tolist(), t.numeric[:, 0].tolist(), t.unseen.tolist()
    ([1, -1], [3.5, nan], [1])
    """
    if is_codes(X):  # read as they are
        return X.encoded_for(schema)
    names, get, n, is_frame = as_columns(X)
    want = list(schema.names)
    if is_frame and names != want and set(want) <= set(names):
        positions = [names.index(w) for w in want]
    elif len(names) != len(want):
        raise ParameterError(f"X: expected {len(want)} attributes ({', '.join(want)}), "
                             f"got {len(names)} columns")
    else:
        positions = list(range(len(want)))
    nom, num = schema.nominal_indices, schema.numeric_indices
    width = int(schema.nominal_widths.max(initial=1))
    fast = encode_int_block(X, schema) if positions == list(range(len(want))) else None
    if fast is not None:
        codes, unseen = fast
    else:
        codes = np.empty((n, len(nom)), dtype=code_dtype(width), order="F")  # filled and counted by column
        unseen = np.zeros(len(nom), dtype=np.int64)
        frame = frame_of(X) if is_frame and (found_codes is None or len(found_codes) < len(nom)) else None
        dtypes = None if frame is None else frame.dtypes.tolist()
        for k, i in enumerate(nom):
            if found_codes is not None and want[i] in found_codes:
                codes[:, k] = found_codes[want[i]]
                continue
            j = positions[i]
            col = column_array(frame, j) if dtypes is not None and isinstance(dtypes[j], pd.CategoricalDtype) \
                else get(j)
            unseen[k] = _encode_nominal(col, schema.attributes[i], codes[:, k])
    if num and len(num) == len(want) and _plain_numeric_frame(X):
        numeric = (X if positions == list(range(len(want))) else X.iloc[:, positions]).to_numpy(dtype=np.float64)
    elif num and isinstance(X, np.ndarray) and len(num) == len(want):
        numeric = X if X.dtype == np.float64 else None
        if numeric is None:
            numeric = np.column_stack([_encode_numeric(get(p), want[i]) for i, p in enumerate(positions)])
    else:
        numeric = np.empty((n, len(num)), dtype=np.float64, order="F")
        for k, i in enumerate(num):
            numeric[:, k] = _encode_numeric(get(positions[i]), want[i])
    table = EncodedTable(codes, numeric, unseen)
    if check_finite:
        refuse_infinite(table, schema)
    return table


def _plain_numeric_frame(X):
    """A DataFrame of numpy integer and float columns only (one block copy, or
    none, makes its float64 matrix)."""
    return isinstance(X, pd.DataFrame) and all(isinstance(dt, np.dtype) and dt.kind in "iuf" for dt in set(X.dtypes))


def refuse_infinite(table, schema):
    """Raise DataFormatError naming the first numeric attribute holding an infinite value."""
    numeric = table.numeric
    if numeric.size and np.isinf(numeric).any():
        bad = int(np.flatnonzero(np.isinf(numeric).any(axis=0))[0])
        raise DataFormatError("numeric values must be finite (NaN marks a missing value), "
                              "got infinity", column=schema.names[schema.numeric_indices[bad]])


def refuse_undeclared(table, schema):
    """``table``, unless a later chunk showed nominal values the first chunk did not declare (an error naming
    the attributes)."""
    if table.unseen.any():
        names = [schema.attributes[i].name for i, u in zip(schema.nominal_indices, table.unseen) if u]
        raise DataFormatError(f"partial_fit: attribute(s) {', '.join(map(repr, names))} have values the first "
                              f"chunk did not declare; declare every value up front (pandas categoricals or "
                              f"a Dataset read from a file header)")
    return table
