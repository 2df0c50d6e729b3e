"""Compiling a module's hot loops with numba on first use.

A module keeps its loops as plain Python functions and names them; the first call to
:func:`compiled` compiles them all (callees named first, so that a caller compiles
against their compiled forms), caching the machine code on disk: an installation pays
the compilation once, and importing seminaive never imports numba.
"""

__all__ = ["compiled"]


def compiled(space, names, done):
    """The functions ``names`` of the module whose globals are ``space``, compiled (all of
    them on the first call, which appends to the module's list ``done``).

    Examples
    --------
    >>> compiled({"size": len}, ("size",), [True])["size"]("abc")  # compiled already: left as it is
    3
    """
    if not done:
        from numba import njit
        for name in names:
            space[name] = njit(cache=True)(space[name])
        done.append(True)
    return space
