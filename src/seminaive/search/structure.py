"""A Naive Bayes structure: which attributes are used, and which are joined."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["Structure"]


@dataclass(frozen=True)
class Structure:
    """Groups of attribute indices (a group of two or more is one joined
    attribute over the Cartesian product of its members' values) and the
    attributes left out.

    Examples
    --------
    >>> s = Structure(groups=((0,), (1, 3)), n_attributes=4)
    >>> s.excluded, s.describe(["a", "b", "c", "d"])
    ((2,), 'a, b*d; left out: c')
    """

    groups: tuple
    n_attributes: int

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
        return {"groups": [list(g) for g in self.groups], "n_attributes": self.n_attributes}

    @classmethod
    def from_dict(cls, d):
        return cls(tuple(tuple(g) for g in d["groups"]), d["n_attributes"])

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
            code = np.zeros(len(codes[g[0]]), dtype=np.int64)
            missing = np.zeros(len(code), dtype=bool)
            labels = [""]
            for j in g:
                code = code * len(values[j]) + codes[j]
                missing |= codes[j] < 0
                labels = [f"{a}|{b}" if a else str(b) for a in labels for b in values[j]]
            code[missing] = -1
            cols["*".join(names[j] for j in g)] = pd.Categorical.from_codes(
                code, categories=pd.Index(labels, dtype=object))
        n = len(codes[0]) if len(codes) else 0
        return pd.DataFrame(cols, index=pd.RangeIndex(n))
