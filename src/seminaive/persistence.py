"""Saving and loading fitted models as JSON.

A model file holds the parameters, the schema, the classes and the sufficient
statistics; loading re-estimates the model from them. JSON cannot carry code,
so loading a model file cannot run any.
"""

import json
import os

import numpy as np

from ._atomic import atomic_write_text
from .data.schema import Schema
from .exceptions import DataFormatError, SeminaiveError
from .registry import model_class

__all__ = ["model_to_dict", "model_from_dict", "save_model", "load_model"]

FORMAT = "seminaive-model"
MAX_BYTES = 256 << 20  # a model file larger than this is refused before it is read (unless asked for more)
MAX_BYTES_VARIABLE = "SEMINAIVE_MAX_MODEL_BYTES"  # the command line's way to ask for more
MAX_TEXT = 10_000  # the longest text (a name, a value, a class) a model file may hold
VERSION = 1


def _leaf_problem(x):
    """What is wrong with a number or a text of a model file (None: nothing)."""
    if isinstance(x, float) and x != x:
        return "NaN is no value a model file may hold"
    if isinstance(x, str) and len(x) > MAX_TEXT:
        return f"a text of {len(x):,} characters (at most {MAX_TEXT:,})"
    if type(x) is int and not -2**63 <= x < 2**63:
        return "an integer beyond 64 bits"
    return None


def _path(where):
    """The name of a place: ``where`` is a root's name or (its container's place, key)."""
    keys = []
    while isinstance(where, tuple):
        where, key = where
        keys.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return where + "".join(reversed(keys))


def _scan(value, where):
    """Refuse what no field of a model file may hold, naming where it stands: NaN, and texts
    longer than :data:`MAX_TEXT` (a file is data, not a place for megabytes of one string).
    Only containers are stacked and a place is named only when refused: a wide model has
    hundreds of thousands of numbers."""
    problem = _leaf_problem(value)
    if problem:
        raise ValueError(f"{where}: {problem}")
    stack = [(value, where)]
    while stack:
        v, w = stack.pop()
        if type(v) is dict:
            for k in v:
                if len(k) > MAX_TEXT:
                    raise ValueError(f"{_path(w)}: a key of {len(k):,} characters (at most {MAX_TEXT:,})")
            items = v.items()
        elif type(v) is list:
            items = enumerate(v)
        else:
            continue
        truth = number = None  # where a list holds true/false and where a number: both is never a field's value
        for k, x in items:
            t = type(x)
            if t is list or t is dict:
                stack.append((x, (w, k)))
            elif t is bool:
                truth = k if truth is None else truth
            elif x is not None:
                if t is float or t is int:
                    number = k if number is None else number
                problem = _leaf_problem(x)
                if problem:
                    raise ValueError(f"{_path((w, k))}: {problem}")
        if truth is not None and number is not None and type(v) is list:
            raise ValueError(f"{_path((w, truth))}: expected a number (as the rest of the list), got true/false")


def _short(text, most=220):
    """A message cut to ``most`` characters (an error quoting a long value stays one short line)."""
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[:most - 1] + "\u2026"


def _plain(x):
    if isinstance(x, np.ndarray):  # numbers and booleans come out of tolist() as Python's own
        return x.tolist() if x.dtype.kind in "biuf" else [_plain(v) for v in x.tolist()]
    if isinstance(x, (np.generic,)):
        return x.item()
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def model_to_dict(model):
    """A JSON-ready dict of a fitted model: its parameters and its state."""
    model._check_fitted()
    state = model._get_state()
    state.setdefault("classes", _plain(model.classes_))
    if hasattr(model, "schema_"):
        state["schema"] = model.schema_.to_dict()
    if hasattr(model, "feature_names_in_"):
        state["feature_names_in"] = _plain(model.feature_names_in_)
    return {"format": FORMAT, "version": VERSION, "model": type(model).__name__,
            "params": _plain(model._json_params()),
            "state": _plain(state)}


def model_from_dict(d, source="model"):
    """Rebuild a fitted model from ``model_to_dict`` output."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise DataFormatError(f"not a seminaive model file (expected \"format\": \"{FORMAT}\")", path=source)
    if d.get("version") != VERSION or isinstance(d.get("version"), bool):
        raise DataFormatError(f"model file version {_short(repr(d.get('version')), 60)} is not supported "
                              f"(this seminaive reads version {VERSION})", path=source)
    cls = model_class(d.get("model")) if isinstance(d.get("model"), str) else None
    if cls is None:
        raise DataFormatError(f"unknown model {_short(repr(d.get('model')), 60)}", path=source)
    try:
        params = d["params"]
        if not isinstance(params, dict):
            raise ValueError("params: expected an object of the model's parameters")
        _scan(params, "params")
        _scan(d.get("state"), "state")
        try:
            model = cls(**params)
        except TypeError as e:  # a parameter the model does not have
            raise ValueError(f"params: {e}") from None
        written = model._json_params()
        missing = [name for name in written if name not in params]
        if missing:  # a default standing in for a value the file lost would give another model, silently
            raise ValueError(f"params: missing {', '.join(map(repr, missing[:5]))} (a model file holds every "
                             f"parameter of its model)")
        try:
            model._check_params()
        except SeminaiveError as e:
            raise ValueError(f"params.{e}") from None
        state = d["state"]
        if not isinstance(state, dict):
            raise ValueError("state: expected an object")
        classes = state["classes"]
        if not isinstance(classes, list) or not classes or not all(isinstance(c, (str, int, float, bool))
                                                                   for c in classes):
            raise ValueError("state.classes: expected a non-empty list of class labels")
        _check_labels(classes, "state.classes", "class labels")
        model.classes_ = np.asarray(classes)
        if state.get("schema") is None:  # every model is saved with its attributes
            raise ValueError("state.schema: missing (the model's attributes)")
        model.schema_ = _schema(state["schema"])
        model.n_features_in_ = len(model.schema_)
        if state.get("feature_names_in") is not None:
            names = state["feature_names_in"]
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or \
                    names != list(model.schema_.names):
                raise ValueError("state.feature_names_in: expected the attributes' names (state.schema's)")
            model.feature_names_in_ = np.asarray(names, dtype=object)
        model._set_state(state)
    except DataFormatError:
        raise
    except SeminaiveError as e:  # a parameter out of range, as the model's own check says
        raise DataFormatError(f"malformed model file: {_short(e)}", path=_short(source, 60)) from None
    except KeyError as e:
        raise DataFormatError(f"malformed model file: state: missing field {_short(e)}",
                              path=_short(source, 60)) from None
    except (TypeError, ValueError, IndexError, AttributeError, OverflowError) as e:
        raise DataFormatError(f"malformed model file: {_short(e)}", path=_short(source, 60)) from None
    return model


def _check_labels(labels, where, what):
    """Labels as a fit writes them: distinct (as text too: 1 and "1" would be one value to a reader of
    text), and true/false only beside each other (a column of booleans), never among texts or numbers."""
    if len({str(v) for v in labels}) != len(labels):
        raise ValueError(f"{where}: expected distinct {what}")
    truth = [isinstance(v, bool) for v in labels]
    if any(truth) and not all(truth):
        raise ValueError(f"{where}: expected {what} of one kind (true/false among texts or numbers)")


def _schema(d):
    """A schema from a model file, its attribute kinds and names checked."""
    if not isinstance(d, dict) or not isinstance(d.get("attributes"), list):
        raise ValueError("state.schema: expected an object with a list of attributes")
    for i, a in enumerate(d["attributes"] + ([d["target"]] if d.get("target") else [])):
        if not isinstance(a, dict) or a.get("kind") not in ("nominal", "numeric") or not isinstance(a.get("name"), str):
            raise ValueError(f"state.schema.attributes[{i}]: expected a name and a kind 'nominal' or 'numeric'")
        values = a.get("values", [])
        if not isinstance(values, list) or not all(isinstance(v, (str, int, float, bool)) for v in values):
            raise ValueError(f"state.schema.attributes[{i}].values: expected a list of values (texts or numbers)")
        _check_labels(values, f"state.schema.attributes[{i}].values", "values")
    names = [a["name"] for a in d["attributes"]]
    if len(set(names)) != len(names):
        raise ValueError("state.schema.attributes: expected distinct names")
    return Schema.from_dict(d)


def save_model(model, path, overwrite=False):
    """Write a fitted model to ``path`` as JSON (atomically; an existing file
    is replaced only with ``overwrite=True``).

    Examples
    --------
    >>> import os, tempfile
    >>> from seminaive import NaiveBayes, load_model
    >>> from seminaive.datasets import load
    >>> path = os.path.join(tempfile.mkdtemp(), "nb.json")
    >>> save_model(NaiveBayes().fit(load("weather.nominal")), path)
    >>> load_model(path).classes_.tolist()
    ['yes', 'no']
    """
    d = model_to_dict(model)
    text = json.dumps(d, separators=(",", ":"))
    if len(text) < 1 << 20:  # laid out for reading where that is cheap (the indenting encoder is Python's, slow
        text = json.dumps(d, indent=1)  # on a model of 10,000 attributes)
    atomic_write_text(path, text + "\n", overwrite)


def _max_bytes(max_bytes):
    """The largest model file to read: ``max_bytes``, else the environment's
    :data:`MAX_BYTES_VARIABLE`, else :data:`MAX_BYTES`."""
    if max_bytes is None:
        given = os.environ.get(MAX_BYTES_VARIABLE)
        if given is None:
            return MAX_BYTES
        try:
            max_bytes = int(given)
        except ValueError:
            raise DataFormatError(f"{MAX_BYTES_VARIABLE}: expected a whole number of bytes, got {given!r}") from None
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        raise DataFormatError(f"max_bytes: expected a whole number of bytes >= 1, got {max_bytes!r}")
    return max_bytes


def load_model(path, max_bytes=None):
    """Read a model written by :func:`save_model`. A file of more than ``max_bytes`` (default
    :data:`MAX_BYTES`, 256 MiB, or the environment's ``SEMINAIVE_MAX_MODEL_BYTES``) is refused before it
    is read: parsing JSON takes several times the file's size in memory and time.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.json"
    >>> nb = NaiveBayes().fit(d.X, d.y)
    >>> save_model(nb, p)
    >>> bool((load_model(p).predict_proba(d.X) == nb.predict_proba(d.X)).all())
    True
    """
    path = os.fspath(path)
    limit = _max_bytes(max_bytes)
    try:
        size = os.path.getsize(path)
        if size > limit:
            raise DataFormatError(f"the file holds {size:,} bytes, more than a model file may ({limit:,}; "
                                  f"load_model(path, max_bytes=...) or {MAX_BYTES_VARIABLE} reads larger ones)",
                                  path=path)
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8")
        d = json.loads(text)
    except FileNotFoundError:
        raise DataFormatError("no such file", path=path) from None
    except UnicodeDecodeError as e:
        raise DataFormatError(f"not UTF-8 text (byte {e.start})", path=path) from None
    except json.JSONDecodeError as e:
        raise DataFormatError(f"not valid JSON ({e.msg})", path=path, line=e.lineno, column=e.colno) from None
    except RecursionError:
        raise DataFormatError("not a model file: its JSON is nested too deeply", path=path) from None
    except ValueError as e:  # for example an integer of more digits than Python converts
        raise DataFormatError(f"not a model file ({e})", path=path) from None
    return model_from_dict(d, source=path)
