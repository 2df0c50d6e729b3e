"""Columns a reading leaves out: those the user names (``ignore``), an index column of row names, and the
row names a CSV header announces with an empty first name (R's ``write.csv``, pandas' ``to_csv``)."""

import dataclasses

from ..exceptions import ParameterError
from .schema import resolve_columns

__all__ = ["ROW_NAMES", "leave_out"]

ROW_NAMES = "(row names)"  # the name of a CSV file's first column whose header is empty (R's write.csv, pandas)


def leave_out(plan, ignore):
    """``plan`` with the columns ``ignore`` names (names or indices) left out of its names, declarations
    and rows; the class cannot be one of them."""
    drop = sorted(resolve_columns(ignore, plan.names, "ignore"))
    if not drop:
        return plan
    if plan.target is not None and plan.target in drop:
        raise ParameterError(f"ignore: {plan.names[plan.target]!r} is the class column; name another class "
                             f"(--target) or leave it in")
    keep = [j for j in range(len(plan.names)) if j not in drop]
    if len(keep) < 2 and plan.target is not None:
        raise ParameterError("ignore: every attribute left out; a model needs at least one besides the class")
    new = {j: k for k, j in enumerate(keep)}
    return dataclasses.replace(
        plan, names=[plan.names[j] for j in keep], declared=[plan.declared[j] for j in keep],
        target=None if plan.target is None else new[plan.target], dates=[new[j] for j in plan.dates if j in new],
        date_formats={new[j]: f for j, f in plan.date_formats.items() if j in new},
        drop=tuple(drop), width=len(plan.names), settled={})  # (sparse rows: the file's defaults, then left out)
