"""Compiling a module's hot loops with numba on first use.

A module keeps its loops as plain Python functions and names them; the first call to
:func:`compiled` compiles them all (callees named first, so that a caller compiles
against their compiled forms), caching the machine code on disk: an installation pays
the compilation once, and importing seminaive never imports numba. A loop compiled
without the GIL (``nogil``) can run on several threads at once, each on its own rows
(:func:`on_threads`).
"""

import os

import numpy as np

from .exceptions import ParameterError

__all__ = ["compiled", "on_threads", "usable_cores", "with_views"]


def compiled(space, names, done, nogil=()):
    """The functions ``names`` of the module whose globals are ``space``, compiled (all of
    them on the first call, which appends to the module's list ``done``); those in ``nogil``
    release the GIL while they run.

    Examples
    --------
    >>> compiled({"size": len}, ("size",), [True])["size"]("abc")  # compiled already: left as it is
    3
    """
    if not done:
        from numba import njit
        for name in names:
            space[name] = njit(cache=True, nogil=name in nogil)(space[name])
        done.append(True)
    return space


def with_views(space):
    """``space`` (a module's globals) given ``_view(address, k, n)``, for its loops: the (k, n) C-ordered
    float64 array whose data start at the integer ``address`` (an array's ``ctypes.data``; the caller
    keeps the array alive and of that shape). Loops that read many arrays of one shape take their
    addresses as one int64 array, where a numba typed List would compile its own methods in every
    process (about half a second on first use).

    Examples
    --------
    >>> import numpy as np
    >>> space = with_views({})
    >>> a = np.arange(6.0).reshape(2, 3)
    >>> space["_view"](a.ctypes.data, 2, 3).tolist()
    [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    """
    if space.get("_view") is None:
        from numba import carray, njit, types
        from numba.core import cgutils
        from numba.extending import intrinsic

        @intrinsic
        def pointer(typingctx, address):
            return types.voidptr(types.int64), lambda context, builder, sig, args: builder.inttoptr(
                args[0], cgutils.voidptr_t)

        space["_view"] = njit(lambda address, k, n: carray(pointer(address), (k, n), np.float64))
    return space


def usable_cores():
    """The processor cores this process may run on, at most ``SEMINAIVE_NUM_THREADS`` where it is set.

    Examples
    --------
    >>> usable_cores() >= 1
    True
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    cap = os.environ.get("SEMINAIVE_NUM_THREADS", "").strip()
    if not cap:
        return cores
    if not cap.isdigit() or int(cap) < 1:
        raise ParameterError(f"SEMINAIVE_NUM_THREADS: expected a whole number of threads, 1 or more; got {cap!r}")
    return min(cores, int(cap))


def on_threads(run, n_rows, min_rows=1 << 15):
    """``run(start, stop)`` over the rows ``range(n_rows)`` cut in consecutive parts, one per usable
    core but none under ``min_rows`` rows, each on its own thread (``run`` calls a loop compiled
    without the GIL on its own rows); one part runs in the calling thread. The threads end before
    this returns (none is left behind to meet a fork).

    Examples
    --------
    >>> seen = []
    >>> on_threads(lambda a, b: seen.append((a, b)), 10, min_rows=4)
    >>> sorted(seen)[0][0], sorted(seen)[-1][1], sum(b - a for a, b in seen)  # consecutive parts, every row once
    (0, 10, 10)
    """
    most = n_rows // max(min_rows, 1)
    parts = 1 if most < 2 else min(usable_cores(), most)  # too few rows for two: no need to ask
    bounds = [n_rows * i // parts for i in range(parts + 1)]
    if parts == 1:
        run(0, n_rows)
        return
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(parts) as pool:
        for f in [pool.submit(run, a, b) for a, b in zip(bounds[:-1], bounds[1:])]:
            f.result()  # a part's error raised here
