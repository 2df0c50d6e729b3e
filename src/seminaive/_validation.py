"""One helper that validates parameters, so every message has the same form.

The message names the parameter, says what was expected and shows what came.
"""

import functools
import numbers

from ._state import brief
from .exceptions import ParameterError

__all__ = ["check_param", "validate_params", "check_cv", "check_priors", "check_bandwidth", "check_prior_dict",
           "check_prior_names",
           "ValidatedParams"]

_INT_MAX = 2**63 - 1


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
        raise ParameterError(f"{name}: expected one of {_fmt(options)}, got {brief(value)}")
    if kind is None and options is not None:
        raise ParameterError(f"{name}: expected one of {_fmt(options)}, got {brief(value)}")
    if kind in ("number", "int"):
        ok = isinstance(value, numbers.Integral if kind == "int" else numbers.Real)
        what = "an integer" if kind == "int" else "a number"
        if not ok or isinstance(value, bool):
            raise ParameterError(f"{name}: expected {what}{_range(low, high, low_inclusive, high_inclusive)}, "
                                 f"got {brief(value)}")
        bad_low = low is not None and (value < low if low_inclusive else value <= low)
        bad_high = high is not None and (value > high if high_inclusive else value >= high)
        if bad_low or bad_high or value != value:
            raise ParameterError(f"{name}: expected {what}{_range(low, high, low_inclusive, high_inclusive)}, "
                                 f"got {brief(value)}")
        if kind == "int" and abs(value) > _INT_MAX:  # numpy's integers hold no more
            raise ParameterError(f"{name}: expected an integer of at most {_INT_MAX:,}, got {brief(value)}")
    elif kind == "bool" and not isinstance(value, bool):
        raise ParameterError(f"{name}: expected True or False, got {brief(value)}")
    elif kind == "str" and not isinstance(value, str):
        raise ParameterError(f"{name}: expected a string, got {brief(value)}")
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


def check_priors(name, value):
    """Class priors: "laplace", "mle", "uniform", "m-estimate", or non-negative probabilities
    summing to 1 (their number is checked against the classes when fitting)."""
    if isinstance(value, str):
        return check_param(name, value, options=("laplace", "mle", "uniform", "m-estimate"))
    try:
        p = [float(v) for v in value]
    except (TypeError, ValueError):
        raise ParameterError(f"{name}: expected 'laplace', 'mle', 'uniform', 'm-estimate' or class probabilities, "
                             f"got {value!r}") from None
    if not p or any(v < 0 or v != v for v in p) or abs(sum(p) - 1.0) > 1e-8:
        raise ParameterError(f"{name}: expected non-negative probabilities summing to 1, got {p} "
                             f"(sum {sum(p):g})")
    return value


def check_bandwidth(name, value):
    """A kernel bandwidth rule ("silverman", "scott") or a positive number."""
    if isinstance(value, str):
        return check_param(name, value, options=("silverman", "scott"))
    return check_param(name, value, kind="number", low=0, low_inclusive=False)


def check_prior_dict(name, value):
    """Normal-Gamma prior parameters: None, or a dict (checked key by key when fitting)."""
    if value is not None and not isinstance(value, dict):
        raise ParameterError(f"{name}: expected a dict of mu0, k0, a0, b0 (or attribute name -> such a dict), "
                             f"got {value!r}")
    return value


def check_cv(name, value):
    """Folds: a whole number of at least 2, or the folds themselves as (train, test) index pairs."""
    if isinstance(value, (list, tuple)):
        if not value or not all(isinstance(f, (list, tuple)) and len(f) == 2 for f in value):
            raise ParameterError(f"{name}: expected a number of folds >= 2 or a list of (train, test) index "
                                 f"pairs, got {value!r}")
        return value
    return check_param(name, value, kind="int", low=2)


def check_cv_or_none(name, value):
    """None (leave-one-out) or folds as :func:`check_cv` takes them."""
    if value is not None:
        check_cv(name, value)


def validate_params(estimator):
    """Check every parameter that ``estimator``'s class and its bases declare in
    ``_param_rules``: ``{name: dict of check_param's keywords}`` or
    ``{name: function(name, value)}``; a subclass's declaration of a name
    replaces its base's. Parameters that are all plain values (strings, numbers,
    None) and the same, of the same types, as at the estimator's last check are
    not checked again (a refit: a fold, a member, a search step)."""
    specs = _declared(type(estimator))
    values = tuple(getattr(estimator, name) for name in specs) + (getattr(estimator, "nominal", None),)
    plain = all(type(v) in _PLAIN for v in values)
    key = tuple(map(type, values)) + values if plain else None
    if key is not None and estimator.__dict__.get("_checked_params") == key:
        return
    for (name, spec), value in zip(specs.items(), values):
        if callable(spec):
            spec(name, value)
        else:
            check_param(name, value, **spec)
    if "nominal" not in specs and hasattr(estimator, "nominal"):
        check_nominal("nominal", estimator.nominal)
    estimator.__dict__["_checked_params"] = key


_PLAIN = (str, int, float, type(None))  # immutable: a value equal to a checked one of its type passes too


@functools.lru_cache(maxsize=None)
def _declared(klass):
    """The constraints ``klass`` and its bases declare, by name (a subclass's replacing its base's)."""
    specs = {}
    for base in reversed(klass.__mro__):
        specs.update(base.__dict__.get("_param_rules", {}))
    return specs


def check_nominal(name, value):
    """None, "all", or a list of column names or indices (what ``nominal=`` takes everywhere)."""
    ok = value is None or value == "all" or (isinstance(value, (list, tuple)) and all(
        isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)) for v in value))
    if not ok:
        raise ParameterError(f"{name}: expected None, 'all' or a list of column names or indices, "
                             f"got {brief(value)}")


class ValidatedParams:
    """Mixin: ``_check_params()`` checks the declared constraints (see
    :func:`validate_params`); estimators call it first thing in ``fit``. The rules live in
    ``_param_rules``: scikit-learn reads ``_parameter_constraints`` in a format of its own, which
    here declares nothing, so that its ``_validate_params`` passes and its checks do not misread ours."""

    _param_rules = {}
    _parameter_constraints = {}  # scikit-learn's: no constraint of its format (ours: _param_rules)

    def _check_params(self):
        validate_params(self)


def check_prior_names(prior, names, keys):
    """A Normal-Gamma ``prior`` dict: global ``keys`` (numbers) and attribute names (of ``names``) with a
    dict of those keys each."""
    if not prior:
        return
    names = set(names)
    for k, v in prior.items():
        if k in keys:
            check_param(f"prior[{k!r}]", v, kind="number")
        elif k not in names or not isinstance(v, dict):
            raise ParameterError(f"prior: {k!r} is neither one of {', '.join(keys)} nor an attribute "
                                 f"name with a dict of them")
        else:
            for kk in v:
                if kk not in keys:
                    raise ParameterError(f"prior[{k!r}]: unknown key {kk!r}; expected {', '.join(keys)}")


def check_discretizers(name, value, options):
    """A discretizer's name among ``options``, or a list or tuple of distinct such names (the
    candidates a selective model chooses among by its leave-one-out score).

    Examples
    --------
    >>> check_discretizers("numeric", ("mdl", "equal_width"), ("mdl", "equal_width"))
    ('mdl', 'equal_width')
    >>> check_discretizers("numeric", [], ("mdl",))
    Traceback (most recent call last):
    ...
    seminaive.exceptions.ParameterError: numeric: expected one of 'mdl', or a list of distinct ones, got []
    """
    if isinstance(value, str):
        return check_param(name, value, options=options)
    if not isinstance(value, (list, tuple)) or not value or len(set(map(str, value))) != len(value) \
            or any(not isinstance(v, str) or v not in options for v in value):
        raise ParameterError(f"{name}: expected one of {_fmt(options)}, or a list of distinct ones, got {brief(value)}")
    return value


def discretizer_names(numeric):
    """A ``numeric`` parameter's discretizers as a tuple (one name, or the list's).

    Examples
    --------
    >>> discretizer_names("mdl"), discretizer_names(["mdl", "resolution"])
    (('mdl',), ('mdl', 'resolution'))
    """
    return (numeric,) if isinstance(numeric, str) else tuple(numeric)
