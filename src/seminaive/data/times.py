"""Dates, times and durations as numbers: milliseconds (since 1970 for times), at any resolution,
the same for DataFrame columns, Arrow columns and ARFF dates."""

import numpy as np
import pandas as pd

__all__ = ["epoch_ms", "is_time_dtype", "time_ms"]

_MS_PER = {"D": 86_400_000.0, "h": 3_600_000.0, "m": 60_000.0, "s": 1000.0, "ms": 1.0}
_PER_MS = {"us": 1000.0, "ns": 1e6}


def epoch_ms(ints, unit, missing=None):
    """Times or durations held as integers in ``unit`` (``D``, ``s``, ``ms``, ``us``, ``ns``) as float64
    milliseconds (since the epoch, for times), NaN where ``missing``: the one conversion of dates and
    times, whatever their resolution, for DataFrames and Arrow files alike (a microsecond keeps its
    fraction of a millisecond).

    Examples
    --------
    >>> epoch_ms(np.array([1500, 2]), "us").tolist(), epoch_ms(np.array([1]), "D").tolist()
    ([1.5, 0.002], [86400000.0])
    """
    out = np.asarray(ints).astype(np.float64)
    if unit in _MS_PER:
        out *= _MS_PER[unit]
    else:
        out /= _PER_MS[unit]
    if missing is not None:
        out[missing] = np.nan
    return out


def is_time_dtype(dtype):
    """Whether a pandas or numpy dtype holds dates, times or durations (numeric attributes: milliseconds)."""
    return getattr(dtype, "kind", None) in ("M", "m") or isinstance(dtype, pd.DatetimeTZDtype)


def time_ms(col):
    """A Series of datetimes or durations as float64 milliseconds (NaN where missing)."""
    if isinstance(col.dtype, pd.DatetimeTZDtype):
        col = col.dt.tz_convert("UTC").dt.tz_localize(None)
    arr = col.to_numpy()
    unit = np.datetime_data(arr.dtype)[0]
    return epoch_ms(arr.view(np.int64), unit, np.isnat(arr))
