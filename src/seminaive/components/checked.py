"""A component read from a model file, every field checked against what the schema implies.

Examples
--------
>>> c = checked_component({"kind": "categorical", "attribute": 1, "column": 0, "n_values": 3},
...                       "state.components[1]", 1, 0, 3)
>>> c.n_values
3
>>> checked_component({"kind": "categorical", "attribute": 1, "column": -1, "n_values": 3},
...                   "state.components[1]", 1, 0, 3)
Traceback (most recent call last):
...
ValueError: state.components[1].column: expected 0 (the attribute's column), got -1
"""

import numpy as np

from .._state import brief, field as _field, numbers as _numbers
from .categorical import Categorical
from .discretized import Discretized
from .gaussian import Gaussian
from .kernel import BANDWIDTHS, Kernel

__all__ = ["checked_component", "checked_cuts", "checked_components"]

_KINDS = {c.kind: c for c in (Categorical, Discretized, Gaussian, Kernel)}


def _exact_int(d, key, want, where, what):
    v = d.get(key)
    if type(v) is not int or v != want:  # noqa: E721 - True is no index, and 1.0 no count
        raise ValueError(f"{where}.{key}: expected {want} ({what}), got {brief(v)}")


def checked_cuts(value, where):
    """Cut points from a model file: a list of finite numbers, strictly increasing."""
    if not isinstance(value, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise ValueError(f"{where}: expected a list of numbers")
    cuts = np.asarray(value, dtype=np.float64)
    if not np.isfinite(cuts).all() or (np.diff(cuts) <= 0).any():
        raise ValueError(f"{where}: expected finite cut points in increasing order")
    return cuts


def _checked_levels(d, n, where):
    """The levels of a ladder's cuts (absent: no ladder, as files written before ladders): whole
    numbers from 1, one per cut point."""
    if "levels" not in d:
        return None
    v = d["levels"]
    if not isinstance(v, list) or len(v) != n or not all(type(x) is int and x >= 1 for x in v):  # noqa: E721
        raise ValueError(f"{where}.levels: expected a whole number >= 1 for each of the {n} cut points (the "
                         f"ladder's level it appears at), got {brief(v)}")
    return v


def checked_component(d, where, attribute, column, n_values=None, kinds=None):
    """The component a model file describes at ``where``: its kind among ``kinds`` (default: any
    attribute model), its ``attribute`` and ``column`` those the schema gives, a categorical one's
    ``n_values`` the attribute's, cut points finite and increasing, a bandwidth a rule's name or a
    positive finite number."""
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected an object")
    kind = d.get("kind")
    allowed = kinds or tuple(_KINDS)
    if kind not in allowed:
        raise ValueError(f"{where}.kind: expected one of {', '.join(allowed)}, got {brief(kind)}")
    _exact_int(d, "attribute", attribute, where, "its position")
    _exact_int(d, "column", column, where, "the attribute's column")
    cls = _KINDS[kind]
    if cls is Categorical:
        _exact_int(d, "n_values", n_values, where, "the attribute's number of values")
        return Categorical(attribute, column, n_values)
    if cls is Discretized:
        cuts = checked_cuts(d.get("cuts"), f"{where}.cuts")
        if "n_values" in d:
            _exact_int(d, "n_values", cuts.size + 1, where, "one more than the cut points")
        return Discretized(attribute, column, cuts, _checked_levels(d, cuts.size, where))
    if cls is Kernel:
        bw = d.get("bandwidth")
        ok = bw in BANDWIDTHS if isinstance(bw, str) else (
            isinstance(bw, (int, float)) and not isinstance(bw, bool) and np.isfinite(bw) and bw > 0)
        if not ok:
            raise ValueError(f"{where}.bandwidth: expected {' or '.join(BANDWIDTHS)} or a number > 0, "
                             f"got {brief(bw)}")
        return Kernel(attribute, column, bw)
    return Gaussian(attribute, column)


def checked_components(comps, stats, schema, k):
    """A Naive Bayes's components and their statistics from a model file (``state.components``,
    ``state.stats``), one per attribute of ``schema``, every field checked; ``k`` classes."""
    if len(comps) != len(schema) or len(stats) != len(comps):
        raise ValueError(f"state.components, state.stats: expected one per attribute ({len(schema)}), "
                         f"got {len(comps)} and {len(stats)}")
    out_comps, out_stats = [], []
    column = {i: p for block in (schema.nominal_indices, schema.numeric_indices) for p, i in enumerate(block)}
    for i, (c, st) in enumerate(zip(comps, stats)):
        attr = schema.attributes[i]
        comp = checked_component(c, f"state.components[{i}]", i, column[i],
                                 attr.n_values if attr.is_nominal else None,
                                 ("categorical",) if attr.is_nominal else ("gaussian", "kernel", "discretized"))
        out_comps.append(comp)
        out_stats.append(_component_stats(comp, _field(st, None, dict, f"state.stats[{i}]"), k, f"state.stats[{i}]"))
    return out_comps, out_stats


def _component_stats(comp, st, k, where):
    """A component's statistics from a model file, every array checked."""
    if comp.kind in ("categorical", "discretized"):
        return {"counts": _numbers(st.get("counts"), f"{where}.counts", (k, comp.n_values), low=0)}
    if comp.kind == "gaussian":
        out = {key: _numbers(st.get(key), f"{where}.{key}", (k,)) for key in ("weight", "mean", "m2")}
        if (out["weight"] < 0).any() or (out["m2"] < 0).any():
            raise ValueError(f"{where}: weights and squared deviations must be >= 0")
        out["scale"] = _numbers(st.get("scale"), f"{where}.scale", (1,), low=0)  # the moments' unit: never 0
        if out["scale"][0] <= 0:
            raise ValueError(f"{where}.scale: expected a number > 0, got {out['scale'][0]!r}")
        if "low" in st or "high" in st:  # the value range (files written before it lack it)
            lo, hi = (np.asarray(st.get(key), dtype=object) for key in ("low", "high"))
            if any(isinstance(v, bool) for v in (*lo.ravel(), *hi.ravel())):
                raise ValueError(f"{where}.low, {where}.high: expected one number each, got true/false")
            try:
                lo, hi = (np.asarray(v, dtype=np.float64) for v in (lo, hi))
            except (TypeError, ValueError):
                raise ValueError(f"{where}.low, {where}.high: expected one number each") from None
            empty = lo.shape == hi.shape == (1,) and lo[0] == np.inf and hi[0] == -np.inf  # no value seen
            if lo.shape != (1,) or hi.shape != (1,) or not (empty or (np.isfinite(lo).all() and np.isfinite(hi).all()
                                                                       and lo[0] <= hi[0])):
                raise ValueError(f"{where}.low, {where}.high: expected finite numbers, low <= high")
            out["low"], out["high"] = lo, hi
        return out
    n = np.asarray(st.get("x", []), dtype=object).shape
    out = {key: _numbers(st.get(key), f"{where}.{key}", n) for key in ("x", "y", "w")}
    out["n_classes"] = _numbers(st.get("n_classes"), f"{where}.n_classes", (1,))
    if (out["w"] < 0).any() or not np.isin(out["y"], np.arange(k)).all() or out["n_classes"][0] != k:
        raise ValueError(f"{where}: kernel classes and weights out of range")
    return out
