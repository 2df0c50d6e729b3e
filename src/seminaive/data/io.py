"""Loading a data file by its format."""

import os

from .._names import DATA_FORMATS
from ..exceptions import DataFormatError, ParameterError
from .arff import read_arff
from .csv import read_csv
from .filebase import read_filebase
from .keel import read_keel
from ._text import open_text, sniff_separator, strip_compression

__all__ = ["load_file", "load_for_model", "guess_format", "FORMATS"]

FORMATS = DATA_FORMATS


def guess_format(path, format=None):
    """The reader a file needs: ``format`` when given, else by its extension
    (``.arff``; ``.dat`` is a filebase's learning data when a ``.des`` file
    stands beside it, else KEEL; ``.des``/``.tst`` filebase; CSV for ``.csv``,
    ``.txt``, ``.data`` and no extension). The in-memory and streamed readers
    both ask here."""
    if format is not None:
        if format not in FORMATS:
            raise ParameterError(f"format: expected one of {', '.join(FORMATS)}, got {format!r}")
        return format
    ext = os.path.splitext(strip_compression(path))[1].lower()
    if ext == ".arff":
        return "arff"
    if ext == ".dat":
        return "filebase" if os.path.exists(path[:-4] + ".des") else "keel"
    if ext in (".des", ".tst"):
        return "filebase"
    if ext in (".csv", ".txt", ".data", ""):
        return "csv"
    raise DataFormatError(f"cannot tell the format from the extension {ext!r}; "
                          f"give one of {', '.join(FORMATS)}", path=path)


def load_file(path, format=None, target=None, header=True, nominal=None, numeric=None,
              unlabelled=False, sep=None):
    """Load a data file as a Dataset, choosing the reader by ``format`` or extension.

    ``unlabelled`` (CSV only) says the file has no class column.
    ``.arff`` is ARFF; ``.dat`` is a filebase's learning data when a ``.des``
    file stands beside it, else KEEL; ``.csv`` (and anything else) is CSV.

    Examples
    --------
    >>> from seminaive.datasets import dataset_path
    >>> load_file(dataset_path("weather.numeric")).schema.numeric_indices
    (1, 2)
    """
    path = os.fspath(path)
    fmt = guess_format(path, format)
    if unlabelled and fmt != "csv":
        raise ParameterError(f"unlabelled: only CSV files can leave out the class column, "
                             f"got a {fmt} file")
    if fmt == "csv":
        return read_csv(path, target=target, header=header, nominal=nominal, numeric=numeric,
                        unlabelled=unlabelled, sep=sep)
    if fmt == "arff":
        return read_arff(path, target=target, nominal=nominal, numeric=numeric)
    if fmt == "keel":
        return read_keel(path, target=target, nominal=nominal, numeric=numeric)
    if fmt == "filebase":
        return read_filebase(path, parts=("dat",)).learn
    raise ParameterError(f"format: expected one of {', '.join(FORMATS)}, got {fmt!r}")


def _csv_header(path, sep=None):
    """The first non-blank line of a CSV file, split into names."""
    import csv as _csv
    try:
        with open_text(path) as fh:
            head = [line for _, line in zip(range(20), fh)]
    except UnicodeDecodeError as e:
        raise DataFormatError(f"not UTF-8 text (byte {e.start})", path=path) from None
    sep = sniff_separator(head) if sep is None else sep
    first = next((line for line in head if line.strip()), None)
    return [] if first is None else [f.strip() for f in next(_csv.reader([first], delimiter=sep,
                                                                          skipinitialspace=True))]


def _labels(d):
    """A Dataset's class as an object array, None where missing (None for no class)."""
    if d.y is None:
        return None
    y = d.y.astype(object)
    return y.where(y.notna(), None).to_numpy(dtype=object)


def load_for_model(path, schema, format=None, target=None, header=True, unlabelled=None, sep=None,
                   with_class=False):
    """The attributes of a data file for a fitted model whose attributes ``schema``
    lists, as a DataFrame in the model's column order.

    The class column is optional: a CSV file whose header names only the
    model's attributes is read as unlabelled, and in a labelled one the class
    is the column that is not an attribute. Columns are matched by name (by
    position in a CSV file without a header); the model's nominal and numeric
    attributes keep their kinds; attributes the file lacks are one error
    listing them. ``with_class``: return ``(X, y)``, y the file's class (None
    where missing), or None for a file without one.
    """
    path = os.fspath(path)
    fmt = guess_format(path, format)
    names = list(schema.names)
    if fmt == "csv":  # the file's columns, read once: its header, or its first row's width
        first = _csv_header(path, sep)
        columns = first if header else None
        if unlabelled is None and header:
            extra = [c for c in first if c not in names]
            unlabelled = not extra
            if target is None and len(extra) == 1:
                target = extra[0]
        elif unlabelled is None:
            unlabelled = len(first) == len(names)
    else:
        columns = names
    if columns is None:  # a CSV file without a header: by position, the file's columns take the model's names
        d = load_file(path, format=fmt, target=target, header=False, unlabelled=bool(unlabelled), sep=sep)
        if d.X.shape[1] != len(names):
            raise DataFormatError(f"expected {len(names)} attribute columns (the model's {', '.join(names)}), "
                                  f"got {d.X.shape[1]}", path=path)
        X = d.X.copy()
        X.columns = names
        return (X, _labels(d)) if with_class else X
    kinds = {"nominal": [], "numeric": []}
    for a in schema.attributes:
        if a.name in columns:
            kinds["nominal" if a.is_nominal else "numeric"].append(a.name)
    d = load_file(path, format=fmt, target=target, header=header, unlabelled=bool(unlabelled), sep=sep,
                  nominal=kinds["nominal"] or None, numeric=kinds["numeric"] or None)
    missing = [n for n in names if n not in d.X.columns]
    if missing:
        shown = columns if fmt == "csv" else list(d.X.columns)
        raise DataFormatError(f"the model's attribute(s) {', '.join(map(repr, missing))} are not columns of the "
                              f"file (columns: {', '.join(map(str, shown))})", path=path)
    return (d.X[names], _labels(d)) if with_class else d.X[names]
