"""Nominal columns of strings (or mixed objects) in one hashing pass.

``pd.read_csv`` gives string columns (pandas' ``str`` dtype, or ``object``);
one ``pandas.factorize`` finds both their distinct values (the schema) and
every row's code (the encoding) in C, where scanning values in Python, or
hashing them twice (once to infer, once to encode), would dominate a fit.
"""

import numpy as np
import pandas as pd

from .value_index import ValueIndex, gather

__all__ = ["is_text_column", "factorize_nominal", "NUMBER_KINDS"]

# what pandas.api.types.infer_dtype calls a column of numbers (missing values skipped)
NUMBER_KINDS = ("integer", "floating", "mixed-integer-float", "empty")


def is_text_column(col):
    """Whether ``col`` (a Series or 1-D array) holds strings or mixed objects,
    the columns :func:`factorize_nominal` serves (not categoricals, booleans
    or numbers, which have faster paths of their own)."""
    dt = col.dtype
    if isinstance(dt, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dt):
        return False
    return getattr(dt, "kind", "") == "O" or pd.api.types.is_string_dtype(dt) or getattr(dt, "kind", "") in "US"


def factorize_nominal(col):
    """The value list and codes of a text column.

    Values are sorted where they can be compared, else kept in order of
    first appearance (mixed types); codes index them, -1 where missing
    (None, NaN, NA).

    Examples
    --------
    >>> values, codes = factorize_nominal(pd.Series(["b", None, "a", "b"]))
    >>> values, codes.tolist()
    (['a', 'b'], [1, -1, 0, 1])
    """
    try:
        codes, uniques = pd.factorize(col, use_na_sentinel=True)
        uniq = uniques.tolist()
    except TypeError:  # unhashable values (lists, dicts)
        codes, uniq = None, pd.Series(col, dtype=object).dropna().tolist()
    bad = [v for v in uniq if not isinstance(v, (str, bool, int, float, np.generic))]
    if bad:
        raise TypeError(f"a nominal value must be a string or a number, got "
                        f"{type(bad[0]).__name__} (argument must be a string or a number)")
    try:
        order = sorted(range(len(uniq)), key=uniq.__getitem__)
    except TypeError:  # mixed types: keep the order of first appearance
        order = list(range(len(uniq)))
    values = [uniq[i] for i in order]
    return values, gather(ValueIndex(values).codes(uniq), codes)  # the one encoder, on the distinct values
