"""Turning parsed text rows into a Dataset, with errors that point at the file.

Every text reader (CSV, ARFF, KEEL, filebase) splits its lines into fields and
hands them here with what its header declared; this module checks and
converts them, so every format reports bad input the same way.
"""

import numpy as np
import pandas as pd

from ..exceptions import DataFormatError
from .dataset import Dataset
from .schema import NOMINAL, NUMERIC, Attribute, Schema, resolve_columns, resolve_target
from .summary import MISSING_TOKENS, ColumnSummary, value_order  # noqa: F401 (re-exported)


__all__ = ["MISSING_TOKENS", "split_fields", "rows_to_dataset", "resolve_target", "value_order"]


def split_fields(line, path=None, lineno=None, sep=","):
    """Split one line on ``sep``, honouring single and double quotes (a quote
    opens a quoted field only at the field's start); time linear in the line.

    Examples
    --------
    >>> split_fields("a, 'b, c' ,\\"d\\"")
    ['a', 'b, c', 'd']
    """
    if "'" not in line and '"' not in line:  # the common case, in C
        return [f.strip() for f in line.split(sep)]
    out, buf, quote, i, n = [], [], None, 0, len(line)
    quoted, blank = False, True  # blank: the buffer holds only white space so far
    while i < n:
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < n:
                buf.append(line[i + 1])
                blank = blank and line[i + 1].isspace()
                i += 1
            elif ch == quote:
                quote = None
            else:
                buf.append(ch)
                blank = blank and ch.isspace()
        elif ch in "'\"" and blank:
            quote, quoted, buf = ch, True, []
        elif ch == sep:
            out.append("".join(buf) if quoted else "".join(buf).strip())
            buf, quoted, blank = [], False, True
        elif not (quoted and ch.isspace()):
            buf.append(ch)
            blank = blank and ch.isspace()
        i += 1
    if quote:
        raise DataFormatError(f"unclosed quote {quote}", path=path, line=lineno)
    out.append("".join(buf) if quoted else "".join(buf).strip())
    return out


def _to_float(tokens, path, linenos, column):
    try:
        return np.asarray(tokens, dtype=np.float64)
    except ValueError:
        for k, t in enumerate(tokens):
            try:
                float(t)
            except (TypeError, ValueError):
                raise DataFormatError(f"expected a number in numeric attribute {column[1]!r}, got {t!r}",
                                      path=path, line=int(linenos[k]), column=column[0]) from None
        raise  # pragma: no cover



def rows_to_dataset(rows, names, declared, target, path=None, linenos=None, name="data",
                    nominal=None, numeric=None, unlabelled=False):
    """Check and convert split rows into a Dataset.

    Parameters
    ----------
    rows : list of list of str
        The fields of each data line.
    names : list of str
        Column names, the class column included (unless ``unlabelled``).
    declared : list of (Attribute or None)
        What a header declared for each column; None means infer: numeric if
        every present value is a number, else nominal in order of appearance.
    target : int, str or None
        The class column (default: the last); ignored when ``unlabelled``.
    linenos : list of int
        The file line of each row, for error messages.
    nominal, numeric : list of column names or indices, optional
        Override the inferred type of these columns.
    """
    width = len(names)
    linenos = np.asarray(linenos if linenos is not None else range(1, len(rows) + 1), dtype=np.int64)
    if not len(rows) and not names:
        raise DataFormatError("the file holds no data", path=path)
    if isinstance(rows, np.ndarray) and rows.ndim == 2 and rows.shape[1] != width and len(rows):
        raise DataFormatError(f"expected {width} values, got {rows.shape[1]}", path=path, line=int(linenos[0]))
    if not isinstance(rows, np.ndarray):
        for fields, ln in zip(rows, linenos):
            if len(fields) != width:
                raise DataFormatError(f"expected {width} values, got {len(fields)}", path=path, line=int(ln))
        table = np.empty((len(rows), width), dtype=object)
        if len(rows):
            table[:] = rows
        rows = table
    tidx = None if unlabelled else resolve_target(target, names, path)
    force_nom = resolve_columns(nominal, names, "nominal")
    force_num = resolve_columns(numeric, names, "numeric")
    cols = {}
    attrs = []
    missing = pd.DataFrame(rows, dtype=object).isin(MISSING_TOKENS).to_numpy() if len(rows) else \
        np.zeros((0, width), dtype=bool)  # one pass for every column (a wide file pays no per-column isin)
    for j in range(width):
        raw = rows[:, j]
        miss = missing[:, j]
        present = raw[~miss]
        present_lines = linenos[~miss]
        decl = ColumnSummary.of(raw, miss).attribute(names[j], j in force_nom, j in force_num, j == tidx,
                                                     declared[j], path)
        if decl.is_nominal:
            values = list(decl.values)
            found = pd.Index([str(v) for v in values], dtype=object).get_indexer(pd.Index(present, dtype=object))
            if (found < 0).any():
                k = int(np.flatnonzero(found < 0)[0])
                raise DataFormatError(f"value {present[k]!r} of attribute {names[j]!r} is not one of the declared "
                                      f"values {{{', '.join(map(str, values))}}}", path=path,
                                      line=int(present_lines[k]), column=j + 1)
            codes = np.full(len(raw), -1, dtype=np.int64)
            codes[~miss] = found
            cols[names[j]] = pd.Categorical.from_codes(codes, categories=pd.Index(values, dtype=object))
            attrs.append(Attribute(names[j], NOMINAL, tuple(values)))
        else:
            vals = np.full(len(raw), np.nan)
            vals[~miss] = _to_float(present, path, present_lines, (j + 1, names[j]))
            cols[names[j]] = vals
            attrs.append(Attribute(names[j], NUMERIC))
    if not unlabelled and not len(rows):
        raise DataFormatError("the file holds no data rows", path=path)
    frame = pd.DataFrame(cols, columns=names)
    if unlabelled:
        return Dataset(frame, None, Schema(tuple(attrs)), name=name, source=path)
    y = frame.pop(names[tidx])
    y.name = names[tidx]
    schema = Schema(tuple(a for k, a in enumerate(attrs) if k != tidx), attrs[tidx])
    return Dataset(frame, y, schema, name=name, source=path)
