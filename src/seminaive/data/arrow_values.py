"""Arrow columns as a model reads them: the kind of a column's type, its distinct values, and its
conversion to codes of a nominal attribute or to float64 numbers (Parquet and Arrow IPC files,
pyarrow Tables)."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..exceptions import DataFormatError
from .kinds import EMPTY, NUMBERS, TEXT, TIMES
from .times import epoch_ms

__all__ = ["kind_of", "distinct", "values_type", "encode_arrow", "one_line", "ARROW_ERRORS"]

ARROW_ERRORS = (pa.ArrowException, OSError, ValueError)  # what reading or converting Arrow data raises


def one_line(error):
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def kind_of(t):
    """What an Arrow column of type ``t`` holds (:func:`~seminaive.data.kinds.column_kind`'s ``found``):
    ``NUMBERS``, ``TIMES``, ``TEXT``, ``EMPTY`` (the null type), or None (a type no model reads)."""
    if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t):
        return NUMBERS
    if pa.types.is_temporal(t) and not pa.types.is_interval(t):
        return TIMES
    if pa.types.is_null(t):
        return EMPTY
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_boolean(t) or pa.types.is_dictionary(t):
        return TEXT
    return None


def distinct(col, whole_dictionary):
    """A batch's distinct values: a dictionary column's whole dictionary (a categorical's unused
    categories count), else the values present (a string column read as codes: the entries its rows use)."""
    if not pa.types.is_dictionary(col.type):
        return pc.unique(col)
    if whole_dictionary:
        return col.dictionary
    indices = col.indices if not col.null_count else pc.drop_null(col.indices)
    used = np.bincount(indices.to_numpy(zero_copy_only=False), minlength=len(col.dictionary)) > 0
    return col.dictionary.filter(pa.array(used))  # (the order does not matter: strings are sorted)


def values_type(t):
    return t.value_type if pa.types.is_dictionary(t) else t


def encode_arrow(col, attribute, path, unseen=None):
    """An Arrow column for ``attribute``: a Categorical of its values (-1 where missing), or
    float64 (NaN where missing); values outside the list are missing, counted in ``unseen``."""
    if not attribute.is_nominal:
        if pa.types.is_dictionary(col.type):
            col = col.dictionary_decode()
        if pa.types.is_temporal(col.type):
            return _time_ms(col)
        try:
            return pc.cast(col, pa.float64()).to_numpy(zero_copy_only=False)
        except pa.ArrowInvalid as e:
            raise DataFormatError(f"expected numbers ({one_line(e)})", path=path, column=attribute.name) from None
    categories = pd.Index(list(attribute.values), dtype=object)
    if not pa.types.is_dictionary(col.type):  # the distinct entries by Arrow's hashing, each looked up once
        col = pc.dictionary_encode(col)
    entries = col.dictionary
    codes = _codes(entries, attribute)  # each dictionary entry's code
    gone = entries.is_null(nan_is_null=True).to_numpy(zero_copy_only=False)  # missing entries (null, NaN)
    codes[gone] = -1
    check = bool((codes[~gone] < 0).any())  # any present value outside the list
    # each row's code through its dictionary entry
    indices = col.indices.to_numpy(zero_copy_only=False) if not col.null_count \
        else col.indices.fill_null(0).to_numpy(zero_copy_only=False)
    codes = codes[indices] if len(codes) else np.full(len(col), -1, dtype=np.int64)
    gone = gone[indices] if len(gone) else np.ones(len(col), dtype=bool)
    if col.null_count:
        gone |= col.is_null().to_numpy(zero_copy_only=False)
        codes[gone] = -1
    outside = ((codes < 0) & ~gone) if check else None  # (an entry no row uses, as a damaged file has, is none)
    if check and outside.any():
        if unseen is None:
            raise DataFormatError(f"value {col[int(np.flatnonzero(outside)[0])]} is not one of the attribute's "
                                  f"values", path=path, column=attribute.name)
        unseen[attribute.name] = unseen.get(attribute.name, 0) + int(np.count_nonzero(outside))
    return pd.Categorical.from_codes(codes, categories=categories)


def _codes(entries, attribute):
    """Each Arrow entry's code in ``attribute``'s list (-1 where absent), by the attribute's
    :class:`~.value_index.ValueIndex`; entries compared as text where the list's values are text
    and the column's are not (a model read from CSV)."""
    t = entries.type
    if all(isinstance(v, str) for v in attribute.values) and not (pa.types.is_string(t) or
                                                                   pa.types.is_large_string(t)):
        entries = pc.cast(entries, pa.string())
    return attribute.index.codes(entries.to_pylist())


def _time_ms(col):
    """An Arrow column of dates, times, timestamps or durations as float64 milliseconds (since the epoch,
    or midnight), NaN where missing, at any resolution (:func:`.times.epoch_ms`)."""
    t = col.type
    unit = "D" if pa.types.is_date32(t) else "ms" if pa.types.is_date64(t) else t.unit
    ints = pc.cast(col, pa.int32() if pa.types.is_date32(t) or pa.types.is_time32(t) else pa.int64())
    return epoch_ms(ints.fill_null(0).to_numpy(zero_copy_only=False), unit,
                    ints.is_null().to_numpy(zero_copy_only=False))
