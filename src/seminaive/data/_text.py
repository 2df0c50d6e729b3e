"""Reading a text file's lines, with errors that name the file."""

import os

from ..exceptions import DataFormatError

__all__ = ["read_lines"]


def read_lines(path):
    """Return the file's lines (without line ends) or raise a DataFormatError."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise DataFormatError("no such file", path=path) from None
    except IsADirectoryError:
        raise DataFormatError("expected a file, got a directory", path=path) from None
    except UnicodeDecodeError as e:
        raise DataFormatError(f"not UTF-8 text (byte {e.start})", path=path) from None
    except OSError as e:
        raise DataFormatError(f"cannot read: {e.strerror}", path=path) from None
    if not text.strip():
        raise DataFormatError("the file is empty", path=path)
    return text.splitlines()
