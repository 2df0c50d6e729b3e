"""Per-component statistics stacked into blocks: a wide table's thousands of Gaussian attributes
are floored and estimated on (components, K) arrays, not one dict at a time."""

import numpy as np

from .._scale import stats_scale

__all__ = ["StatsRows", "stacked", "stats_scales"]


class StatsRows(list):
    """Statistics dicts whose stacked rows (:func:`stacked`, :func:`stats_scales`) are worked out once:
    a wide table's floors and estimates read the same moments (a list made for one estimation, whose
    dicts are not changed meanwhile).

    Examples
    --------
    >>> rows = StatsRows([{"mean": np.array([1.0, 2.0])}, {"mean": np.array([3.0, 4.0])}])
    >>> stacked(rows, "mean") is stacked(rows, "mean")
    True
    """

    @property
    def blocks(self):
        if "_blocks" not in self.__dict__:
            self._blocks = {}
        return self._blocks


def _memo(stats_list, key, make):
    """``make()``, kept in a :class:`StatsRows`' blocks under ``key``."""
    if not isinstance(stats_list, StatsRows):
        return make()
    blocks = stats_list.blocks
    if key not in blocks:
        blocks[key] = make()
    return blocks[key]


def stacked(stats_list, key):
    """The rows ``key`` of every statistics dict, as ``np.stack`` stacks them ((components, K)), by one
    array construction (np.stack costs a wide table a Python step per row)."""
    return _memo(stats_list, key, lambda: _stacked(stats_list, key))


def _stacked(stats_list, key):
    rows = [st[key] for st in stats_list]
    try:
        out = np.array(rows)
    except ValueError:  # ragged rows: np.stack's own error
        out = None
    return out if out is not None and out.ndim == 2 and out.dtype != object else np.stack(rows)


def stats_scales(stats_list):
    """:func:`stats_scale` of every statistics dict, as an array of shape (components,)."""
    return _memo(stats_list, " scales", lambda: _stats_scales(stats_list))


def _stats_scales(stats_list):
    try:
        scales = np.array([st["scale"] for st in stats_list], dtype=np.float64)
    except (KeyError, ValueError, TypeError):
        scales = None
    if scales is None or scales.shape != (len(stats_list), 1):  # saved before scales existed, or odd shapes
        return np.array([stats_scale(st) for st in stats_list], dtype=np.float64)
    return scales[:, 0]
