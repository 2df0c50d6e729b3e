"""The experiment runner: every model on every data set over the same splits,
results written as they come, so an interrupted run resumes where it stopped.

A model's whole ``fit`` runs on the training part of each split: a model that
searches or tunes itself (the wrapper searches, GridSearchCV) therefore sees
only the outer training folds. That is nested evaluation by construction,
and the report says so.
"""

import contextlib
import csv
import json
import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock
    fcntl = None

from .._atomic import atomic_write_text
from .._progress import duration, step
from .._target import unwrap
from ..datasets import load_any
from ..exceptions import SeminaiveError
from .metrics import measures
from .predictions import predictions
from .reliability import reliability_bins

__all__ = ["Experiment", "run_experiment", "load_results", "RESULT_COLUMNS", "stable_description"]

RESULT_COLUMNS = ["dataset", "model", "split", "n_train", "n_test", "accuracy", "kappa", "macro_f1",
                  "log_loss", "brier", "rmse", "ece", "auc", "fit_cpu", "predict_cpu", "n_attributes", "recall",
                  "confusion", "reliability"]


class Experiment:
    """What a comparison runs: named models, data sets and a resampling protocol.

    Examples
    --------
    >>> from seminaive import NaiveBayes, OneR
    >>> from seminaive.evaluation.resampling import Protocol
    >>> e = Experiment({"nb": NaiveBayes(), "1r": OneR()}, ["iris"], Protocol(folds=3))
    >>> e.baseline, e.config()["datasets"]
    ('nb', ['iris'])
    """

    def __init__(self, models, datasets, protocol, baseline=None):
        self.models = dict(models)           # name -> unfitted estimator
        self.datasets = list(datasets)       # names (loaded lazily) or Dataset objects
        self.protocol = protocol
        self.baseline = baseline or next(iter(self.models))

    def config(self):
        return {"models": {k: stable_description(v) for k, v in self.models.items()},
                "datasets": [d if isinstance(d, str) else d.name for d in self.datasets],
                "protocol": self.protocol.__dict__, "baseline": self.baseline}


def stable_description(obj):
    """What an estimator is, by its class and parameters, recursively, as plain
    data that is the same in every run (a repr can hold memory addresses, such
    as those of scikit-learn's column selectors).

    Examples
    --------
    >>> from seminaive import OneR
    >>> stable_description(OneR(min_bucket=3))["params"]["min_bucket"]
    3
    """
    name = f"{type(obj).__module__}.{type(obj).__qualname__}"
    if hasattr(obj, "get_params") and not isinstance(obj, type):
        return {"class": name, "params": {k: stable_description(v) for k, v in obj.get_params(deep=False).items()}}
    if isinstance(obj, (list, tuple)):
        return [stable_description(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): stable_description(v) for k, v in obj.items()}
    if isinstance(obj, np.generic):
        return obj.item()
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, type) or callable(obj) and not hasattr(obj, "__dict__"):
        return f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', repr(obj))}"
    if hasattr(obj, "__dict__"):
        return {"class": name, "attributes": stable_description(dict(vars(obj)))}
    return repr(obj)


def _class_labels(y):
    """``y`` whose categories have their natural type (object-typed integers
    become integers, which scikit-learn's estimators accept)."""
    if isinstance(y.dtype, pd.CategoricalDtype) and y.cat.categories.dtype == object:
        natural = pd.Index(y.cat.categories.tolist())
        if natural.dtype != object:
            return y.cat.rename_categories(natural)
    return y


def _n_attributes(model):
    for attr in ("n_attributes_used_", "n_features_in_"):
        if hasattr(model, attr):
            return int(getattr(model, attr))
    return -1


def load_results(folder):
    """The per-split results of a run as a DataFrame (empty if none yet).

    Examples
    --------
    >>> import tempfile
    >>> load_results(tempfile.mkdtemp()).empty  # nothing run there yet
    True
    """
    path = os.path.join(folder, "results.csv")
    if not os.path.exists(path):
        return pd.DataFrame(columns=RESULT_COLUMNS)
    return pd.read_csv(path)


def _set_aside_older_results(path, progress):
    """A results file of an older column layout (written before the probability measures) is
    renamed beside itself, never deleted, and its splits are run again."""
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as fh:
        header = fh.readline().strip()
    if header == ",".join(RESULT_COLUMNS):
        return
    n = 1
    while os.path.exists(f"{path}.old{n}"):
        n += 1
    os.replace(path, f"{path}.old{n}")
    if progress is not None:
        print(f"{path}: written by an older seminaive (other columns); kept as {path}.old{n}, its splits run "
              f"again", file=progress, flush=True)


@contextlib.contextmanager
def folder_lock(folder):
    """Hold ``folder`` for one run: a second run on it is refused at once (an advisory lock on
    ``folder/.seminaive-lock``, released by the system however the holder ends, even by kill -9).
    Temporary files an earlier run left there (``.tmp-*``, from a kill) are removed under the lock."""
    path = os.path.join(folder, ".seminaive-lock")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as e:
        raise OSError(e.errno, e.strerror, path) from None
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise SeminaiveError(f"{folder}: in use by another seminaive run; wait for it to finish or "
                                     f"choose another folder (--out)") from None
        for name in os.listdir(folder):
            p = os.path.join(folder, name)
            if name.startswith(".tmp-") and os.path.isfile(p) and not os.path.islink(p):
                os.unlink(p)
        yield
    finally:
        os.close(fd)


def _drop_torn_row(path):
    """Cut a results file back to its last complete row (a run killed while writing, or a full disk,
    leaves a row cut short); return how many bytes were dropped."""
    with open(path, "rb") as fh:
        data = fh.read()
    keep = data.rfind(b"\n") + 1
    while keep > 0:  # the last line that ends must also hold every column
        start = data.rfind(b"\n", 0, keep - 1) + 1
        fields = next(csv.reader([data[start:keep].decode("utf-8", "replace")]), [])
        if len(fields) == len(RESULT_COLUMNS):
            break
        keep = start
    if keep < len(data):
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            os.ftruncate(fd, keep)
        finally:
            os.close(fd)
    return len(data) - keep


def run_experiment(experiment, folder, resume=True, overwrite=False, progress="stderr"):
    """Run (or resume) an experiment, appending one row per split to
    ``folder/results.csv``; return all results as a DataFrame.

    ``folder/experiment.json`` records the configuration: resuming requires
    the same one; a different one is refused unless ``overwrite`` (which
    starts afresh).

    Examples
    --------
    >>> import tempfile
    >>> from seminaive import NaiveBayes
    >>> from seminaive.evaluation.resampling import Protocol
    >>> res = run_experiment(Experiment({"nb": NaiveBayes()}, ["iris"], Protocol(folds=3)), tempfile.mkdtemp(),
    ...                      progress=None)
    >>> len(res), round(float(res["accuracy"].mean()), 3)
    (3, 0.96)
    """
    if progress == "stderr":
        progress = sys.stderr
    os.makedirs(folder, exist_ok=True)
    with folder_lock(folder):
        return run_locked(experiment, folder, resume, overwrite, progress)


def run_locked(experiment, folder, resume, overwrite, progress):
    """:func:`run_experiment` in a folder the caller holds (:func:`folder_lock`)."""
    cfg_path = os.path.join(folder, "experiment.json")
    res_path = os.path.join(folder, "results.csv")
    cfg = experiment.config()
    if os.path.exists(cfg_path):
        with open(cfg_path, encoding="utf-8") as fh:
            old = json.load(fh)
        if old != json.loads(json.dumps(cfg)):
            if not overwrite:
                raise SeminaiveError(f"{folder}: holds results of a different experiment; choose another "
                                     f"folder or allow overwriting (--force)")
            resume = False
        if not resume and os.path.exists(res_path):
            if not overwrite:
                raise SeminaiveError(f"{folder}: holds results already; resume them or allow "
                                     f"overwriting (--force)")
            os.unlink(res_path)
    atomic_write_text(cfg_path, json.dumps(cfg, indent=1) + "\n", overwrite=True)
    if progress is not None:  # (said once the folder is known to take them)
        print(f"results go to {folder}", file=progress, flush=True)
    if os.path.islink(res_path):
        raise SeminaiveError(f"{res_path}: a symbolic link; seminaive follows no link in its output folder "
                             f"(remove it, or choose another folder)")
    _set_aside_older_results(res_path, progress)
    done = set()
    if resume and os.path.exists(res_path):
        dropped = _drop_torn_row(res_path)
        if dropped:
            warnings.warn(f"{res_path}: its last row was cut short (a run killed while writing, or a full "
                          f"disk); dropped it ({dropped} bytes), kept every complete row", UserWarning, stacklevel=3)
        prev = load_results(folder)
        done = set(zip(prev["dataset"], prev["model"], prev["split"].astype(int)))
    new_file = not os.path.exists(res_path)
    started = time.perf_counter()
    try:
        fd = os.open(res_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        with os.fdopen(fd, "a", encoding="utf-8", newline="") as fh:
            _run_splits(experiment, fh, new_file, done, progress, started)
    except OSError as e:  # a full disk, say: the error names the file the user asked for
        raise OSError(e.errno, e.strerror, res_path) from None
    return load_results(folder)


def _warm_up(model, X, y, rows=60):
    """Fit and predict a copy of ``model`` on a few rows of its first training set, untimed, so that
    loading its compiled kernels is charged to no model's CPU time (the first model run paid it all).
    Best effort: a sample the model cannot fit (one class, say) warms nothing, and the timed fits that
    follow report any real error."""
    idx = np.linspace(0, len(y) - 1, min(rows, len(y))).astype(int)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            predictions(clone(model).fit(X.iloc[idx], y.iloc[idx]), X.iloc[idx[:5]], one_pass=False)
    except Exception:  # noqa: BLE001 - see above
        pass


def _run_splits(experiment, fh, new_file, done, progress, started):
    """Fit and test every split not yet done, one complete row each, flushed as it is written."""
    from threadpoolctl import threadpool_limits
    writer = csv.DictWriter(fh, fieldnames=RESULT_COLUMNS)
    if new_file:
        writer.writeheader()
    warmed = set()
    units, unit = len(experiment.datasets) * len(experiment.models), 0
    ran = 0.0  # seconds spent running splits (resumed ones took none): the rate of what is left
    for di, ds in enumerate(experiment.datasets):
        d = load_any(ds) if isinstance(ds, str) else ds
        X, y = unwrap(d)
        y = _class_labels(y)
        y_arr = np.asarray(y, dtype=object)
        classes = [c for c in d.classes if c in set(y_arr)]
        splits = experiment.protocol.splits(y_arr)
        for name, model in experiment.models.items():
            todo = [k for k in range(len(splits)) if (d.name, name, k) not in done]
            if todo and name not in warmed:  # compiled code loads at its first call: not in any model's CPU time
                warmed.add(name)
                _warm_up(model, X.iloc[splits[todo[0]][0]], y.iloc[splits[todo[0]][0]])
            t0 = time.perf_counter()
            for k in todo:
                tr, te = splits[k]
                m = clone(model)
                with threadpool_limits(1):  # every model on one thread (BLAS, OpenMP): peers' CPU time as ours
                    c0 = time.process_time()
                    m.fit(X.iloc[tr], y.iloc[tr])
                    c1 = time.process_time()
                    pred, proba = predictions(m, X.iloc[te], one_pass=False)  # every model as a peer's API
                    c2 = time.process_time()
                if proba is not None:  # align the model's classes with the data set's
                    full = np.zeros((len(te), len(classes)))
                    for j, c in enumerate(m.classes_):
                        if c in classes:
                            full[:, classes.index(c)] = proba[:, j]
                    proba = full
                ms = measures(y_arr[te], pred, classes, proba)
                bins = None if proba is None else reliability_bins(
                    proba, np.array([classes.index(c) for c in y_arr[te]]))
                writer.writerow({"dataset": d.name, "model": name, "split": k, "n_train": len(tr),
                                 "n_test": len(te), **{c: ms[c] for c in ("accuracy", "kappa", "macro_f1",
                                                                          "log_loss", "brier", "rmse", "ece",
                                                                          "auc")},
                                 "fit_cpu": c1 - c0, "predict_cpu": c2 - c1,
                                 "n_attributes": _n_attributes(m), "recall": json.dumps(ms["recall"]),
                                 "confusion": json.dumps(ms["confusion"]),
                                 "reliability": "" if bins is None else json.dumps(
                                     {k: v.tolist() for k, v in bins.items()})})
                fh.flush()
                step(f"{name} on {d.name}: splits", todo.index(k) + 1, len(todo))  # inside a long model's run
            unit += 1
            spent = time.perf_counter() - t0
            ran += spent
            if progress is not None:
                left = "" if unit >= units or not ran else f", about {duration(ran / unit * (units - unit))} left"
                print(f"[{di + 1}/{len(experiment.datasets)}] {d.name:<22} {name:<12} "
                      f"{len(splits) - len(todo)} resumed, {len(todo)} run in {spent:.1f} s"
                      f" (elapsed {time.perf_counter() - started:.0f} s{left})", file=progress, flush=True)
