"""Writing output files safely: atomically, and never over a user's file unasked."""

import os
import tempfile

from .exceptions import SeminaiveError

__all__ = ["atomic_write_text", "check_writable", "save_figure"]


def check_writable(path, overwrite=False):
    """Raise if ``path`` exists and ``overwrite`` is false."""
    if os.path.exists(path) and not overwrite:
        raise SeminaiveError(f"{path}: the file exists; choose another name or allow overwriting "
                             f"(--force on the command line, overwrite=True in the library)")


def atomic_write_text(path, text, overwrite=False):
    """Write ``text`` to ``path`` through a temporary file in the same folder.

    Readers never see a half-written file, and an existing file is replaced
    only when ``overwrite`` is true.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> atomic_write_text(p, "one")
    >>> atomic_write_text(p, "two")
    Traceback (most recent call last):
    ...
    seminaive.exceptions.SeminaiveError: ...out.txt: the file exists; ...
    >>> atomic_write_text(p, "two", overwrite=True); p.read_text()
    'two'
    """
    path = os.fspath(path)
    check_writable(path, overwrite)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        if not overwrite and os.path.exists(path):
            check_writable(path, overwrite)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_figure(fig, path, overwrite=False):
    """Save a matplotlib figure as PNG atomically (through a temporary file) and close it."""
    import matplotlib.pyplot as plt
    path = os.fspath(path)
    check_writable(path, overwrite)
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, ".tmp-" + os.path.basename(path))
    try:
        fig.savefig(tmp, dpi=110, format="png")
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
