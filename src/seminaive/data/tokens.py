"""The one tokenizer of each text format, read whole (in memory) or chunk by
chunk (streamed): the same rules on both paths, so a file gives the same rows.

- Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` only: a form feed, ``\\x85``,
  ``\\u2028`` or an information separator inside a value is a character of that
  value (then stripped with the white space around it), never a line break.
- A NUL byte is refused (the file is not text); bytes that are not UTF-8 are
  an error naming the byte.
- A line holding only white space is blank and skipped; a row of only
  separators is a row whose values are all missing (so predictions stay
  aligned with the file's rows).
- CSV: Python's csv rules with ``"`` quotes, a quote opening a field after
  spaces too (``x, "1,5"``); a quoted field keeps its separators and line
  breaks. ARFF and KEEL: ``'`` or ``"`` quotes with backslash escapes, ``%``
  outside quotes starts a comment (as Weka reads it).
- Every field is stripped of surrounding white space.
"""

import csv
import itertools
import lzma
import re
import zipfile

from ..exceptions import DataFormatError
from ._text import MAX_LINE, SEPARATORS, not_utf8, open_text  # (a row of 200,000 values takes ~1.4 million characters)
from .summary import MISSING_TOKENS

__all__ = ["text_lines", "read_lines", "separator", "decimal_mark", "csv_rows", "arff_rows", "chunked",
           "split_fields", "DECIMAL_COMMA"]

# a number written with a decimal comma (R's write.csv2, pandas' decimal=","): 3,25  -0,5  ,5  1,5e-3
DECIMAL_COMMA = re.compile(r"[+-]?(?:\d+,\d*|,\d+)(?:[eE][+-]?\d+)?\Z")
_WHOLE = re.compile(r"[+-]?\d+(?:[eE][+-]?\d+)?\Z")


def text_lines(path, start=1):
    """``(line number, line)`` of a text file from line ``start`` on, the line
    with its end (``\\n``, ``\\r\\n`` or ``\\r``); a line longer than
    :data:`MAX_LINE` characters is refused when it is met, before it is held."""
    fh = open_text(path)
    try:
        with fh:
            for k, line in enumerate(iter(lambda: fh.readline(MAX_LINE + 1), ""), start=1):
                if len(line) > MAX_LINE:
                    raise DataFormatError(f"a line longer than {MAX_LINE:,} characters; expected rows of data "
                                          f"(is this a data file?)", path=path, line=k)
                if "\x00" in line:
                    raise DataFormatError("a NUL byte: not a text file", path=path, line=k)
                if k >= start:
                    yield k, line
    except UnicodeDecodeError:
        raise not_utf8(path) from None
    except (OSError, EOFError, zipfile.BadZipFile, lzma.LZMAError) as e:
        raise DataFormatError(f"cannot read: {getattr(e, 'strerror', None) or e}", path=path) from None


def read_lines(path):
    """A (small) text file's lines without their ends; an empty file is an error."""
    lines = [line.rstrip("\r\n") for _, line in text_lines(path)]
    if not any(line.strip() for line in lines):
        raise DataFormatError("the file is empty", path=path)
    return lines


def _blank(fields):
    return not fields or (len(fields) == 1 and not fields[0].strip())


def separator(path, sep=None, rows=20):
    """The field separator of a CSV file: ``sep`` when given, else of comma,
    semicolon, tab and bar the one that splits the first ``rows`` non-blank
    lines (outside quotes) into the same number of fields, the most of them;
    comma when none does."""
    if sep is not None:
        return sep
    sample = []
    for _, line in text_lines(path):
        if line.strip():
            sample.append(line)
            if len(sample) == rows:
                break
    best, best_width = ",", 1
    for candidate in SEPARATORS:
        try:
            widths = {len(row) for row in csv.reader(sample, delimiter=candidate)}
        except csv.Error:
            continue
        if len(widths) == 1:
            width = widths.pop()
            if width > best_width:
                best, best_width = candidate, width
    return best


def decimal_mark(rows, sep, skip=0, sample=1000):
    """The decimal mark of a CSV file's numbers: ``","`` when its separator is not
    the comma and, in its first ``sample`` data rows (``rows`` as :func:`csv_rows`
    gives them, the first ``skip`` lines a header), some column's present values are
    all numbers written with a decimal comma or whole numbers, at least one with a
    comma (R's ``write.csv2`` writes ``3,25``); else ``"."``.

    Examples
    --------
    >>> decimal_mark(iter([(1, ["3,25", "a"]), (2, ["4", "?"])]), ";")
    ','
    >>> decimal_mark(iter([(1, ["3,25", "a"]), (2, ["x", "b"])]), ";")
    '.'
    """
    if sep == ",":
        return "."
    comma, other = set(), set()
    for line, fields in itertools.islice(rows, sample + 1):
        if line <= skip:
            continue
        for j, f in enumerate(fields):
            if f in MISSING_TOKENS:
                continue
            if "," in f and DECIMAL_COMMA.match(f):
                comma.add(j)
            elif not _WHOLE.match(f):
                other.add(j)
    return "," if comma - other else "."


def csv_rows(path, sep):
    """``(line number, stripped fields)`` of every non-blank row of a CSV file
    (a quoted field may span lines: the row's first line is given)."""
    numbered = text_lines(path)
    reader = csv.reader((line for _, line in numbered), delimiter=sep, quotechar='"', skipinitialspace=True)
    end = 0
    try:
        for fields in reader:
            first, end = end + 1, reader.line_num
            if not _blank(fields):
                yield first, list(map(str.strip, fields))
    except csv.Error as e:
        raise DataFormatError(f"not valid CSV ({e})", path=path, line=end + 1) from None


def split_fields(line, path=None, lineno=None, sep=",", comment=None):
    """Split one line on ``sep``, honouring single and double quotes (a quote
    opens a quoted field only at the field's start; a backslash escapes the
    next character inside quotes); ``comment`` outside quotes ends the line.
    Time linear in the line.

    Examples
    --------
    >>> split_fields("a, 'b, c' ,\\"d\\"")
    ['a', 'b, c', 'd']
    >>> split_fields("1, x % a note", comment="%")
    ['1', 'x']
    """
    if "'" not in line and '"' not in line:  # the common case, in C
        if comment is not None and comment in line:
            line = line[:line.index(comment)]
        return list(map(str.strip, line.split(sep)))
    out, buf, quote, i, n = [], [], None, 0, len(line)
    quoted, blank = False, True  # blank: the buffer holds only white space so far
    while i < n:
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < n:
                buf.append(line[i + 1])
                blank = blank and line[i + 1].isspace()
                i += 1
            elif ch == quote:
                quote = None
            else:
                buf.append(ch)
                blank = blank and ch.isspace()
        elif ch == comment:
            break
        elif ch in "'\"" and blank:
            quote, quoted, buf = ch, True, []
        elif ch == sep:
            out.append("".join(buf) if quoted else "".join(buf).strip())
            buf, quoted, blank = [], False, True
        elif not (quoted and ch.isspace()):
            buf.append(ch)
            blank = blank and ch.isspace()
        i += 1
    if quote:
        raise DataFormatError(f"unclosed quote {quote}", path=path, line=lineno)
    out.append("".join(buf) if quoted else "".join(buf).strip())
    return out


def arff_rows(path, start=1, sparse_ok=True, comment="%", defaults=None):
    """``(line number, stripped fields)`` of the data lines of an ARFF or KEEL
    file from line ``start`` on (also a header-less KEEL file, or a filebase's
    rows, ``comment`` None): blank lines and ``comment`` lines skipped. A sparse
    ARFF row (``{index value, ...}``) is read as Weka reads it, every column it
    leaves out holding its value in ``defaults``; without ``defaults`` (and
    ``sparse_ok`` false) it is refused."""
    for k, line in text_lines(path, start):
        text = line.strip()
        if not text or (comment is not None and text.startswith(comment)):
            continue
        if text.startswith("{") and defaults is not None:
            yield k, sparse_row(text, defaults, path, k, comment)
            continue
        if not sparse_ok and text.startswith("{"):
            raise DataFormatError("sparse ARFF rows are not supported; expected dense rows", path=path, line=k)
        yield k, split_fields(text, path, k, comment=comment)


def sparse_row(text, defaults, path=None, lineno=None, comment="%"):
    """A sparse ARFF row's fields: ``defaults`` with the values it names set (``{1 x, 3 2.5}``; an
    instance weight ``{...}, {w}`` after it is not read).

    Examples
    --------
    >>> sparse_row("{1 x, 3 '2 5'}", ["0", "a", "0", "0"])
    ['0', 'x', '0', '2 5']
    """
    end = text.find("}")
    if end < 0:
        raise DataFormatError("a sparse row without its closing '}'", path=path, line=lineno)
    row = list(defaults)
    inner = text[1:end].strip()
    for item in (split_fields(inner, path, lineno, comment=comment) if inner else []):
        index, _, value = item.partition(" ")
        if not index.isdigit() or int(index) >= len(row) or not value.strip():
            raise DataFormatError(f"expected 'index value' with an index below {len(row)} in a sparse row, "
                                  f"got {item[:40]!r}", path=path, line=lineno)
        value = value.strip()
        if value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) > 1:
            value = value[1:-1]
        row[int(index)] = value
    return row


def chunked(rows, size=None):
    """``(line numbers, rows)`` lists of at most ``size`` rows (all of them for
    None). A tokenizing error comes after the rows read before it, so the reader
    can report an earlier error in those rows first (the same one, whatever the
    chunk size)."""
    linenos, block = [], []
    try:
        for k, fields in rows:
            linenos.append(k)
            block.append(fields)
            if size is not None and len(block) == size:
                yield linenos, block
                linenos, block = [], []
    except DataFormatError:
        if block:
            yield linenos, block
        raise
    if block or size is None:
        yield linenos, block
