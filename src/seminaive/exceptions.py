"""Errors a user can cause.

Every error that bad input or a bad parameter can cause derives from
:class:`SeminaiveError`, so the command line can print it as one line and
exit with status 2 instead of showing a traceback.
"""

__all__ = ["SeminaiveError", "DataFormatError", "ParameterError", "NotFittedError"]


class SeminaiveError(ValueError):
    """Base class of the errors a user can cause (a ``ValueError``)."""


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
    """A parameter has a value outside what it accepts."""


try:  # let scikit-learn's own checks recognise our not-fitted error
    from sklearn.exceptions import NotFittedError as _SkNotFitted
except ImportError:  # pragma: no cover
    _SkNotFitted = AttributeError


class NotFittedError(SeminaiveError, _SkNotFitted):
    """The model was used before ``fit``."""
