"""Columns a reading leaves out: those the user names (``ignore``), an index column of row names, and the
row names a CSV header announces with an empty first name (R's ``write.csv``, pandas' ``to_csv``)."""

import dataclasses

from ..exceptions import ParameterError
from .schema import resolve_columns

__all__ = ["ROW_NAMES", "leave_out", "kept_columns"]

ROW_NAMES = "(row names)"  # the name of a CSV file's first column whose header is empty (R's write.csv, pandas)


def kept_columns(ignore, names, target):
    """``(drop, keep, target)``: the columns ``ignore`` names (names or indices) among ``names``, the
    others, and the class's index among those kept (None: unlabelled); the class cannot be left out, nor
    every attribute beside it. The one rule of every file plan (text, Parquet, Arrow)."""
    drop = sorted(resolve_columns(ignore, names, "ignore"))
    if target is not None and target in drop:
        raise ParameterError(f"ignore: {names[target]!r} is the class column; name another class (--target) or "
                             f"leave it in")
    keep = [j for j in range(len(names)) if j not in drop]
    if drop and len(keep) < 2 and target is not None:
        raise ParameterError("ignore: every attribute left out; a model needs at least one besides the class")
    return drop, keep, None if target is None else keep.index(target)


def leave_out(plan, ignore):
    """``plan`` with the columns ``ignore`` names (names or indices) left out of its names, declarations
    and rows (:func:`kept_columns`)."""
    drop, keep, target = kept_columns(ignore, plan.names, plan.target)
    if not drop:
        return plan
    new = {j: k for k, j in enumerate(keep)}
    return dataclasses.replace(
        plan, names=[plan.names[j] for j in keep], declared=[plan.declared[j] for j in keep],
        target=target, dates=[new[j] for j in plan.dates if j in new],
        date_formats={new[j]: f for j, f in plan.date_formats.items() if j in new},
        drop=tuple(drop), width=len(plan.names), settled={})  # (sparse rows: the file's defaults, then left out)
