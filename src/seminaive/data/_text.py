"""Opening a text file (plain or compressed), with errors that name the file."""

import bz2
import csv
import gzip
import io
import lzma
import os
import zipfile

from ..exceptions import DataFormatError

__all__ = ["open_text", "open_binary", "strip_compression", "COMPRESSIONS", "SEPARATORS", "MAX_LINE"]

COMPRESSIONS = (".gz", ".bz2", ".xz", ".zip")
SEPARATORS = (",", ";", "\t", "|")
# a field (or a line the separator sniffer reads whole) as long as a line may be (tokens.MAX_LINE): the csv
# module's default limit, 128 KiB, refused a wide file's header; a quoted field spanning lines stops here too
MAX_LINE = 1 << 26
csv.field_size_limit(MAX_LINE)


def strip_compression(path):
    """``path`` without a compression suffix (``data.csv.gz`` -> ``data.csv``)."""
    path = os.fspath(path)
    for ext in COMPRESSIONS:
        if path.lower().endswith(ext):
            return path[:-len(ext)]
    return path


def open_binary(path):
    """The file's bytes, decompressed by its suffix."""
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
        raw = open_binary(path)
    except FileNotFoundError:
        raise DataFormatError("no such file", path=path) from None
    except IsADirectoryError:
        raise DataFormatError("expected a file, got a directory", path=path) from None
    except (OSError, zipfile.BadZipFile, EOFError, lzma.LZMAError) as e:
        raise DataFormatError(f"cannot read: {getattr(e, 'strerror', None) or e}", path=path) from None
    return io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
