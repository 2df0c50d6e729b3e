"""The schema of a data set: its attributes and its class.

A schema is a small immutable value: attribute names, for each nominal
attribute its ordered list of values, and which attributes are numeric.
Encoded data refer to nominal values by their position in that list.
"""

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from ..exceptions import ParameterError
from .int_block import LUT_LIMIT
from .value_index import ValueIndex

__all__ = ["Attribute", "Schema", "NOMINAL", "NUMERIC", "resolve_target", "resolve_columns"]

NOMINAL = "nominal"
NUMERIC = "numeric"


def _plain(value):
    """Turn a numpy scalar into the Python scalar JSON can hold."""
    return value.item() if hasattr(value, "item") and not isinstance(value, str) else value


@dataclass(frozen=True)
class Attribute:
    """One attribute (column) of a data set.

    Parameters
    ----------
    name : str
        The attribute's name.
    kind : {"nominal", "numeric"}
        Nominal attributes take one of ``values``; numeric ones take real numbers.
    values : tuple
        The ordered values of a nominal attribute (empty for numeric ones).

    Examples
    --------
    >>> a = Attribute("outlook", "nominal", ("sunny", "overcast", "rainy"))
    >>> a.n_values, a.is_nominal
    (3, True)
    """

    name: str
    kind: str
    values: tuple = field(default=())

    def __post_init__(self):
        if type(self.name) is not str:
            object.__setattr__(self, "name", str(self.name))
        if self.values or type(self.values) is not tuple:  # (a numeric attribute's () is kept: wide tables)
            object.__setattr__(self, "values", tuple(_plain(v) for v in self.values))

    @property
    def is_nominal(self):
        return self.kind == NOMINAL

    @property
    def n_values(self):
        return len(self.values)

    @cached_property  # made once: every encoding of a column asks it
    def index(self):
        """The look-up of this attribute's values to their codes (:class:`~.value_index.ValueIndex`)."""
        return ValueIndex(self.values)

    @cached_property
    def text_index(self):
        """The look-up of this attribute's values written as text (a file's tokens) to their codes."""
        if all(type(v) is str for v in self.values):
            return self.index
        return ValueIndex([str(v) for v in self.values])

    def to_dict(self):
        d = {"name": self.name, "kind": self.kind}
        if self.is_nominal:
            d["values"] = list(self.values)
        return d

    @classmethod
    def from_dict(cls, d):
        return cls(d["name"], d["kind"], tuple(d.get("values", ())))


@lru_cache(maxsize=1 << 16, typed=True)
def _nominal(name, values):
    """``Attribute(name, NOMINAL, values)`` for a string name and a tuple of plain values, made
    without converting them again, one shared instance per name and values (a frozen value: an
    integer block's thousands of attributes, fitted again for every fold)."""
    attribute = object.__new__(Attribute)
    attribute.__dict__.update(name=name, kind=NOMINAL, values=values)
    return attribute


@lru_cache(maxsize=8)
def _numeric_attributes(names):
    """The numeric attributes named ``names`` (a tuple of strings), one shared tuple per names (a
    wide table's schema, inferred again for every fold, costs a look-up of its names)."""
    return tuple(map(numeric_attribute, names))


@lru_cache(maxsize=1 << 16, typed=True)  # typed: True and 1 name different columns
def numeric_attribute(name):
    """``Attribute(name, NUMERIC)``, one shared instance per name (a frozen value: a wide table's
    schema, inferred again for every fold, costs a look-up per column rather than a construction)."""
    return Attribute(name, NUMERIC)


@dataclass(frozen=True)
class Schema:
    """The attributes of a data set, and optionally its class attribute.

    Examples
    --------
    >>> s = Schema((Attribute("age", "numeric"), Attribute("sex", "nominal", ("f", "m"))))
    >>> s.names, s.nominal_indices, s.numeric_indices
    (('age', 'sex'), (1,), (0,))
    """

    attributes: tuple
    target: Attribute = None

    def __post_init__(self):
        object.__setattr__(self, "attributes", tuple(self.attributes))

    @classmethod
    def of_numeric(cls, names):
        """The schema of numeric attributes named ``names`` (strings), its names and indices
        known without a look at each attribute (a wide table's schema, inferred for every fit).

        Examples
        --------
        >>> s = Schema.of_numeric(["a", "b"])
        >>> s == Schema((Attribute("a", "numeric"), Attribute("b", "numeric"))), s.numeric_indices
        (True, (0, 1))
        """
        names = tuple(names)
        schema = cls(_numeric_attributes(names))
        schema.__dict__.update(names=names, nominal_indices=(), numeric_indices=tuple(range(len(names))),
                               nominal_widths=np.zeros(0, dtype=np.intp))
        return schema

    @classmethod
    def of_int_block(cls, names, present):
        """The schema of nominal attributes named ``names`` (strings) whose values are the
        integers ``present`` marks (attributes, width) as present, in order, its names,
        indices and integer look-up table worked out from the mask at once.

        Examples
        --------
        >>> s = Schema.of_int_block(["a", "b"], np.array([[True, False, True], [True, True, False]]))
        >>> [a.values for a in s.attributes], s.values_are_codes, s.integer_lut.tolist()
        ([(0, 2), (0, 1)], False, [[0, -1, 1, -1], [0, 1, -1, -1]])
        """
        names, present = tuple(names), np.asarray(present, dtype=bool)
        d, width = present.shape
        rows, cols = np.nonzero(present)  # row-major: each attribute's values in order
        n_values = np.bincount(rows, minlength=d)
        ends = np.cumsum(n_values).tolist()
        flat = cols.tolist()
        attrs = tuple(_nominal(n, tuple(flat[a:b])) for n, a, b in zip(names, [0] + ends[:-1], ends))
        schema = cls(attrs)
        prefix = present == (np.arange(width) < n_values[:, None])  # values 0 .. m - 1: their own codes
        schema.__dict__.update(names=names, nominal_indices=tuple(range(d)), numeric_indices=(),
                               values_are_codes=bool(prefix.all()), nominal_widths=n_values.astype(np.intp))
        top = int(cols.max()) if cols.size else -1
        if d and n_values.all() and top < LUT_LIMIT and d * (top + 2) <= LUT_LIMIT:
            lut = np.full((d, top + 2), -1, dtype=np.int8 if int(n_values.max()) < 127 else np.int32)
            lut[rows, cols] = (np.cumsum(present, axis=1) - 1)[rows, cols]
            schema.__dict__["integer_lut"] = lut
        return schema

    @cached_property  # a frozen value: worked out once (a wide table asks often)
    def names(self):
        return tuple(a.name for a in self.attributes)

    @cached_property
    def nominal_indices(self):
        return tuple([i for i, a in enumerate(self.attributes) if a.kind == NOMINAL])

    @cached_property
    def numeric_indices(self):
        return tuple([i for i, a in enumerate(self.attributes) if a.kind != NOMINAL])

    @cached_property
    def nominal_widths(self):
        """The number of values of each nominal attribute, an array."""
        return np.array([self.attributes[i].n_values for i in self.nominal_indices], dtype=np.intp)

    @cached_property
    def values_are_codes(self):
        """Whether every attribute is nominal with the values 0 .. m - 1 (integer codes are their own codes)."""
        return all(a.is_nominal and a.values == tuple(range(a.n_values)) for a in self.attributes)

    @cached_property
    def integer_lut(self):
        """Every attribute's code of each integer value, (attributes, largest value + 2): -1 where the
        value is not in its list, the last column standing for any value beyond them all; None unless
        every attribute is nominal with non-negative integer values below ``LUT_LIMIT`` (as a
        column's own look-up table takes them) and the table holds at most ``LUT_LIMIT`` cells."""
        values = [a.values for a in self.attributes]
        if not values or not all(a.is_nominal and a.values for a in self.attributes) or not all(
                type(v) is int for vs in values for v in vs):
            return None
        top = max(max(vs) for vs in values)
        if min(min(vs) for vs in values) < 0 or top >= LUT_LIMIT or len(values) * (top + 2) > LUT_LIMIT:
            return None
        widest = max(len(vs) for vs in values)
        lut = np.full((len(values), top + 2), -1, dtype=np.int8 if widest < 127 else np.int32)
        sizes = [len(vs) for vs in values]
        rows = np.repeat(np.arange(len(values)), sizes)
        lut[rows, np.fromiter((v for vs in values for v in vs), dtype=np.int64, count=rows.size)] = \
            np.concatenate([np.arange(m) for m in sizes])
        return lut

    def __len__(self):
        return len(self.attributes)

    def to_dict(self):
        return {"attributes": [a.to_dict() for a in self.attributes],
                "target": self.target.to_dict() if self.target is not None else None}

    @classmethod
    def from_dict(cls, d):
        target = Attribute.from_dict(d["target"]) if d.get("target") else None
        return cls(tuple(Attribute.from_dict(a) for a in d["attributes"]), target)


def resolve_target(target, names, path=None):
    """The column index of the class: a name, an index (negative counts from the end)."""
    if target is None:
        return len(names) - 1
    if isinstance(target, (int, np.integer)) and not isinstance(target, bool):
        if not -len(names) <= target < len(names):
            raise ParameterError(f"target: column index {target} is out of range for "
                                 f"{len(names)} columns")
        return int(target) % len(names)
    if str(target) in names:
        return names.index(str(target))
    if str(target).lstrip("-").isdigit():
        return resolve_target(int(target), names, path)
    raise ParameterError(f"target: no column named {target!r}"
                         + (f" in {path}" if path else "") + f" (columns: {', '.join(names)})")


def resolve_columns(spec, names, what="nominal"):
    """The column indices ``spec`` names: None (none), "all", a name, or a list of
    names and indices (negative ones count from the end); anything else is an
    error naming the parameter ``what``.

    Examples
    --------
    >>> sorted(resolve_columns(["b", -1], ["a", "b", "c"]))
    [1, 2]
    >>> resolve_columns([4], ["a", "b", "c"])
    Traceback (most recent call last):
    ...
    seminaive.exceptions.ParameterError: nominal: column index 4 is out of range for 3 columns
    """
    if spec is None:
        return set()
    if isinstance(spec, str):
        if spec == "all":
            return set(range(len(names)))
        spec = [spec]
    chosen = set()
    for c in spec:
        if isinstance(c, (int, np.integer)) and not isinstance(c, bool):
            if not -len(names) <= c < len(names):
                raise ParameterError(f"{what}: column index {c} is out of range for {len(names)} columns")
            chosen.add(int(c) % len(names))
        elif str(c) in names:
            chosen.add(names.index(str(c)))
        else:
            raise ParameterError(f"{what}: expected 'all', or column names or indices; {c!r} is not a column "
                                 f"(columns: {', '.join(names)})")
    return chosen
