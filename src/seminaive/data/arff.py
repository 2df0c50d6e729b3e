"""ARFF files (Weka): nominal value lists come from the header."""

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..exceptions import DataFormatError
from ._rows import rows_to_dataset, split_fields
from ._text import read_lines
from .schema import NOMINAL, NUMERIC, Attribute

__all__ = ["read_arff", "parse_attribute_type", "parse_header", "data_rows", "Header"]

_NUMERIC_TYPES = {"numeric", "real", "integer"}


def parse_attribute_type(name, spec, path, lineno):
    """An Attribute from the type part of an ``@attribute`` line (ARFF or KEEL)."""
    spec = spec.strip()
    if spec.startswith("{"):
        if not spec.endswith("}"):
            raise DataFormatError("expected a value list closed by '}'", path=path, line=lineno)
        inner = spec[1:-1].strip()
        values = split_fields(inner, path, lineno) if inner else []
        if len(set(values)) != len(values):
            raise DataFormatError(f"attribute {name!r} lists a value twice", path=path, line=lineno)
        return Attribute(name, NOMINAL, tuple(values))
    word = spec.split()[0].lower() if spec else ""
    if word.split("[")[0] in _NUMERIC_TYPES:
        return Attribute(name, NUMERIC)
    if word in ("string",):
        return None  # inferred from the data, as a nominal attribute
    raise DataFormatError(f"attribute {name!r}: expected a type numeric, real, integer, string "
                          f"or a value list {{...}}, got {spec!r}", path=path, line=lineno)


def split_name(rest, path, lineno):
    """Split ``name type`` at the end of the (possibly quoted) name."""
    rest = rest.strip()
    if not rest:
        raise DataFormatError("expected '@attribute NAME TYPE', got a bare @attribute", path=path, line=lineno)
    if rest[0] in "'\"":
        end = rest.find(rest[0], 1)
        if end < 0:
            raise DataFormatError("unclosed quote in attribute name", path=path, line=lineno)
        return rest[1:end], rest[end + 1:]
    parts = rest.split(None, 1)
    if len(parts) < 2:
        raise DataFormatError("expected '@attribute NAME TYPE'", path=path, line=lineno)
    name, spec = parts
    if "{" in name:  # name{a,b} without a space
        k = name.index("{")
        name, spec = name[:k], name[k:] + " " + spec
    return name, spec


@dataclass
class Header:
    """What an ARFF or KEEL header declares."""

    names: list
    declared: list
    relation: str
    outputs: list
    data_start: int  # index of the first line after @data


def parse_header(lines, path, keel=False):
    """Parse the ``@relation/@attribute/.../@data`` header shared by ARFF and KEEL
    (KEEL adds ``@inputs`` and ``@outputs``)."""
    names, declared, relation, outputs = [], [], None, None
    allowed = "@relation, @attribute, @inputs, @outputs or @data" if keel else "@relation, @attribute or @data"
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line.startswith("%"):
            continue
        low = line.lower()
        if low.startswith("@relation"):
            relation = line[9:].strip().strip("'\"")
        elif low.startswith("@attribute"):
            name, spec = split_name(line[10:], path, i)
            if name in names:
                raise DataFormatError(f"attribute {name!r} is declared twice", path=path, line=i)
            names.append(name)
            declared.append(parse_attribute_type(name, spec, path, i))
        elif keel and low.startswith("@input"):
            continue
        elif keel and low.startswith("@output"):
            outputs = [s.strip() for s in line.split(None, 1)[1].split(",")] if " " in line else []
        elif low.startswith("@data"):
            break
        else:
            raise DataFormatError(f"expected {allowed}, got {line[:40]!r}", path=path, line=i)
    else:
        raise DataFormatError("no @data section", path=path)
    if not names:
        raise DataFormatError("no @attribute declarations", path=path)
    return Header(names, declared, relation, outputs, i)


def data_rows(lines, start, path, sparse_ok=True):
    """Split the data lines from ``start`` on (skipping blanks and % comments):
    ``(rows, line numbers)``, the rows a 2-D array of stripped strings when every
    line has the same number of fields and no quote (split in C), else a list."""
    picked = [(k + 1, line.strip()) for k, line in enumerate(lines[start:], start=start)]
    picked = [(k, line) for k, line in picked if line and not line.startswith("%")]
    linenos = [k for k, _ in picked]
    data = [line for _, line in picked]
    if not sparse_ok:
        for k, line in picked:
            if line.startswith("{"):
                raise DataFormatError("sparse ARFF rows are not supported; expected dense rows", path=path, line=k)
    text = "\n".join(data)
    if data and "'" not in text and '"' not in text:
        widths = np.fromiter((line.count(",") for line in data), dtype=np.int64, count=len(data))
        if (widths == widths[0]).all():
            fields = np.array(text.replace("\n", ",").split(","), dtype=object).reshape(len(data), -1)
            if " " in text or "\t" in text:
                fields = pd.DataFrame(fields).apply(lambda c: c.str.strip()).to_numpy(dtype=object)
            return fields, linenos
    return [split_fields(line, path, k) for k, line in picked], linenos


def read_arff(path, target=None, nominal=None, numeric=None):
    """Read a Weka ARFF file (dense data) into a Dataset.

    The class is the last attribute unless ``target`` names another.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.arff"
    >>> _ = p.write_text("@relation t\\n@attribute a {x,y,z}\\n@attribute n numeric\\n"
    ...                  "@attribute c {yes,no}\\n@data\\nx,1,yes\\ny,?,no\\n")
    >>> d = read_arff(p)
    >>> d.schema.attributes[0].values, d.name
    (('x', 'y', 'z'), 't')
    """
    path = os.fspath(path)
    lines = read_lines(path)
    h = parse_header(lines, path)
    rows, linenos = data_rows(lines, h.data_start, path, sparse_ok=False)
    name = h.relation or os.path.splitext(os.path.basename(path))[0]
    return rows_to_dataset(rows, h.names, h.declared, target, path=path, linenos=linenos, name=name,
                           nominal=nominal, numeric=numeric)
