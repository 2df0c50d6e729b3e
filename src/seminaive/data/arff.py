"""ARFF files (Weka): nominal value lists come from the header."""

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..exceptions import DataFormatError
from ._rows import rows_to_dataset, split_fields
from .summary import MISSING_TOKENS
from ._text import read_lines
from .schema import NOMINAL, NUMERIC, Attribute

__all__ = ["read_arff", "parse_attribute_type", "parse_header", "data_rows", "Header"]

_NUMERIC_TYPES = {"numeric", "real", "integer"}


class DateAttribute(Attribute):
    """A declared ``date`` attribute: numeric once its values are milliseconds since 1970."""


def to_milliseconds(tokens, name, path, linenos, column):
    """ISO-8601 date tokens as milliseconds since 1970 (text), as Weka stores dates; missing tokens kept."""
    tokens = np.asarray(tokens, dtype=object)
    present = ~pd.Series(tokens, dtype=object).isin(MISSING_TOKENS).to_numpy()
    when = pd.to_datetime(pd.Series(tokens[present], dtype=object), errors="coerce", format="ISO8601")
    if when.isna().any():
        k = int(np.flatnonzero(when.isna().to_numpy())[0])
        raise DataFormatError(f"expected an ISO-8601 date in attribute {name!r}, got {tokens[present][k]!r}",
                              path=path, line=int(np.asarray(linenos)[present][k]), column=column)
    out = tokens.copy()
    out[present] = when.dt.as_unit("ms").astype("int64").astype(str).to_numpy()  # any resolution -> ms
    return out


def parse_attribute_type(name, spec, path, lineno):
    """An Attribute from the type part of an ``@attribute`` line (ARFF or KEEL)."""
    spec = spec.strip()
    if spec.startswith("{"):
        end = _list_end(spec)
        rest = spec[end + 1:].strip() if end > 0 else ""
        if end < 0 or (rest and not rest.startswith("%")):  # Weka allows a '%' comment after the list
            raise DataFormatError("expected a value list closed by '}' (then nothing, or a '%' comment)",
                                  path=path, line=lineno)
        inner = spec[1:end].strip()
        values = split_fields(inner, path, lineno) if inner else []
        if len(set(values)) != len(values):
            raise DataFormatError(f"attribute {name!r} lists a value twice", path=path, line=lineno)
        return Attribute(name, NOMINAL, tuple(values))
    word = spec.split()[0].lower() if spec else ""
    if word.split("[")[0] in _NUMERIC_TYPES:
        return Attribute(name, NUMERIC)
    if word == "string":
        raise DataFormatError(f"attribute {name!r} is a string attribute: free text is no nominal or numeric "
                              f"attribute (Weka's Naive Bayes refuses it too); declare its values {{...}} or "
                              f"leave the attribute out", path=path, line=lineno)
    if word == "date":
        if len(spec.split(None, 1)) > 1:
            raise DataFormatError(f"attribute {name!r}: only ISO-8601 dates (no date format) are supported, "
                                  f"got {spec!r}", path=path, line=lineno)
        return DateAttribute(name, NUMERIC)  # as Weka: milliseconds since 1970, a number
    raise DataFormatError(f"attribute {name!r}: expected a type numeric, real, integer, string "
                          f"or a value list {{...}}, got {spec!r}", path=path, line=lineno)


def _list_end(spec):
    """Where the value list that opens ``spec`` closes: the first '}' outside quotes, or -1.

    >>> _list_end("{ low, high} % low < 100")
    11
    >>> _list_end("{'a}', b}")
    8
    """
    quote = None
    for i, ch in enumerate(spec):
        if quote:
            if ch == quote and spec[i - 1] != "\\":
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "}":
            return i
    return -1


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
            listed = [s.strip() for s in line.split(None, 1)[1].split(",")] if " " in line.strip() else []
            unknown = [s for s in listed if s and s not in names]
            if unknown:
                raise DataFormatError(f"@inputs names undeclared attribute(s) {', '.join(map(repr, unknown))}",
                                      path=path, line=i)
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


def with_dates_as_numbers(rows, linenos, header, path):
    """Rows whose date columns hold milliseconds since 1970, and the declarations with those columns numeric."""
    dates = [j for j, a in enumerate(header.declared) if isinstance(a, DateAttribute)]
    if not dates:
        return rows, header.declared
    if not isinstance(rows, np.ndarray):
        table = np.empty((len(rows), len(header.names)), dtype=object)
        if len(rows):
            table[:] = rows
        rows = table
    rows = rows.copy()
    for j in dates:
        rows[:, j] = to_milliseconds(rows[:, j], header.names[j], path, linenos, j + 1)
    return rows, [Attribute(a.name, NUMERIC) if isinstance(a, DateAttribute) else a for a in header.declared]


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
    rows, declared = with_dates_as_numbers(rows, linenos, h, path)
    name = h.relation or os.path.splitext(os.path.basename(path))[0]
    return rows_to_dataset(rows, h.names, declared, target, path=path, linenos=linenos, name=name,
                           nominal=nominal, numeric=numeric)
