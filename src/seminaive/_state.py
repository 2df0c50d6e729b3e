"""Checking a model file's saved state field by field: every error names the field."""

import numpy as np

__all__ = ["field", "numbers", "index"]


def field(d, key, kind, where="state"):
    """``d[key]`` (or ``d`` itself) checked to be a ``kind``, else an error naming the field."""
    v = d if key is None else (d.get(key) if isinstance(d, dict) else None)
    name = where if key is None else f"{where}.{key}"
    if not isinstance(v, kind):
        raise ValueError(f"{name}: expected {kind.__name__}, got {type(v).__name__}")
    return v


def numbers(value, name, shape, low=None):
    """An array of finite numbers of the given shape (and at least ``low``), else an error naming the field."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected numbers") from None
    if arr.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {arr.shape}")
    if not np.isfinite(arr).all() or (low is not None and (arr < low).any()):
        raise ValueError(f"{name}: expected finite numbers" + (f" >= {low}" if low is not None else ""))
    return arr


def index(value, name, size):
    """An integer in range(size), else an error naming the field."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
        raise ValueError(f"{name}: expected an integer from 0 to {size - 1}, got {value!r}")
    return value
