"""One 64-bit mix of unsigned integers (SplitMix64's finalizer): the hashes that must not depend on
the order things come in (a table's canonical order, a row's fold from its content) are built on it."""

import numpy as np

__all__ = ["mix64"]


def mix64(x):
    """Every bit of ``x`` (a uint64 array) reaching every bit of the result: exact, wrapping arithmetic.

    Examples
    --------
    >>> mix64(np.array([0, 1, 2], dtype=np.uint64)).tolist()
    [0, 6238072747940578789, 15839785061582574730]
    """
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))
