"""Fitting from files too large for memory, chunk by chunk (predicting on them: :mod:`.predict_files`).

CSV and header-less KEEL files are read twice: a first pass settles each
column's type (numeric when every present value is a number) and its value
list (in order of first appearance), exactly as the in-memory readers
decide; the second pass feeds ``partial_fit``. ARFF and KEEL files with a
header declare their schema, so one pass suffices. Memory stays bounded by
the chunk size, whatever the file's length.
"""

import csv
import functools
import io
import os

import numpy as np
import pandas as pd

from .._target import declared_labels
from .._validation import check_param
from ..data.summary import MISSING_TOKENS, ColumnSummary
from ..data.filebase import read_description
from ..data._text import open_text, sniff_separator
from ..data.io import guess_format
from ..data.arff import DateAttribute, parse_header
from ..data.schema import resolve_columns, resolve_target
from ..exceptions import DataFormatError
from .exact import check_rows, exact_chunks, widths_ok
from .arrow_csv import ArrowRowError, arrow_columns, arrow_serves, arrow_summaries

__all__ = ["iter_file_chunks", "fit_file"]



def _header_lines(path):
    """The lines of an ARFF/KEEL header, up to and including @data."""
    lines = []
    with open_text(path) as fh:
        for line in fh:
            lines.append(line.rstrip("\r\n"))
            if line.strip().lower().startswith("@data"):
                return lines
    raise DataFormatError("no @data section", path=path)


def _typed_reader(path, chunksize, skiprows, header, names, quotechar, dtype=None, usecols=None, sep=","):
    """pandas' C parser, missing tokens as NaN, the given column types (compression by the file's suffix)."""
    try:
        return pd.read_csv(path, sep=sep, chunksize=chunksize, dtype=dtype, usecols=usecols, na_values=list(MISSING_TOKENS),
                           keep_default_na=False, skiprows=skiprows, header=0 if header else None, names=names,
                           comment="%" if quotechar == "'" else None, quotechar=quotechar, skipinitialspace=True,
                           skip_blank_lines=True, encoding="utf-8-sig")
    except pd.errors.EmptyDataError:
        raise DataFormatError("the file is empty", path=path) from None


def _reader(path, chunksize, skiprows, header, names, quotechar, sep=","):
    try:
        return pd.read_csv(path, sep=sep, chunksize=chunksize, dtype=str, keep_default_na=False, na_filter=False,
                           skiprows=skiprows, header=0 if header else None, names=names, comment="%"
                           if quotechar == "'" else None, quotechar=quotechar, skipinitialspace=True,
                           skip_blank_lines=True, encoding="utf-8-sig")
    except pd.errors.EmptyDataError:
        raise DataFormatError("the file is empty", path=path) from None


def _kind(path, fmt):
    """The in-memory readers' format (:func:`seminaive.data.io.guess_format`), with KEEL
    files told apart by whether they have a header."""
    kind = guess_format(path, fmt)
    if kind == "keel":
        with open_text(path) as fh:
            first = next((line for line in fh if line.strip()), "")
        return "keel" if first.lstrip().startswith("@") else "keel-rows"
    return kind


def _plan(path, chunksize, fmt, target, header, sep=None):
    """(names, declared attributes or None, target index, reader factory, first data line)."""
    kind = _kind(path, fmt)
    if kind == "filebase":  # a .dat file beside its .des: comma-separated rows, the class last
        base = path[:-4] if path.lower().endswith((".dat", ".des", ".tst")) else path
        desc = read_description(base + ".des")
        attrs = list(desc.attributes) + [desc.target]
        names = [a.name for a in attrs]
        path = base + ".dat"
        make = lambda: _reader(path, chunksize, None, False, names, '"')  # noqa: E731
        typed = lambda dtype, usecols=None: _typed_reader(  # noqa: E731
            path, chunksize, None, False, names, '"', dtype, usecols)
        return names, attrs, len(names) - 1, make, 1, typed
    if kind in ("arff", "keel"):
        lines = _header_lines(path)
        h = parse_header(lines, path, keel=kind == "keel")
        if kind == "keel" and target is None and h.outputs:
            target = h.outputs[0]
        tidx = resolve_target(target, h.names, path)
        make = lambda: _reader(path, chunksize, len(lines), False, h.names, "'")  # noqa: E731
        typed = lambda dtype, usecols=None: _typed_reader(  # noqa: E731
            path, chunksize, len(lines), False, h.names, "'", dtype, usecols)
        return h.names, h.declared, tidx, make, len(lines) + 1, typed
    has_header = header and kind == "csv"
    with open_text(path) as fh:
        head = [line for _, line in zip(range(20), fh)]
    first = next((line for line in head if line.strip()), None)
    if first is None:
        raise DataFormatError("the file is empty", path=path)
    sep = sniff_separator(head) if sep is None else sep
    fields = next(csv.reader(io.StringIO(first), delimiter=sep, skipinitialspace=True))
    if has_header:
        names = [f.strip() for f in fields]
    else:
        names = [f"x{j + 1}" for j in range(len(fields))]
        if target is None:
            names[-1] = "class"
    tidx = resolve_target(target, names, path)
    make = lambda: _reader(path, chunksize, None, has_header, None if has_header else names, '"', sep)  # noqa: E731
    typed = lambda dtype, usecols=None: _typed_reader(  # noqa: E731
        path, chunksize, None, has_header, None if has_header else names, '"', dtype, usecols, sep)
    return names, None, tidx, make, 2 if has_header else 1, typed


def _infer(path, names, make, nominal):
    """First pass with pandas' C parser: each column summarized chunk by chunk
    (a chunk pandas reads as numbers keeps no value list), the summaries merged
    in file order; a column that turns out not numeric but lacks values (or that
    pandas read as booleans) is read again as text, so its values are exactly
    the file's."""
    summaries = [None] * len(names)  # ``nominal``: columns that need their values whatever they hold
    for _, chunk in _typed_chunks(make(None), path):
        for j, col in enumerate(chunk.columns):
            s = chunk[col]
            if s.dtype.kind in "iuf":
                part = ColumnSummary.of_numbers(int(s.notna().sum()), int(s.isna().sum()))
            elif s.dtype.kind == "O" or pd.api.types.is_string_dtype(s.dtype):
                part = ColumnSummary.of(s.fillna("").astype(str).str.strip().to_numpy(dtype=object))
            else:  # booleans and the like: their text is needed
                part = ColumnSummary(False, None, 0, len(s))
            summaries[j] = part if summaries[j] is None else summaries[j].merge(part)
    retext = [j for j, sm in enumerate(summaries)
              if sm is not None and not sm.complete and (not sm.numeric or j in nominal)]
    if retext:
        for j in retext:
            summaries[j] = None
        for _, chunk in _typed_chunks(make({names[j]: str for j in retext}, usecols=[names[j] for j in retext]), path):
            for j in retext:
                part = ColumnSummary.of(chunk[names[j]].fillna("").str.strip().to_numpy(dtype=object))
                summaries[j] = part if summaries[j] is None else summaries[j].merge(part)
    return [ColumnSummary() if sm is None else sm for sm in summaries]


def _typed_chunks(reader, path):
    line = 0
    try:
        for chunk in reader:
            yield line, chunk
            line += len(chunk)
    except pd.errors.ParserError as e:
        raise DataFormatError(f"malformed row ({e})", path=path) from None


def _text_errors(generate):
    """A chunk generator whose undecodable bytes are one error naming the file."""
    @functools.wraps(generate)
    def wrapped(path, *args, **kwargs):
        try:
            yield from generate(path, *args, **kwargs)
        except UnicodeDecodeError as e:
            raise DataFormatError(f"not UTF-8 text (byte {e.start} of a block)", path=os.fspath(path)) from None
    return wrapped


@_text_errors
def iter_file_chunks(path, chunksize=100_000, format=None, target=None, header=True, nominal=None, sep=None):
    """Yield ``(X, y)`` chunks of a data file with one schema for all of them
    (nominal columns as categoricals with the file's full value list). Files
    may be compressed (.gz, .bz2, .xz, .zip); a CSV file's separator is found
    as the in-memory reader finds it, unless ``sep`` gives it.

    Examples
    --------
    >>> from seminaive.datasets import dataset_path
    >>> [len(X) for X, y in iter_file_chunks(dataset_path("weather.nominal"), chunksize=5)]
    [5, 5, 4]
    """
    path = os.fspath(path)
    check_param("chunksize", chunksize, kind="int", low=1)
    if not os.path.exists(path):
        raise DataFormatError("no such file", path=path)
    if sep is None and _kind(path, format) == "csv":
        with open_text(path) as fh:
            sep = sniff_separator([line for _, line in zip(range(20), fh)])
    sep = sep or ","
    names, declared, tidx, make, first_line, typed = _plan(path, chunksize, format, target, header, sep)
    forced = resolve_columns(nominal, names)
    kind = _kind(path, format)
    if kind == "csv" and arrow_serves(path, sep):
        yield from _arrow_chunks(path, names, tidx, forced, header, sep, chunksize, make, first_line)
        return
    quote = "'" if kind in ("arff", "keel") else '"'
    if not widths_ok(path, len(names), first_line, quote, ord("%") if kind in ("arff", "keel") else None, sep):
        check_rows(path, names, first_line, quote, sep)  # quotes: the exact check
    if declared is None:  # the same rule as the in-memory readers, from summaries merged over the chunks
        declared = [sm.attribute(n, j in forced, False, j == tidx, path=path) for j, (n, sm) in
                    enumerate(zip(names, _infer(path, names, typed, forced | {tidx})))]
    elif tidx is not None and tidx not in forced and not declared[tidx].is_nominal:
        ColumnSummary().attribute(names[tidx], target=True, declared=declared[tidx], path=path)  # refused
    elif any(isinstance(a, DateAttribute) for a in declared):
        raise DataFormatError("date attributes need the in-memory reader (read the file without --chunksize)",
                              path=path)
    dtype = {a.name: (str if a.is_nominal or j == tidx else np.float64) for j, a in enumerate(declared)}
    index = {a.name: pd.Index([str(v) for v in a.values], dtype=object) for a in declared}
    try:
        for _, chunk in _typed_chunks(typed(dtype), path):
            cols = {}
            for j, a in enumerate(declared):
                col = chunk[a.name]
                if dtype[a.name] is str:
                    raw, uniques = pd.factorize(col)  # hashing in C; strip only the distinct values
                    found = pd.Index([str(v).strip() for v in uniques], dtype=object)
                    mapping = np.append(index[a.name].get_indexer(found), -1)
                    if (mapping[:-1] < 0).any():
                        raise ValueError(f"undeclared value in {a.name!r}")
                    codes = mapping[raw]
                    cols[a.name] = pd.Categorical.from_codes(codes, categories=index[a.name])
                else:
                    cols[a.name] = col.to_numpy(dtype=np.float64)
            frame = pd.DataFrame(cols)
            y = declared_labels(frame.pop(names[tidx]))
            keep = y.notna().to_numpy()
            yield frame[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
    except ValueError as e:
        # locate the problem exactly (file, line, column) with the strict reader
        for _ in exact_chunks(path, names, declared, tidx, make, first_line):
            pass
        raise DataFormatError(f"cannot read the data as declared ({e})", path=path) from None


def _csv_sep(path, fmt):
    """The separator of a CSV file (None for other formats)."""
    if _kind(path, fmt) != "csv":
        return None
    with open_text(path) as fh:
        return sniff_separator([line for _, line in zip(range(20), fh)])


def _block_size(path, chunksize):
    """Bytes per pyarrow batch for about ``chunksize`` rows (from the first lines' length)."""
    with open_text(path) as fh:
        head = [len(line.encode()) for _, line in zip(range(50), fh)]
    per_row = max(8, sum(head) // max(len(head), 1))
    return int(min(max(per_row * chunksize, 1 << 16), 1 << 22))


def _arrow_chunks(path, names, tidx, forced, header, sep, chunksize, make, first_line):
    """A CSV file through pyarrow (:mod:`.arrow_csv`): the first pass settles the
    schema, the second yields ``(X, y)`` chunks as :func:`iter_file_chunks` does."""
    block = _block_size(path, chunksize)
    try:
        summaries, floats = arrow_summaries(path, names, header, sep, forced | {tidx}, block)
    except ArrowRowError:
        check_rows(path, names, first_line, '"', sep)  # names the line
        raise
    declared = [sm.attribute(n, j in forced, False, j == tidx, path=path)
                for j, (n, sm) in enumerate(zip(names, summaries))]
    cats = [pd.Index([str(v) for v in a.values], dtype=object) if a.is_nominal else None for a in declared]
    try:
        for cols in arrow_columns(path, names, header, sep, list(range(len(names))), declared, floats, block):
            keep = cols[tidx] >= 0
            frame = pd.DataFrame({a.name: (pd.Categorical.from_codes(c[keep], categories=cats[j]) if a.is_nominal
                                           else c[keep]) for j, (a, c) in enumerate(zip(declared, cols)) if j != tidx})
            yield frame, declared_labels(pd.Series(pd.Categorical.from_codes(cols[tidx][keep], categories=cats[tidx]),
                                                   name=names[tidx]))
    except ValueError as e:
        for _ in exact_chunks(path, names, declared, tidx, make, first_line):
            pass
        raise DataFormatError(f"cannot read the data as declared ({e})", path=path) from None


def fit_file(model, path, chunksize=100_000, format=None, target=None, header=True, nominal=None,
             progress=None, sep=None):
    """Fit ``model`` (any estimator with ``partial_fit``) on a data file, chunk
    by chunk, with bounded memory; the result equals a fit on the whole file.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import dataset_path, load
    >>> m = fit_file(NaiveBayes(), dataset_path("weather.numeric"), chunksize=4)
    >>> bool(np.allclose(m.predict_proba(load("weather.numeric").X),
    ...                  NaiveBayes().fit(load("weather.numeric")).predict_proba(load("weather.numeric").X)))
    True
    """
    if hasattr(model, "_from_chunks"):  # the semi-naive family: passes over the chunks (bayesnet.streamed)
        return _fit_in_passes(model, path, (chunksize, format, target, header, nominal, sep))
    if not hasattr(model, "partial_fit"):
        from ..exceptions import ParameterError
        other = ("seminaive.search.search_file runs a search over a file's chunks" if hasattr(model, "_run")
                 else "read the file in memory (without --chunksize)")
        raise ParameterError(f"chunksize: {type(model).__name__} cannot be fitted chunk by chunk (no partial_fit); "
                             f"{other}")
    rows = 0
    for X, y in iter_file_chunks(path, chunksize, format, target, header, nominal, sep):
        if len(X):
            model.partial_fit(X, y)
            rows += len(X)
            if progress is not None:
                print(f"  {rows:,} rows", file=progress, flush=True)
    if rows == 0:
        raise DataFormatError("the file holds no labelled data rows", path=os.fspath(path))
    return model


class _FileChunks:
    """A file's chunks, read afresh at every pass."""

    def __init__(self, path, args):
        self.path, self.args = path, args

    def __iter__(self):
        return (c for c in iter_file_chunks(self.path, *self.args) if len(c[0]))


def _fit_in_passes(model, path, args):
    from ..bayesnet.streamed import fit_chunks
    from ..data.encoding import infer_schema
    source = _FileChunks(path, args)
    first = next(iter(source), None)
    if first is None:
        raise DataFormatError("the file holds no labelled data rows", path=os.fspath(path))
    X, y = first
    return fit_chunks(model, source, infer_schema(X, model.nominal), list(y.cat.categories))
