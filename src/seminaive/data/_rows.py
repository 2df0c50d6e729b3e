"""Turning parsed text rows into a Dataset, with errors that point at the file.

Every text reader (CSV, ARFF, KEEL, filebase) splits its lines into fields and
hands them here with what its header declared; this module checks and
converts them, so every format reports bad input the same way.
"""

import numpy as np
import pandas as pd

from ..exceptions import DataFormatError
from .dataset import Dataset
from .schema import Schema, resolve_columns, resolve_target
from .summary import MISSING_TOKENS, ColumnSummary, value_order  # noqa: F401 (re-exported)
from .tokens import split_fields  # noqa: F401 (re-exported)
from .value_index import gather


__all__ = ["MISSING_TOKENS", "split_fields", "rows_to_dataset", "resolve_target", "value_order", "as_table",
           "missing_mask", "encode_column", "FirstError"]


class FirstError:
    """The first of several errors in file order (line, then column), so a file
    read whole and read in chunks reports the same one."""

    def __init__(self):
        self.best = None

    def add(self, message, line, column=None):
        key = (line, column or 0)
        if self.best is None or key < self.best[0]:
            self.best = (key, message, column)

    def raise_if_any(self, path):
        if self.best is not None:
            (line, _), message, column = self.best
            raise DataFormatError(message, path=path, line=int(line), column=column)


def _numbers_at(tokens, linenos, column, errors):
    """``tokens`` as float64; the first one that is not a number, or is infinite (no value a model can
    count: NaN marks a missing one), is noted in ``errors``."""
    try:
        out = np.asarray(tokens, dtype=np.float64)
        if np.isinf(out).any():
            k = int(np.flatnonzero(np.isinf(out))[0])
            errors.add(f"numeric attribute {column[1]!r} holds {tokens[k]!r}: values must be finite (a missing "
                       f"value is ? or empty)", linenos[k], column[0])
        return out
    except ValueError:
        out = np.full(len(tokens), np.nan)
        for k, t in enumerate(tokens):
            try:
                out[k] = float(t)
            except (TypeError, ValueError):
                errors.add(f"expected a number in numeric attribute {column[1]!r}, got {t!r}", linenos[k], column[0])
                break
        return out


def encode_column(raw, miss, attribute, linenos, column, errors, unseen=None):
    """A column of tokens for ``attribute``: a Categorical of its values (missing -1), or float64 (NaN
    missing). A value outside a nominal attribute's list is an error noted in ``errors``, or with ``unseen``
    (a dict) counted there by attribute name and read as missing; a numeric token that is no number is an
    error."""
    present = raw[~miss]
    present_lines = linenos[~miss]
    if not attribute.is_nominal:
        vals = np.full(len(raw), np.nan)
        vals[~miss] = _numbers_at(present, present_lines, (column, attribute.name), errors)
        return vals
    rows, tokens = pd.factorize(present)  # the distinct tokens, each looked up once (:mod:`.value_index`)
    found = gather(attribute.text_index.codes(list(tokens)), rows)
    if (found < 0).any():
        if unseen is None:
            k = int(np.flatnonzero(found < 0)[0])
            errors.add(f"value {present[k]!r} of attribute {attribute.name!r} is not one of the declared values "
                       f"{{{', '.join(map(str, attribute.values))}}}", present_lines[k], column)
        else:
            unseen[attribute.name] = unseen.get(attribute.name, 0) + int(np.count_nonzero(found < 0))
    codes = np.full(len(raw), -1, dtype=np.int64)
    codes[~miss] = found
    return pd.Categorical.from_codes(codes, categories=pd.Index(attribute.values, dtype=object))


def as_table(rows, width, linenos, path=None, errors=None):
    """Split rows as a 2-D object array; a row of another width is an error
    naming its line, raised, or noted in ``errors`` (a :class:`FirstError`) and
    the table cut before that row. Returns the table (and, with ``errors``, the
    line numbers of its rows)."""
    linenos = np.asarray(linenos, dtype=np.int64)
    if isinstance(rows, np.ndarray) and rows.ndim == 2 and (rows.shape[1] == width or not len(rows)):
        return rows if errors is None else (rows, linenos)
    bad = next((k for k, fields in enumerate(rows) if len(fields) != width), None)
    if bad is not None:
        message = f"expected {width} values, got {len(rows[bad])}"
        if errors is None:
            raise DataFormatError(message, path=path, line=int(linenos[bad]))
        errors.add(message, linenos[bad])
        rows, linenos = rows[:bad], linenos[:bad]
    table = np.empty((len(rows), width), dtype=object)
    if len(rows):
        table[:] = list(rows)
    return table if errors is None else (table, linenos)


def missing_mask(table):
    """Where a table of tokens holds a missing marker (one pass for every column)."""
    if not len(table):
        return np.zeros(table.shape, dtype=bool)
    return pd.DataFrame(table, dtype=object).isin(MISSING_TOKENS).to_numpy()


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

    Of several errors, the first in file order (line, then column) is raised.
    """
    width = len(names)
    linenos = np.asarray(linenos if linenos is not None else range(1, len(rows) + 1), dtype=np.int64)
    if not len(rows) and not names:
        raise DataFormatError("the file holds no data", path=path)
    errors = FirstError()
    rows, linenos = as_table(rows, width, linenos, path, errors)
    tidx = None if unlabelled else resolve_target(target, names, path)
    force_nom = resolve_columns(nominal, names, "nominal")
    force_num = resolve_columns(numeric, names, "numeric")
    cols = {}
    attrs = []
    missing = missing_mask(rows)
    for j in range(width):
        raw = rows[:, j]
        miss = missing[:, j]
        inferred = declared[j] is None or j in force_nom or j in force_num
        summary = ColumnSummary.of(raw, miss) if inferred else ColumnSummary()
        decl = summary.attribute(names[j], j in force_nom, j in force_num, j == tidx, declared[j], path)
        cols[names[j]] = encode_column(raw, miss, decl, linenos, j + 1, errors)
        attrs.append(decl)
    errors.raise_if_any(path)
    if not unlabelled and not len(rows):
        raise DataFormatError("the file holds no data rows", path=path)
    frame = pd.DataFrame(cols, columns=names)
    if unlabelled:
        return Dataset(frame, None, Schema(tuple(attrs)), name=name, source=path)
    y = frame.pop(names[tidx])
    y.name = names[tidx]
    schema = Schema(tuple(a for k, a in enumerate(attrs) if k != tidx), attrs[tidx])
    return Dataset(frame, y, schema, name=name, source=path)
