"""The calls of the array-based J implementation (Vector 16:2), on a filebase.

``learn``, ``test``, ``accuracy``, ``classify`` and ``priors`` each learn a
Naive Bayes from ``NAME.des`` and ``NAME.dat`` with the J program's settings
(Laplace-corrected attribute probabilities and class priors (n_c + 1) / (N + K)).
Each returns a result the report functions format.

Examples
--------
>>> from seminaive.datasets import filebase_path
>>> base = filebase_path("led")
>>> round(accuracy(base), 1)
78.0
>>> test(base)[:5].tolist()
['0', '2', '3', '2', '4']
"""

import os

import numpy as np

from .data.filebase import read_filebase
from .datasets import filebase_path
from .exceptions import DataFormatError
from .naive_bayes import NaiveBayes

__all__ = ["learn", "test", "accuracy", "classify", "priors", "j_model"]


def _resolve(base):
    """A filebase path, or the name of a bundled one (``led``, ``wave``)."""
    base = os.fspath(base)
    if not os.path.exists(base + ".des") and not os.path.exists(base) and base in ("led", "wave"):
        return filebase_path(base)
    return base


def j_model():
    """A NaiveBayes with the J implementation's settings.

    Examples
    --------
    >>> j_model()
    NaiveBayes()
    """
    return NaiveBayes(alpha=1.0, priors="laplace")


def _fitted(base, parts):
    fb = read_filebase(_resolve(base), parts=parts)
    return fb, j_model().fit(fb.learn)


def _need(fb, part, ext):
    data = getattr(fb, part)
    if data is None:
        raise DataFormatError(f"no such file (this call needs the filebase's .{ext} data)",
                              path=f"{fb.base}.{ext}")
    return data


def learn(base):
    """Learn from ``base.des`` and ``base.dat``; return the fitted model.

    Examples
    --------
    >>> from seminaive.datasets import filebase_path
    >>> learn(filebase_path("led")).classes_.tolist()[:3]
    ['0', '1', '2']
    """
    return _fitted(base, ("dat",))[1]


def test(base):
    """The classes the model gives the test data ``base.tst``.

    Examples
    --------
    >>> from seminaive.datasets import filebase_path
    >>> test(filebase_path("led"))[:5].tolist()
    ['0', '2', '3', '2', '4']
    """
    fb, nb = _fitted(base, ("dat", "tst"))
    return nb.predict(_need(fb, "test", "tst").X)


def accuracy(base):
    """The percentage of ``base.tst`` instances classified correctly.

    Examples
    --------
    >>> from seminaive.datasets import filebase_path
    >>> accuracy(filebase_path("led"))
    78.0
    """
    fb, nb = _fitted(base, ("dat", "tst"))
    t = _need(fb, "test", "tst")
    return 100.0 * float(np.mean(nb.predict(t.X) == np.asarray(t.y, dtype=object)))


def classify(base):
    """The classes the model gives the unlabelled data ``base.cls``.

    Examples
    --------
    >>> from seminaive.datasets import filebase_path
    >>> classify(filebase_path("led"))[:3].tolist()
    ['9', '0', '1']
    """
    fb, nb = _fitted(base, ("dat", "cls"))
    return nb.predict(_need(fb, "classify", "cls").X)


def priors(base):
    """The Laplace-corrected class probabilities, as ``{class: probability}``.

    Examples
    --------
    >>> from seminaive.datasets import filebase_path
    >>> round(priors(filebase_path("led"))["8"], 4)
    0.1476
    """
    nb = learn(base)
    return dict(zip(nb.classes_.tolist(), np.exp(nb.class_log_prior_).tolist()))
