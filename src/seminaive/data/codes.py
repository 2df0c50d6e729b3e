"""Nominal data already held as integer codes: the input for people who keep their data encoded
(a feature store, a database's dictionary columns, another library's factorized arrays). Every
model's ``fit`` and ``predict`` take it in place of a DataFrame and read the codes as they are:
no schema inference, no pass over values, no DataFrame. What the front end would check is
checked once, on the codes: integers, -1 (missing) up to each column's number of values less one.
"""

import numpy as np

from ..exceptions import ParameterError
from .encoding import EncodedTable
from .schema import NOMINAL, Attribute, Schema

__all__ = ["Codes"]


class Codes:
    """Nominal attributes as integer codes with declared widths.

    Parameters
    ----------
    codes : array-like of int, shape (n_samples, n_attributes)
        Each attribute's code per row: 0 to ``n_values[j] - 1``, or -1 where missing.
    n_values : sequence of int
        Each attribute's number of values (a value no row holds counts too: the model's tables
        have a cell for it).
    names : sequence of str, optional
        The attributes' names (default ``x0``, ``x1``, ...).
    values : sequence of sequences, optional
        Each attribute's value labels, in code order (default the codes as text: "0", "1", ...).

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> X = Codes([[0, 1], [1, 1], [1, 0], [0, -1]], n_values=[2, 2], names=["windy", "sunny"])
    >>> model = NaiveBayes().fit(X, ["no", "yes", "yes", "no"])
    >>> model.schema_.attributes[0]
    Attribute(name='windy', kind='nominal', values=('0', '1'))
    >>> model.predict(Codes([[1, 0]], n_values=[2, 2], names=["windy", "sunny"])).tolist()
    ['yes']
    """

    def __init__(self, codes, n_values, names=None, values=None):
        codes = np.asarray(codes)
        if codes.ndim != 2:
            raise ParameterError(f"codes: expected a 2-D array (rows, attributes), got {codes.ndim} dimension(s)")
        if codes.dtype.kind not in "iu":
            raise ParameterError(f"codes: expected integers, got an array of {codes.dtype}")
        d = codes.shape[1]
        widths = np.asarray(n_values)
        if widths.shape != (d,) or widths.dtype.kind not in "iu" or (widths < 1).any():
            raise ParameterError(f"n_values: expected {d} whole numbers >= 1 (one per column of codes), got "
                                 f"{np.asarray(n_values).tolist()!r}"[:300])
        names = [f"x{j}" for j in range(d)] if names is None else [str(n) for n in names]
        if len(names) != d or len(set(names)) != d:
            raise ParameterError(f"names: expected {d} distinct names (one per column of codes), got {len(names)}"
                                 + (" with repeats" if len(names) == d else ""))
        values = [tuple(str(v) for v in range(w)) for w in widths] if values is None else \
            [tuple(v) for v in values]
        if len(values) != d or any(len(v) != w for v, w in zip(values, widths)):
            raise ParameterError("values: expected one list of labels per column of codes, as long as its n_values")
        if codes.size:
            low, high = codes.min(axis=0), codes.max(axis=0)
            bad = np.flatnonzero((low < -1) | (high >= widths))
            if bad.size:
                j = int(bad[0])
                held = int(low[j]) if low[j] < -1 else int(high[j])
                raise ParameterError(f"codes: column {j} ({names[j]}) holds {held}; expected -1 (missing) to "
                                     f"{int(widths[j]) - 1}")
        self.codes = codes
        self.n_values = widths.astype(np.int64)
        self.names = tuple(names)
        self.schema = Schema(tuple(Attribute(n, NOMINAL, v) for n, v in zip(names, values)))

    @property
    def shape(self):
        return self.codes.shape

    def __len__(self):
        return self.codes.shape[0]

    def __getitem__(self, rows):
        """The codes of ``rows`` (an index, slice or mask of rows), the same attributes."""
        part = object.__new__(Codes)
        part.__dict__.update(self.__dict__, codes=self.codes[rows])
        if part.codes.ndim != 2:
            raise ParameterError("rows: expected an index array, slice or mask of rows (Codes select rows only)")
        return part

    def encoded_for(self, schema):
        """The encoded table for a model of ``schema``: the codes as they are, once the attributes
        are the schema's (names, in order, and numbers of values)."""
        if tuple(schema.names) != self.names:
            raise ParameterError(f"X: expected the attributes {', '.join(schema.names)}, got codes of "
                                 f"{', '.join(self.names)}"[:300])
        widths = [a.n_values if a.is_nominal else None for a in schema.attributes]
        for name, want, got in zip(self.names, widths, self.n_values.tolist()):
            if want != got:
                expected = "a numeric attribute" if want is None else f"{want} values"
                raise ParameterError(f"X: attribute {name!r} has {expected} in the model, got codes of {got} values")
        n = self.codes.shape[0]
        return EncodedTable(self.codes, np.empty((n, 0)), np.zeros(len(self.names), dtype=np.int64))
