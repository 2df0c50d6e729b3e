"""Predicting a data file chunk by chunk (:func:`predict_file`), on the readers of :mod:`.files`:
the chunks are encoded against the model's own schema, a labelled file's class kept beside them."""

import csv
import os
import warnings


from .._atomic import atomic_write
from .._progress import shown_on, step
from .._validation import check_param
from ..base import UnseenValueWarning
from ..exceptions import DataFormatError
from ..data.arrow_csv import ArrowRestart
from ..data.for_model import model_chunks
from ..report import known_correct, prediction_header, unknown_classes
from ..learning.data_source import _text_errors

__all__ = ["predict_file"]


def predict_file(model, path, output, chunksize=100_000, format=None, target=None, header=True, proba=False,
                 overwrite=False, progress=None, unlabelled=False, score=None, sep=None, decimal=None, ignore=None,
                 index_col=None):
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
        counts = {"labelled": 0, "correct": 0, "unknown": {}}
        unseen = {}
        chunks = _text_errors(model_chunks)(path, model.schema_, chunksize, format, target, header, unlabelled,
                                            unseen, text, sep, decimal, ignore, index_col)
        for first, (X, actual) in enumerate(chunks):
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
                for label, n in unknown_classes(actual, model.classes_).items():
                    counts["unknown"][label] = counts["unknown"].get(label, 0) + n
            rows += len(X)
            step("rows predicted", rows, None)
        if rows == 0:  # as the in-memory prediction (and load_file): nothing to predict is an error
            raise DataFormatError("the file holds no data rows to predict", path=os.fspath(path))
        if score is not None:
            score.update(counts)
        if any(unseen.values()):
            what = ", ".join(f"{n!r} {k}" for n, k in unseen.items() if k)
            warnings.warn(f"values not seen in training were treated as missing ({what})", UnseenValueWarning,
                          stacklevel=4)

    with shown_on(progress):  # (progress: a stream that shows the rows predicted)
        atomic_write(output, write, overwrite)
    return rows
