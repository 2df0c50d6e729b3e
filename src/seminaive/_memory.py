"""Refusing, before the work, what this machine's memory cannot hold.

A model whose tables grow with classes x values x parents (AnDE's super-parent sets, MDL's
per-value class counts) can ask for tens of gigabytes; rather than run for minutes into a
MemoryError, its size is estimated first and compared with the machine's memory.

Examples
--------
>>> check_memory(1024, "a small table", "nothing")  # fits: returns quietly
>>> check_memory(1 << 62, "2**62 bytes", "less")
Traceback (most recent call last):
...
seminaive.exceptions.ParameterError: 2**62 bytes needs about 4294967296.0 GiB, more than half this machine's ...; use less
"""

import os

from .exceptions import ParameterError

__all__ = ["check_memory", "machine_memory"]


def machine_memory():
    """The machine's physical memory in bytes (None where the system does not tell)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not POSIX
        return None


def check_memory(n_bytes, what, instead):
    """Raise a one-line ParameterError when ``n_bytes`` (the estimate for ``what``) exceed half the
    machine's memory (the other half for the data, the temporaries of the work and everything else
    running), naming the cause and what to do ``instead``."""
    total = machine_memory()
    if total is not None and n_bytes > total / 2:
        raise ParameterError(f"{what} needs about {n_bytes / 2**30:.1f} GiB, more than half this machine's memory "
                             f"({total / 2**30:.1f} GiB); use {instead}")
