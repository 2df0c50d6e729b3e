"""A pass over a Dask DataFrame's partitions with memory bounded: ``fn`` on each
partition, the results combined in partition order as a balanced pairwise tree.

Computing every partition's result and then reducing them holds all of them at
once: a model's statistics per partition (tables of hundreds of MB for a kDB of
high order) times the partitions outgrow the workers. Here at most a window of
partitions is in work at any time (twice the threads that run them), and the
results are combined as they arrive, in order, as the digits of a binary counter
carry: one partial result is held per level of the tree, the ``log2`` of the
partitions at most. The tree is the one of halving the list level by level, so
a sum comes out as that reduction gives it, whatever the window.

On a ``distributed`` cluster (a ``Client`` that is the active scheduler) the
partitions' results and their combinations stay on the workers; only the
final one travels. The arguments every partition shares (a model, its tables)
are sent to the cluster once. Without one, the active local scheduler computes
the window's partitions together and this process combines them.
"""

from collections import deque

from .._jit import usable_cores
from .._progress import step

__all__ = ["reduce_in_order"]


class _Levels:
    """Partial results, one per level of the pairwise tree (as ``(leaves covered, value)``),
    merged as the leaves come in order."""

    def __init__(self, merge):
        self.merge, self.held = merge, []

    def push(self, value):
        """Takes the next leaf's value; gives the value now on top (a merge when the leaf closed a pair)."""
        n = 1
        while self.held and self.held[-1][0] == n:
            m, before = self.held.pop()
            value, n = self.merge(before, value), n + m
        self.held.append((n, value))
        return value

    def result(self):
        """The whole tree's value: the levels left, merged from the last one back."""
        if not self.held:
            return None
        value = self.held.pop()[1]
        while self.held:
            value = self.merge(self.held.pop()[1], value)
        return value


def _client():
    """The distributed client that is the active scheduler, else None."""
    import dask.base
    try:
        from distributed import default_client
        client = default_client()
    except (ImportError, ValueError):
        return None
    return client if dask.base.get_scheduler() == client.get else None


def _apply(fn, leaf, args):
    return fn(*leaf, *args)


def reduce_in_order(fn, combine, leaves, args=(), sizes=None, what=None):
    """``combine`` (associative) over ``fn(*leaf, *args)`` for every leaf of ``leaves`` (tuples of
    plain and delayed values, such as a partition and its first row), in order: see the module's
    notes. ``sizes`` (a number per leaf, such as its rows) and ``what`` show progress
    (:func:`~seminaive._progress.step`). None for no leaves.

    Examples
    --------
    >>> import dask
    >>> parts = [(dask.delayed(list)(range(i, i + 2)),) for i in range(0, 10, 2)]
    >>> reduce_in_order(sum, lambda a, b: f"({a}+{b})", parts)
    '(((1+5)+(9+13))+17)'
    """
    import dask
    client = _client()
    done, total = 0, None if sizes is None else int(sum(sizes))

    def shown(i):
        nonlocal done
        if what is not None:
            done += 1 if sizes is None else int(sizes[i])
            step(what, done, total)

    if client is None:
        window = 2 * usable_cores()
        levels = _Levels(combine)
        for start in range(0, len(leaves), window):
            batch = leaves[start:start + window]
            for i, value in enumerate(dask.compute(*[dask.delayed(_apply)(fn, leaf, args) for leaf in batch]),
                                      start):
                levels.push(value)
                shown(i)
        return levels.result()
    from distributed import wait
    window = 2 * max(1, sum(client.nthreads().values()))
    shared = client.scatter([args], hash=False)[0] if args else ()
    levels = _Levels(lambda a, b: client.submit(combine, a, b, pure=False))
    pending = deque()

    def settle():
        i, future = pending.popleft()
        top = levels.push(_settled(wait, future))
        if top is not future:
            _settled(wait, top)  # a merge: done before more leaves start, so merges never queue up
        shown(i)

    for i, leaf in enumerate(leaves):
        pending.append((i, client.submit(_apply, fn, client.compute(dask.delayed(leaf)), shared, pure=False)))
        if len(pending) >= window:
            settle()
    while pending:
        settle()
    final = levels.result()
    return None if final is None else final.result()


def _settled(wait, future):
    """``future`` once done; its error raised here (as the task raised it) if it failed."""
    wait([future])
    if future.status == "error":
        future.result()
    return future
