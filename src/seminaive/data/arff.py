"""ARFF (and KEEL) headers: the attributes an ``@attribute`` section declares (Weka's rules);
their data rows are read by :mod:`.tokens` through :mod:`.file_plan`."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..exceptions import DataFormatError
from .tokens import split_fields
from .summary import MISSING_TOKENS
from .schema import NOMINAL, NUMERIC, Attribute

__all__ = ["parse_attribute_type", "parse_header", "Header", "DateAttribute", "to_milliseconds"]

_NUMERIC_TYPES = {"numeric", "real", "integer"}


@dataclass(frozen=True)
class DateAttribute(Attribute):
    """A declared ``date`` attribute: numeric once its values are milliseconds since 1970;
    ``date_format`` is its values' format for :func:`pandas.to_datetime` (None: ISO 8601)."""

    date_format: object = None


# Java's SimpleDateFormat letters (Weka's date formats) as strptime's, longest first
_JAVA_DATE = (("yyyy", "%Y"), ("yy", "%y"), ("MMMM", "%B"), ("MMM", "%b"), ("MM", "%m"), ("dd", "%d"),
              ("HH", "%H"), ("hh", "%I"), ("mm", "%M"), ("ss", "%S"), ("SSS", "%f"), ("EEEE", "%A"),
              ("EEE", "%a"), ("a", "%p"), ("Z", "%z"), ("XXX", "%z"), ("X", "%z"), ("M", "%m"), ("d", "%d"),
              ("H", "%H"), ("h", "%I"), ("m", "%M"), ("s", "%S"))


_FIELDS = {"%Y": "year", "%y": "year", "%B": "month", "%b": "month", "%m": "month", "%d": "day", "%H": "hour",
           "%I": "hour", "%M": "minute", "%S": "second", "%f": "fraction of a second", "%A": "weekday",
           "%a": "weekday", "%p": "AM/PM mark", "%z": "time zone"}


def java_date_format(pattern, name="", path=None, lineno=None):
    """A Weka (Java SimpleDateFormat) date format as a strptime format; quoted text is literal.

    Examples
    --------
    >>> java_date_format("yyyy-MM-dd'T'HH:mm:ss"), java_date_format("dd/MM/yy hh:mm a")
    ('%Y-%m-%dT%H:%M:%S', '%d/%m/%y %I:%M %p')
    """
    out, i, seen = [], 0, {}
    while i < len(pattern):
        if pattern[i] == "'":  # quoted text, '' a quote (inside quotes too)
            if pattern.startswith("''", i):
                out.append("'")
                i += 2
                continue
            j, text = i + 1, []
            while not (j < len(pattern) and pattern[j] == "'" and not pattern.startswith("''", j)):
                if j >= len(pattern):
                    raise DataFormatError(f"attribute {name!r}: an unclosed quote in the date format {pattern!r}",
                                          path=path, line=lineno)
                text.append(pattern[j])
                j += 2 if pattern.startswith("''", j) else 1
            out.append("".join(text).replace("%", "%%"))
            i = j + 1
            continue
        for java, strp in _JAVA_DATE:
            if pattern.startswith(java, i):
                field = _FIELDS[strp]
                if field in seen:  # strptime cannot read a field twice (and which one would count?)
                    raise DataFormatError(f"attribute {name!r}: the date format {pattern!r} gives the {field} twice "
                                          f"({seen[field]!r} and {java!r})", path=path, line=lineno)
                seen[field] = java
                out.append(strp)
                i += len(java)
                break
        else:
            if pattern[i].isalpha():
                raise DataFormatError(f"attribute {name!r}: the date format letter {pattern[i]!r} of {pattern!r} "
                                      f"is not read here (y M d H h m s S E a Z X are)", path=path, line=lineno)
            out.append(pattern[i].replace("%", "%%"))
            i += 1
    return "".join(out)


def to_milliseconds(tokens, name, path, linenos, column, date_format=None):
    """Date tokens (ISO 8601, or ``date_format``, a strptime format) as milliseconds since 1970 (text), as
    Weka stores dates (times without a zone taken as UTC); missing tokens kept."""
    tokens = np.asarray(tokens, dtype=object)
    present = ~pd.Series(tokens, dtype=object).isin(MISSING_TOKENS).to_numpy()
    when = pd.to_datetime(pd.Series(tokens[present], dtype=object), errors="coerce", format=date_format or "ISO8601",
                          utc=True)
    if when.isna().any():
        k = int(np.flatnonzero(when.isna().to_numpy())[0])
        what = f"a date as {date_format!r}" if date_format else "an ISO-8601 date"
        raise DataFormatError(f"expected {what} in attribute {name!r}, got {tokens[present][k]!r}",
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
                              f"leave the attribute out (--ignore {name}, ignore=[...])", path=path, line=lineno)
    if word == "date":  # as Weka: milliseconds since 1970, a number
        rest = spec.split(None, 1)[1].strip() if len(spec.split(None, 1)) > 1 else ""
        if rest[:1] in ("'", '"') and rest[-1:] == rest[:1] and len(rest) > 1:
            rest = rest[1:-1]
        if not rest or rest == "yyyy-MM-dd'T'HH:mm:ss":  # Weka's default format: ISO 8601
            return DateAttribute(name, NUMERIC)
        return DateAttribute(name, NUMERIC, date_format=java_date_format(rest, name, path, lineno))
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


def parse_header(lines, path, keel=False, ignore=()):
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
            declared.append(Attribute(name, NOMINAL, ()) if name in ignore else  # left out: any type
                            parse_attribute_type(name, spec, path, i))
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
