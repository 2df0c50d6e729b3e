"""Nominal data already held as integer codes: the input for people who keep their data encoded
(a feature store, a database's dictionary columns, another library's factorized arrays). Every
model's ``fit`` and ``predict`` take it in place of a DataFrame and read the codes as they are:
no schema inference, no pass over values, no DataFrame. What the front end would check is
checked once, on the codes: integers, -1 (missing) up to each column's number of values less one.
A pyarrow table of dictionary columns is read as codes by :meth:`Codes.from_arrow`.
"""

import numpy as np

from ..exceptions import ParameterError
from .encoding import EncodedTable
from .schema import NOMINAL, Attribute, Schema
from .value_index import ValueIndex

__all__ = ["Codes"]


MAX_N_VALUES = 10_000_000  # the most values a declared width may give one attribute


class Codes:
    """Nominal attributes as integer codes with declared widths.

    Parameters
    ----------
    codes : array-like of int, shape (n_samples, n_attributes)
        Each attribute's code per row: 0 to ``n_values[j] - 1``, or -1 where missing.
    n_values : sequence of int
        Each attribute's number of values (a value no row holds counts too: the model's tables
        have a cell for it; 0: a column whose every code is -1, as a categorical with no categories).
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
        if widths.shape != (d,) or widths.dtype.kind not in "iu" or (widths < 0).any():
            raise ParameterError(f"n_values: expected {d} whole numbers >= 0 (one per column of codes), got "
                                 f"{np.asarray(n_values).tolist()!r}"[:300])
        names = [f"x{j}" for j in range(d)] if names is None else [str(n) for n in names]
        if (widths > MAX_N_VALUES).any():  # before a label is made for each value
            j = int(np.flatnonzero(widths > MAX_N_VALUES)[0])
            raise ParameterError(f"n_values: column {j} ({names[j] if j < len(names) else j}) declares "
                                 f"{int(widths[j]):,} values; at most {MAX_N_VALUES:,} (each value is a cell of "
                                 f"every table of the attribute)")
        if len(names) != d or len(set(names)) != d:
            raise ParameterError(f"names: expected {d} distinct names (one per column of codes), got {len(names)}"
                                 + (" with repeats" if len(names) == d else ""))
        values_given = values is not None
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
        self.labelled = values_given
        self.n_values = widths.astype(np.int64)
        self.names = tuple(names)
        self.schema = Schema(tuple(Attribute(n, NOMINAL, v) for n, v in zip(names, values)))

    @classmethod
    def from_arrow(cls, table):
        """The codes of a pyarrow ``Table`` or ``RecordBatch`` of dictionary columns (a Parquet
        file's dictionary columns, ``pyarrow.compute.dictionary_encode``): each column's indices as
        its codes (null: -1), its dictionary as its values, in order; chunks with different
        dictionaries are unified first. Nothing passes through pandas.

        Examples
        --------
        >>> import pyarrow as pa
        >>> t = pa.table({"windy": pa.array(["no", "yes", None, "no"]).dictionary_encode()})
        >>> X = Codes.from_arrow(t)
        >>> X.codes[:, 0].tolist(), X.schema.attributes[0].values
        ([0, 1, -1, 0], ('no', 'yes'))
        """
        import pyarrow as pa
        if isinstance(table, pa.RecordBatch):
            table = pa.Table.from_batches([table])
        if not isinstance(table, pa.Table):
            raise ParameterError(f"table: expected a pyarrow Table or RecordBatch, got {type(table).__name__}")
        for name, field in zip(table.column_names, table.schema):
            if not pa.types.is_dictionary(field.type):
                raise ParameterError(f"table: column {name!r} is {field.type}, not a dictionary column; encode it "
                                     f"first (pyarrow.compute.dictionary_encode)")
        table = table.unify_dictionaries()
        codes, values = np.empty((table.num_rows, table.num_columns), dtype=np.int64), []
        for j, column in enumerate(table.columns):
            chunks = column.chunks
            dictionary = chunks[0].dictionary if chunks else pa.array([], pa.string())
            labels = dictionary.to_pylist()
            if any(v is None for v in labels):
                raise ParameterError(f"table: column {table.column_names[j]!r} has a null among its dictionary's "
                                     f"values; a missing value is a null index")
            start = 0
            for chunk in chunks:
                indices = chunk.indices.cast(pa.int64()).fill_null(-1).to_numpy(zero_copy_only=False)
                codes[start:start + len(chunk), j] = indices
                start += len(chunk)
            values.append([str(v) for v in labels])
        return cls(codes, [len(v) for v in values], table.column_names, values)

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
        are the schema's (names, in order, and numbers of values). Codes with labels (``values``,
        :meth:`from_arrow`) in another order are read by label: a label the model does not know
        is missing (counted as unseen, as in a DataFrame)."""
        if tuple(schema.names) != self.names:
            raise ParameterError(f"X: expected the attributes {', '.join(schema.names)}, got codes of "
                                 f"{', '.join(self.names)}"[:300])
        codes, unseen = self.codes, np.zeros(len(self.names), dtype=np.int64)
        if schema is self.schema:  # (a fit on these codes: their own attributes)
            return EncodedTable(codes, np.empty((codes.shape[0], 0)), unseen)
        for j, (a, mine) in enumerate(zip(schema.attributes, self.schema.attributes)):
            if a.is_nominal and self.labelled and a.values != mine.values:
                # the one encoder maps its labels to the model's codes (-1: unknown; the last -1 reads a missing code)
                to = np.append(ValueIndex(list(a.values)).codes(list(mine.values)), -1).astype(np.int64)
                if codes is self.codes:
                    codes = self.codes.astype(np.int64)
                new = to[codes[:, j]]
                unseen[j] = int(((codes[:, j] >= 0) & (new < 0)).sum())
                codes[:, j] = new
            elif not a.is_nominal or a.n_values != self.n_values[j]:
                expected = "a numeric attribute" if not a.is_nominal else f"{a.n_values} values"
                raise ParameterError(f"X: attribute {a.name!r} has {expected} in the model, got codes of "
                                     f"{int(self.n_values[j])} values")
        return EncodedTable(codes, np.empty((codes.shape[0], 0)), unseen)
