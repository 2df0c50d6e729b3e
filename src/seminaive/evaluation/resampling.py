"""Resampling protocols: seeded, reproducible train/test index splits.

A :class:`Protocol` names a way of splitting and gives the splits for a class
vector; the same protocol and seed give the same splits, so every model of a
comparison sees the same folds.
"""

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import LeaveOneOut, train_test_split

from ..core.folds import fold_pairs, stratified_folds
from .._validation import check_param
from ..exceptions import ParameterError

__all__ = ["Protocol", "kfold", "repeated_kfold", "leave_one_out", "holdout", "per_class_holdout",
           "parse_protocol"]


@dataclass(frozen=True)
class Protocol:
    """A resampling protocol.

    Attributes
    ----------
    kind : {"kfold", "loo", "holdout", "per_class_holdout"}
    folds : int
        k of k-fold.
    repeats : int
        Repetitions (k-fold and hold-out), each with its own shuffle.
    test_fraction : float
        Hold-out test share.
    train_per_class, test_per_class : int
        Per-class sizes of the per-class hold-out (the thesis draws 35 and 15 per Iris class).
    seed : int

    Examples
    --------
    >>> p = Protocol("kfold", folds=3, repeats=2, seed=1)
    >>> len(p.splits(["a", "b"] * 6)), p.describe()
    (6, 'stratified 3-fold cross-validation, repeated 2 times (shuffled, seed 1)')
    """

    kind: str = "kfold"
    folds: int = 10
    repeats: int = 1
    test_fraction: float = 1 / 3
    train_per_class: int = 0
    test_per_class: int = 0
    seed: int = 0

    def splits(self, y):
        """List of (train, test) index arrays, tagged in order repetition by repetition."""
        y = np.asarray(y, dtype=object).astype(str)
        if self.kind == "kfold":
            return repeated_kfold(y, self.folds, self.repeats, self.seed)
        if self.kind == "loo":
            return leave_one_out(len(y))
        if self.kind == "holdout":
            return [s for r in range(self.repeats) for s in holdout(y, self.test_fraction, self.seed + r)]
        if self.kind == "per_class_holdout":
            return per_class_holdout(y, self.train_per_class, self.test_per_class, self.repeats, self.seed)
        raise ParameterError(f"protocol: unknown kind {self.kind!r}")

    def describe(self):
        """One sentence for reports."""
        if self.kind == "kfold":
            rep = f", repeated {self.repeats} times" if self.repeats > 1 else ""
            return f"stratified {self.folds}-fold cross-validation{rep} (shuffled, seed {self.seed})"
        if self.kind == "loo":
            return "leave-one-out cross-validation"
        if self.kind == "holdout":
            return (f"stratified hold-out, {100 * self.test_fraction:.0f}% for testing, "
                    f"{self.repeats} repetition(s) (seed {self.seed})")
        return (f"per-class hold-out: {self.train_per_class} training and {self.test_per_class} test "
                f"instances drawn from each class, {self.repeats} repetitions (seed {self.seed})")


def kfold(y, k=10, seed=0):
    """Stratified, shuffled k folds: the folds every model and search of the package draws
    (:func:`seminaive.core.folds.stratified_folds`).

    Examples
    --------
    >>> sorted(len(te) for _, te in kfold(["a"] * 6 + ["b"] * 3, k=3))
    [3, 3, 3]
    """
    y = np.asarray(y, dtype=object)
    if len(y) < 2:
        raise ParameterError(f"cv: cross-validation needs at least 2 instances, got {len(y)}")
    check_param("cv", k, kind="int", low=2, high=len(y))
    return fold_pairs(stratified_folds(y, k, seed))


def repeated_kfold(y, k=10, repeats=1, seed=0):
    """``repeats`` k-fold partitions, repetition r shuffled with seed + r.

    Examples
    --------
    >>> s = repeated_kfold(["a"] * 6 + ["b"] * 4, k=2, repeats=2, seed=0)
    >>> len(s), sorted(np.concatenate([te for _, te in s[:2]]).tolist()) == list(range(10))
    (4, True)
    """
    check_param("repeats", repeats, kind="int", low=1)
    return [s for r in range(repeats) for s in kfold(y, k, seed + r)]


def leave_one_out(n):
    """n splits, each leaving one instance out.

    Examples
    --------
    >>> [te.tolist() for _, te in leave_one_out(3)]
    [[0], [1], [2]]
    """
    return list(LeaveOneOut().split(np.zeros((n, 1))))


def holdout(y, test_fraction=1 / 3, seed=0):
    """One stratified (when every class has 2 instances) random hold-out split.

    Examples
    --------
    >>> tr, te = holdout(["a", "b"] * 6, test_fraction=1 / 3)[0]
    >>> len(tr), len(te)
    (8, 4)
    """
    y = np.asarray(y, dtype=object).astype(str)
    check_param("holdout", test_fraction, kind="number", low=0, high=1, low_inclusive=False,
                high_inclusive=False)
    _, counts = np.unique(y, return_counts=True)
    tr, te = train_test_split(np.arange(len(y)), test_size=test_fraction,
                              stratify=y if counts.min() >= 2 else None, random_state=seed)
    return [(np.sort(tr), np.sort(te))]


def per_class_holdout(y, train_per_class, test_per_class, repeats=10, seed=0):
    """Draw ``train_per_class`` training and ``test_per_class`` test instances
    from every class, without replacement, ``repeats`` times (the thesis's
    protocol: 35 and 15 per Iris class, 10 times).

    Examples
    --------
    >>> s = per_class_holdout(["a"] * 50 + ["b"] * 50, 35, 15, repeats=2)
    >>> [(len(tr), len(te)) for tr, te in s]
    [(70, 30), (70, 30)]
    """
    y = np.asarray(y, dtype=object).astype(str)
    check_param("train_per_class", train_per_class, kind="int", low=1)
    check_param("test_per_class", test_per_class, kind="int", low=1)
    rng = np.random.default_rng(seed)
    out = []
    classes, counts = np.unique(y, return_counts=True)
    need = train_per_class + test_per_class
    if counts.min() < need:
        small = classes[np.argmin(counts)]
        raise ParameterError(f"per-class hold-out: class {small!r} has {counts.min()} instances, "
                             f"fewer than {train_per_class} + {test_per_class}")
    for _ in range(repeats):
        tr, te = [], []
        for c in classes:
            idx = rng.permutation(np.flatnonzero(y == c))
            tr.append(idx[:train_per_class])
            te.append(idx[train_per_class:need])
        out.append((np.sort(np.concatenate(tr)), np.sort(np.concatenate(te))))
    return out


def parse_protocol(cv=None, repeats=1, loo=False, holdout=None, per_class=None, seed=0, test=False):
    """A Protocol from command-line style options (``per_class`` as "35/15"); ``cv`` None is 10-fold.
    At most one of ``cv``, ``loo``, ``holdout``, ``per_class`` and a separate ``test`` set may be given
    (contradictory options are refused, not silently resolved); ``repeats`` does not go with leave-one-out.

    Examples
    --------
    >>> parse_protocol(per_class="35/15", repeats=10).describe()[:40]
    'per-class hold-out: 35 training and 15 t'
    >>> parse_protocol(cv=2, holdout=0.3)
    Traceback (most recent call last):
    ...
    seminaive.exceptions.ParameterError: cv, holdout: expected one way to test (k-fold, leave-one-out, hold-out, per-class hold-out or a test set), got 2
    """
    given = [name for name, v in (("cv", cv is not None), ("loo", loo), ("holdout", holdout is not None),
                                  ("per_class", per_class is not None), ("test", test)) if v]
    if len(given) > 1:
        raise ParameterError(f"{', '.join(given)}: expected one way to test (k-fold, leave-one-out, hold-out, "
                             f"per-class hold-out or a test set), got {len(given)}")
    if loo and repeats != 1:
        raise ParameterError(f"repeats: leave-one-out is the same every time; expected 1 with loo, got {repeats!r}")
    cv = 10 if cv is None else cv
    if loo:
        return Protocol("loo", seed=seed)
    if per_class:
        try:
            a, b = (int(v) for v in str(per_class).split("/"))
        except ValueError:
            raise ParameterError(f"per_class: expected TRAIN/TEST sizes such as 35/15, got {per_class!r}") from None
        return Protocol("per_class_holdout", repeats=repeats, train_per_class=a, test_per_class=b, seed=seed)
    if holdout is not None:
        return Protocol("holdout", repeats=repeats, test_fraction=holdout, seed=seed)
    return Protocol("kfold", folds=cv, repeats=repeats, seed=seed)
