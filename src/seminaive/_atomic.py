"""Writing output files safely: atomically, and never over a user's file unasked."""

import os
import tempfile

from .exceptions import SeminaiveError

__all__ = ["atomic_write", "atomic_write_text", "check_writable", "figure_format", "save_figure"]


def check_writable(path, overwrite=False):
    """Raise if ``path`` exists and ``overwrite`` is false, or is a symbolic link (even a dangling one:
    a user's link is never replaced by a file, nor followed)."""
    if os.path.islink(path):
        raise SeminaiveError(f"{path}: a symbolic link; seminaive replaces no link and writes through none "
                             f"(remove it, or choose another name)")
    if os.path.exists(path) and not overwrite:
        raise SeminaiveError(f"{path}: the file exists; choose another name or allow overwriting "
                             f"(--force on the command line, overwrite=True in the library)")


def _folder_of(path):
    """The existing folder ``path`` is to be written into (never created silently)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SeminaiveError(f"{path}: the folder {folder} does not exist; create it first")
    return folder


def _user_mode(fd):
    """Give a temporary file the mode a plain new file gets (0666 less the umask), not mkstemp's 0600."""
    mask = os.umask(0)
    os.umask(mask)
    os.fchmod(fd, 0o666 & ~mask)


def atomic_write(path, write, overwrite=False, binary=False):
    """Write ``path`` through a securely created temporary file (``mkstemp``: a new
    name, never a link followed) in the same folder, renamed over ``path`` at the
    end, so readers never see a half-written file; ``write(fh)`` writes the
    content. An existing file is replaced only when ``overwrite`` is true."""
    path = os.fspath(path)
    check_writable(path, overwrite)
    try:
        fd, tmp = tempfile.mkstemp(dir=_folder_of(path), prefix=".tmp-", suffix=os.path.basename(path)[-60:])
    except OSError as e:  # a read-only folder, say: named by the file the user asked for
        raise OSError(e.errno, e.strerror, path) from None
    try:
        _user_mode(fd)
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8", "newline": ""})) as fh:
            write(fh)
        if os.path.lexists(path):  # made while we wrote: checked again
            check_writable(path, overwrite)
        os.replace(tmp, path)
    except BaseException as e:  # the temporary file goes on every exit path (a full disk, an interrupt)
        if os.path.lexists(tmp):
            os.unlink(tmp)
        if isinstance(e, OSError) and not isinstance(e, (FileExistsError,)) and e.errno is not None:
            raise OSError(e.errno, e.strerror, path) from None
        raise


def atomic_write_text(path, text, overwrite=False):
    """Write ``text`` to ``path`` atomically (see :func:`atomic_write`).

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
    atomic_write(path, lambda fh: fh.write(text), overwrite)


def figure_format(path):
    """The image format a file name asks for: its extension (``.png``, ``.svg``, ``.pdf``, ...,
    whatever matplotlib writes), PNG for a name without one; any other extension is refused.

    Examples
    --------
    >>> figure_format("tree.SVG"), figure_format("plot")
    ('svg', 'png')
    """
    from matplotlib.backend_bases import FigureCanvasBase
    ext = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if not ext:
        return "png"
    known = FigureCanvasBase.get_supported_filetypes()
    if ext not in known:
        raise SeminaiveError(f"{path}: cannot draw a picture as .{ext[:20]}; expected one of "
                             + ", ".join("." + k for k in sorted(known)))
    return ext


def save_figure(fig, path, overwrite=False):
    """Save a matplotlib figure atomically (see :func:`atomic_write`) in the format its
    name asks for (:func:`figure_format`: PNG, SVG, PDF, ...) and close it."""
    import matplotlib.pyplot as plt
    try:
        fmt = figure_format(path)
        atomic_write(path, lambda fh: fig.savefig(fh, dpi=110, format=fmt), overwrite, binary=True)
    finally:
        plt.close(fig)
    return os.fspath(path)
