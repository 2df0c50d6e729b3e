"""The data file formats, by name: each one declared where its reading is defined, with the
extensions that name it and, for a typed columnar format, how its schema and record batches are
read (such a file is read by :class:`~seminaive.data.arrow_file.ArrowFilePlan`, the DataFrame rules
for its columns, whatever the format). A new columnar format is one declaration.

Examples
--------
>>> [f.name for f in file_formats()][:3]
['arff', 'filebase', 'keel']
>>> file_format("parquet").columnar, file_format("csv").columnar
(True, False)
"""

import os
import sys
from dataclasses import dataclass
from typing import Callable

from ..exceptions import DataFormatError, ParameterError
from ..registry import register_variant, registered
from ._text import strip_compression

__all__ = ["FileFormat", "declare_format", "file_formats", "file_format", "format_of"]


@dataclass(frozen=True)
class FileFormat:
    """A data file format: its ``name``, the ``extensions`` that name it (lower case, with the dot;
    ``""``: none), ``claims(path)`` where an extension alone does not decide (a ``.dat`` file is a
    filebase's when a ``.des`` file stands beside it), ``rank`` (formats are tried in rank order); for
    a typed columnar format, ``schema(path)`` (its :class:`pyarrow.Schema`) and ``batches(plan,
    columns, size)`` (record batches of the named columns, of at most ``size`` rows, for an
    :class:`~seminaive.data.arrow_file.ArrowFilePlan` ``plan``).

    Examples
    --------
    >>> f = file_format("arrow")
    >>> f.extensions, f.columnar
    (('.arrow', '.feather', '.ipc'), True)
    """

    name: str
    extensions: tuple
    rank: int = 0
    claims: Callable = None
    schema: Callable = None
    batches: Callable = None

    @property
    def columnar(self):
        """Whether it is a typed columnar file (read by record batches)."""
        return self.schema is not None


def declare_format(fmt, description):
    """Register ``fmt`` (a :class:`FileFormat`) under its name: files with its extensions are read as
    it says, by every reader (``load_file``, ``fit_file``, the command line).

    Examples
    --------
    >>> import pyarrow.orc  # doctest: +SKIP
    >>> declare_format(FileFormat("orc", (".orc",), 70, schema=lambda p: pyarrow.orc.ORCFile(p).schema,
    ...                           batches=lambda plan, cols, size: pyarrow.orc.ORCFile(plan.path).read(cols)
    ...                           .to_batches(size)), "Apache ORC")  # doctest: +SKIP
    >>> "csv" in [f.name for f in file_formats()]
    True
    """
    register_variant("format", fmt.name, description, fmt, sys._getframe(1).f_globals.get("__name__"))


def file_formats():
    """Every format declared so far, in rank order (the package's, then any declared outside it)."""
    return sorted(registered("format").values(), key=lambda f: f.rank)


def file_format(name):
    """The format called ``name`` (a ParameterError naming the formats when there is none)."""
    found = registered("format").get(name)
    if found is None:
        raise ParameterError(f"format: expected one of {', '.join(f.name for f in file_formats())}, got {name!r}")
    return found


def format_of(path):
    """The name of the format of ``path`` by its extension (and the format's own claim)."""
    ext = os.path.splitext(strip_compression(path))[1].lower()
    for f in file_formats():
        if ext in f.extensions and (f.claims is None or f.claims(path)):
            return f.name
    raise DataFormatError(f"cannot tell the format from the extension {ext!r}; "
                          f"give one of {', '.join(f.name for f in file_formats())}", path=path)
