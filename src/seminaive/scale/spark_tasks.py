"""Progress within a Spark job: while a pass runs on the executors, the tasks its stages have finished of
all their tasks (one a partition), read from Spark's status tracker twice a second by a thread that
shows them as the pass's progress (:func:`~seminaive._progress.step`). A session without a tracker on
the driver (Spark Connect) shows the pass's start and end only."""

import contextlib
import contextvars
import threading

from .._progress import step

__all__ = ["tasks_shown", "tasks_done"]

POLL = 0.5  # seconds between looks at the tracker


def tasks_done(tracker):
    """``(finished, all)`` tasks of the stages ``tracker`` (a ``StatusTracker``) says are running.

    Examples
    --------
    >>> from types import SimpleNamespace as S
    >>> t = S(getActiveStageIds=lambda: [3, 4], getStageInfo=lambda i: {3: S(numCompletedTasks=2, numTasks=8),
    ...                                                                  4: None}[i])
    >>> tasks_done(t)
    (2, 8)
    """
    done = total = 0
    for stage in tracker.getActiveStageIds():
        info = tracker.getStageInfo(stage)
        if info is not None:  # (a stage that ended between the two calls)
            done, total = done + info.numCompletedTasks, total + info.numTasks
    return done, total


def _tracker(df):
    try:
        return df.sparkSession.sparkContext.statusTracker()
    except Exception:  # Spark Connect: no SparkContext on the driver
        return None


@contextlib.contextmanager
def tasks_shown(df, what, partitions):
    """Within the block (a Spark job over ``df``'s ``partitions`` partitions), ``what``'s progress in
    tasks: from the tracker while it runs, all of them when the block ends without an error."""
    tracker, stop = _tracker(df), threading.Event()
    step(what, 0, partitions)

    def watch():
        while not stop.wait(POLL):
            done, total = tasks_done(tracker)
            if 0 < done < total:
                step(what, done, total)

    watcher = None
    if tracker is not None:  # the thread sees the caller's progress stream (its context)
        watcher = threading.Thread(target=contextvars.copy_context().run, args=(watch,), daemon=True)
        watcher.start()
    try:
        yield
    finally:
        stop.set()
        if watcher is not None:
            watcher.join()
    step(what, partitions, partitions)
