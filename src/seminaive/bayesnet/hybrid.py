"""Hybrid children: a numeric attribute that its intervals serve badly as a child, modelled instead
by a normal density (:class:`~seminaive.components.normal_child.NormalChild`) in each class, or in
each class and value of its first parent (the Gaussian children of Flores et al.'s HAODE and GAODE),
each cell's normal shrunk toward its class's by ``m`` rows' worth; its intervals still serve as a
parent of the other attributes.

Which attributes and which form: a selective kDB's chosen model is scored by the engine's exact
leave-one-out with each numeric attribute's table swapped for each form (given the class; given
the class and its first parent with m = 1, 4 or 16), and for an attribute the selection left out
with each form added, every step in one pass; the best step is kept while one improves the score
(the model's own ``scoring``), so an attribute goes normal only where the held-out score says the
cuts lose. The normal terms' statistics are the engine's (moments of the values over a power of
two about their largest magnitude), so a fit from a file, a Parquet file or Dask equals the fit in
memory. The variance floor is Naive Bayes's default rule: 1e-6 times the square of the range.
"""

import numpy as np

from .._scale import pow2_scale
from .._state import field
from ..components.gaussian import DEFAULT_VAR_SMOOTHING
from ..components.normal_child import NormalChild
from ..core.attributes import NormalGiven
from ..learning.engine import BaseAttribute, Given
from ..learning.greedy import climb, in_place
from ..learning.held_out import _merge_all

__all__ = ["HYBRIDS", "SHRINKAGE", "units", "engine_attributes", "swap_normal", "children_from_engine",
           "children_state", "children_from_state"]

HYBRIDS = ("gaussian",)
SHRINKAGE = (1.0, 4.0, 16.0)  # m: a cell's prior, in rows, toward its class's normal
MIN_DISTINCT = 8  # an attribute with fewer distinct values keeps its table (one interval per value at most)
MAX_PARENT_VALUES = 1024  # a first parent with more values is not offered (its cells would be dense moments)


def units(ranges, fewest=MIN_DISTINCT):
    """``{attribute: (scale, floor)}`` of the attributes of ``ranges`` (``{attribute: (smallest,
    largest, distinct values)}``) with at least ``fewest`` distinct values (fewer: codes a table
    holds exactly, not offered a normal form): the power of two about the largest magnitude the
    values are divided by, and the variance floor in those units (1e-6 times the squared range;
    of the squared value where the range is 0).

    Examples
    --------
    >>> units({2: (-3.0, 5.0, 40), 3: (0.0, 1.0, 2)})
    {2: (8.0, 1e-06)}
    """
    out = {}
    for j, (lo, hi, distinct) in ranges.items():
        if distinct < fewest:
            continue
        scale = float(pow2_scale(np.array([max(abs(lo), abs(hi))]))[0])
        width = (hi - lo) / scale
        out[j] = (scale, DEFAULT_VAR_SMOOTHING["range"] * (width * width if width > 0 else (hi / scale) ** 2 or 1.0))
    return out


def engine_attributes(readers, columns, xs, unit):
    """The engine's attributes: every reader's codes (``columns``, None from chunks), and for a
    numeric attribute of ``unit`` its values in those units (``xs``, None from chunks), its floor
    and scale, Gaussian when alone."""
    out = []
    for i, r in enumerate(readers):
        codes = None if columns is None else columns[i]
        if i in unit:
            x = None if xs is None else xs[i]
            out.append(BaseAttribute(str(i), codes, r.n_values, x, unit[i][1], unit[i][0], gaussian=True))
        else:
            out.append(BaseAttribute(str(i), codes, r.n_values, gaussian=False))
    return out


def scaled_values(readers, table, unit):
    """Each attribute's values in its units for the engine (None for an attribute not in ``unit``)."""
    return [table.numeric[:, r.column] / unit[i][0] if i in unit else None for i, r in enumerate(readers)]


def _forms(i, parent, engine):
    """The normal terms offered for attribute ``i``: given the class, and given its first ``parent``
    (None: none) with each shrinkage."""
    forms = [(i,)]
    if parent is not None and engine.attributes[parent].m <= MAX_PARENT_VALUES:
        forms += [NormalGiven((i,), (parent,), m) for m in SHRINKAGE]
    return forms


def swap_normal(engine, groups, numeric, first_parent, scoring):
    """The normal terms that replace tables of ``groups`` (:class:`Given` terms) or join them, and the
    record of each step (``attribute``, ``parent`` (-1: none), ``m``, ``score``): for each attribute of
    ``numeric`` every form (:func:`_forms`, its first parent ``first_parent[i]``) swapped for its table
    where it stands or, when the selection left it out, added; a step improving the score is taken while
    there is one (ties: none), and none is left when it stops. Returns (the chosen terms by attribute,
    the record). The steps go through the one greedy loop (:func:`~seminaive.learning.greedy.climb`),
    scored lazily."""
    steps = [(i, form) for i in numeric for form in _forms(i, first_parent.get(i), engine)]
    at = {g.child[0]: g for g in groups}  # each attribute's term now
    chosen, record = {}, []

    def propose(groups):
        return [("normal", [at[i]] if i in at else [], [form]) for i, form in steps if i not in chosen]

    def took(candidate, score, n):
        form = candidate[2][0]
        given = isinstance(form, NormalGiven)
        i = form.child[0] if given else form[0]
        at[i] = chosen[i] = form
        record.append({"attribute": int(i), "parent": int(form.parents[0]) if given else -1,
                       "m": float(form.m) if given else 0.0, "score": float(score)})

    climb(engine, list(groups), propose, scoring, lazy=True, apply=in_place, on_step=took)
    return dict(sorted(chosen.items())), record


def children_from_engine(engine, chosen, readers):
    """The :class:`NormalChild` of every chosen term and its statistics (the engine's, of all the rows)."""
    children, stats = [], []
    for i, form in chosen.items():
        a = engine.attributes[i]
        given = isinstance(form, NormalGiven)
        children.append(NormalChild(i, readers[i].column, [readers[p] for p in form.parents] if given else (),
                                    form.m if given else 1.0, a.scale, a.floor))
        st = _merge_all(engine.stats[form])  # the folds' parts together
        stats.append({key: np.asarray(st[key], dtype=np.float64).reshape(-1, engine.k) for key in ("weight", "mean", "m2")})
    return children, stats


def without_children(groups, chosen):
    """The :class:`Given` terms of ``groups`` whose child is not ``chosen``."""
    return [g for g in groups if not (isinstance(g, Given) and g.child[0] in chosen)]


def children_state(children, stats):
    return [c.to_dict(st) for c, st in zip(children, stats)]


def children_from_state(entries, schema, k, readers, where="state.normal_children"):
    """The children and statistics a model file holds (each checked; distinct attributes)."""
    children, stats = [], []
    for i, d in enumerate(field(entries, None, list, where)):
        c, st = NormalChild.from_dict(d, schema, k, readers, f"{where}[{i}]")
        children.append(c)
        stats.append(st)
    if len({c.attribute for c in children}) != len(children):
        raise ValueError(f"{where}: expected one child per attribute")
    return children, stats
