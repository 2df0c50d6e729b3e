"""A model's structure drawn as a network: the class node above, one node per
attribute (a joined group as one compound node), an arc from the class to
every attribute it uses, parent arcs between attributes, left-out attributes
greyed. Any model with a ``structure_`` (the Pazzani searches, TAN, kDB,
AnDE), an ensemble of such models (ESKDB: what at least half its members agree on, said in the
title) or a schema alone (Naive Bayes: every attribute a child of the class)."""

import numpy as np

from .core.structure import Structure
from ._atomic import save_figure

__all__ = ["structure_of", "plot_structure", "agreement"]

LADDER_FROM = 12  # more nodes than this, with parent arcs: one node a row, arcs beside the column


def structure_of(model):
    """The model's structure (Naive Bayes's star when it has none).

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> structure_of(NaiveBayes().fit(load("weather.nominal"))).groups
    ((0,), (1,), (2,), (3,))
    """
    s = getattr(model, "structure_", None)
    children = getattr(model, "normal_children_", ())
    if isinstance(s, Structure) and children:  # normal children (a selective kDB's): nodes with their parents
        return Structure(s.groups + tuple((c.attribute,) for c in children), s.n_attributes,
                         tuple(s.parents_of(i) for i in range(len(s.groups))) +
                         tuple(tuple(p.attribute for p in c.parents) for c in children))
    if isinstance(s, Structure):
        return s
    d = len(model.schema_)
    return Structure(tuple((i,) for i in range(d)), d)


def agreement(model):
    """An ensemble's members' agreement (ESKDB): the attributes and the parent arcs that at least half
    of its members hold, as one structure, with how many members hold each arc and each attribute;
    None for a model that is not an ensemble of structures.

    Examples
    --------
    >>> from seminaive import ESKDB
    >>> from seminaive.datasets import load
    >>> s, arcs, used = agreement(ESKDB(n_estimators=4).fit(load("weather.nominal")))
    >>> s.n_attributes, max(used.values()) <= 4
    (4, True)
    """
    members = getattr(model, "estimators_", None)
    if not members or not all(isinstance(getattr(m, "structure_", None), Structure) for m in members):
        return None
    from collections import Counter
    arcs, used = Counter(), Counter()
    for m in members:
        s = m.structure_
        for i, g in enumerate(s.groups):
            used.update(g)
            arcs.update((p, g[0]) for p in s.parents_of(i))
    d, half = len(model.schema_), len(members) / 2
    kept = [j for j in range(d) if used[j] >= half]
    parents = tuple(tuple(p for p in range(d) if p in kept and arcs[(p, j)] >= half) for j in kept)
    return Structure(tuple((j,) for j in kept), d, parents), arcs, used


def _per_row(labels):
    """How many nodes fit in a row: six short labels, fewer long ones."""
    longest = max((len(t) for t in labels), default=1)
    return max(4, min(6, 130 // max(longest, 1)))


def _layout(n, per_row=6):
    """Positions of n attribute nodes in rows of up to ``per_row`` below the class
    node (at 0, 1.2), alternate rows shifted so that arcs pass between nodes."""
    pos = []
    for k in range(n):
        row, col = divmod(k, per_row)
        in_row = min(per_row, n - row * per_row)
        xs = np.linspace(-1.8, 1.8, in_row) if in_row > 1 else np.array([0.0])
        shift = 0.3 if row % 2 else 0.0
        pos.append((xs[col] + shift, 0.45 - 0.55 * row))
    return np.array(pos)


def plot_structure(model, path=None, overwrite=False, title=None, class_name="class"):
    """Draw the model's structure; save it as PNG at ``path`` (atomically) or
    return the matplotlib figure.

    Examples
    --------
    >>> from seminaive import TAN
    >>> from seminaive.datasets import load
    >>> fig = plot_structure(TAN().fit(load("weather.nominal")), class_name="play")
    >>> [t.get_text() for t in fig.axes[0].texts][:3]
    ['play', 'outlook', 'temperature']
    """
    import matplotlib
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch

    if hasattr(model, "branches"):  # a tree of models (NBTree): its splits and leaves
        return _saved(_tree(model, title, plt), path, overwrite)
    together = agreement(model)
    s = structure_of(model) if together is None else together[0]
    names = list(model.schema_.names)
    normal = {c.attribute for c in getattr(model, "normal_children_", ())}
    nodes = [("*".join(names[j] for j in g) + (" ~ N" if g[0] in normal else ""), g, False) for g in s.groups] + \
            [(names[j], (j,), True) for j in s.excluded]
    if together is not None:  # an ensemble: what its members agree on, said in the title, on the ladder
        n, arcs = len(model.estimators_), together[1]
        kept = sum(len(s.parents_of(i)) for i in range(len(s.groups)))
        title = (title or f"{type(model).__name__}: the average of {n} selective kDBs") + \
            f"\nshown: the attributes and the {kept} parent arcs that at least\nhalf of them hold ({len(arcs)} arcs in all)"
        return _saved(_ladder(model, s, nodes, class_name, title, plt, FancyArrowPatch), path, overwrite)
    if len(nodes) > LADDER_FROM and any(s.parents_of(i) for i in range(len(s.groups))):
        return _saved(_ladder(model, s, nodes, class_name, title, plt, FancyArrowPatch), path, overwrite)
    per_row = _per_row([label for label, _, _ in nodes])
    pos = _layout(len(nodes), per_row)
    rows = (len(nodes) + per_row - 1) // per_row
    fig, ax = plt.subplots(figsize=(11.0 if len(nodes) > 3 else 7.0, 2.6 + 1.3 * rows))
    ax.set_xlim(-2.4, 2.4)
    ax.set_ylim(0.45 - 0.55 * rows, 1.45)
    ax.axis("off")
    box = dict(boxstyle="round,pad=0.35", fc="#dde8f5", ec="#3a5f8a")
    ax.text(0, 1.2, class_name, ha="center", va="center", fontsize=11, fontweight="bold",
            bbox=dict(boxstyle="round,pad=0.4", fc="#f5e3c8", ec="#a0662a"))
    where = {}
    for (label, group, left_out), (x, y) in zip(nodes, pos):
        style = dict(boxstyle="round,pad=0.35", fc="#eeeeee", ec="#aaaaaa") if left_out else box
        ax.text(x, y, label, ha="center", va="center", fontsize=9, color="#999999" if left_out else "black",
                bbox=style)
        for j in group:
            where[j] = (x, y)
        if not left_out and rows == 1:  # (below the first row, an arc from the class would cross its boxes)
            ax.add_patch(FancyArrowPatch((0, 1.12), (x, y + 0.08), arrowstyle="-|>", mutation_scale=12,
                                         color="#a0662a", lw=1.0, shrinkA=6, shrinkB=8))
    for i, g in enumerate(s.groups):
        for p in s.parents_of(i):
            ax.add_patch(FancyArrowPatch(where[p], where[g[0]], arrowstyle="-|>", mutation_scale=12,
                                         color="#3a5f8a", lw=1.4, connectionstyle="arc3,rad=0.25",
                                         shrinkA=14, shrinkB=14))
    sets = getattr(model, "parent_sets_", None)
    note = title or f"{type(model).__name__}"
    if sets:
        note += f": the average of {len(sets)} models, each super-parent set a parent of every other attribute"
    if rows > 1:
        note += "\nevery attribute in blue depends on the class (its arcs are said, not drawn across the rows)"
    if s.excluded:
        note += " (grey: left out)"
    if normal:
        note += "; ~ N: a normal density given the class and its parents"
    ax.set_title(note, fontsize=10)
    fig.tight_layout()
    return _saved(fig, path, overwrite)


def _tree(model, title, plt):
    """A tree drawn from ``model.branches()``: leaves side by side in depth-first order, each split over
    the middle of its children, each branch labelled with its value."""
    nodes = model.branches()
    children = {}
    for at, parent, _, _ in nodes:
        children.setdefault(parent, []).append(at)
    x, depth, order = {}, {}, iter(range(len(nodes)))

    def place(at, level):
        depth[at] = level
        kids = children.get(at, [])
        for kid in kids:
            place(kid, level + 1)
        x[at] = next(order) if not kids else (x[kids[0]] + x[kids[-1]]) / 2

    place(nodes[0][0], 0)
    leaves = sum(1 for at, *_ in nodes if at not in children)
    deepest = max(depth.values())
    fig, ax = plt.subplots(figsize=(min(40.0, max(7.0, 0.9 * leaves)), 1.6 + 1.2 * deepest))
    ax.axis("off")
    for at, parent, edge, label in nodes:
        px, py = x[at], -depth[at]
        leaf = at not in children
        ax.text(px, py, label, ha="center", va="center", fontsize=7 if leaf else 8,
                bbox=dict(boxstyle="round,pad=0.3", fc="#e3f0e0" if leaf else "#dde8f5",
                          ec="#4a7a3a" if leaf else "#3a5f8a"))
        if parent >= 0:
            ax.plot([x[parent], px], [-depth[parent], py], color="#777777", lw=0.8, zorder=0)
            ax.text((x[parent] + px) / 2, (-depth[parent] + py) / 2, edge, ha="center", va="center", fontsize=6,
                    color="#333333", bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none"))
    ax.set_xlim(min(x.values()) - 1, max(x.values()) + 1)
    ax.set_ylim(-deepest - 0.6, 0.6)
    ax.set_title(title or f"{type(model).__name__}: {leaves} leaves, each a Naive Bayes", fontsize=10)
    fig.tight_layout()
    return fig


def _saved(fig, path, overwrite):
    """The figure, or its PNG file written atomically."""
    if path is None:
        return fig
    return save_figure(fig, path, overwrite)


def _topological(s):
    """The groups' order for the ladder: every parent above its children, otherwise as given."""
    placed, order = set(), []
    remaining = list(range(len(s.groups)))
    while remaining:
        ready = [i for i in remaining if all(p in placed for p in s.parents_of(i))] or remaining[:1]
        order.append(ready[0])
        placed.update(s.groups[ready[0]])
        remaining.remove(ready[0])
    return order


def _ladder(model, s, nodes, class_name, title, plt, FancyArrowPatch):
    """A large structure as a ladder: the class on top, one attribute a row (parents above their
    children), and beside the column one vertical lane per parent, from the parent's row down to
    its last child, with an arrow from the lane into each child's row; lanes have their own
    colours and never cross a label. The class arcs are said, not drawn (every attribute in
    use has one)."""
    order = _topological(s)
    rows = [nodes[i] for i in order] + [n for n in nodes if n[2]]
    parents = sorted({p for i in order for p in s.parents_of(i)}, key=lambda p: order.index(_group_of(s, p)))
    fig, ax = plt.subplots(figsize=(max(5.5, 4.0 + 0.22 * len(parents)), 1.4 + 0.3 * len(rows)))
    ax.axis("off")
    ax.set_ylim(-len(rows) + 0.4, 1.6)
    ax.text(0.0, 1.0, class_name, ha="left", va="center", fontsize=10, fontweight="bold",
            bbox=dict(boxstyle="round,pad=0.3", fc="#f5e3c8", ec="#a0662a"))
    where = {}
    for r, (label, group, left_out) in enumerate(rows):
        ax.text(0.0, -r, label, ha="left", va="center", fontsize=8, color="#999999" if left_out else "black",
                bbox=dict(boxstyle="round,pad=0.2", fc="#eeeeee" if left_out else "#dde8f5",
                          ec="#aaaaaa" if left_out else "#3a5f8a"))
        for j in group:
            where[j] = -r
    longest = max(len(label) for label, _, _ in rows)
    edge = 0.11 * longest + 0.3  # data units to the right of the longest label (8 pt text)
    gap = 0.45
    ax.set_xlim(-0.1, edge + gap * (len(parents) + 1))
    colours = plt.get_cmap("tab10").colors
    incoming = {i: 0 for i in order}
    for k, p in enumerate(parents):
        x, colour = edge + gap * (k + 1), colours[k % len(colours)]
        children = [i for i in order if p in s.parents_of(i)]
        low = min(where[s.groups[i][0]] for i in children)
        top = where[p] + 0.16  # out of a parent above its row's middle, into a child below it
        ax.plot([edge - 0.15, x, x], [top, top, low], color=colour, lw=1.0, solid_joinstyle="round")
        ax.plot([edge - 0.15], [top], "o", color=colour, ms=3)
        for i in children:
            y = where[s.groups[i][0]] - 0.16 * incoming[i]
            incoming[i] += 1
            ax.add_patch(FancyArrowPatch((x, y), (edge - 0.15, y), arrowstyle="-|>", mutation_scale=8,
                                         color=colour, lw=1.0, shrinkA=0, shrinkB=0))
    note = (title or type(model).__name__) + "\na lane from each parent (dot) into its children (arrows);"
    note += "\nevery attribute in blue also depends on the class"
    if s.excluded:
        note += "; grey: left out"
    ax.set_title(note, fontsize=9, loc="left")
    fig.tight_layout()
    return fig


def _group_of(s, j):
    """The index of the group holding attribute j."""
    return next(i for i, g in enumerate(s.groups) if j in g)
