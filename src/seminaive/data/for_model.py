"""A data file read for a fitted model: its rows encoded against the model's
schema, columns matched by name (by position in a file without a header), the
class column (if any) kept as the rows' actual classes. The in-memory
prediction reads the file as one chunk, the chunked one in chunks: one reading.
"""

import os

import numpy as np
import pandas as pd

from ..exceptions import DataFormatError
from ._rows import FirstError, as_table, encode_column, missing_mask
from .arrow_file import ArrowFilePlan
from .formats import file_format
from .arrow_csv import ArrowRowError, arrow_columns, block_size
from .file_plan import guess_format, plan_file

__all__ = ["model_chunks"]


def _columns(plan, want, target, header, unlabelled):
    """The file positions of the model's attributes, the class column's (or None), and whether the file
    is unlabelled."""
    names = plan.names
    named = header or plan.kind != "csv"
    if named:
        missing = [w for w in want if w not in names]
        if missing:
            raise DataFormatError(f"the model's attribute(s) {', '.join(map(repr, missing))} are not columns of "
                                  f"the file (columns: {', '.join(map(str, names))})", path=plan.path)
        extra = [j for j, n in enumerate(names) if n not in want]
        if unlabelled:
            label = None
        elif target is not None and str(target) in names:
            label = names.index(str(target))
        else:
            label = extra[0] if len(extra) == 1 else None
        return [names.index(w) for w in want], label
    if unlabelled is None:
        unlabelled = len(names) == len(want)
    if len(names) - (0 if unlabelled else 1) != len(want):
        raise DataFormatError(f"expected {len(want)} attribute columns{'' if unlabelled else ' and the class'} "
                              f"(the model's {', '.join(want)}), got {len(names)} columns", path=plan.path)
    label = None if unlabelled else plan.target
    return [j for j in range(len(names)) if j != label], label


def model_chunks(path, schema, chunksize=None, format=None, target=None, header=True, unlabelled=None, unseen=None,
                 text=(), sep=None, decimal=None, ignore=None, index_col=None):
    """``(X, actual)`` chunks of a data file for a model whose attributes ``schema``
    lists: X a DataFrame in the model's column order (nominal attributes as
    Categoricals of the model's values, numeric ones float64), ``actual`` the
    file's class (None where missing), or None for a file without one.
    ``unlabelled``: the file has no class column (None: a CSV file whose
    header names only the model's attributes, or whose rows have only their
    width). Values outside a nominal attribute's list become missing and are
    counted in ``unseen`` (attribute name -> count). ``text``: CSV columns to
    read as text (pyarrow could not parse them as numbers); ``sep`` and ``decimal``: a CSV file's
    separator and decimal mark (default: found from the file)."""
    path = os.fspath(path)
    unseen = {} if unseen is None else unseen
    may_lack_class = bool(unlabelled) and (guess_format(path, format) == "csv" or file_format(guess_format(path, format)).columnar)
    plan = plan_file(path, format, None if unlabelled else target, header, sep, unlabelled=may_lack_class,
                     decimal=decimal, ignore=ignore, index_col=index_col)
    want = list(schema.names)
    positions, label = _columns(plan, want, target, header, unlabelled)
    attrs = schema.attributes
    if isinstance(plan, ArrowFilePlan):
        yield from plan.model_chunks(chunksize, attrs, positions, label, unseen)
        return
    options = plan.arrow_reading()  # (None for a file with columns left out: an index column's row names)
    if options is not None:
        floats = {j for j, a in zip(positions, attrs) if not a.is_nominal} - set(text)
        cats = [pd.Index([str(v) for v in a.values], dtype=object) if a.is_nominal else None for a in attrs]
        extra = [] if label is None else [label]
        try:
            for cols in arrow_columns(path, plan.names, plan.arrow_skip, plan.sep, positions + extra,
                                      list(attrs) + [None] * len(extra), floats,
                                      block_size(path, chunksize or 1 << 40), unseen, **options):
                n = len(cols[0]) if cols else 0
                for start in range(0, n, chunksize or max(n, 1)):  # pyarrow's batches hold bytes: cut them in rows
                    part = [c[start:start + chunksize] if chunksize else c for c in cols]
                    yield (pd.DataFrame({a.name: pd.Categorical.from_codes(c, categories=k) if a.is_nominal else c
                                         for a, c, k in zip(attrs, part, cats)}), part[-1] if extra else None)
            return
        except (ArrowRowError, ValueError) as e:
            for _ in _token_chunks(plan, chunksize, attrs, positions, label, {}):
                pass  # the tokenizer names the line and column
            raise DataFormatError(f"cannot read the data ({e})", path=path) from None
    yield from _token_chunks(plan, chunksize, attrs, positions, label, unseen)


def _token_chunks(plan, chunksize, attrs, positions, label, unseen):
    """``(X, actual)`` chunks through the format's tokenizer."""
    for linenos, rows in plan.chunks(chunksize):
        errors = FirstError()
        table, lines = as_table(rows, len(plan.names), linenos, plan.path, errors)
        missing = missing_mask(table)
        cols = {a.name: encode_column(table[:, j], missing[:, j], a, lines, j + 1, errors, unseen)
                for a, j in zip(attrs, positions)}
        errors.raise_if_any(plan.path)
        actual = None
        if label is not None:
            actual = np.where(missing[:, label], None, table[:, label]).astype(object)
        yield pd.DataFrame(cols, columns=[a.name for a in attrs]), actual
