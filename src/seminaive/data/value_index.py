"""The one encoder of a nominal attribute's values to codes.

Every input and every reader turns values into codes the same way, in three
steps of which only the first differs by where the data live:

1. find a batch's distinct entries and each row's entry: pandas' hashing
   (``pd.factorize``), a categorical's categories and codes, an Arrow
   dictionary column's dictionary and indices (or Arrow's own hashing);
2. ask the attribute's :class:`ValueIndex` for each entry's code: a schema's
   attribute holds a fixed one (:attr:`Attribute.index
   <seminaive.data.schema.Attribute.index>`), a one-pass reader grows one as it
   meets values;
3. gather the rows' codes through their entries (:func:`gather`; a missing row,
   entry -1, gets code -1).

A value outside a fixed list is absent: code -1 (read as missing and counted
as unseen by the callers), or another mark when the caller asks. The compiled
kernels read the codes (and a schema's integer look-up table, built from the
same values); none of them derives codes of its own.
"""

import numpy as np

__all__ = ["ValueIndex", "gather"]


class ValueIndex:
    """A nominal attribute's values in code order (code i is ``values[i]``) and the one look-up of
    values to codes; fixed (a schema's) or growing (values added in order of first meeting).

    Values are compared as Python compares them (``2 == 2.0``; text and numbers differ).

    Examples
    --------
    >>> v = ValueIndex(["sunny", "rainy"])
    >>> v.codes(["rainy", "snow", "sunny"]).tolist()
    [1, -1, 0]
    >>> v.grow(["snow", "rainy", "hail"]).tolist(), v.values
    ([2, 1, 3], ['sunny', 'rainy', 'snow', 'hail'])
    """

    __slots__ = ("values", "_code")

    def __init__(self, values=()):
        self.values = list(values)
        self._code = {v: i for i, v in enumerate(self.values)}

    def __len__(self):
        return len(self.values)

    def codes(self, entries, absent=-1):
        """Each entry's code, ``absent`` for a value not in the list (an int64 array)."""
        get = self._code.get
        try:
            return np.fromiter((get(v, absent) for v in entries), dtype=np.int64, count=len(entries))
        except TypeError:  # an unhashable entry (a list in an object column) is no value of any list
            return np.array([get(v, absent) if _hashable(v) else absent for v in entries], dtype=np.int64)

    def grow(self, entries, met=None):
        """Each entry's code, the entries not in the list yet added to it in order (only those
        ``met`` marks, a boolean array, when given; the others keep code -1)."""
        code, values = self._code, self.values
        for i, v in enumerate(entries):
            if v not in code and (met is None or met[i]):
                code[v] = len(values)
                values.append(v)
        return self.codes(entries)


def _hashable(v):
    try:
        hash(v)
    except TypeError:
        return False
    return True


def gather(entry_codes, rows):
    """Each row's code through its entry: ``rows`` the rows' entries (-1: missing, code -1).

    Examples
    --------
    >>> gather(np.array([2, 0]), np.array([1, -1, 0])).tolist()
    [0, -1, 2]
    """
    return np.append(np.asarray(entry_codes, dtype=np.int64), np.int64(-1))[rows]
