"""The filebase format of the array-based J implementation (Vector 16:2).

A filebase ``NAME`` is a set of files sharing that base name:

- ``NAME.des``: one line per attribute, then a last line for the class, each
  listing the attribute's possible values separated by commas;
- ``NAME.dat``: learning data, one instance per line, the class last;
- ``NAME.tst``: test data, in the same format;
- ``NAME.cls``: data to classify, without the class.
"""

import os
from dataclasses import dataclass

from .._atomic import atomic_write_text
from ..exceptions import DataFormatError
from ._rows import rows_to_dataset
from .tokens import arff_rows, read_lines, split_fields
from .dataset import Dataset
from .schema import NOMINAL, Attribute, Schema

__all__ = ["Filebase", "read_filebase", "read_description", "write_filebase"]


@dataclass
class Filebase:
    """The parts of a filebase: description, learning, test and classification data.

    Examples
    --------
    >>> from seminaive.data import read_filebase
    >>> from seminaive.datasets import filebase_path
    >>> fb = read_filebase(filebase_path("led"))
    >>> fb.learn.n_samples > 0, fb.classify is not None
    (True, True)
    """

    base: str
    schema: Schema
    learn: Dataset = None
    test: Dataset = None
    classify: Dataset = None


def read_description(path):
    """Read a ``.des`` file into a Schema (attributes ``a1``, ``a2``, ... and ``class``)."""
    lines = read_lines(path)
    attrs = []
    for k, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        values = split_fields(line, path, k)
        if any(v == "" for v in values):
            raise DataFormatError("empty value in the value list", path=path, line=k)
        if len(set(values)) != len(values):
            raise DataFormatError("a value is listed twice", path=path, line=k)
        attrs.append(Attribute(f"a{len(attrs) + 1}", NOMINAL, tuple(values)))
    if len(attrs) < 2:
        raise DataFormatError("expected at least one attribute line and a class line", path=path)
    return Schema(tuple(attrs[:-1]), Attribute("class", NOMINAL, attrs[-1].values))


def _read_part(path, schema, unlabelled):
    read_lines(path)  # an empty file is an error
    rows, linenos = [], []
    for k, fields in arff_rows(path, comment=None):
        rows.append(fields)
        linenos.append(k)
    attrs = list(schema.attributes) + ([] if unlabelled else [schema.target])
    names = [a.name for a in attrs]
    return rows_to_dataset(rows, names, attrs, None, path=path, linenos=linenos,
                           name=os.path.basename(path), unlabelled=unlabelled)


def read_filebase(base, parts=("dat", "tst", "cls")):
    """Read the filebase ``base`` (a path without extension).

    The ``.des`` file is required; of ``parts``, ``dat`` is required and the
    others are read when present.

    Examples
    --------
    >>> from seminaive.datasets import filebase_path
    >>> fb = read_filebase(filebase_path("led"))
    >>> len(fb.schema.attributes), len(fb.schema.target.values), fb.learn.n_samples
    (7, 10, 200)
    """
    base = os.fspath(base)
    for ext in ("des", "dat", "tst", "cls"):
        if base.endswith("." + ext):
            base = base[:-len(ext) - 1]
    schema = read_description(base + ".des")
    fb = Filebase(base, schema)
    for ext, attr, unlabelled in (("dat", "learn", False), ("tst", "test", False), ("cls", "classify", True)):
        if ext not in parts:
            continue
        path = f"{base}.{ext}"
        if os.path.exists(path):
            setattr(fb, attr, _read_part(path, schema, unlabelled))
        elif ext == "dat":
            raise DataFormatError("no such file (the learning data of the filebase)", path=path)
    return fb


def write_filebase(base, schema, learn, test=None, classify=None, overwrite=False):
    """Write a filebase from coded rows.

    ``learn`` and ``test`` are sequences of rows whose last item is the class;
    ``classify`` rows have no class. Values are written as they are.

    Examples
    --------
    >>> import os, tempfile
    >>> from seminaive.data import read_filebase
    >>> from seminaive.datasets import filebase_path
    >>> fb = read_filebase(filebase_path("led"))
    >>> rows = fb.learn.X.apply(lambda c: c.cat.codes).to_numpy().tolist()
    >>> learn = [r + [c] for r, c in zip(rows, fb.learn.y.cat.codes.tolist())]
    >>> base = os.path.join(tempfile.mkdtemp(), "copy")
    >>> write_filebase(base, fb.schema, learn)
    >>> read_filebase(base).learn.n_samples == fb.learn.n_samples
    True
    """
    base = os.fspath(base)
    des = "\n".join(",".join(map(str, a.values)) for a in list(schema.attributes) + [schema.target])
    atomic_write_text(base + ".des", des + "\n", overwrite)
    for ext, rows in (("dat", learn), ("tst", test), ("cls", classify)):
        if rows is not None:
            atomic_write_text(f"{base}.{ext}", "".join(",".join(map(str, r)) + "\n" for r in rows), overwrite)
