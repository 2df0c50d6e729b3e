"""Progress of long work, one mechanism for every command: the library says what it has done
(:func:`step`), and whoever asked to see progress (:func:`progress_to`; the command line does for
every command, on a terminal) gets a line at most every ``every`` seconds, once the work has run that
long. A fit of two seconds or less prints nothing; a library user who asked for nothing sees nothing.
The command line shows it when its stderr is a terminal; ``SEMINAIVE_PROGRESS=always`` (a log file,
a CI job) or ``never`` says otherwise (:func:`wanted`).

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> with progress_to(out, every=0.0):
...     for i in range(1, 3):
...         step("members", i, 2)
>>> out.getvalue().splitlines()
['  members: 1 of 2 (0 s, about 0 s left)', '  members: 2 of 2 (0 s)']
>>> step("members", 1, 2)  # nobody asked: nothing printed
"""

import contextlib
import contextvars
import os
import time

__all__ = ["progress_to", "shown_on", "step", "wanted", "duration", "EVERY"]

EVERY = 2.0  # seconds of work before the first line, and between lines

_SINK = contextvars.ContextVar("seminaive_progress", default=None)


class _Sink:
    def __init__(self, stream, every):
        self.stream, self.every = stream, every
        self.started, self.last = {}, {}

    def step(self, what, done, total):
        now = time.monotonic()
        start = self.started.setdefault(what, now)
        printed = what in self.last
        due = now - self.last.get(what, start) >= self.every
        if due or (printed and total is not None and done >= total):
            self.last[what] = now
            of = "" if total is None else f" of {total:,}"
            left = "" if total is None or not 0 < done < total else \
                f", about {duration((now - start) * (total - done) / done)} left"
            print(f"  {what}: {done:,}{of} ({now - start:.0f} s{left})", file=self.stream, flush=True)
        if total is not None and done >= total:  # the next round of the same work starts afresh
            self.started.pop(what, None)
            self.last.pop(what, None)


def duration(seconds):
    """A time left as people say it: seconds, then minutes, then hours.

    >>> duration(42.4), duration(150), duration(7300)
    ('42 s', '2.5 min', '2.0 h')
    """
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def wanted(stream):
    """Whether the command line shows progress on ``stream``: ``SEMINAIVE_PROGRESS`` says ``always`` or
    ``never``; unset (or anything else), when ``stream`` is a terminal.

    Examples
    --------
    >>> import io
    >>> wanted(io.StringIO()) == (os.environ.get("SEMINAIVE_PROGRESS") == "always")
    True
    """
    how = os.environ.get("SEMINAIVE_PROGRESS", "")
    if how in ("always", "never"):
        return how == "always"
    return bool(getattr(stream, "isatty", lambda: False)())


@contextlib.contextmanager
def progress_to(stream, every=None):
    """Within the block, the work's :func:`step` calls print progress to ``stream`` (after ``every``
    seconds of work, default :data:`EVERY`, then at most every ``every`` seconds, and the last step of
    work that printed); ``stream`` None shows nothing."""
    token = _SINK.set(None if stream is None else _Sink(stream, EVERY if every is None else every))
    try:
        yield
    finally:
        _SINK.reset(token)


def shown_on(stream):
    """Within the block, every :func:`step` prints to ``stream`` at once (what a library call's
    ``progress=stream`` asks for); ``stream`` None leaves progress as it was (the command line's, or none).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> with shown_on(out):
    ...     step("rows", 100, None)
    >>> out.getvalue().split(":")[0].strip()
    'rows'
    """
    return contextlib.nullcontext() if stream is None else progress_to(stream, every=0.0)


def step(what, done, total):
    """``done`` of ``total`` units of ``what`` are done (members fitted, folds run, iterations);
    ``total`` None: not known yet (the rows of a file's first pass), the work ends with a step whose
    ``total`` is given."""
    sink = _SINK.get()
    if sink is not None:
        sink.step(what, done, total)
