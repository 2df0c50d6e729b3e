"""A CSV file read once: each column's kind and value list grow as its rows come.

The two-pass reading (:meth:`.file_plan.FilePlan.encoded`) settles every
column's kind and value list before it encodes a row. A model whose statistics
can grow (a Naive Bayes of categorical and Gaussian attributes) needs no such
first pass: :class:`OnePassCsv` reads the file once through pyarrow (numbers
parsed by it, text columns as plain strings looked up among the texts met,
:mod:`.text_codes`), and yields the rows encoded against what the file showed so far
(:class:`Rows`): a nominal column's values and the classes in order of first appearance,
which only ever grow at the end, so a code once given keeps its meaning; a column is numeric
while every present value is a number (as numpy reads numbers). When a column first shows a
value that is not a number, its earlier rows' class-by-value counts are gathered (:class:`Recount`; see
:class:`OnePassCsv` for how), then the pass goes on. :meth:`OnePassCsv.final` applies the reading rules of
:meth:`.summary.ColumnSummary.attribute` to what the pass saw, so the final
kinds, value lists and classes are those of the two-pass reading (a value list
the rules sort, a forced nominal column of numbers, is the same values in
another order).
"""

from dataclasses import dataclass
from itertools import chain

import numpy as np

from .._jit import usable_cores
from ..exceptions import DataFormatError
from .arrow_csv import block_size, csv_batches, failed_float, text_numbers
from .encoding import EncodedTable, code_dtype
from .kinds import EMPTY, NUMBERS, column_kind
from .schema import NOMINAL, NUMERIC, Attribute, resolve_columns
from .summary import MISSING_TOKENS, ColumnSummary, _numbers, value_order
from .text_codes import TextCodes
from .value_index import ValueIndex

__all__ = ["OnePassCsv", "Rows", "Recount"]

@dataclass
class Rows:
    """A chunk: the ``attributes`` (every column but the class, in file order) and the
    ``classes`` as known so far, the rows encoded against them (``table``) and their
    class codes ``y`` (rows whose class is missing left out)."""

    attributes: tuple
    classes: tuple
    table: EncodedTable
    y: np.ndarray


@dataclass
class Recount:
    """Attribute ``column`` turned nominal: its ``attribute`` (the values so far) and the
    class-by-value ``counts`` of the earlier rows, over the ``classes`` known so far."""

    column: int
    attribute: Attribute
    counts: np.ndarray
    classes: tuple


class _Values:
    """A nominal column's distinct stripped present values in order of first appearance (a growing
    :class:`~.value_index.ValueIndex`)."""

    def __init__(self):
        self.index = ValueIndex()
        self.texts = TextCodes(self.index)
        self.n_present = self.n_missing = 0

    @property
    def values(self):
        return self.index.values

    def codes(self, col, tally=True):
        """Codes of a batch's text column (plain strings; -1 missing), tallied as present or
        missing (not for rows read again)."""
        codes = self.texts.codes(col)
        if tally:
            missing = int(np.count_nonzero(codes < 0))
            self.n_missing += missing
            self.n_present += len(codes) - missing
        return codes


class _Numbers:
    """A column every present value of which has been a number so far: parsed by pyarrow,
    or (``text``: pyarrow refused a value) read as text and converted by numpy."""

    def __init__(self):
        self.n_present, self.text = 0, False

    def floats(self, col):
        """A batch's column as float64 (NaN missing), or None when a text value is not a number."""
        if not self.text:
            self.n_present += len(col) - col.null_count
            return _finite(col.to_numpy(zero_copy_only=False))
        import pyarrow.compute as pc
        values, missing = text_numbers(pc.dictionary_encode(col))
        if values is not None:
            self.n_present += len(values) - missing
        return None if values is None else _finite(values)


def _finite(values):
    """``values``, unless one is infinite: then the pass stops as at a malformed row (pyarrow's
    ArrowInvalid), and the tokenizer reads the file to name the line."""
    if np.isinf(values).any():
        import pyarrow as pa
        raise pa.ArrowInvalid("an infinite number")
    return values


def _counts(codes, y, k, m):
    """Class-by-value counts (k, m) of rows with a class and a value."""
    keep = (codes >= 0) & (y >= 0)
    return np.bincount(y[keep] * m + codes[keep], minlength=k * m).reshape(k, m).astype(np.float64)


class OnePassCsv:
    """The one pass over a CSV ``plan`` (:class:`.file_plan.FilePlan` of a file pyarrow
    reads, ``quoted`` as :func:`.arrow_csv.arrow_options` found) in chunks of ``size``
    rows; ``nominal`` names columns to read as nominal. Iterating yields :class:`Rows`
    and :class:`Recount` parts in file order; :meth:`final` gives the attributes and
    classes the whole file settles.

    A column is parsed by pyarrow as numbers until a value fails; the read then starts
    again with that column as text, the rows already counted passed over but for that
    column's class-by-value counts, kept in case numpy does not read the value either
    (the column turns nominal: a :class:`Recount`). A column numpy reads that turns
    nominal later has its earlier rows read again alone.

    Examples
    --------
    >>> from seminaive.datasets import dataset_path
    >>> from seminaive.data.file_plan import plan_file
    >>> reader = OnePassCsv(plan_file(dataset_path("ihealth")), size=10)
    >>> [len(part.y) for part in reader]
    [10, 5]
    >>> attributes, classes, _, _ = reader.final()
    >>> attributes[1].values, classes
    (('sedentary', 'active', 'moderate'), ('i100', 'i500'))
    """

    def __init__(self, plan, size, nominal=None, quoted=False):
        self.plan, self.size, self.quoted = plan, size, quoted
        self.forced = resolve_columns(nominal, plan.names, "nominal")
        self.columns = [j for j in range(len(plan.names)) if j != plan.target]
        self.state = {j: _Values() if j in self.forced else _Numbers() for j in self.columns}
        self.classes = _Values()
        self.block = block_size(plan.path, size)

    def _read(self, floats=(), include=None):
        p = self.plan
        return csv_batches(p.path, p.names, p.arrow_skip, p.sep, set(floats), self.block, include, self.quoted,
                           plain_text=True)

    def __iter__(self):
        import pyarrow as pa
        try:
            yield from self._pass()
        except pa.ArrowInvalid as e:  # a malformed row: the tokenizer names its line
            for _ in self.plan.encoded_by_tokens(self.size):
                pass
            raise DataFormatError(f"cannot read the data ({str(e).splitlines()[0]})", path=self.plan.path) from None

    def _pass(self):
        from concurrent.futures import ThreadPoolExecutor
        threads = min(usable_cores(), len(self.columns) + 1)
        if threads < 2:
            yield from self._rows(map)
            return
        with ThreadPoolExecutor(threads) as pool:  # (Arrow's look-ups let the GIL go)
            yield from self._rows(pool.map)

    def _rows(self, each):
        """The pass, ``each`` (a ``map``) giving the text columns' codes of a batch."""
        import pyarrow as pa
        self.done, pending = 0, {}  # rows counted; columns pyarrow refused, with their earlier rows as text
        probed = self._probe()
        while True:
            floats = {j for j, s in self.state.items() if isinstance(s, _Numbers) and not s.text}
            try:  # every column text: the probe's reading is this pass's (the same types), its first batch kept
                batches = chain([probed[0]], probed[1]) if probed and not floats else self._read(floats)
                probed = None
                for batch in self._skipped(batches, self.done, pending):
                    yield from self._batch(batch, pending, each)
                    pending, self.done = {}, self.done + batch.num_rows
                return
            except pa.ArrowInvalid as e:
                j = failed_float(e, floats)
                if j is None:
                    raise
                self.state[j].text = True  # the earlier rows are walked again: every pending column afresh
                pending = {i: (_Values(), np.zeros((0, 0))) for i in [*pending, j]}

    def _probe(self):
        """Columns whose first batch holds a value that is not a number are text from the start (no
        restart for each); the others are parsed as numbers. Returns the first batch and the rest of
        that reading (None for a file without rows)."""
        import pyarrow.compute as pc
        reading = iter(self._read())
        first = next(reading, None)
        for j, state in self.state.items():
            if first is not None and isinstance(state, _Numbers):
                raw = {v.strip() for v in pc.unique(first.column(j)).to_pylist()} - MISSING_TOKENS
                if not _numbers(sorted(raw)):
                    self.state[j] = _Values()
        return None if first is None else (first, reading)

    def _skipped(self, batches, done, pending):
        """The batches after the first ``done`` rows (read again after a restart), the
        ``pending`` columns' codes of those rows counted by class on the way."""
        seen = 0
        for batch in batches:
            if seen < done:
                n = min(batch.num_rows, done - seen)
                y = self.classes.codes(batch.column(self.plan.target).slice(0, n), tally=False)
                for j, (values, counts) in pending.items():
                    codes = values.codes(batch.column(j).slice(0, n))
                    pending[j] = values, _widen(counts, len(self.classes.values), len(values.values)) \
                        + _counts(codes, y, len(self.classes.values), len(values.values))
                seen += n
                if n == batch.num_rows:
                    continue
                batch = batch.slice(n)
            yield batch

    def _batch(self, batch, pending, each=map):
        """The parts of one batch of new rows (the text columns' codes through ``each``, a ``map``)."""
        cols = {}
        for j in self.columns:
            state = self.state[j]
            if isinstance(state, _Numbers):
                cols[j] = state.floats(batch.column(j))
                if cols[j] is not None:
                    continue
                if self.done:
                    yield self._turn_nominal(j, pending.get(j))
                else:  # no row counted yet
                    self.state[j] = _Values()
        # the text columns' codes (the class's first), each column on its own state: on several threads
        text = [self.plan.target] + [j for j in self.columns if j not in cols or cols[j] is None]
        states = [self.classes] + [self.state[j] for j in text[1:]]
        found = list(each(lambda i: states[i].codes(batch.column(text[i])), range(len(text))))
        y = found[0]
        cols.update(zip(text[1:], found[1:]))
        attributes = self._attributes()
        nominal = [j for j, a in zip(self.columns, attributes) if a.is_nominal]
        numeric = [j for j, a in zip(self.columns, attributes) if not a.is_nominal]
        dtype = code_dtype(max([a.n_values for a in attributes if a.is_nominal], default=0))
        for s in range(0, batch.num_rows, self.size):
            e = min(s + self.size, batch.num_rows)
            rows = np.flatnonzero(y[s:e] >= 0) + s
            keep, n = (slice(s, e) if rows.size == e - s else rows), rows.size  # every row with its class: a view
            if n:
                table = EncodedTable(_block([cols[j][keep] for j in nominal], n, dtype),
                                     _block([cols[j][keep] for j in numeric], n, np.float64),
                                     np.zeros(len(nominal)))
                yield Rows(attributes, tuple(self.classes.values), table, y[keep])

    def _turn_nominal(self, j, earlier):
        """Column ``j`` showed a value that is not a number: a :class:`Recount` of its earlier rows, from
        ``earlier`` (their values and counts, gathered on a restart), else read again alone."""
        values, counts = earlier if earlier is not None else self._read_again(j)
        self.state[j] = values
        k = len(self.classes.values)
        return Recount(self.columns.index(j), Attribute(self.plan.names[j], NOMINAL, tuple(values.values)),
                       _widen(counts, k, len(values.values)), tuple(self.classes.values))

    def _read_again(self, j):
        """The values and class-by-value counts of column ``j`` in the rows counted so far."""
        values, counts, seen = _Values(), np.zeros((0, 0)), 0
        for batch in self._read(include=[j, self.plan.target]) if self.done else ():
            n = min(batch.num_rows, self.done - seen)
            codes = values.codes(batch.column(0).slice(0, n))
            y = self.classes.codes(batch.column(1).slice(0, n), tally=False)
            k, m = len(self.classes.values), len(values.values)
            counts = _widen(counts, k, m) + _counts(codes, y, k, m)
            seen += n
            if seen >= self.done:
                break
        return values, counts

    def _attributes(self):
        return tuple(Attribute(self.plan.names[j], NUMERIC) if isinstance(s, _Numbers)
                     else Attribute(self.plan.names[j], NOMINAL, tuple(s.values))
                     for j, s in self.state.items())

    def final(self):
        """``(attributes, classes, value positions, class positions)`` as the whole file settles them
        (the rules of :meth:`.summary.ColumnSummary.attribute`; a class column that looks like a
        measurement is refused): where each nominal attribute's values met so far stand in its
        final list (None: numeric), and where the classes met so far stand among the final ones."""
        names, target = self.plan.names, self.plan.target
        attributes, positions = [], []
        for j, s in self.state.items():
            if isinstance(s, _Numbers):  # numbers, or no value at all (forced columns hold values)
                attributes.append(Attribute(names[j], column_kind(NUMBERS if s.n_present else EMPTY)))
                positions.append(None)
            else:
                attributes.append(Attribute(names[j], NOMINAL, tuple(value_order(s.values, j in self.forced))))
                positions.append(_positions(s.values, attributes[-1].values))
        c = self.classes
        summary = ColumnSummary(_numbers(c.values), list(c.values), c.n_missing, c.n_present)
        cls = summary.attribute(names[target], nominal=target in self.forced, target=True, path=self.plan.path)
        return tuple(attributes), tuple(cls.values), positions, _positions(c.values, cls.values)


def _positions(old, new):
    """Where each of the ``old`` values stands among the ``new`` (the same values, maybe reordered)."""
    return np.asarray(ValueIndex(list(new)).codes(list(old)), dtype=np.int64)  # (the one encoder)


def _widen(counts, k, m):
    """``counts`` laid out as (k, m), zeros for the classes and values added since."""
    out = np.zeros((k, m))
    out[:counts.shape[0], :counts.shape[1]] = counts
    return out

def _block(columns, n, dtype):
    """Columns side by side, column-major (as the encoder lays them out)."""
    out = np.empty((n, len(columns)), dtype=dtype, order="F")
    for k, c in enumerate(columns):
        out[:, k] = c
    return out
