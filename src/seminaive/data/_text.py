"""Reading a text file (plain or compressed), with errors that name the file,
and telling a CSV file's field separator."""

import bz2
import csv
import gzip
import io
import lzma
import os
import zipfile

from ..exceptions import DataFormatError

__all__ = ["read_lines", "open_text", "strip_compression", "sniff_separator", "COMPRESSIONS", "SEPARATORS"]

COMPRESSIONS = (".gz", ".bz2", ".xz", ".zip")
SEPARATORS = (",", ";", "\t", "|")
# a field (or a line the separator sniffer reads whole) of any length: the csv module's default limit,
# 128 KiB, refused a wide file's header; the largest its C long takes everywhere
csv.field_size_limit(2**31 - 1)


def strip_compression(path):
    """``path`` without a compression suffix (``data.csv.gz`` -> ``data.csv``)."""
    path = os.fspath(path)
    for ext in COMPRESSIONS:
        if path.lower().endswith(ext):
            return path[:-len(ext)]
    return path


def _open_binary(path):
    low = path.lower()
    if low.endswith(".gz"):
        return gzip.open(path, "rb")
    if low.endswith(".bz2"):
        return bz2.open(path, "rb")
    if low.endswith(".xz"):
        return lzma.open(path, "rb")
    if low.endswith(".zip"):
        archive = zipfile.ZipFile(path)
        members = [m for m in archive.namelist() if not m.endswith("/")]
        if len(members) != 1:
            raise DataFormatError(f"expected a zip archive holding one file, found {len(members)}", path=path)
        return archive.open(members[0])
    return open(path, "rb")


def open_text(path):
    """The file as UTF-8 text (a BOM skipped), decompressed by its suffix (.gz, .bz2, .xz, .zip)."""
    path = os.fspath(path)
    try:
        raw = _open_binary(path)
    except FileNotFoundError:
        raise DataFormatError("no such file", path=path) from None
    except IsADirectoryError:
        raise DataFormatError("expected a file, got a directory", path=path) from None
    except (OSError, zipfile.BadZipFile, EOFError, lzma.LZMAError) as e:
        raise DataFormatError(f"cannot read: {getattr(e, 'strerror', None) or e}", path=path) from None
    return io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")


def read_lines(path):
    """Return the file's lines (without line ends) or raise a DataFormatError."""
    path = os.fspath(path)
    try:
        with open_text(path) as fh:
            text = fh.read()
    except DataFormatError:
        raise
    except UnicodeDecodeError as e:
        raise DataFormatError(f"not UTF-8 text (byte {e.start})", path=path) from None
    except (OSError, EOFError, zipfile.BadZipFile, lzma.LZMAError) as e:
        raise DataFormatError(f"cannot read: {getattr(e, 'strerror', None) or e}", path=path) from None
    if not text.strip():
        raise DataFormatError("the file is empty", path=path)
    if "\x00" in text:
        line = text[:text.index("\x00")].count("\n") + 1
        raise DataFormatError("a NUL byte: not a text file", path=path, line=line)
    return text.splitlines()


def sniff_separator(lines):
    """The field separator of CSV lines: of comma, semicolon, tab and bar, the one
    that splits the first lines (outside quotes) into the same number of fields,
    the most of them; comma when none does.

    Examples
    --------
    >>> sniff_separator(["a;b;c", "1,5;2;x", "3;4;y"]), sniff_separator(["a,b", "1,2"])
    (';', ',')
    """
    sample = [line for line in lines if line.strip()][:20]
    best, best_width = ",", 1
    for sep in SEPARATORS:
        widths = {len(row) for row in csv.reader(sample, delimiter=sep)}
        if len(widths) == 1:
            width = widths.pop()
            if width > best_width:
                best, best_width = sep, width
    return best
