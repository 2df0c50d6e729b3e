"""What a comparison says of the class column before it runs: its name and counts, and a warning (one
line, not an error) where the class cannot be what was meant: one class, classes of fewer rows than
folds, or a column of as many values as rows (an identifier)."""

from collections import Counter

import numpy as np

from .._words import plural

__all__ = ["class_summary", "class_warnings"]


def _counts(y):
    labels = [v for v in np.asarray(y, dtype=object).tolist() if v is not None and v == v]
    return sorted(Counter(labels).items(), key=lambda kv: (-kv[1], str(kv[0])))


def class_summary(name, y, most=8):
    """One line naming the class column and its classes with their counts (the largest first).

    >>> class_summary("play", ["yes", "no", "yes"])
    "class 'play': 2 classes (yes 2, no 1)"
    """
    counts = _counts(y)
    shown = ", ".join(f"{k} {v:,}" for k, v in counts[:most]) + (", ..." if len(counts) > most else "")
    return f"class {name!r}: {plural(len(counts), 'class')} ({shown})"


def class_warnings(name, y, folds=None):
    """The warnings (lines) a class column deserves before a model is tested on it (``folds``: the
    number of folds, if the protocol deals rows into folds).

    >>> class_warnings("id", list(range(20)))[0][:60]
    "class 'id' holds 20 values among 20 instances: an identifier"
    >>> class_warnings("c", ["p"] * 5)
    ["class 'c' holds one class ('p'): every model predicts it and accuracy says nothing; --target names another column"]
    >>> class_warnings("c", ["p"] * 9 + ["q"] * 2, folds=5)
    ["class 'c': q has 2 instances, fewer than the 5 folds (some folds test none of it)"]
    """
    counts = _counts(y)
    n = sum(v for _, v in counts)
    out = []
    if len(counts) == 1:
        out.append(f"class {name!r} holds one class ({counts[0][0]!r}): every model predicts it and accuracy says "
                   f"nothing; --target names another column")
    elif n >= 10 and len(counts) > n / 2:
        out.append(f"class {name!r} holds {len(counts):,} values among {plural(n, 'instance')}: an identifier "
                   f"or a number rather than a class? (--target names the class column)")
    elif folds:
        small = [(k, v) for k, v in counts if v < folds]
        if small:
            named = ", ".join(f"{k} has {plural(v, 'instance')}" for k, v in small[:3]) + \
                (f" and {len(small) - 3} more" if len(small) > 3 else "")
            out.append(f"class {name!r}: {named}, fewer than the {folds} folds (some folds test none of it)")
    return out
