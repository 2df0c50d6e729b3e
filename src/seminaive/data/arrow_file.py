"""Parquet and Arrow IPC (Feather) files, read by record batches.

Such a file is a typed table, as a DataFrame is, so its columns follow the
DataFrame rules (:func:`seminaive.data.kinds.infer_schema`), not the text
rules of CSV: numbers (integers, floats, decimals) are numeric, and so are
dates and times (milliseconds since the epoch, as ARFF dates); strings and
booleans are nominal with sorted values; a dictionary column (a pandas
categorical) keeps its dictionary's order; the class's values likewise. A
model fitted from such a file therefore equals the one fitted on
``pandas.read_parquet(path)`` (or ``read_feather``), in memory or in batches.

A streamed read makes a first pass over the nominal columns alone (a columnar
file reads only those) to learn their value lists, then converts each batch (a
model whose statistics grow with the value lists reads the file once instead:
:mod:`.one_pass_arrow`):
a dictionary column maps its small dictionary onto the value list and its
indices through that map (no string is hashed per row), another column is
dictionary-encoded by pyarrow's hash first, each distinct value then looked up
once by the attribute's :class:`~.value_index.ValueIndex`; numbers are cast to
float64 with missing values as NaN.
"""

import os

import numpy as np
import pandas as pd
import pyarrow as pa

from ..exceptions import DataFormatError
from .dataset import class_values, concatenated, split_class
from .kinds import NUMBERS, column_kind, infer_schema
from .schema import NOMINAL, NUMERIC, Attribute, resolve_columns, resolve_target
from .summary import ColumnSummary
from .arrow_values import ARROW_ERRORS, distinct, encode_arrow, kind_of, one_line, values_type
from .left_out import kept_columns
from .one_pass_arrow import OnePassArrow
from ._text import strip_compression
from .formats import FileFormat, declare_format, file_format

__all__ = ["ArrowFilePlan", "ARROW_KINDS", "encode_batch"]


def _parquet():
    """pyarrow's Parquet module, imported when a Parquet file is read (a command reading CSV does
    without it)."""
    import pyarrow.parquet as pq
    return pq


def _parquet_batches(plan, columns, size):
    """A Parquet file's batches: its strings read as dictionary codes (nothing is hashed per row),
    row group by row group (memory stays flat: a dataset scanner reading ahead held 1 GB on 10M rows),
    at most a row group per batch (a batch that crosses one comes as two: twice the chunks)."""
    text = [n for n, t in zip(plan.names, plan.types) if pa.types.is_string(t) or pa.types.is_large_string(t)]
    reader = _parquet().ParquetFile(plan.path, read_dictionary=text, buffer_size=1 << 20, pre_buffer=False)
    groups = [reader.metadata.row_group(i).num_rows for i in range(reader.metadata.num_row_groups)]
    return reader.iter_batches(batch_size=max(1, min(size or (1 << 20), max(groups, default=1))), columns=columns)


def _ipc_reader(path):
    """An Arrow IPC file memory-mapped (or a stream, read in order)."""
    try:
        return pa.ipc.open_file(pa.memory_map(path))
    except pa.ArrowInvalid:
        return pa.ipc.open_stream(pa.memory_map(path))


def _ipc_batches(plan, columns, size):
    reader = _ipc_reader(plan.path)
    if isinstance(reader, pa.ipc.RecordBatchFileReader):
        return (reader.get_batch(i).select(columns) for i in range(reader.num_record_batches))
    return (b.select(columns) for b in reader)


declare_format(FileFormat("parquet", (".parquet", ".pq"), 40, schema=lambda path: _parquet().read_schema(path),
                          batches=_parquet_batches), "Parquet (typed columns, read by row groups)")
declare_format(FileFormat("arrow", (".arrow", ".feather", ".ipc"), 50, schema=lambda path: _ipc_reader(path).schema,
                          batches=_ipc_batches), "Arrow IPC and Feather (typed columns, memory-mapped)")
ARROW_KINDS = ("parquet", "arrow")  # the package's columnar formats (any declared one is read the same way)


class ArrowFilePlan:
    """How to read one Parquet or Arrow IPC file: its column ``names`` and
    types, the class column ``target`` (an index; None: unlabelled), the
    data's ``name``; :meth:`encoded` and :meth:`load` as the text readers'
    :class:`~seminaive.data.file_plan.FilePlan` has them."""

    def __init__(self, path, kind, target=None, unlabelled=False, ignore=None):
        self.path, self.kind, self.format = path, kind, file_format(kind)
        self.name = os.path.splitext(os.path.basename(strip_compression(path)))[0]
        try:  # (a corrupt file's names may not even be text)
            schema = self.format.schema(path)
        except ARROW_ERRORS as e:
            raise DataFormatError(f"not a readable {kind} file ({one_line(e)})", path=path) from None
        self._take_columns(schema, target, unlabelled, ignore)

    def _take_columns(self, schema, target, unlabelled, ignore):
        """The columns of an Arrow ``schema`` (a DataFrame's index columns left out), checked, and the class
        column among them."""
        path, kind = self.path, self.kind
        try:
            index = self.index_columns = _index_columns(schema)  # a DataFrame's index, as pandas reads it back
            kept = [j for j, n in enumerate(schema.names) if n not in index]
            self.names = [str(schema.names[j]) for j in kept]
            self.types = [schema.types[j] for j in kept]  # the file's (a string read as codes is a string)
        except ARROW_ERRORS as e:
            raise DataFormatError(f"not a readable {kind} file ({one_line(e)})", path=path) from None
        if not self.names:
            raise DataFormatError("the file holds no columns", path=path)
        if len(set(self.names)) != len(self.names):
            dup = next(n for n in self.names if self.names.count(n) > 1)
            raise DataFormatError(f"column name {dup!r} appears twice", path=path)
        target = None if unlabelled else resolve_target(target, self.names, path)  # (of the file's columns)
        drop, keep, target = kept_columns(ignore, self.names, target)
        if drop:  # the columns left out are never read (their types neither)
            self.names, self.types = [self.names[j] for j in keep], [self.types[j] for j in keep]
        for n, t in zip(self.names, self.types):
            if kind_of(t) is None:
                raise DataFormatError(f"column {n!r} holds {t} values; expected numbers, strings, booleans, "
                                      f"dates or dictionary (categorical) values", path=path)
        self.target = target
        self.settled = {}

    def batches(self, columns, size=None):
        """Record batches of the named ``columns``, of at most ``size`` rows (None: as stored), each
        validated in full first: a corrupt file is an error naming it, never a crash of the process."""
        try:
            for batch in self.format.batches(self, columns, size):
                batch.validate(full=True)  # a corrupt file's offsets and lengths, refused before any use (no crash)
                for start in range(0, batch.num_rows, size or max(batch.num_rows, 1)):  # IPC batches: cut in rows
                    yield batch.slice(start, size) if size else batch
        except ARROW_ERRORS as e:
            raise DataFormatError(f"cannot read the data ({one_line(e)})", path=self.path) from None

    def settle(self, nominal=None, numeric=None):
        """Every column's attribute, by the DataFrame rules, from a pass over the nominal columns."""
        key = (column_key(nominal), column_key(numeric))
        if key in self.settled:
            return self.settled[key]
        self.check_width()
        force_nom = resolve_columns(nominal, self.names, "nominal")
        nom = self.nominal_columns(nominal, numeric)
        parts, present = self.distinct_values(nom) if nom else ({}, {})
        attrs = [Attribute(n, NUMERIC) for n in self.names]
        for j in nom:
            attrs[j] = self.nominal_attribute(j, parts[j], present[j], j in force_nom)
        self.settled[key] = attrs
        return attrs

    def distinct_values(self, nom):
        """Per column of ``nom`` (indices), its distinct values (Arrow arrays, in file order) and its rows
        with a value, from one pass over those columns alone."""
        parts, present = {j: [] for j in nom}, {j: 0 for j in nom}
        for batch in self.batches([self.names[j] for j in nom]):
            for j, col in zip(nom, batch.columns):
                parts[j].append(distinct(col, pa.types.is_dictionary(self.types[j])))
                present[j] += len(col) - col.null_count
        return parts, present

    def check_width(self):
        """Refuse a labelled file of one column."""
        if len(self.names) == 1 and self.target is not None:
            hint = (f"; {', '.join(sorted(self.index_columns))} is a pandas index, which is not read as a column "
                    f"(reset_index() before writing)" if self.index_columns else "")
            raise DataFormatError(f"the file holds one column (no attribute besides the class){hint}", path=self.path)

    def nominal_columns(self, nominal=None, numeric=None):
        """The columns read as nominal: text columns (unless forced numeric), forced ones, the class."""
        force_nom = resolve_columns(nominal, self.names, "nominal")
        force_num = resolve_columns(numeric, self.names, "numeric") - {self.target}
        return [j for j, t in enumerate(self.types)
                if column_kind(kind_of(t), j in force_nom, j in force_num, None, j == self.target) == NOMINAL]

    def nominal_attribute(self, j, parts, present, forced):
        """The attribute of nominal column ``j`` by the DataFrame rules, from the distinct values of its
        batches (``parts``, Arrow arrays in file order; ``present``: its rows with a value; ``forced``:
        made nominal by the user)."""
        kind = values_type(self.types[j])
        seen = pd.Series(pa.chunked_array([p.cast(kind) for p in parts], kind).to_pandas(),
                         name=self.names[j]).drop_duplicates()
        if pa.types.is_dictionary(self.types[j]):
            seen = pd.Series(pd.Categorical([], categories=seen.dropna().tolist()), name=self.names[j])
        if j == self.target:
            values = class_values(seen)
            if kind_of(self.types[j]) == NUMBERS and not forced:
                ColumnSummary(True, values, 0, present)._check_class(self.names[j], None, self.path)
            return Attribute(self.names[j], NOMINAL, tuple(values))
        return infer_schema(seen.to_frame(), nominal="all" if forced else None).attributes[0]

    def one_pass(self, size, nominal=None):
        """The one pass over the file for a model whose statistics grow with the value lists
        (:class:`.one_pass_arrow.OnePassArrow`); None for an unlabelled file."""
        return None if self.target is None else OnePassArrow(self, size, nominal)

    def encoded(self, size=None, nominal=None, numeric=None):
        """Datasets of at most ``size`` rows (None: as the file's batches hold them) with the
        attributes :meth:`settle` gives (rows whose class is missing kept)."""
        attrs = self.settle(nominal, numeric)
        for batch in self.batches(self.names, size):
            yield encode_batch(batch, self.names, attrs, self.target, self.name, self.path)

    def load(self, nominal=None, numeric=None):
        """The whole file in memory."""
        parts = [d for d in self.encoded(None, nominal, numeric) if d.n_samples]
        if not parts:
            raise DataFormatError("the file holds no data rows", path=self.path)
        return concatenated(parts)

    def model_chunks(self, size, attrs, positions, label, unseen):
        """``(X, actual)`` chunks for a fitted model's attributes ``attrs`` read from the
        columns at ``positions`` (``label``: the class column's, or None); values outside
        a nominal attribute's list are read as missing and counted in ``unseen``."""
        columns = [self.names[j] for j in positions] + ([] if label is None else [self.names[label]])
        rows = 0
        for batch in self.batches(columns, size):
            rows += batch.num_rows
            X = pd.DataFrame({a.name: encode_arrow(batch.column(j), a, self.path, unseen)
                              for j, a in enumerate(attrs)}, columns=[a.name for a in attrs])
            actual = None
            if label is not None:
                actual = batch.column(len(attrs)).to_pandas().astype(object)
                actual = np.where(actual.isna(), None, actual).astype(object)
            yield X, actual
        if not rows:
            raise DataFormatError("the file holds no data rows", path=self.path)


def encode_batch(batch, names, attrs, target, name, path):
    """A record batch of the columns ``names`` as a Dataset with the attributes ``attrs`` (the column at
    ``target`` the class): what a plan's chunks are, on the driver or on a cluster's executor."""
    cols = [encode_arrow(batch.column(n), a, path) for n, a in zip(names, attrs)]
    frame = pd.DataFrame(dict(zip(names, cols)), columns=names)
    return split_class(frame, attrs, target, name, path)


def _index_columns(schema):
    """The columns pandas wrote for a DataFrame's index (``__index_level_0__``, or a named index)."""
    try:
        meta = schema.pandas_metadata or {}
    except (ValueError, TypeError):  # metadata that is not pandas' JSON: no index columns
        return set()
    return {c for c in meta.get("index_columns", []) if isinstance(c, str)}


def column_key(columns):
    """A column option (None, "all", names or indices) as a key of the passes' findings."""
    return columns if columns is None or isinstance(columns, str) else tuple(columns)
