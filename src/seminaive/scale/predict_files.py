"""Predicting a data file chunk by chunk (:func:`predict_file`), on the readers of :mod:`.files`:
the chunks are encoded against the model's own schema, a labelled file's class kept beside them."""

import csv
import os
import warnings

import numpy as np
import pandas as pd

from .._atomic import atomic_write
from .._validation import check_param
from ..base import UnseenValueWarning
from ..data._rows import FirstError, as_table, encode_column, missing_mask
from ..data.file_plan import guess_format, plan_file
from ..exceptions import DataFormatError
from ..report import known_correct, prediction_header
from .arrow_csv import ArrowRestart, ArrowRowError, arrow_columns
from .files import _text_errors, arrow_reads, block_size

__all__ = ["predict_file"]


def predict_file(model, path, output, chunksize=100_000, format=None, target=None, header=True, proba=False,
                 overwrite=False, progress=None, unlabelled=False, score=None, sep=None):
    """Predict every row of a data file chunk by chunk, writing CSV as it goes
    (into a temporary file renamed at the end, so ``output`` is never half written).
    A labelled file's class comes first, as column ``actual``; ``score`` (a dict),
    if given, receives ``labelled`` (rows with a known class) and ``correct``.

    Examples
    --------
    >>> import os, tempfile
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import dataset_path, load
    >>> out = os.path.join(tempfile.mkdtemp(), "pred.csv")
    >>> predict_file(NaiveBayes().fit(load("weather.nominal")), dataset_path("weather.nominal"), out, chunksize=5)
    14
    >>> open(out).read().splitlines()[:2]  # a labelled file: its class first
    ['actual,prediction', 'no,no']
    """
    output = os.fspath(output)
    check_param("chunksize", chunksize, kind="int", low=1)
    rows = 0

    def write(fh):
        text = set()  # CSV columns pyarrow could not parse as numbers: read as text
        while True:
            try:
                return write_once(fh, text)
            except ArrowRestart as r:
                text.add(r.column)
                fh.seek(0)
                fh.truncate()

    def write_once(fh, text):
        nonlocal rows
        rows = 0
        w = csv.writer(fh, lineterminator="\n")
        counts = {"labelled": 0, "correct": 0}
        unseen = {}
        for first, (X, actual) in enumerate(_predict_chunks(path, model, chunksize, format, target, header,
                                                            unlabelled, unseen, text, sep)):
            labels = model.predict(X)
            p = model.predict_proba(X) if proba else None
            if first == 0:
                w.writerow(prediction_header(model.classes_, proba, actual is not None))
            for i, v in enumerate(labels):
                w.writerow(([] if actual is None else ["" if actual[i] is None else actual[i]]) + [v]
                           + ([repr(float(x)) for x in p[i]] if proba else []))
            if actual is not None:
                labelled, correct = known_correct(actual, labels)
                counts["labelled"] += labelled
                counts["correct"] += correct
            rows += len(X)
            if progress is not None:
                print(f"  {rows:,} rows", file=progress, flush=True)
        if rows == 0:
            w.writerow(prediction_header(model.classes_, proba, False))
        if score is not None:
            score.update(counts)
        if any(unseen.values()):
            what = ", ".join(f"{n!r} {k}" for n, k in unseen.items() if k)
            warnings.warn(f"values not seen in training were treated as missing ({what})", UnseenValueWarning,
                          stacklevel=4)

    atomic_write(output, write, overwrite)
    return rows


@_text_errors
def _predict_chunks(path, model, chunksize, format, target, header, unlabelled, unseen, text=(), sep=None):
    """Chunks encoded against the model's own schema, columns matched by name (by
    position in a file without a header); the class column, if any, is dropped.
    Values outside a nominal attribute's list become missing and are counted
    in ``unseen`` (attribute name -> count)."""
    path = os.fspath(path)
    plan = plan_file(path, format, None if unlabelled else target, header, sep,
                     unlabelled=bool(unlabelled) and guess_format(path, format) == "csv")
    names, tidx = plan.names, plan.target
    want = list(model.schema_.names)
    named = header or plan.kind != "csv"
    if named and not set(want) <= set(names):
        missing = [w for w in want if w not in names]
        raise DataFormatError(f"the model's attribute(s) {', '.join(map(repr, missing))} are not columns of the file "
                              f"(columns: {', '.join(names)})", path=path)
    if not named and len(names) - (0 if unlabelled else 1) != len(want):
        raise DataFormatError(f"expected {len(want)} attribute columns{'' if unlabelled else ' and the class'}, "
                              f"got {len(names)} columns", path=path)
    # the class column: the one column not among the model's attributes (by name), or ``target``/the last
    label = None if unlabelled else ([j for j, n in enumerate(names) if n not in want] if named else [tidx])
    label = label[0] if label and len(label) == 1 else None
    positions = [names.index(w) for w in want] if named else [j for j in range(len(names)) if unlabelled or j != tidx]
    attrs = model.schema_.attributes
    if arrow_reads(plan):
        floats = {j for j, a in zip(positions, attrs) if not a.is_nominal} - set(text)
        cats = [pd.Index([str(v) for v in a.values], dtype=object) if a.is_nominal else None for a in attrs]
        extra = [] if label is None else [label]
        try:
            for cols in arrow_columns(path, names, plan.skip, plan.sep, positions + extra,
                                      list(attrs) + [None] * len(extra), floats, block_size(path, chunksize),
                                      unseen):
                yield (pd.DataFrame({a.name: pd.Categorical.from_codes(c, categories=k) if a.is_nominal else c
                                     for a, c, k in zip(attrs, cols, cats)}), cols[-1] if extra else None)
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
        yield pd.DataFrame(cols), actual
