"""One helper that validates parameters, so every message has the same form.

The message names the parameter, says what was expected and shows what came.
"""

import numbers

from .exceptions import ParameterError

__all__ = ["check_param"]


def check_param(name, value, *, kind=None, options=None, low=None, high=None,
                low_inclusive=True, high_inclusive=True, allow_none=False):
    """Check one parameter and return it.

    Parameters
    ----------
    name : str
        The parameter's name, as the user wrote it.
    value : object
        What the user gave.
    kind : {"number", "int", "bool", "str"} or None
        The expected type.
    options : collection, optional
        The accepted values (for strings, or a mix of strings and types).
    low, high : float, optional
        Bounds for numbers.
    allow_none : bool
        Whether ``None`` is accepted.

    Examples
    --------
    >>> check_param("alpha", 0.5, kind="number", low=0)
    0.5
    >>> check_param("alpha", -1, kind="number", low=0)
    Traceback (most recent call last):
    ...
    seminaive.exceptions.ParameterError: alpha: expected a number >= 0, got -1
    """
    if value is None and allow_none:
        return value
    if options is not None and isinstance(value, str):
        if value in options:
            return value
        raise ParameterError(f"{name}: expected one of {_fmt(options)}, got {value!r}")
    if kind is None and options is not None:
        raise ParameterError(f"{name}: expected one of {_fmt(options)}, got {value!r}")
    if kind in ("number", "int"):
        ok = isinstance(value, numbers.Integral if kind == "int" else numbers.Real)
        if not ok or isinstance(value, bool):
            what = "an integer" if kind == "int" else "a number"
            raise ParameterError(f"{name}: expected {what}{_range(low, high, low_inclusive, high_inclusive)}, got {value!r}")
        bad_low = low is not None and (value < low if low_inclusive else value <= low)
        bad_high = high is not None and (value > high if high_inclusive else value >= high)
        if bad_low or bad_high or value != value:
            what = "an integer" if kind == "int" else "a number"
            raise ParameterError(f"{name}: expected {what}{_range(low, high, low_inclusive, high_inclusive)}, got {value!r}")
    elif kind == "bool" and not isinstance(value, bool):
        raise ParameterError(f"{name}: expected True or False, got {value!r}")
    elif kind == "str" and not isinstance(value, str):
        raise ParameterError(f"{name}: expected a string, got {value!r}")
    return value


def _range(low, high, low_inclusive, high_inclusive):
    parts = []
    if low is not None:
        parts.append(f"{'>=' if low_inclusive else '>'} {low}")
    if high is not None:
        parts.append(f"{'<=' if high_inclusive else '<'} {high}")
    return (" " + " and ".join(parts)) if parts else ""


def _fmt(options):
    return ", ".join(repr(o) for o in options)
