"""One reading of a data file, whole or in chunks: its format, its columns,
what its header declares, and its data rows through the one tokenizer of the
format (:mod:`.tokens`). The in-memory readers read the rows as one chunk;
the streamed ones (:mod:`seminaive.scale.files`) in chunks, the kinds of
undeclared columns settled by a first pass of :class:`.summary.ColumnSummary`
merged in file order, so both give the same rows, schema and errors.
"""

import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._names import DATA_FORMATS
from ..exceptions import DataFormatError, ParameterError
from ._rows import as_table, missing_mask, rows_to_dataset
from .arrow_csv import ArrowRestart, ArrowRowError, arrow_columns, arrow_options, arrow_summaries, block_size
from .dataset import concatenated, split_class
from ._text import open_binary, strip_compression
from .arff import DateAttribute, parse_header, to_milliseconds
from .arrow_file import ArrowFilePlan, column_key
from .formats import FileFormat, declare_format, file_format, format_of
from .filebase import read_description
from .left_out import ROW_NAMES, leave_out
from .one_pass_csv import OnePassCsv
from .schema import NUMERIC, Attribute, resolve_columns, resolve_target
from .summary import ColumnSummary
from .tokens import DECIMAL_COMMA, arff_rows, chunked, csv_rows, decimal_mark, separator, text_lines

__all__ = ["FilePlan", "plan_file", "guess_format", "FORMATS"]

FORMATS = DATA_FORMATS  # the package's (a format declared outside it joins them: .formats)
_KEEP_BYTES = 1 << 24  # a file up to 16 MB: its first pass's batches are kept for the second (no second read)


def guess_format(path, format=None):
    """The reader a file needs: ``format`` when given, else by its extension, as the declared
    formats claim them (:mod:`.formats`: ``.arff``; ``.dat`` is a filebase's learning data when a
    ``.des`` file stands beside it, else KEEL; ``.des``/``.tst`` filebase; Parquet for ``.parquet``
    and ``.pq``; Arrow IPC for ``.arrow``, ``.feather`` and ``.ipc``; CSV for ``.csv``, ``.txt``,
    ``.data`` and no extension).

    Examples
    --------
    >>> guess_format("data/iris.csv"), guess_format("x.pq"), guess_format("x.dat", "arff")
    ('csv', 'parquet', 'arff')
    """
    if format is not None:
        return file_format(format).name
    return format_of(path)


for _format, _text in ((FileFormat("arff", (".arff",), 10), "Weka's ARFF (dense and sparse rows)"),
                       (FileFormat("filebase", (".dat", ".des", ".tst"), 20,  # a .dat file beside a .des file
                                   lambda p: not strip_compression(p).lower().endswith(".dat")
                                   or os.path.exists(strip_compression(p)[:-4] + ".des")),
                        "a J filebase: .des description, .dat learning data, .tst test data"),
                       (FileFormat("keel", (".dat",), 30), "KEEL's .dat (an ARFF-like header)"),
                       (FileFormat("csv", (".csv", ".txt", ".data", ""), 60),
                        "delimited text, the separator and decimal mark found from the first rows")):
    declare_format(_format, _text)


@dataclass
class FilePlan:
    """How to read one file: ``kind`` (csv, arff, keel, keel-rows, filebase),
    column ``names``, the ``declared`` attribute of each column (None: to be
    inferred), the class column ``target`` (None: unlabelled), the data's
    ``name``; for CSV the separator ``sep`` and ``skip``, the lines up to the
    header's end, and ``decimal``, the decimal mark of its numbers (``","`` in a
    file written by R's ``write.csv2``); for ARFF/KEEL ``data_start``, the first
    line after @data."""

    path: str
    kind: str
    names: list
    declared: list
    target: object
    name: str
    sep: str = ","
    decimal: str = "."
    skip: int = 0
    data_start: int = 1
    dates: list = field(default_factory=list)
    date_formats: dict = field(default_factory=dict)  # a date column's strptime format (None: ISO 8601)
    sparse_defaults: list = None  # an ARFF file's value of each column where a sparse row leaves it out
    data_offset: int = 0
    drop: tuple = ()  # the file's columns left out (``ignore``, an index column), each row's fields without them
    width: int = 0  # the file's own number of columns (with those left out)
    settled: dict = field(default_factory=dict, repr=False, compare=False)  # a pass's findings, kept for the next

    @property
    def arrow_skip(self):
        """The physical lines before the data (pyarrow skips them)."""
        return self.skip if self.kind == "csv" else self.data_start - 1

    def rows(self):
        """``(line number, stripped fields)`` of every data row (the columns left out taken away)."""
        if self.kind == "csv":
            rows = csv_rows(self.path, self.sep)
            if self.skip:
                next(rows, None)
        else:
            rows = arff_rows(self.path, self.data_start, sparse_ok=self.kind != "arff",
                             comment=None if self.kind == "filebase" else "%", defaults=self.sparse_defaults)
        if not self.drop:
            return rows
        drop = set(self.drop)
        return ((n, [f for j, f in enumerate(fields) if j not in drop] if len(fields) == self.width else fields)
                for n, fields in rows)

    def chunks(self, size=None):
        """``(line numbers, rows)`` of at most ``size`` rows (all for None); ISO dates become milliseconds."""
        for linenos, rows in chunked(self.rows(), size):
            if self.decimal == "," and rows:  # a number written 3,25 is read as 3.25
                rows = [[f.replace(",", ".") if "," in f and DECIMAL_COMMA.match(f) else f for f in row]
                        for row in rows]
            if self.dates and len(rows):
                rows = as_table(rows, len(self.names), linenos, self.path).copy()
                for j in self.dates:
                    rows[:, j] = to_milliseconds(rows[:, j], self.names[j], self.path, linenos, j + 1,
                                                 self.date_formats.get(j))
            yield linenos, rows

    def settle(self, size, nominal=None, numeric=None):
        """Every column's attribute, as a read of the whole file decides it: undeclared or
        forced columns from their summaries merged over the chunks (one pass)."""
        force_nom = resolve_columns(nominal, self.names, "nominal")
        force_num = resolve_columns(numeric, self.names, "numeric")
        need = [j for j, a in enumerate(self.declared) if a is None or j in force_nom or j in force_num]
        if not need:
            return list(self.declared)
        summaries = {j: ColumnSummary() for j in need}
        first = {j: True for j in need}
        for linenos, rows in self.chunks(size):
            table = as_table(rows, len(self.names), linenos, self.path)
            missing = missing_mask(table)
            for j in need:
                part = ColumnSummary.of(table[:, j], missing[:, j])
                summaries[j] = part if first[j] else summaries[j].merge(part)
                first[j] = False
        return [summaries[j].attribute(n, j in force_nom, j in force_num, j == self.target, self.declared[j],
                                       self.path) if j in summaries else a
                for j, (n, a) in enumerate(zip(self.names, self.declared))]

    def dataset(self, rows, linenos, declared=None, nominal=None, numeric=None):
        """Rows of this file as a Dataset (``declared``: attributes settled already)."""
        return rows_to_dataset(rows, self.names, self.declared if declared is None else declared,
                               self.target, path=self.path, linenos=linenos, name=self.name, nominal=nominal,
                               numeric=numeric, unlabelled=self.target is None)

    def encoded(self, size=None, nominal=None, numeric=None):
        """Datasets of at most ``size`` rows (all for None), encoded with the
        attributes a read of the whole file settles (rows whose class is missing
        kept): through pyarrow when it splits this file as the tokenizer does
        (:func:`.arrow_csv.arrow_reads`), else through the tokenizer."""
        options = self.arrow_reading()
        if options is not None:
            yield from self._arrow_encoded(size, nominal, numeric, **options)
            return
        yield from self.encoded_by_tokens(size, nominal, numeric)

    def arrow_reading(self):
        """How pyarrow reads this file (:func:`.arrow_csv.arrow_options`: a scan of the file, once), or None
        (the tokenizer's reading: also for a file with columns left out)."""
        if self.drop:
            return None
        if "arrow" not in self.settled:
            self.settled["arrow"] = arrow_options(self)
        return self.settled["arrow"]

    def one_pass(self, size, nominal=None):
        """The one pass over a CSV file pyarrow reads, in chunks of ``size`` rows
        (:class:`.one_pass_csv.OnePassCsv`); None for any other file (declared kinds, or the tokenizer's)."""
        if self.kind not in ("csv", "keel-rows") or any(a is not None for a in self.declared) or self.target is None:
            return None
        options = self.arrow_reading()
        return None if options is None else OnePassCsv(self, size, nominal, **options)

    def _arrow_encoded(self, size, nominal, numeric, quoted=False):
        """:meth:`encoded` through pyarrow: a first pass summarizes the columns whose kinds are not declared
        and checks that the numeric ones parse; the second converts. On any error the tokenizer reads the
        file to name the first error's line and column."""
        names, declared = self.names, self.declared
        force_nom = resolve_columns(nominal, names, "nominal")
        force_num = resolve_columns(numeric, names, "numeric")
        need = {j for j, a in enumerate(declared) if a is None or j in force_nom or j in force_num}
        include = sorted(need | {j for j, a in enumerate(declared) if a is not None and not a.is_nominal})
        text = force_nom | {j for j, a in enumerate(declared) if j == self.target or (a is not None and a.is_nominal)}
        block = block_size(self.path, size or 1 << 40)
        key = ("arrow", column_key(nominal), column_key(numeric), block)
        every = list(range(len(names)))
        # a small file whose first pass reads every column: its batches kept for the second, if the types agree
        # (not a compressed one: its size on disk does not bound what its batches hold)
        small = strip_compression(self.path) == os.fspath(self.path) and os.path.getsize(self.path) <= _KEEP_BYTES
        kept = [] if include == every and small else None
        try:
            if key not in self.settled:  # the first pass: summaries of the columns (then kept: the file is the same)
                summaries, floats = (arrow_summaries(self.path, names, self.arrow_skip, self.sep, text, block,
                                                     include, quoted, keep=kept)
                                     if include else ([ColumnSummary()] * len(names), set()))
                self.settled[key] = ([summaries[j].attribute(n, j in force_nom, j in force_num, j == self.target,
                                                             declared[j], self.path)
                                      if j in need or j == self.target else declared[j]
                                      for j, n in enumerate(names)], floats)
            attrs, floats = self.settled[key]
            same = kept and floats == {j for j in floats if not attrs[j].is_nominal}  # every float column numeric
            for cols in arrow_columns(self.path, names, self.arrow_skip, self.sep, every, attrs, floats, block,
                                      quoted=quoted, batches=kept if same else None):
                n = len(cols[0]) if cols else 0
                for start in range(0, n, size or max(n, 1)):  # pyarrow's batches hold bytes: cut them in rows
                    yield self._from_columns([c[start:start + size] if size else c for c in cols], attrs)
        except (ArrowRowError, ArrowRestart, ValueError) as e:
            for _ in self.encoded_by_tokens(size, nominal, numeric):
                pass
            raise DataFormatError(f"cannot read the data ({e})", path=self.path) from None

    def encoded_by_tokens(self, size, nominal=None, numeric=None):
        """:meth:`encoded` through the tokenizer alone."""
        if size is None:  # one chunk: rows_to_dataset settles the kinds itself (one tokenizing pass)
            for linenos, rows in self.chunks(None):
                if len(rows):
                    yield self.dataset(rows, linenos, nominal=nominal, numeric=numeric)
            return
        key = ("tokens", column_key(nominal), column_key(numeric))
        if key not in self.settled:  # the first pass settles the kinds (then kept: the file is the same)
            self.settled[key] = self.settle(size, nominal, numeric)
        declared = self.settled[key]
        for linenos, rows in self.chunks(size):
            yield self.dataset(rows, linenos, declared)

    def _from_columns(self, cols, attrs):
        """A Dataset of pyarrow's converted columns (codes or floats); the numeric ones go into the frame
        as one block (a wide file: no pandas work per column). An infinite number is a ValueError: the
        tokenizer then reads the file to name its line."""
        for a, c in zip(attrs, cols):
            if not a.is_nominal and np.isinf(c).any():
                raise ValueError(f"column {a.name!r} holds an infinite number")
        nominal = {a.name: pd.Categorical.from_codes(c, categories=pd.Index([str(v) for v in a.values], dtype=object))
                   for a, c in zip(attrs, cols) if a.is_nominal}
        numeric = [(a.name, c) for a, c in zip(attrs, cols) if not a.is_nominal]
        if len(numeric) > 1:
            frame = pd.DataFrame(np.column_stack([c for _, c in numeric]), columns=[n for n, _ in numeric])
            if nominal:
                frame = pd.concat([frame, pd.DataFrame(nominal)], axis=1)[list(self.names)]
        else:
            frame = pd.DataFrame({**nominal, **dict(numeric)}, columns=self.names)
        return split_class(frame, attrs, self.target, self.name, self.path)

    def load(self, nominal=None, numeric=None):
        """The whole file in memory."""
        parts = [d for d in self.encoded(None, nominal, numeric) if d.n_samples]
        if not parts:
            raise DataFormatError("the file has a header but no data rows" if self.skip
                                  else "the file holds no data rows", path=self.path)
        return concatenated(parts)


def _header(path):
    """An ARFF/KEEL header's lines, up to and including @data, and their length in bytes (a BOM included)."""
    lines, size = [], 0
    for _, line in text_lines(path):
        lines.append(line.rstrip("\r\n"))
        size += len(line.encode("utf-8"))
        if line.strip().lower().startswith("@data"):
            break
    else:
        if not any(line.strip() for line in lines):
            raise DataFormatError("the file is empty", path=path)
        return lines, size  # parse_header names what is missing
    with open_binary(path) as fh:
        bom = fh.read(3) == b"\xef\xbb\xbf"
    return lines, size + 3 * bom


def _first_row(path):
    return next(arff_rows(path, comment="%"), (None, None))


def plan_file(path, format=None, target=None, header=True, sep=None, unlabelled=False, names=None, decimal=None,
              ignore=None, index_col=None):
    """The :class:`FilePlan` of a file (see :func:`_plan_file`), with the columns ``ignore`` names (names
    or indices) and the index column ``index_col`` (a column of row names) left out; a CSV file whose
    header's first name is empty (row names, as R's ``write.csv`` and pandas write them) leaves that
    column out by itself."""
    left_out = ([] if ignore is None else [ignore] if isinstance(ignore, (str, int)) else list(ignore)) + \
        ([] if index_col is None else [index_col])
    plan = _plan_file(path, format, target, header, sep, unlabelled, names, decimal, left_out)
    if ROW_NAMES in getattr(plan, "names", ()) and plan.names.index(ROW_NAMES) == 0:
        left_out.append(0)
    if not left_out:
        return plan
    if not isinstance(plan, FilePlan):  # a Parquet or Arrow file left them out of what it reads
        return plan
    if plan.target is not None and index_col is not None and resolve_columns(index_col, plan.names, "index_col") == {
            plan.target}:
        raise ParameterError(f"index_col: {plan.names[plan.target]!r} is the class column")
    return leave_out(plan, left_out)


def _plan_file(path, format=None, target=None, header=True, sep=None, unlabelled=False, names=None, decimal=None,
               ignore=()):
    """The :class:`FilePlan` of a file (see :func:`guess_format` for the formats).

    ``header``, ``unlabelled`` (no class column) and ``decimal`` (the numbers' decimal
    mark, ``"."`` or ``","``; default: found from the first rows, see
    :func:`.tokens.decimal_mark`) are for CSV files; ``names``
    names a header-less KEEL file's columns. A Parquet or Arrow file has an
    :class:`~seminaive.data.arrow_file.ArrowFilePlan`, read the same ways.
    """
    path = os.fspath(path)
    kind = guess_format(path, format)
    if file_format(kind).columnar:
        return ArrowFilePlan(path, kind, target, unlabelled, list(ignore) or None)
    if unlabelled and kind != "csv":
        raise ParameterError(f"unlabelled: only CSV, Parquet and Arrow files can leave out the class column, got "
                             f"a {kind} file")
    stem = os.path.splitext(os.path.basename(strip_compression(path)))[0]
    if decimal not in (None, ".", ","):
        raise ParameterError(f"decimal: expected '.' or ',' (the numbers' decimal mark), got {str(decimal)[:40]!r}")
    if kind == "csv":
        return _plan_csv(path, target, header, sep, unlabelled, stem, decimal)
    if decimal == ",":
        raise ParameterError(f"decimal: a decimal comma is read in CSV files only, got a {kind} file")
    if kind == "filebase":
        base = path[:-4] if path.lower().endswith((".dat", ".des", ".tst")) else path
        desc = read_description(base + ".des")
        attrs = list(desc.attributes) + [desc.target]
        return FilePlan(base + ".dat", kind, [a.name for a in attrs], attrs, len(attrs) - 1,
                        os.path.basename(base + ".dat"))
    if kind == "keel":
        line, first = _first_row(path)
        if first is None and not any(text.strip() for _, text in text_lines(path)):
            raise DataFormatError("the file is empty", path=path)
        with_header = next((text.strip().startswith("@") for _, text in text_lines(path) if text.strip()), False)
        if not with_header:
            if first is None:
                raise DataFormatError("the file holds no data rows (only comments)", path=path)
            width = len(first)
            if names is None:
                names = [f"x{j + 1}" for j in range(width)]
                if target is None:
                    names[-1] = "class"
            elif len(names) != width:
                raise DataFormatError(f"{len(names)} column names given for rows of {width} values",
                                      path=path, line=line)
            return FilePlan(path, "keel-rows", list(names), [None] * width, resolve_target(target, names, path),
                            stem)
    lines, offset = _header(path)
    h = parse_header(lines, path, keel=kind == "keel", ignore={c for c in ignore if isinstance(c, str)})
    if kind == "keel" and target is None and h.outputs:
        if len(h.outputs) != 1 or h.outputs[0] not in h.names:
            raise DataFormatError(f"@outputs must name one declared attribute, got {', '.join(h.outputs)}", path=path)
        target = h.outputs[0]
    dates = [j for j, a in enumerate(h.declared) if isinstance(a, DateAttribute)]
    formats = {j: h.declared[j].date_format for j in dates if h.declared[j].date_format}
    declared = [Attribute(a.name, NUMERIC) if isinstance(a, DateAttribute) else a for a in h.declared]
    # a sparse row's left-out values, as Weka reads them: 0, a nominal attribute's first value, 1970 for a date
    defaults = None if kind != "arff" else [
        ("1970-01-01T00:00:00" if j in dates else "0") if a is None or not a.is_nominal else
        (str(a.values[0]) if a.values else "?") for j, a in enumerate(h.declared)]
    if defaults is not None:
        for j in formats:
            defaults[j] = pd.Timestamp(0).strftime(formats[j].replace("%z", "+0000"))
    return FilePlan(path, kind, h.names, declared, resolve_target(target, h.names, path), h.relation or stem,
                    data_start=h.data_start + 1, dates=dates, date_formats=formats, sparse_defaults=defaults,
                    data_offset=offset)


def _plan_csv(path, target, header, sep, unlabelled, stem, decimal=None):
    sep = separator(path, sep)
    if decimal == "," and sep == ",":
        raise ParameterError("decimal: a decimal comma needs another field separator than the comma (--sep)")
    line, first = next(csv_rows(path, sep), (None, None))
    if first is None:
        raise DataFormatError("the file is empty", path=path)
    if header:
        names = list(first)
        if len(names) > 1 and not names[0] and all(names[1:]):  # row names (R's write.csv, pandas' index)
            names[0] = ROW_NAMES
        if any(not n for n in names):
            raise DataFormatError(f"column {names.index('') + 1} has no name in the header", path=path, line=line)
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise DataFormatError(f"column name {dup!r} appears twice in the header", path=path, line=line)
    else:
        names = [f"x{j + 1}" for j in range(len(first))]
        if not unlabelled and target is None:
            names[-1] = "class"
    if len(names) == 1 and not unlabelled:
        raise DataFormatError(f"the file parses to one column (no attribute besides the class) with the separator "
                              f"{sep!r}; if its fields are separated by another character, give it (--sep)", path=path)
    tidx = None if unlabelled else resolve_target(target, names, path)
    skip = line if header else 0
    if decimal is None:
        decimal = decimal_mark(csv_rows(path, sep), sep, skip)
    return FilePlan(path, "csv", names, [None] * len(names), tidx, stem, sep=sep, decimal=decimal, skip=skip)
