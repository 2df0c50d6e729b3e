"""The exact checks of streamed files: every row's width, and the line and
column of a value that does not fit its attribute. The fast readers (pyarrow,
pandas' C parser) find that something is wrong; these name where.
"""

import csv

import numpy as np
import pandas as pd

from ..data._text import open_text, strip_compression
from ..data.summary import MISSING_TOKENS
from ..exceptions import DataFormatError

__all__ = ["text_chunks", "widths_ok", "check_rows", "exact_chunks"]


def text_chunks(reader, path, first_line):
    """Chunks of stripped strings (with their first row's line, exact when the
    file has no blank or comment lines among its rows)."""
    line = first_line
    try:
        for chunk in reader:
            yield line, chunk.apply(lambda c: c.str.strip())
            line += len(chunk)
    except pd.errors.ParserError as e:
        raise DataFormatError(f"malformed row ({e})", path=path) from None


def widths_ok(path, width, first_line, quotechar, comment, sep=",", block=1 << 25):
    """Check every data line has ``width`` fields by counting commas in raw
    bytes (numpy, block by block). Returns False when the file holds quote
    characters (the caller then checks with Python's csv reader)."""
    if strip_compression(path) != path or len(sep.encode()) != 1:
        return False  # a compressed file: the exact check reads it decompressed
    q = ord(quotechar)
    comma = ord(sep)
    line = 1
    rest = b""
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(block)
            data = rest + chunk
            if not chunk:
                if not data:
                    return True
                data += b"\n"
            cut = data.rfind(b"\n") + 1
            body, rest = data[:cut], data[cut:]
            raw = np.frombuffer(body, dtype=np.uint8)
            if (raw == q).any():
                return False
            ends = np.flatnonzero(raw == 10)
            starts = np.r_[0, ends[:-1] + 1]
            commas = np.searchsorted(np.flatnonzero(raw == comma), ends) - np.searchsorted(
                np.flatnonzero(raw == comma), starts)
            lengths = ends - starts
            nonblank = np.array([bool(body[a:b].strip()) for a, b in zip(starts[lengths < 3], ends[lengths < 3])])
            blank = np.zeros(ends.size, bool)
            blank[np.flatnonzero(lengths < 3)] = ~nonblank if nonblank.size else False
            first = raw[starts.clip(max=raw.size - 1)]
            skip = blank | ((first == comment) if comment is not None else False)
            numbers = line + np.arange(ends.size)
            bad = (~skip) & (numbers >= first_line) & (commas != width - 1)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                raise DataFormatError(f"expected {width} values, got {int(commas[k]) + 1}", path=path,
                                      line=int(numbers[k]))
            line += ends.size
            if not chunk:
                return True


def check_rows(path, names, first_line, quotechar, sep=","):
    """Every row has all its fields (pandas would pad a short row silently),
    checked with Python's csv reader (exact with quotes)."""
    width = len(names)
    with open_text(path) as fh:
        for _ in range(first_line - 1):
            fh.readline()
        for k, row in enumerate(csv.reader(fh, delimiter=sep, quotechar=quotechar, skipinitialspace=True)):
            if not row or (len(row) == 1 and not row[0].strip()) or row[0].lstrip().startswith("%"):
                continue
            if len(row) != width:
                raise DataFormatError(f"expected {width} values, got {len(row)}", path=path, line=first_line + k)


def exact_chunks(path, names, declared, tidx, make, first_line):
    """The strict (slower) conversion, used to name the line and column of an error."""
    for line, chunk in text_chunks(make(), path, first_line):
        for j, (a, col) in enumerate(zip(declared, chunk.columns)):
            s = chunk[col].where(~chunk[col].isin(MISSING_TOKENS))
            if a.is_nominal or j == tidx:
                bad = s.notna() & ~s.isin(pd.Index([str(v) for v in a.values], dtype=object))
                if bad.any():
                    k = int(np.flatnonzero(bad.to_numpy())[0])
                    raise DataFormatError(f"value {s.iloc[k]!r} of attribute {a.name!r} is not one of the "
                                          f"declared values", path=path, line=line + k, column=j + 1)
            else:
                num = pd.to_numeric(s, errors="coerce")
                if (num.isna() & s.notna()).any():
                    k = int(np.flatnonzero((num.isna() & s.notna()).to_numpy())[0])
                    raise DataFormatError(f"expected a number in numeric attribute {a.name!r}, got {s.iloc[k]!r}",
                                          path=path, line=line + k, column=j + 1)
        yield chunk
