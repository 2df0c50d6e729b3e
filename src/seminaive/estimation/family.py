"""How the family's conditional tables are estimated, by name (TAN, kDB, selective kDB, AnDE and
ESKDB's ``estimation=``): each estimation declares, in the module that defines it, a factory from a
model's options, the line a model's printout gives it, and whether it smooths a whole table along its
parents together (then it has no held-out form, and the selections score with Lidstone's)."""

import sys
from dataclasses import dataclass
from typing import Callable

from ..registry import register_variant, registered

__all__ = ["TableEstimation", "declare", "table_estimations"]


@dataclass(frozen=True)
class TableEstimation:
    """One way of estimating the family's tables: ``make(model)`` the estimator from the model's
    options, ``describe(model)`` its line in the printout, ``hierarchical`` whether it smooths along
    the parents, ``rank`` its place among the names offered.

    Examples
    --------
    >>> from seminaive import TAN
    >>> table_estimations()["m-estimate"].describe(TAN(alpha=2.0))
    'm-estimate, m=2'
    """

    make: Callable
    describe: Callable
    hierarchical: bool = False
    rank: int = 0


def declare(name, description, estimation):
    """Register ``estimation`` (a :class:`TableEstimation`) as ``name``: the family's models then take
    ``estimation=name`` (the template test, ``tests/test_new_model.py``, declares Perks' prior so).

    Examples
    --------
    >>> from seminaive.estimation import Frequency
    >>> half = TableEstimation(make=lambda model: Frequency(alpha=0.5), describe=lambda model: "alpha 1/2", rank=90)
    >>> declare("half", "Lidstone with alpha 1/2", half)  # doctest: +SKIP
    >>> half.make(None).alpha
    0.5
    """
    register_variant("table_estimation", name, description, estimation, sys._getframe(1).f_globals.get("__name__"))


def table_estimations():
    """``{name: TableEstimation}`` of every estimation declared so far, in their ranks' order.

    Examples
    --------
    >>> import seminaive.estimation
    >>> list(table_estimations())[:5]  # (then any declared outside the package, by their ranks)
    ['frequency', 'm-estimate', 'hdp', 'hgs', 'hls']
    """
    return dict(sorted(registered("table_estimation").items(), key=lambda kv: kv[1].rank))
