"""CSV files: with or without a header row, types inferred or declared."""

import csv as _csv
import os

from ..exceptions import DataFormatError
from ._rows import rows_to_dataset
from ._text import read_lines, sniff_separator, strip_compression

__all__ = ["read_csv"]


def read_csv(path, target=None, header=True, nominal=None, numeric=None, sep=None, unlabelled=False):
    """Read a CSV file into a Dataset.

    Parameters
    ----------
    path : str or path
        The file.
    target : str or int, optional
        The class column, by name or index (default: the last column).
    header : bool
        Whether the first line holds the column names (default True). Without a
        header the columns are named ``x1``, ``x2``, ... and the last one ``class``.
    nominal, numeric : list, optional
        Columns whose inferred type to override.
    sep : str, optional
        The field separator; by default the one of comma, semicolon, tab and
        bar that splits the first lines evenly into the most fields.
    unlabelled : bool
        The file holds no class column.

    Missing values are written ``?``, empty, ``NA``, ``NaN``, ``N/A`` or ``<null>``.
    A column is numeric when every present value is a number, else nominal with
    its values in order of first appearance.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> _ = p.write_text("a,b,cls\\nx,1.5,yes\\ny,?,no\\n")
    >>> d = read_csv(p)
    >>> d.schema.attributes[1].kind, d.X["b"].isna().tolist(), list(d.classes)
    ('numeric', [False, True], ['yes', 'no'])
    """
    path = os.fspath(path)
    lines = read_lines(path)
    sep = sniff_separator(lines) if sep is None else sep
    try:
        parsed = list(_csv.reader(lines, delimiter=sep, skipinitialspace=True))
    except _csv.Error as e:
        raise DataFormatError(f"not valid CSV: {e}", path=path) from None
    rows, linenos = [], []
    for ln, fields in enumerate(parsed, start=1):
        if not fields or all(not f.strip() for f in fields):
            continue
        rows.append([f.strip() for f in fields])
        linenos.append(ln)
    if not rows:
        raise DataFormatError("the file holds no data", path=path)
    if header:
        names = rows[0]
        if any(not n for n in names):
            raise DataFormatError(f"column {names.index('') + 1} has no name in the header", path=path,
                                  line=linenos[0])
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise DataFormatError(f"column name {dup!r} appears twice in the header", path=path, line=linenos[0])
        rows, linenos = rows[1:], linenos[1:]
        if not rows:
            raise DataFormatError("the file has a header but no data rows", path=path)
    else:
        width = len(rows[0])
        names = [f"x{j + 1}" for j in range(width)]
        if not unlabelled and target is None:
            names[-1] = "class"
    if len(names) == 1 and not unlabelled:
        raise DataFormatError(f"the file parses to one column (no attribute besides the class) with the separator "
                              f"{sep!r}; if its fields are separated by another character, give it (--sep)", path=path)
    stem = os.path.splitext(os.path.basename(strip_compression(path)))[0]
    return rows_to_dataset(rows, names, [None] * len(names), target, path=path, linenos=linenos,
                           name=stem, nominal=nominal, numeric=numeric, unlabelled=unlabelled)
