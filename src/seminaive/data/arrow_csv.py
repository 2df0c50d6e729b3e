"""CSV files streamed through pyarrow's CSV reader, with our reading rules.

pyarrow parses record batches in C, numbers straight to float64 and text
columns straight to dictionary codes, so a pass costs little more than the
parse. Our rules stay as the other readers apply them: a field is stripped of
surrounding spaces; ``?``, empty, ``NA``, ``NaN``, ``nan``, ``<null>`` and
``N/A`` are missing; a column is numeric when every present value is a number
(as numpy reads numbers), else nominal with its values in order of first
appearance (:class:`seminaive.data.summary.ColumnSummary` decides, as for every
reader). Where pyarrow's number parser is stricter than numpy's (``1_000``,
digits of other scripts) the column is read as text and its distinct values
converted by numpy, so the result is the same.

pyarrow serves plain, ``.gz`` and ``.bz2`` CSV files with a one-byte
separator and neither quotes nor NUL bytes (:func:`arrow_reads`), which it
splits exactly as the CSV tokenizer does; every other file (quotes, ARFF,
KEEL, the J filebase, ``.xz``/``.zip``) is read by the tokenizer.
Errors name the file and, through the tokenizer (:mod:`.tokens`), the line
and column.
"""

import re

import numpy as np

from ..exceptions import DataFormatError
from ._text import open_binary
from .summary import MISSING_TOKENS, ColumnSummary, _numbers

__all__ = ["arrow_serves", "arrow_reads", "arrow_options", "block_size", "arrow_summaries", "arrow_columns",
           "csv_batches", "failed_float", "text_values", "text_numbers", "ArrowRowError", "ArrowRestart"]

_BLOCK = 1 << 22  # bytes per record batch (at most)
_FAILED_COLUMN = re.compile(r"In CSV column #(\d+)")


def arrow_serves(path, sep):
    """Whether pyarrow reads this CSV file (see the module's notes)."""
    lower = path.lower()
    return len(sep.encode()) == 1 and not lower.endswith((".xz", ".zip"))


def _scan(path, offset, checks, block=1 << 24):
    """Which of ``checks`` (name -> a bytes regex, or plain bytes to find, which is many times
    faster) match the (decompressed) file after its first ``offset`` bytes (blocks overlap by
    4 KiB, so a match across a block's end is found)."""
    found, tail = set(), b""
    with open_binary(path) as fh:
        while offset > 0:
            offset -= len(fh.read(min(offset, block))) or offset
        while len(found) < len(checks):
            data = fh.read(block)
            if not data:
                break
            edge = tail + data[:4096]  # a match across the blocks' seam (the block itself is not copied)
            found |= {name for name, rx in checks.items() if name not in found and any(
                (rx in part if isinstance(rx, bytes) else rx.search(part)) for part in (data, edge))}
            tail = data[-4096:]
    return found


def arrow_reads(plan):
    """Whether pyarrow reads this file (:func:`arrow_options` gives how)."""
    return arrow_options(plan) is not None


def arrow_options(plan):
    """Whether pyarrow splits this file's data exactly as its tokenizer does
    (:mod:`.tokens`): a file pyarrow opens, with a one-byte separator, whose
    data holds no NUL byte, no dates to convert and no decimal comma; in a CSV file, quotes only
    where a field starts or ends (next to a separator, a line's end or another
    quote) and then no white space after a separator or at a line's start
    (Python's csv rules skip it before a quote, pyarrow's keep it); other
    formats no quote at all and no ``%`` comment. Returns None, or the reading's options
    (``quoted``: the file holds quotes, so a quoted value may hold line breaks)."""
    if plan.dates or plan.decimal != "." or not arrow_serves(plan.path, plan.sep):
        return None
    if plan.kind != "csv":
        marks = (b'"', b"'", b"%", b"\x00") + ((b"{",) if plan.kind == "arff" else ())  # ({: a sparse row)
        return None if _scan(plan.path, plan.data_offset, {b: b for b in marks}) else {"quoted": False}
    found = _scan(plan.path, plan.data_offset, {"nul": b"\x00", "quote": b'"'})
    if "nul" in found:
        return None
    if "quote" in found:  # the slower checks, only for a file with quotes
        sep = re.escape(plan.sep.encode())
        if _scan(plan.path, plan.data_offset, {
                "inner quote": re.compile(rb'[^' + sep + rb'\r\n"]"[^' + sep + rb'\r\n"]'),
                "space": re.compile(rb"(?:^|" + sep + rb")[ \t]", re.M)}):
            return None
    return {"quoted": "quote" in found}


def block_size(path, chunksize):
    """Bytes per pyarrow batch for about ``chunksize`` rows (from the first lines' length)."""
    with open_binary(path) as fh:
        head = [len(line) for _, line in zip(range(50), fh)]
    per_row = max(8, sum(head) // max(len(head), 1))
    return int(min(max(per_row * chunksize, 1 << 16), 1 << 22))


def csv_batches(path, names, header, sep, float_columns, block_size=_BLOCK, include=None, quoted=False,
                plain_text=False):
    """Record batches of the columns ``include`` (indices; default all):
    ``float_columns`` as float64 (missing tokens null), the others as
    dictionary-encoded raw text (``plain_text``: plain strings, for
    :class:`.text_codes.TextCodes`); rows of the wrong width are errors."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    def invalid(row):  # a line of spaces is blank; any other bad row stops the read
        return "skip" if not row.text.strip() else "error"

    text = pa.string() if plain_text else pa.dictionary(pa.int32(), pa.string())
    types = {n: (pa.float64() if j in float_columns else text) for j, n in enumerate(names)}
    read = pcsv.ReadOptions(block_size=block_size, column_names=names, skip_rows=int(header))
    parse = pcsv.ParseOptions(delimiter=sep, quote_char='"' if quoted else False, double_quote=True,
                              newlines_in_values=quoted, invalid_row_handler=invalid)  # as arrow_options found
    convert = pcsv.ConvertOptions(column_types=types, null_values=sorted(MISSING_TOKENS), strings_can_be_null=False,
                                  quoted_strings_can_be_null=False,
                                  include_columns=None if include is None else [names[j] for j in include])
    return pcsv.open_csv(path, read_options=read, parse_options=parse, convert_options=convert)


class ArrowRowError(DataFormatError):
    """pyarrow stopped at a malformed row (the caller's exact check names its line)."""


class ArrowRestart(Exception):
    """File column ``column`` holds a value pyarrow does not parse as a number:
    read it as text, from the start."""

    def __init__(self, column):
        super().__init__(column)
        self.column = column


def failed_float(error, floats):
    """The float column a pyarrow conversion error names, if any."""
    m = _FAILED_COLUMN.search(str(error))
    j = int(m.group(1)) if m else None
    return j if j in floats else None


def _restarting(path, names, header, sep, floats, consume, block_size, include=None, quoted=False):
    """Run ``consume(batches)`` over the file; a float column pyarrow cannot parse
    becomes text and the pass starts again. Returns ``(result, floats)``."""
    import pyarrow as pa
    floats, restarts = set(floats), 0
    while True:
        try:
            return consume(csv_batches(path, names, header, sep, floats, block_size, include, quoted)), floats
        except pa.ArrowInvalid as e:
            j = failed_float(e, floats)
            if j is None:
                raise ArrowRowError(f"not valid CSV ({str(e).splitlines()[0]})", path=path) from None
            floats.discard(j)
            restarts += 1
            if restarts == RESTARTS_BEFORE_TEXT and floats:  # many columns of text: find them all in one pass
                floats = _number_columns(path, names, header, sep, floats, block_size, quoted)


RESTARTS_BEFORE_TEXT = 2  # after this many columns found to hold text, one pass as text finds the rest


def _number_columns(path, names, header, sep, floats, block_size, quoted):
    """The columns of ``floats`` whose every present value numpy reads as a number, from one pass
    reading them as text (a wide file whose columns hold text one by one would otherwise be read
    again for each)."""
    include = sorted(floats)
    left = set(include)
    for batch in csv_batches(path, names, header, sep, set(), block_size, include, quoted):
        for k, j in enumerate(include):
            if j in left and text_numbers(batch.column(k))[0] is None:
                left.discard(j)
    return left


def _is_float(col):
    """Whether a batch's column was parsed as numbers: :func:`csv_batches` gives float64 or dictionary-encoded
    text columns only (an attribute test: a wide file asks it 10,000 times a batch)."""
    return not hasattr(col, "dictionary")


def text_values(col):
    """The stripped distinct present values of a dictionary column's batch in order of
    first appearance (the reader's dictionary order), each dictionary entry's index
    into them (-1: missing), and how many rows are missing."""
    raw = [s.strip() for s in col.dictionary.to_pylist()]
    order = {}
    for v in raw:
        if v not in MISSING_TOKENS:
            order.setdefault(v, len(order))
    entry = np.array([order.get(v, -1) for v in raw], dtype=np.int64)
    n_missing = 0
    if (entry < 0).any():
        per_entry = np.bincount(col.indices.to_numpy(zero_copy_only=False), minlength=len(raw))
        n_missing = int(per_entry[entry < 0].sum())
    return list(order), entry, n_missing


def text_numbers(col):
    """A dictionary text column's batch as float64 numbers read by numpy from its distinct stripped
    values (NaN where missing), and how many rows are missing; ``(None, 0)`` when a present value is
    not a number."""
    raw = [s.strip() for s in col.dictionary.to_pylist()]
    missing = np.array([v in MISSING_TOKENS for v in raw], dtype=bool)
    present = [v for v, m in zip(raw, missing) if not m]
    if not _numbers(present):
        return None, 0
    values = np.full(len(raw), np.nan)
    values[~missing] = np.asarray(present, dtype=np.float64)
    idx = col.indices.to_numpy(zero_copy_only=False)
    return values[idx], int(np.count_nonzero(missing[idx]))


def arrow_summaries(path, names, header, sep, text_columns, block_size=_BLOCK, include=None, quoted=False,
                    keep=None):
    """First pass: the :class:`ColumnSummary` of every column in ``include``
    (default all; the others get an empty one), and the columns pyarrow parsed
    as numbers throughout. Columns in ``text_columns`` (forced nominal, the
    class) keep their values; the others are parsed as numbers while they are
    numbers. ``keep`` (a list) receives the record batches of the pass that
    succeeded (a second pass with the same column types reads them, not the file)."""
    include = list(range(len(names))) if include is None else list(include)

    def consume(batches):
        summaries = dict.fromkeys(include)
        if keep is not None:
            keep.clear()  # a column that is not a number read again: the pass starts over
        for batch in batches:
            if keep is not None:
                keep.append(batch)
            for k, j in enumerate(include):
                col = batch.column(k)
                if _is_float(col):  # every value a number or a missing token
                    part = ColumnSummary.of_numbers(len(col) - col.null_count, col.null_count)
                else:
                    values, _, missing = text_values(col)
                    part = ColumnSummary(_numbers(values), values, missing, len(col) - missing)
                summaries[j] = part if summaries[j] is None else summaries[j].merge(part)
        return summaries

    floats = set(include) - set(text_columns)
    summaries, floats = _restarting(path, names, header, sep, floats, consume, block_size, include, quoted)
    return [summaries.get(j) or ColumnSummary() for j in range(len(names))], floats


def arrow_columns(path, names, header, sep, columns, attributes, floats, block_size=_BLOCK, unseen=None,
                  quoted=False, batches=None):
    """Per batch, the file columns ``columns`` (indices) converted for their
    ``attributes``: codes into a nominal attribute's value list (-1 missing),
    float64 values of a numeric one (NaN missing), the text of a column whose
    attribute is None (None missing). ``floats``: file columns to
    parse as numbers (others are read as text; numbers pyarrow does not parse
    are converted by numpy). A value outside a nominal attribute's list raises
    ValueError, or with ``unseen`` (a dict) is counted there by attribute name
    and read as missing; a numeric value that is not a number raises
    ValueError; a float column pyarrow cannot parse raises :class:`ArrowRestart`. ``batches``: the
    file's record batches read already, with these columns and types (:func:`arrow_summaries`' ``keep``)."""
    import pyarrow as pa
    floats = {j for j, a in zip(columns, attributes) if j in floats and a is not None and not a.is_nominal}
    try:
        if batches is None:
            batches = csv_batches(path, names, header, sep, floats, block_size, include=columns, quoted=quoted)
        for batch in batches:
            yield [_convert(batch.column(k), a, unseen) for k, a in enumerate(attributes)]
    except pa.ArrowInvalid as e:
        j = failed_float(e, floats)
        if j is not None:
            raise ArrowRestart(j) from None
        raise ArrowRowError(f"not valid CSV ({str(e).splitlines()[0]})", path=path) from None


def _convert(col, attribute, unseen):
    """One batch's column as codes or floats, or for no ``attribute`` as stripped text (None missing)
    (see :func:`arrow_columns`)."""
    if _is_float(col):
        return col.to_numpy(zero_copy_only=False)
    raw = [s.strip() for s in col.dictionary.to_pylist()]
    idx = col.indices.to_numpy(zero_copy_only=False)
    if attribute is None:
        return np.array([None if v in MISSING_TOKENS else v for v in raw] + [None], dtype=object)[idx]
    if not attribute.is_nominal:  # numbers pyarrow does not parse: numpy converts the distinct values
        values, _ = text_numbers(col)
        if values is None:
            raise ValueError(f"not a number in {attribute.name!r}")
        return values
    entry = attribute.text_index.codes(raw, absent=-2)  # each dictionary entry's code (:mod:`.value_index`)
    entry[[v in MISSING_TOKENS for v in raw]] = -1
    codes = entry[idx]
    if (entry == -2).any():
        outside = codes == -2
        if not outside.any():
            return codes
        if unseen is None:
            raise ValueError(f"undeclared value in {attribute.name!r}")
        unseen[attribute.name] = unseen.get(attribute.name, 0) + int(np.count_nonzero(outside))
        codes[outside] = -1
    return codes
