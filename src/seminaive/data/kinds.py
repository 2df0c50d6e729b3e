"""The one rule for a column's kind in memory, and the schema of a table by it.

Categorical, boolean and text columns are nominal; numbers (of a numeric dtype, or objects that
are all numbers) and dates are numeric; a column the user names in ``nominal`` is nominal. Every
source of frames applies it: pandas, polars and pyarrow frames (through pandas), the partitions
of a Dask frame (:func:`seminaive.learning.dask_source.declare_dask`, on their distinct values), and
the readers of Arrow files (their text columns). Text files decide by their tokens
(:meth:`seminaive.data.summary.ColumnSummary.attribute`): a column whose every value is a number is
numeric, as the same column read by pandas is.
"""

import numpy as np
import pandas as pd

from .encoding import as_columns, column_array, frame_of, is_codes
from .factorize import NUMBER_KINDS, factorize_nominal, is_text_column
from .int_block import LUT_LIMIT, block_counts, block_width, present_values
from .schema import NOMINAL, NUMERIC, Attribute, Schema, numeric_attribute, resolve_columns
from .times import is_time_dtype

__all__ = ["column_kind", "found_by_dtype", "found_in", "infer_schema", "is_nominal_column", "block_schema", "NUMBERS", "TIMES", "TEXT", "EMPTY"]

# what a reader finds in a column: every present value a number (a numeric dtype, objects that are all
# numbers, tokens that all parse), dates or times, anything else (text, categories, booleans), or no value
NUMBERS, TIMES, TEXT, EMPTY = "numbers", "times", "text", "empty"


def column_kind(found, nominal=False, numeric=False, declared=None, target=False):
    """The one rule for a column's kind, whatever read it: the class is nominal; a column the user
    names ``nominal`` (or ``numeric``) is so; a kind a file's header declares holds; numbers, times
    and columns without any value are numeric; anything else is nominal. ``found``: what the reader
    found in the column (``NUMBERS``, ``TIMES``, ``TEXT`` or ``EMPTY``).

    Examples
    --------
    >>> column_kind(NUMBERS), column_kind(TEXT), column_kind(EMPTY), column_kind(NUMBERS, nominal=True)
    ('numeric', 'nominal', 'numeric', 'nominal')
    """
    if target or nominal:
        return NOMINAL
    if numeric:
        return NUMERIC
    if declared is not None:
        return declared
    return NUMERIC if found in (NUMBERS, TIMES, EMPTY) else NOMINAL


def found_by_dtype(dtype):
    """What a column of ``dtype`` holds whatever its values (:func:`column_kind`'s ``found``), or None
    where its values decide (objects, strings): the one reading of a dtype, for a column in memory,
    a table's dtypes and a Dask frame's.

    Examples
    --------
    >>> found_by_dtype(np.dtype("int8")), found_by_dtype(pd.CategoricalDtype(["a"])), found_by_dtype(np.dtype("O"))
    ('numbers', 'text', None)
    """
    if is_time_dtype(dtype):  # dates and times: numbers (milliseconds), as in Arrow files
        return TIMES
    if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dtype):
        return TEXT
    if isinstance(dtype, pd.StringDtype) or getattr(dtype, "kind", None) in ("U", "S"):
        return None if isinstance(dtype, pd.StringDtype) else TEXT
    if pd.api.types.is_numeric_dtype(dtype):
        return NUMBERS
    return None


def found_in(col):
    """What a column in memory holds (:func:`column_kind`'s ``found``): by its dtype
    (:func:`found_by_dtype`), or for objects by one vectorized pass (numbers of any numpy or Python
    kind, missing values skipped)."""
    found = found_by_dtype(col.dtype)
    if found is not None:
        return found
    if isinstance(col, pd.Series):
        if isinstance(col.dtype, pd.StringDtype):
            return EMPTY if col.isna().all() else TEXT
        col = col.to_numpy(dtype=object)
    kind = pd.api.types.infer_dtype(col, skipna=True)
    return EMPTY if kind == "empty" else NUMBERS if kind in NUMBER_KINDS else TEXT


def is_nominal_column(col):
    """Whether a column in memory is nominal by the one rule (:func:`column_kind` of what it holds).

    Examples
    --------
    >>> is_nominal_column(pd.Series([1, 2.5], dtype=object)), is_nominal_column(pd.Series(["a", None]))
    (False, True)
    """
    return column_kind(found_in(col)) == NOMINAL


def _observed_values(col):
    """The ordered value list a nominal column declares or shows."""
    if isinstance(col, pd.Series):
        if isinstance(col.dtype, pd.CategoricalDtype):
            return col.dtype.categories.tolist()
        if pd.api.types.is_bool_dtype(col.dtype):
            return [False, True]
        col = col.to_numpy(dtype=object) if not pd.api.types.is_numeric_dtype(col.dtype) else col.to_numpy()
    if col.dtype.kind == "b":
        return [False, True]
    if col.dtype.kind in "iu" and col.size and col.min() >= 0 and col.max() < LUT_LIMIT:
        return np.flatnonzero(np.bincount(col)).tolist()
    if col.dtype.kind == "f":
        u = np.unique(col[~np.isnan(col)])
        return [int(v) if float(v).is_integer() else float(v) for v in u]
    try:
        uniq = pd.unique(pd.Series(col, dtype=object).dropna())
    except TypeError:  # unhashable values (lists, dicts)
        uniq = pd.Series(col, dtype=object).dropna().to_numpy()
    bad = [v for v in uniq if not isinstance(v, (str, bool, int, float, np.generic))]
    if bad:
        raise TypeError(f"a nominal value must be a string or a number, got "
                        f"{type(bad[0]).__name__} (argument must be a string or a number)")
    try:
        return sorted(uniq)
    except TypeError:  # mixed types: keep the order of first appearance
        return list(uniq)


def infer_schema(X, nominal=None, found_codes=None):
    """Infer attribute kinds and nominal value lists from a table.

    Parameters
    ----------
    X : DataFrame, array-like or Dataset
        Object, string, category and bool columns are nominal; numeric ones numeric.
    nominal : None, "all" or list of column names or indices
        Columns to treat as nominal whatever their type (others keep the rule above;
        with a list, numeric columns not listed stay numeric).
    found_codes : dict, optional
        Receives, by attribute name, the codes of the text columns, found by the
        same hashing pass that found their values, and of the categorical columns
        (give it to :func:`encode`).

    Returns
    -------
    Schema

    Examples
    --------
    >>> df = pd.DataFrame({"outlook": ["sunny", "rainy"], "temp": [85.0, 70.0]})
    >>> [(a.name, a.kind, a.values) for a in infer_schema(df).attributes]
    [('outlook', 'nominal', ('rainy', 'sunny')), ('temp', 'numeric', ())]
    """
    if is_codes(X):  # their declared attributes, every one nominal
        return X.schema
    if hasattr(X, "schema") and isinstance(X.schema, Schema) and nominal is None:
        return Schema(X.schema.attributes)
    names, get, _, _ = as_columns(X)
    forced = resolve_columns(nominal, names) if nominal is not None else None
    width = block_width(X) if forced is not None and len(forced) == len(names) else None
    if width is not None:
        return block_schema(names, present_values(block_counts(X, width)))
    frame = frame_of(X)
    dtypes = None if frame is None else frame.dtypes.tolist()
    numbers = _number_columns(X, dtypes)
    if forced is None and len(numbers) == len(names):  # every column numeric by its dtype (a wide table)
        return Schema.of_numeric(names)
    attrs = []
    for j, name in enumerate(names):
        if j in numbers and (forced is None or j not in forced):  # known from its dtype: no column taken out
            attrs.append(numeric_attribute(name))
            continue
        if dtypes is not None and isinstance(dtypes[j], pd.CategoricalDtype):  # nominal by the rule, whatever
            # its categories hold; its categories are the values, its codes as they are
            attrs.append(Attribute(name, NOMINAL, tuple(dtypes[j].categories.tolist())))
            if found_codes is not None:
                found_codes[name] = column_array(frame, j).codes
            continue
        col = get(j)
        if is_text_column(col) and ((forced is not None and j in forced) or is_nominal_column(col)):
            values, codes = factorize_nominal(col)
            if found_codes is not None:
                found_codes[name] = codes
            attrs.append(Attribute(name, NOMINAL, tuple(values)))
        elif (forced is not None and j in forced) or is_nominal_column(col):
            attrs.append(Attribute(name, NOMINAL, tuple(_observed_values(col))))
        else:
            attrs.append(numeric_attribute(name))
    return Schema(tuple(attrs))


def _number_columns(X, dtypes=None):
    """The positions of a table's columns numeric by their dtype alone (:func:`found_by_dtype`, a frame's
    from its ``dtypes``)."""
    if dtypes is None and isinstance(X, np.ndarray) and X.ndim == 2:
        dtypes = [X.dtype] * X.shape[1]
    return {j for j, dt in enumerate(dtypes or ()) if _numeric_by_dtype(dt)}


def _numeric_by_dtype(dtype):
    found = found_by_dtype(dtype)
    return found is not None and column_kind(found) == NUMERIC


def block_schema(names, values):
    """The schema of an all-nominal integer block from its present values."""
    return Schema(tuple(Attribute(n, NOMINAL, tuple(v)) for n, v in zip(names, values)))
