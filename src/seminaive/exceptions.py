"""Errors a user can cause.

Every error that bad input or a bad parameter can cause derives from
:class:`SeminaiveError`, so the command line can print it as one line and
exit with status 2 instead of showing a traceback.
"""

__all__ = ["SeminaiveError", "DataFormatError", "ParameterError", "NotFittedError",  # noqa: F822 (made by __getattr__)
           "UnseenValueWarning", "ChunkWarning"]


class SeminaiveError(ValueError):
    """Base class of the errors a user can cause (a ``ValueError``).

    Examples
    --------
    >>> from seminaive import NaiveBayes, SeminaiveError
    >>> try:
    ...     NaiveBayes(alpha=-1).fit([["a"]], ["x"])
    ... except SeminaiveError as e:
    ...     print(e)
    alpha: expected a number >= 0, got -1
    """


class DataFormatError(SeminaiveError):
    """A data file or table is malformed.

    Parameters
    ----------
    message : str
        What was wrong and what was expected.
    path : str, optional
        The file, if the data came from one.
    line : int, optional
        The 1-based line number in the file.
    column : int or str, optional
        The 1-based column number or the column's name.

    Examples
    --------
    >>> str(DataFormatError("expected a number, got 'abc'", path="d.csv", line=3, column=2))
    "d.csv, line 3, column 2: expected a number, got 'abc'"
    """

    def __init__(self, message, path=None, line=None, column=None):
        self.message, self.path, self.line, self.column = message, path, line, column
        where = [str(path)] if path is not None else []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        super().__init__(", ".join(where) + ": " + message if where else message)


class ParameterError(SeminaiveError):
    """A parameter has a value outside what it accepts.

    Examples
    --------
    >>> from seminaive import ParameterError
    >>> from seminaive.search import BSE
    >>> try:
    ...     BSE(scoring="logloss").fit([["a"], ["b"]], ["x", "y"])
    ... except ParameterError as e:
    ...     print(str(e)[:40])
    scoring: expected one of 'accuracy', 'ba
    """


_NOT_FITTED_DOC = """The model was used before ``fit`` (also a scikit-learn ``NotFittedError``).

    Examples
    --------
    >>> from seminaive import NaiveBayes, NotFittedError
    >>> try:
    ...     NaiveBayes().predict([["a"]])
    ... except NotFittedError as e:
    ...     print(str(e)[:31])
    This NaiveBayes instance is not
    """


def require_fitted(model, attribute):
    """Raise :class:`NotFittedError` unless ``model`` has the fitted ``attribute``."""
    if not hasattr(model, attribute):
        raise __getattr__("NotFittedError")(f"This {type(model).__name__} instance is not fitted yet; "
                                            f"call 'fit' with appropriate arguments first")  # the one class


def __getattr__(name):
    """``NotFittedError`` is made when first asked for: it derives from scikit-learn's,
    so that scikit-learn's checks recognise it, and importing scikit-learn is
    left to the code that needs it (``seminaive --help`` does not)."""
    if name != "NotFittedError":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if "NotFittedError" in globals():  # made already: always the same class
        return globals()["NotFittedError"]
    try:
        from sklearn.exceptions import NotFittedError as sklearn_not_fitted
    except ImportError:  # pragma: no cover
        sklearn_not_fitted = AttributeError
    cls = type("NotFittedError", (SeminaiveError, sklearn_not_fitted),
               {"__doc__": _NOT_FITTED_DOC, "__module__": __name__})
    globals()["NotFittedError"] = cls
    return cls


class UnseenValueWarning(UserWarning):
    """Prediction met nominal values outside the training value lists (treated as missing).

    Examples
    --------
    >>> import warnings
    >>> from seminaive import NaiveBayes, UnseenValueWarning
    >>> nb = NaiveBayes().fit([["a"], ["b"]], ["x", "y"])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = nb.predict([["c"]])
    >>> caught[0].category is UnseenValueWarning
    True
    """


class KindWarning(UserWarning):
    """A column read as nominal although most of its values are numbers (a stray word, or numbers
    written with another decimal mark): a different model from the one the numbers would give.

    Examples
    --------
    >>> import warnings
    >>> from seminaive.data.summary import ColumnSummary
    >>> s = ColumnSummary.of(["1.5", "2", "2.5", "3", "n/a!"])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = s.attribute("x")
    >>> caught[0].category.__name__, str(caught[0].message)[:60]
    ('KindWarning', "column 'x' is read as nominal: 1 of its 5 values ('n/a!') is")
    """


class ChunkWarning(UserWarning):
    """What a first ``partial_fit`` chunk fixes (intervals, structure) differs from one fit on all the data.

    Examples
    --------
    >>> import warnings
    >>> from seminaive import TAN
    >>> from seminaive.datasets import load
    >>> d = load("weather.numeric")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = TAN().partial_fit(d.X[:7], d.y[:7], classes=["yes", "no"])
    >>> [w.category.__name__ for w in caught]
    ['ChunkWarning']
    """
