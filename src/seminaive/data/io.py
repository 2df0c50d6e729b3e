"""Loading a data file by its format."""

import os

from ..exceptions import DataFormatError, ParameterError
from .arff import read_arff
from .csv import read_csv
from .filebase import read_filebase
from .keel import read_keel

__all__ = ["load_file", "guess_format", "FORMATS"]

FORMATS = ("csv", "arff", "keel", "filebase")


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
    ext = os.path.splitext(path)[1].lower()
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
              unlabelled=False):
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
                        unlabelled=unlabelled)
    if fmt == "arff":
        return read_arff(path, target=target, nominal=nominal, numeric=numeric)
    if fmt == "keel":
        return read_keel(path, target=target, nominal=nominal, numeric=numeric)
    if fmt == "filebase":
        return read_filebase(path, parts=("dat",)).learn
    raise ParameterError(f"format: expected one of {', '.join(FORMATS)}, got {fmt!r}")
