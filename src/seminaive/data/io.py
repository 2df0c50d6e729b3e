"""Loading a data file: the readers of every format, each a thin wrapper over
one :class:`~seminaive.data.file_plan.FilePlan` read as one chunk (the streamed
readers read the same plan in chunks)."""

import os
import warnings

import numpy as np
import pandas as pd

from ..exceptions import DataFormatError, UnseenValueWarning
from .arrow_csv import ArrowRestart
from ._text import named_as, strip_compression, transcoded
from .file_plan import FORMATS, guess_format, plan_file
from .for_model import model_chunks

__all__ = ["load_file", "load_for_model", "guess_format", "FORMATS", "read_csv", "read_arff", "read_keel",
           "read_sparse_arff"]


def read_csv(path, target=None, header=True, nominal=None, numeric=None, sep=None, unlabelled=False, decimal=None):
    """Read a CSV file into a Dataset.

    Parameters
    ----------
    path : str or path
        The file.
    target : str or int, optional
        The class column, by name or index (default: the last column).
    header : bool
        Whether the first line holds the column names (default True). Without a
        header the columns are named ``x1``, ``x2``, ... and the last one ``class``.
    nominal, numeric : list, optional
        Columns whose inferred type to override.
    sep : str, optional
        The field separator; by default the one of comma, semicolon, tab and
        bar that splits the first lines evenly into the most fields.
    unlabelled : bool
        The file holds no class column.
    decimal : {None, ".", ","}
        The numbers' decimal mark. By default a file whose separator is not the
        comma is read with decimal commas (``3,25``, as R's ``write.csv2`` and
        pandas' ``decimal=","`` write) when a column of its first 1,000 rows
        holds only such numbers and whole numbers.

    Missing values are written ``?``, empty, ``NA``, ``NaN``, ``N/A`` or ``<null>``.
    A column is numeric when every present value is a number, else nominal with
    its values in order of first appearance (the classes sorted, as ``fit(X, y)`` has them). The reading rules (quotes, line
    breaks, blank lines) are those of :mod:`seminaive.data.tokens`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> _ = p.write_text("a,b,cls\\nx,1.5,yes\\ny,?,no\\n")
    >>> d = read_csv(p)
    >>> d.schema.attributes[1].kind, d.X["b"].isna().tolist(), list(d.classes)
    ('numeric', [False, True], ['no', 'yes'])
    """
    return plan_file(path, "csv", target, header, sep, unlabelled, decimal=decimal).load(nominal, numeric)


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
    return plan_file(path, "arff", target).load(nominal, numeric)


def read_sparse_arff(path, target=None):
    """A (sparse) ARFF file of counts as a scipy CSR matrix, for the count models (Weka's sparse
    ARFF: ``{index value, ...}`` rows, the values left out 0; dense rows are read too).

    Every attribute but the class must be numeric. Returns ``(X, y, names)``: X of shape
    (n_rows, n_attributes), y the class of each row (None where missing), the attributes' names.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "s.arff"
    >>> _ = p.write_text("@relation s\\n@attribute a numeric\\n@attribute b numeric\\n@attribute c {x,y}\\n"
    ...                  "@data\\n{1 3, 2 y}\\n{0 1}\\n")
    >>> X, y, names = read_sparse_arff(p)
    >>> X.toarray().tolist(), y.tolist(), names
    ([[0.0, 3.0], [1.0, 0.0]], ['y', 'x'], ['a', 'b'])
    """
    import scipy.sparse as sp
    plan = plan_file(path, "arff", target)
    t = plan.target
    bad = [a.name for j, a in enumerate(plan.declared) if j != t and (a is None or a.is_nominal)]
    if bad or plan.dates:
        raise DataFormatError(f"a sparse matrix holds numeric attributes only; {', '.join(map(repr, bad)) or 'a date'}"
                              f" is not", path=os.fspath(path))
    keep = [j for j in range(len(plan.names)) if j != t]
    rows, cols, vals, labels = [], [], [], []
    for lineno, fields in plan.rows():  # (sparse rows come dense here: their zeros are dropped below)
        try:
            if len(fields) != len(plan.names):
                raise ValueError
            values = np.array([np.nan if f in ("?", "") else float(f) for j, f in enumerate(fields) if j != t])
        except ValueError:
            raise DataFormatError(f"expected a number in each of the {len(keep)} attributes of the row",
                                  path=os.fspath(path), line=lineno) from None
        nz = np.flatnonzero(values)
        rows += [len(labels)] * nz.size
        cols += nz.tolist()
        vals += values[nz].tolist()
        labels.append(None if t is None or fields[t] in ("?", "") else fields[t])
    X = sp.csr_matrix((vals, (rows, cols)), shape=(len(labels), len(keep)))
    return X, np.array(labels, dtype=object), [plan.names[j] for j in keep]


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
    return plan_file(path, "keel", target, names=names).load(nominal, numeric)


def load_file(path, format=None, target=None, header=True, nominal=None, numeric=None,
              unlabelled=False, sep=None, decimal=None, ignore=None, index_col=None, encoding=None):
    """Load a data file as a Dataset, choosing the reader by ``format`` or extension.

    ``unlabelled`` (CSV only) says the file has no class column; ``sep`` and ``decimal``
    are a CSV file's separator and decimal mark (see :func:`read_csv`). ``ignore`` (column names or
    indices) and ``index_col`` (a column of row names) are left out of the file (a CSV file whose header's
    first name is empty has row names there, as R's ``write.csv`` writes them: left out by itself). ``encoding`` (default UTF-8) reads a text file in another encoding (latin-1, cp1252,
    utf-16, ...).
    ``.arff`` is ARFF; ``.dat`` is a filebase's learning data when a ``.des``
    file stands beside it, else KEEL; ``.csv`` (and anything else) is CSV.

    Examples
    --------
    >>> from seminaive.datasets import dataset_path
    >>> load_file(dataset_path("weather.numeric")).schema.numeric_indices
    (1, 2)
    """
    copy = None if encoding is None else transcoded(path, encoding)
    with named_as(copy, path):
        d = plan_file(copy or path, format, target, header, sep, unlabelled, decimal=decimal, ignore=ignore,
                      index_col=index_col).load(nominal, numeric)
    if copy is not None and d.name == _stem(copy):  # named by the file, not by its UTF-8 copy
        d.name, d.source = _stem(path), os.fspath(path)
    return d


def _stem(path):
    return os.path.splitext(os.path.basename(strip_compression(os.fspath(path))))[0]


def load_for_model(path, schema, format=None, target=None, header=True, unlabelled=None, sep=None,
                   with_class=False, decimal=None, ignore=None, index_col=None):
    """The attributes of a data file for a fitted model whose attributes ``schema``
    lists, as a DataFrame in the model's column order, read as the chunked
    prediction reads it (:func:`seminaive.data.for_model.model_chunks`), whole.

    The class column is optional: a CSV file whose header names only the
    model's attributes is read as unlabelled, and in a labelled one the class
    is the column that is not an attribute (or ``target``). Columns are matched
    by name (by position in a CSV file without a header); attributes the file
    lacks are one error listing them; values the model has not seen are read
    as missing, with an :class:`~seminaive.UnseenValueWarning`. ``with_class``:
    return ``(X, y)``, y the file's class (None where missing), or None for a
    file without one.
    """
    text, unseen = set(), {}
    while True:  # a CSV column pyarrow cannot parse as numbers is read again as text
        try:
            parts = list(model_chunks(path, schema, None, format, target, header, unlabelled, unseen, text, sep,
                                       decimal, ignore, index_col))
            break
        except ArrowRestart as r:
            text.add(r.column)
            unseen.clear()
    if not parts or not sum(len(x) for x, _ in parts):
        raise DataFormatError("the file holds no data rows to predict", path=os.fspath(path))
    X = pd.concat([x for x, _ in parts], ignore_index=True) if len(parts) > 1 else parts[0][0]
    if any(unseen.values()):
        what = ", ".join(f"{n!r} {k}" for n, k in unseen.items() if k)
        warnings.warn(f"values not seen in training were treated as missing ({what})", UnseenValueWarning,
                      stacklevel=2)
    if not with_class:
        return X
    actual = None if parts[0][1] is None else np.concatenate([a for _, a in parts]).astype(object)
    return X, actual
