"""A Parquet or Arrow IPC file read once, its nominal value lists growing as the batches come.

The two-pass reading (:meth:`.arrow_file.ArrowFilePlan.encoded`) reads the nominal columns
first to settle their value lists. A model whose statistics grow with the value lists (a
Naive Bayes with Gaussian numbers: :mod:`seminaive.learning.growing_fit`) reads the file once
through :class:`OnePassArrow`: each batch's nominal columns are coded against the values met
so far (a dictionary column by its small dictionary, no string hashed per row), new values
taking the next codes; numbers go to float64 as in the two-pass reading. At the end the
DataFrame rules (:meth:`.arrow_file.ArrowFilePlan.nominal_attribute`: sorted strings, a
categorical's own order, the class's) settle each list from the same distinct values, and
every value met is placed in it by the same encoder, so the model is the two-pass one.
"""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .encoding import EncodedTable, code_dtype
from .arrow_values import encode_arrow
from .one_pass_csv import Rows
from .schema import NOMINAL, NUMERIC, Attribute, resolve_columns
from .value_index import ValueIndex

__all__ = ["OnePassArrow"]


class _Seen:
    """A nominal column's distinct values in order of first meeting, each batch's new ones kept
    as an Arrow array (``parts``) for the reading rules; ``whole``: a dictionary column whose
    unused entries count (a categorical's categories)."""

    def __init__(self, whole):
        self.index, self.parts, self.whole, self.present = ValueIndex(), [], whole, 0

    def codes(self, col):
        """A batch's column as ``(entry codes, rows)``: each row's entry (its dictionary entry, or its
        distinct value's) and each entry's code (one more entry, the last, for a missing row: -1);
        new values registered."""
        self.present += len(col) - col.null_count
        coded = col if pa.types.is_dictionary(col.type) else pc.dictionary_encode(col)  # Arrow's hashing
        entries, rows = coded.dictionary, coded.indices.cast(pa.int64())  # (indices may be unsigned: DuckDB's)
        rows = rows.fill_null(-1).to_numpy(zero_copy_only=False) if rows.null_count \
            else rows.to_numpy(zero_copy_only=False)
        values = entries.to_pylist()
        codes = self.index.codes(values)
        absent = codes < 0
        if absent.any():  # new values: those the rows use (all of a categorical's), in entry order
            used = np.ones(len(entries), dtype=bool) if self.whole or not pa.types.is_dictionary(col.type) \
                else np.bincount(rows[rows >= 0], minlength=len(entries)) > 0
            new = absent & used & ~entries.is_null(nan_is_null=True).to_numpy(zero_copy_only=False)
            if new.any():
                codes = self.index.grow(values, met=new)
                self.parts.append(entries.filter(pa.array(new)))
        entry = np.append(codes, np.int64(-1))  # one more entry, the last, for a missing row
        return entry, rows

    def positions(self, attribute, path):
        """Where each value met stands in ``attribute``'s final list."""
        if not self.parts:
            return np.zeros(0, dtype=np.int64)
        met = pa.chunked_array(self.parts).combine_chunks()
        return np.asarray(encode_arrow(met, attribute, path).codes, dtype=np.int64)


class OnePassArrow:
    """The one pass over a Parquet or Arrow IPC ``plan``
    (:class:`~seminaive.data.arrow_file.ArrowFilePlan`) in chunks of at most ``size`` rows;
    ``nominal`` names columns to read as nominal. Iterating yields
    :class:`~seminaive.data.one_pass_csv.Rows`; :meth:`final` gives what the whole file settles.
    """

    def __init__(self, plan, size, nominal=None):
        plan.check_width()
        self.plan, self.size = plan, size
        self.forced = resolve_columns(nominal, plan.names, "nominal")
        self.columns = [j for j in range(len(plan.names)) if j != plan.target]
        self.seen = {j: _Seen(pa.types.is_dictionary(plan.types[j])) for j in plan.nominal_columns(nominal)}

    def __iter__(self):
        plan, target = self.plan, self.plan.target
        nominal = [j for j in self.columns if j in self.seen]
        numeric = [j for j in self.columns if j not in self.seen]
        for batch in plan.batches(plan.names, self.size):
            entry, rows = self.seen[target].codes(batch.column(target))
            y = entry[rows]
            keep = None if (y >= 0).all() else np.flatnonzero(y >= 0)  # rows with a class
            coded = [self.seen[j].codes(batch.column(j)) for j in nominal]
            n = len(y) if keep is None else keep.size
            if not n:
                continue
            dtype = code_dtype(max([len(self.seen[j].index) for j in nominal], default=0))
            codes = np.empty((n, len(nominal)), dtype=dtype, order="F")  # laid out as the encoder does
            for k, (entry, rows) in enumerate(coded):
                np.take(entry.astype(dtype), rows if keep is None else rows[keep], out=codes[:, k])
            numbers = np.empty((n, len(numeric)), order="F")
            for k, j in enumerate(numeric):
                values = encode_arrow(batch.column(j), Attribute(plan.names[j], NUMERIC), plan.path)
                numbers[:, k] = values if keep is None else values[keep]
            attributes = tuple(Attribute(plan.names[j], NOMINAL, tuple(range(len(self.seen[j].index))))
                               if j in self.seen else Attribute(plan.names[j], NUMERIC) for j in self.columns)
            yield Rows(attributes, tuple(range(len(self.seen[target].index))),
                       EncodedTable(codes, numbers, np.zeros(len(nominal))), y if keep is None else y[keep])

    def final(self):
        """``(attributes, classes, value positions, class positions)`` as the whole file settles them
        (see :meth:`.one_pass_csv.OnePassCsv.final`)."""
        plan, target = self.plan, self.plan.target
        attributes, positions = [], []
        for j in self.columns:
            if j not in self.seen:
                attributes.append(Attribute(plan.names[j], NUMERIC))
                positions.append(None)
                continue
            s = self.seen[j]
            attributes.append(plan.nominal_attribute(j, s.parts, s.present, j in self.forced))
            positions.append(s.positions(attributes[-1], plan.path))
        s = self.seen[target]
        cls = plan.nominal_attribute(target, s.parts, s.present, target in self.forced)
        return tuple(attributes), tuple(cls.values), positions, s.positions(cls, plan.path)
