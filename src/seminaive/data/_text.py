"""Opening a text file (plain or compressed), with errors that name the file."""

import bz2
import codecs
import contextlib
import csv
import gzip
import io
import lzma
import os
import tempfile
import weakref
import zipfile

from ..exceptions import DataFormatError

__all__ = ["open_text", "open_binary", "strip_compression", "not_utf8", "transcoded", "named_as", "COMPRESSIONS", "SEPARATORS",
           "MAX_LINE"]

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


def not_utf8(path):
    """The error for a file that is not UTF-8 text: the line and byte of its first undecodable byte
    (read again from the start, in blocks), and the option that reads other encodings."""
    path = os.fspath(path)
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    line, offset = 1, 0
    try:
        with open_binary(path) as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                try:
                    text = decoder.decode(block)
                except UnicodeDecodeError as e:
                    if offset == 0 and block[:2] in (b"\xff\xfe", b"\xfe\xff"):
                        return DataFormatError("UTF-16 text (its byte order mark), not UTF-8; give its encoding "
                                               "(--encoding utf-16, encoding=\"utf-16\")", path=path)
                    good = block[:e.start]
                    line += good.count(b"\n")
                    column = e.start - (good.rfind(b"\n") + 1) + 1
                    return DataFormatError(f"not UTF-8 text (byte {block[e.start]:#04x}, byte {column:,} of the line); "
                                           f"give its encoding (--encoding latin-1, encoding=...)", path=path,
                                           line=line)
                line += text.count("\n")
                offset += len(block)
    except (OSError, EOFError, zipfile.BadZipFile, lzma.LZMAError):
        pass
    return DataFormatError("not UTF-8 text; give its encoding (--encoding latin-1, encoding=...)", path=path)


def transcoded(path, encoding):
    """A UTF-8 copy of a text file in ``encoding`` (a securely created temporary file, removed when
    the returned object is collected or the process ends), or None for UTF-8 itself. A byte the
    encoding cannot read is an error naming the line."""
    path = os.fspath(path)
    try:
        codec = codecs.lookup(encoding)
    except (LookupError, TypeError):
        raise DataFormatError(f"encoding: no such text encoding {str(encoding)[:40]!r} (utf-8, latin-1, cp1252, "
                              f"utf-16, ...)") from None
    if codec.name == "utf-8":
        return None
    suffix = os.path.splitext(strip_compression(path))[1]
    out = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="", suffix=suffix, delete=False)
    done = False
    try:
        with out, open_binary(path) as raw:
            text = io.TextIOWrapper(raw, encoding=codec.name, newline="")
            for k, line in enumerate(iter(lambda: text.readline(MAX_LINE + 1), ""), start=1):
                out.write(line)
        done = True
    except UnicodeError as e:
        raise DataFormatError(f"not {codec.name} text ({e.reason}); give its encoding (--encoding)", path=path,
                              line=k + 1 if "k" in locals() else 1) from None
    except FileNotFoundError:
        raise DataFormatError("no such file", path=path) from None
    finally:
        if not done:
            os.unlink(out.name)
    return _TempFile(out.name)


@contextlib.contextmanager
def named_as(copy, original):
    """Within the block, an error naming the transcoded ``copy`` names the ``original`` file instead."""
    try:
        yield
    except DataFormatError as e:
        if copy is None or e.path is None or os.fspath(e.path) != os.fspath(copy):
            raise
        raise DataFormatError(e.message, path=os.fspath(original), line=e.line, column=e.column) from None


class _TempFile(str):
    """A temporary file's path that removes the file when the last reference to it goes."""

    def __new__(cls, name):
        self = super().__new__(cls, name)
        weakref.finalize(self, _remove, str(name))
        return self


def _remove(name):
    try:
        os.unlink(name)
    except OSError:
        pass
