"""Simple estimates: stratified k-fold cross-validation or a hold-out split,
of accuracy and of the probabilities (log loss, Brier, RMSE, calibration).

The full experiment machinery (repetitions, nested searches, significance
tests, reports) builds on the same splitters.
"""

import time
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import clone

from .._progress import step
from .._target import unwrap
from .._words import plural
from .resampling import holdout as holdout_split
from .predictions import predictions
from .reliability import add_bins, probability_measures, reliability_bins
from .resampling import kfold

__all__ = ["evaluate", "EvaluationResult", "split_indices"]


@dataclass
class EvaluationResult:
    """Accuracy of a model under a resampling protocol (``predict_seconds``: the CPU time of the test
    folds' classes and probabilities together, from one pass where the model gives both at once).

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> r = evaluate(NaiveBayes(), load("iris"), cv=5)
    >>> round(r.accuracy, 3), sorted(r.fold_probability)
    (0.947, ['brier', 'ece', 'log_loss', 'rmse'])
    """

    protocol: str
    fold_accuracy: list
    n_instances: int
    fit_seconds: float
    predict_seconds: float
    correct: int = 0
    per_class: dict = field(default_factory=dict)
    fold_probability: dict = field(default_factory=dict)  # measure -> one value per fold
    reliability: dict = None  # the pooled reliability bins of every fold's predictions

    @property
    def accuracy(self):
        return float(np.mean(self.fold_accuracy))

    @property
    def std(self):
        return float(np.std(self.fold_accuracy, ddof=1)) if len(self.fold_accuracy) > 1 else 0.0

    def to_dict(self):
        return {"protocol": self.protocol, "accuracy": self.accuracy, "std": self.std,
                "fold_accuracy": self.fold_accuracy, "n_instances": self.n_instances,
                "correct": self.correct, "per_class_rate": self.per_class,
                **{m: float(np.mean(v)) for m, v in self.fold_probability.items()},
                "fold_probability": self.fold_probability,
                "reliability": None if self.reliability is None else {k: v.tolist() for k, v in self.reliability.items()},
                "fit_cpu_seconds": self.fit_seconds, "predict_cpu_seconds": self.predict_seconds}

    def to_csv(self):
        """One line per fold: its number and accuracy."""
        return "fold,accuracy\n" + "\n".join(f"{i + 1},{a!r}" for i, a in enumerate(self.fold_accuracy))

    def to_text(self):
        pooled = f"{self.correct} of {self.n_instances} correct ({100 * self.correct / self.n_instances:.2f}%)"
        if len(self.fold_accuracy) > 1:
            first = (f"{self.protocol}: mean accuracy over {len(self.fold_accuracy)} folds "
                     f"{100 * self.accuracy:.2f}% (sd {100 * self.std:.2f}); pooled over the folds: {pooled}")
        else:
            first = f"{self.protocol}: accuracy {100 * self.accuracy:.2f}%, {pooled}"
        lines = [first]
        if self.per_class:
            rates = [f"{k} {100 * v:.1f}%" for k, v in self.per_class.items()]
            more = len(rates) - PER_CLASS_SHOWN
            lines.append("correct classification rate per class: " + ", ".join(rates[:PER_CLASS_SHOWN]) +
                         (f", ... ({more} more: --format json lists every one)" if more > 0 else ""))
        if self.fold_probability:
            m = {k: np.mean(v) for k, v in self.fold_probability.items()}
            over = "mean over folds" if len(self.fold_accuracy) > 1 else "on the test instances"
            lines.append(f"probabilities ({over}): log loss {m['log_loss']:.4f}, Brier {m['brier']:.4f}, "
                         f"RMSE {m['rmse']:.4f}, expected calibration error {m['ece']:.4f}")
        lines.append(f"CPU time: fit {self.fit_seconds:.3f} s, predict {self.predict_seconds:.3f} s")
        return "\n".join(lines)


PER_CLASS_SHOWN = 30  # classes whose rates the text names (all of them in JSON)


def split_indices(y, cv=10, holdout=None, random_state=0):
    """Train/test index pairs: stratified (shuffled) k folds, or one stratified
    hold-out split of fraction ``holdout`` (see :mod:`.resampling`).

    Examples
    --------
    >>> [len(te) for _, te in split_indices(["a", "b"] * 5, cv=5)]
    [2, 2, 2, 2, 2]
    """
    if holdout is not None:
        return holdout_split(y, holdout, random_state)
    return kfold(y, cv, random_state)


def evaluate(model, X, y=None, cv=10, holdout=None, random_state=0, protocol=None, test=None):
    """Estimate a model's accuracy by k-fold cross-validation, a hold-out split,
    any resampling :class:`~seminaive.evaluation.resampling.Protocol` (repeated
    folds, leave-one-out), or on a separate test set.

    Parameters
    ----------
    model : estimator
        Cloned for every fold.
    X, y : Dataset, or table and labels
    cv : int, default 10
        Number of folds (ignored when ``holdout``, ``protocol`` or ``test`` is given).
    holdout : float, optional
        Fraction of instances held out for testing.
    random_state : int
        Seed of the shuffling.
    protocol : Protocol, optional
        The splits (``Protocol("loo")``, repeated k-fold, ...), in place of ``cv``/``holdout``.
    test : Dataset or (table, labels), optional
        A separate test set: the model is fitted on all of ``X`` and tested there (Weka's -T).

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> r = evaluate(NaiveBayes(), load("weather.nominal"), cv=2, random_state=0)
    >>> r.protocol, r.n_instances
    ('stratified 2-fold cross-validation', 14)
    """
    X, y = unwrap(X, y)
    y_arr = np.asarray(y, dtype=object)
    take = (lambda A, idx: A.iloc[idx]) if hasattr(X, "iloc") else (lambda A, idx: np.asarray(A)[idx])
    take_y = (lambda idx: y.iloc[idx]) if hasattr(y, "iloc") else (lambda idx: np.asarray(y)[idx])  # labels' dtype
    labels = list(y.cat.categories) if hasattr(y, "cat") else sorted(set(y_arr), key=str)
    if test is not None:
        X_test, y_test = unwrap(*test) if isinstance(test, tuple) else unwrap(test)
        y_test = np.asarray(y_test, dtype=object)
        labels += sorted(set(y_test) - set(labels), key=str)
        parts = [(X, y, X_test, y_test)]
        proto, n = f"a separate test set ({plural(len(y_test), 'instance')})", len(y_test)
    else:
        if protocol is not None:
            splits, proto = protocol.splits(y_arr), protocol.describe()
        else:
            splits = split_indices(y_arr, cv, holdout, random_state)
            proto = (f"stratified hold-out ({100 * holdout:g}% test, {plural(len(splits[0][1]), 'instance')})"
                     if holdout is not None else f"stratified {cv}-fold cross-validation")
        n = len(splits[0][1]) if holdout is not None and protocol is None else len(y_arr)
        parts = ((take(X, tr), take_y(tr), take(X, te), y_arr[te]) for tr, te in splits)
    accs, fit_s, pred_s, correct = [], 0.0, 0.0, 0
    hits, fold_probability, bins = {}, {}, None
    where = {c: j for j, c in enumerate(labels)}
    n_parts = 1 if test is not None else len(splits)
    for done, (X_train, y_train, X_te, y_te) in enumerate(parts, start=1):
        step("folds" if n_parts > 1 else "the test", done - 1, n_parts)
        m = clone(model)
        t0 = time.process_time()
        m.fit(X_train, y_train)
        t1 = time.process_time()
        pred, fold_proba = predictions(m, X_te)
        t2 = time.process_time()
        fit_s, pred_s = fit_s + t1 - t0, pred_s + t2 - t1
        ok = pred == y_te
        if fold_proba is not None:
            proba = np.zeros((len(y_te), len(labels)))  # the fold model's classes in the data's order
            proba[:, [where[c] for c in m.classes_]] = fold_proba
            codes = np.array([where[c] for c in y_te])
            for k, v in probability_measures(proba, codes).items():
                fold_probability.setdefault(k, []).append(v)
            b = reliability_bins(proba, codes)
            bins = b if bins is None else add_bins(bins, b)
        accs.append(float(ok.mean()))
        correct += int(ok.sum())
        for cls, o in zip(y_te, ok):
            h = hits.setdefault(cls, [0, 0])
            h[0] += int(o)
            h[1] += 1
    step("folds" if n_parts > 1 else "the test", n_parts, n_parts)
    order = labels if hasattr(y, "cat") else sorted(hits, key=str)
    per_class = {str(k): hits[k][0] / hits[k][1] for k in order if k in hits}
    return EvaluationResult(proto, accs, n, fit_s, pred_s, correct, per_class, fold_probability, bins)
