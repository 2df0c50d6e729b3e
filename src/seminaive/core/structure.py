"""A model's structure as a small value: which attributes are used, which are
joined, and which parent attributes each one has besides the class."""

from dataclasses import dataclass

import pandas as pd

from .counting import joint_codes

__all__ = ["Structure"]


@dataclass(frozen=True)
class Structure:
    """Groups of attribute indices (a group of two or more is one joined
    attribute over the Cartesian product of its members' values), the
    attributes left out, and ``parents``: for each group, the attributes it
    is conditioned on besides the class (empty for Naive Bayes and the
    Pazzani searches; a tree for TAN, up to k for kDB).

    Examples
    --------
    >>> s = Structure(groups=((0,), (1, 3)), n_attributes=4)
    >>> s.excluded, s.describe(["a", "b", "c", "d"])
    ((2,), 'a, b*d; left out: c')
    >>> t = Structure(((0,), (1,), (2,)), 3, parents=((), (0,), (0, 1)))
    >>> print(t.to_text(["a", "b", "c"]))
    a <- class
    b <- class, a
    c <- class, a, b
    """

    groups: tuple
    n_attributes: int
    parents: tuple = ()

    def parents_of(self, i):
        """The parent attributes (besides the class) of group ``i``."""
        return tuple(self.parents[i]) if self.parents else ()

    def to_text(self, names, class_name="class"):
        """One line per group: "attribute <- parents" (the class first), then what is left out."""
        lines = ["*".join(names[j] for j in g) + " <- " + ", ".join([class_name] + [names[p] for p in
                                                                                   self.parents_of(i)])
                 for i, g in enumerate(self.groups)]
        if self.excluded:
            lines.append("left out: " + ", ".join(names[j] for j in self.excluded))
        return "\n".join(lines)

    @property
    def excluded(self):
        used = {j for g in self.groups for j in g}
        return tuple(j for j in range(self.n_attributes) if j not in used)

    @property
    def n_used(self):
        return sum(len(g) for g in self.groups)

    def describe(self, names):
        parts = ["*".join(names[j] for j in g) for g in self.groups] or ["(no attribute: the class priors)"]
        text = ", ".join(parts)
        if self.excluded:
            text += "; left out: " + ", ".join(names[j] for j in self.excluded)
        return text

    def column_names(self, names):
        """The final model's columns: each group's members joined by "*"."""
        return ["*".join(names[j] for j in g) for g in self.groups]

    def to_dict(self):
        return {"groups": [list(g) for g in self.groups], "n_attributes": self.n_attributes,
                "parents": [list(p) for p in self.parents]}

    @classmethod
    def from_dict(cls, d):
        """The structure :meth:`to_dict` wrote; lists of whole numbers (not true/false, not 1.0) or a
        ValueError, and no attribute in two groups."""
        def indices(v):
            if not isinstance(v, list) or not all(type(j) is int for j in v):
                raise ValueError("expected lists of attribute indices")
            return tuple(v)
        if not isinstance(d, dict) or type(d.get("n_attributes")) is not int or not isinstance(d.get("groups"), list) \
                or not isinstance(d.get("parents", []), list):
            raise ValueError("expected n_attributes, groups and parents")
        groups = tuple(indices(g) for g in d["groups"])
        used = [j for g in groups for j in g]
        if len(set(used)) != len(used):
            raise ValueError("an attribute stands in two groups")
        return cls(groups, d["n_attributes"], tuple(indices(p) for p in d.get("parents", [])))

    def frame(self, names, codes, values, numeric, x):
        """The structured table the final model is fitted on and predicts from.

        ``codes[j]`` are attribute j's codes (discretized for numeric ones),
        ``values[j]`` its value labels; a numeric attribute alone keeps ``x[j]``
        when ``numeric[j]`` is true.
        """
        cols = {}
        for g in self.groups:
            if len(g) == 1:
                j = g[0]
                if numeric[j]:
                    cols[names[j]] = x[j]
                else:
                    cols[names[j]] = pd.Categorical.from_codes(codes[j], categories=pd.Index(values[j], dtype=object))
                continue
            code = joint_codes([codes[j] for j in g], [len(values[j]) for j in g])
            labels = [""]
            for j in g:
                labels = [f"{a}|{b}" if a else str(b) for a in labels for b in values[j]]
            cols["*".join(names[j] for j in g)] = pd.Categorical.from_codes(
                code, categories=pd.Index(labels, dtype=object))
        n = len(codes[0]) if len(codes) else 0
        return pd.DataFrame(cols, index=pd.RangeIndex(n))
