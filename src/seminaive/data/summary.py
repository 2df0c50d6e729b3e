"""What one pass over a column of text tells, and the one rule that turns it
into an attribute.

Every text reader (in memory, or a file streamed in chunks) summarizes each
column per chunk and merges the summaries in file order: whether every
present value is a number, the values in order of first appearance, how many
are missing. :meth:`ColumnSummary.attribute` then decides the attribute's kind
and value list the same way for all of them.
"""

from dataclasses import dataclass, field

import re
import warnings

import numpy as np
import pandas as pd

from .kinds import EMPTY, NUMBERS, TEXT, column_kind
from .schema import NOMINAL, NUMERIC, Attribute
from ..exceptions import DataFormatError, KindWarning

__all__ = ["ColumnSummary", "MISSING_TOKENS", "class_order", "value_order"]

MISSING_TOKENS = frozenset({"?", "", "NA", "NaN", "nan", "<null>", "N/A"})


def _numbers(tokens):
    """Whether every token parses as a number."""
    try:
        np.asarray(tokens, dtype=np.float64)
        return True
    except (TypeError, ValueError):
        return False


_DECIMAL_COMMA = re.compile(r"^[-+]?\d*,\d+$")


def warn_kind_flip(name, values, path=None):
    """Warn (:class:`~seminaive.exceptions.KindWarning`, one line) when a column read as nominal by the
    kind rule holds mostly numbers: at least 5 distinct values, of which at least 80% are numbers (a stray
    word, a missing mark the reader does not know), or numbers written with a decimal comma."""
    if len(values) < 5:
        return
    numbers = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").notna().to_numpy()  # vectorized
    if numbers.sum() < 0.8 * len(values) and not any(_DECIMAL_COMMA.match(str(v)) for v in values[:1000]):
        return  # mostly words (an identifier column of a million values costs one pass)
    words = [v for v, is_number in zip(values, numbers) if not is_number]
    commas = [v for v in words if _DECIMAL_COMMA.match(str(v))]
    where = f"{path}: " if path else ""
    if commas and len(commas) == len(words):
        warnings.warn(f"{where}column {name!r} is read as nominal: its values are numbers with a decimal comma "
                      f"({commas[0]!r}); --decimal , (decimal=\",\") reads them as numbers", KindWarning, stacklevel=3)
    elif len(words) <= 0.2 * len(values):
        shown = ", ".join(repr(w) for w in words[:3]) + (", ..." if len(words) > 3 else "")
        warnings.warn(f"{where}column {name!r} is read as nominal: {len(words)} of its {len(values)} values ({shown}) "
                      f"{'is' if len(words) == 1 else 'are'} no number (mend {'it' if len(words) == 1 else 'them'}, or write "
                      f"a missing value as ? or leave it empty), so the column is no longer a number",
                      KindWarning, stacklevel=3)


def value_order(first_seen, forced):
    """The value list of a nominal column read from text: the order of first
    appearance, except that a column made nominal by the user whose values
    are all numbers is sorted by number (2, 9, 10).

    Examples
    --------
    >>> value_order(["10", "9", "2"], forced=True), value_order(["b", "a"], forced=True)
    (['2', '9', '10'], ['b', 'a'])
    """
    values = list(first_seen)
    return sorted(values, key=float) if forced and values and _numbers(values) else values


def class_order(values):
    """The order of classes that no header declares: by number when every class is a number, else
    sorted as text (the order ``fit(X, y)`` gives the same labels as strings or numbers).

    Examples
    --------
    >>> class_order(["10", "9", "2"]), class_order(["q", "p", "r"])
    (['2', '9', '10'], ['p', 'q', 'r'])
    """
    values = list(values)
    return sorted(values, key=float) if values and _numbers(values) else sorted(values)


@dataclass
class ColumnSummary:
    """One column's text: ``numeric`` (every present value a number), ``values``
    (distinct present values in order of first appearance; None when a pass
    that parsed numbers did not keep them), ``n_missing`` and ``n_present``.

    Examples
    --------
    >>> a = ColumnSummary.of(np.array(["1", "?", "2.5"], dtype=object))
    >>> b = ColumnSummary.of(np.array(["2.5", "x"], dtype=object))
    >>> s = a.merge(b)
    >>> s.numeric, s.values, s.n_missing, s.attribute("c").values
    (False, ['1', '2.5', 'x'], 1, ('1', '2.5', 'x'))
    """

    numeric: bool = True
    values: list = field(default_factory=list)
    n_missing: int = 0
    n_present: int = 0

    @classmethod
    def of(cls, tokens, missing=None):
        """The summary of an array of stripped strings (vectorized; ``missing``: their mask of
        missing tokens, when the caller has it)."""
        tokens = np.asarray(tokens, dtype=object)
        if missing is None:
            missing = pd.Series(tokens, dtype=object).isin(MISSING_TOKENS).to_numpy()
        distinct = pd.unique(tokens[~missing])
        return cls(_numbers(distinct), list(distinct), int(missing.sum()), int((~missing).sum()))

    @classmethod
    def of_numbers(cls, n_present, n_missing):
        """A chunk a parser read as numbers (its values not kept)."""
        return cls(True, None, n_missing, n_present)

    def merge(self, later):
        """This column's summary followed by a later part's."""
        if self.values is None or later.values is None:
            values = None
        else:
            values = list(dict.fromkeys(self.values + later.values))
        return ColumnSummary(self.numeric and later.numeric, values, self.n_missing + later.n_missing,
                             self.n_present + later.n_present)

    def _check_class(self, name, declared, path):
        if declared is not None and declared.is_nominal:
            return
        why = None
        if declared is not None:
            why = "is declared numeric"
        elif self.numeric and self.n_present and self.values is not None:
            numbers = np.asarray(self.values, dtype=np.float64)
            if not np.all(numbers == np.round(numbers)):
                why = "holds numbers that are not whole"
            elif numbers.size > 20 and numbers.size * 5 > self.n_present:
                why = f"holds {numbers.size} distinct numbers in {self.n_present} instances"
        if why:
            raise DataFormatError(f"the class column {name!r} {why}: a classifier needs a nominal class; name the "
                                  f"class column (--target, target=...), or make this one nominal (--nominal "
                                  f"{name}, nominal=[...]) to use its values as classes", path=path)

    @property
    def complete(self):
        """Whether the value list is known (a nominal column needs it)."""
        return self.values is not None

    def attribute(self, name, nominal=False, numeric=False, target=False, declared=None, path=None):
        """The one rule (:func:`~seminaive.data.kinds.column_kind`) on a column of text: a declared kind
        (a file header's) holds, unless the user forces ``nominal`` or ``numeric``; a column with no
        declaration is numeric when every present value is a number (or it has none), else nominal with
        its values in order of first appearance (sorted by number when the user
        made a numeric column nominal); the class is always nominal (undeclared classes sorted: :func:`class_order`), and a class
        column that looks like a measurement (declared numeric, or numbers some of
        which are not whole, or more than 20 distinct numbers averaging fewer than
        5 instances each) is refused unless the user names it nominal: Weka
        refuses a numeric class too, and a wrong class column (a CSV whose class
        is not the last column) shows up this way instead of as 1% accuracy."""
        if target and not nominal:
            self._check_class(name, declared, path)
        found = EMPTY if not self.n_present else NUMBERS if self.numeric else TEXT
        kind = column_kind(found, nominal, numeric, None if declared is None else declared.kind, target)
        if kind == NUMERIC:
            return Attribute(name, NUMERIC)
        if nominal:
            kept = declared.values if declared is not None and declared.is_nominal else ()
            return Attribute(name, NOMINAL, tuple(kept) or tuple(value_order(self.values or [], True)))
        if declared is not None and declared.is_nominal:
            return declared
        if target:  # undeclared classes: sorted, as scikit-learn's classes_ and every other route have them
            return Attribute(name, NOMINAL, tuple(class_order(self.values or [])))
        if declared is None and not numeric:
            warn_kind_flip(name, self.values or [], path)
        return Attribute(name, NOMINAL, tuple(value_order(self.values or [], False)))
