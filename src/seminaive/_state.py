"""Checking a model file's saved state field by field: every error names the field."""

import numpy as np

__all__ = ["field", "numbers", "index", "checked_records", "brief", "plain_counts", "checked_counts"]


def brief(value, most=60):
    """A value as an error message quotes it: its repr, cut to ``most`` characters.

    >>> brief(-1), brief("x" * 100)[-5:]
    ('-1', "x...'")
    """
    r = repr(value)
    return r if len(r) <= most else r[:most - 4] + "...'"


def field(d, key, kind, where="state"):
    """``d[key]`` (or ``d`` itself) checked to be a ``kind``, else an error naming the field."""
    v = d if key is None else (d.get(key) if isinstance(d, dict) else None)
    name = where if key is None else f"{where}.{key}"
    if not isinstance(v, kind):
        raise ValueError(f"{name}: expected {kind.__name__}, got {type(v).__name__}")
    return v


def numbers(value, name, shape, low=None):
    """An array of finite numbers of the given shape (and at least ``low``), else an error naming the field."""
    if isinstance(value, bool) or (isinstance(value, list) and value and isinstance(value[0], bool)):
        raise ValueError(f"{name}: expected numbers, got {brief(value)}")
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


_KINDS = {"number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          "int": lambda v: type(v) is int, "text": lambda v: isinstance(v, str), "bool": lambda v: isinstance(v, bool),
          "label": lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool)}


def checked_records(state, key, types, where="state"):
    """A list of records (a search's steps, a selection's candidates, constraints), each an object
    with every field of ``types`` ({field: "number" | "int" | "text" | "bool" | "label"}) of that kind, else
    an error naming the record and the field."""
    records = field(state, key, list, where)
    for i, h in enumerate(records):
        at = f"{where}.{key}[{i}]"
        field(h, None, dict, at)
        for name, kind in types.items():
            if not _KINDS[kind](h.get(name)):
                raise ValueError(f"{at}.{name}: expected a {kind}, got {brief(h.get(name))}")
    return records


def plain_counts(c):
    """Counts (arrays, nested in lists and dicts) as plain lists for a model file."""
    if isinstance(c, list):
        return [plain_counts(x) for x in c]
    if isinstance(c, dict):
        return {key: np.asarray(v).tolist() for key, v in c.items()}
    return np.asarray(c).tolist()


def checked_counts(value, shape, where):
    """Counts from a model file, checked against their expected (nested) shapes."""
    if isinstance(shape, list):
        if not isinstance(value, list) or len(value) != len(shape):
            raise ValueError(f"{where}: expected a list of {len(shape)}")
        return [checked_counts(v, s, f"{where}[{i}]") for i, (v, s) in enumerate(zip(value, shape))]
    if isinstance(value, dict):  # a table's statistics
        return {"counts": numbers(value.get("counts"), f"{where}.counts", shape, low=0)}
    return numbers(value, where, shape, low=0)
