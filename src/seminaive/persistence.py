"""Saving and loading fitted models as JSON.

A model file holds the parameters, the schema, the classes and the sufficient
statistics; loading re-estimates the model from them. JSON cannot carry code,
so loading a model file cannot run any.
"""

import json

import numpy as np

from ._atomic import atomic_write_text
from .data.schema import Schema
from .exceptions import DataFormatError
from .registry import model_class

__all__ = ["model_to_dict", "model_from_dict", "save_model", "load_model"]

FORMAT = "seminaive-model"
VERSION = 1


def _plain(x):
    if isinstance(x, np.ndarray):
        return [_plain(v) for v in x.tolist()]
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
            "params": _plain(model.get_params()), "state": _plain(state)}


def model_from_dict(d, source="model"):
    """Rebuild a fitted model from ``model_to_dict`` output."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise DataFormatError(f"not a seminaive model file (expected \"format\": \"{FORMAT}\")", path=source)
    if d.get("version") != VERSION:
        raise DataFormatError(f"model file version {d.get('version')!r} is not supported "
                              f"(this seminaive reads version {VERSION})", path=source)
    cls = model_class(d.get("model")) if isinstance(d.get("model"), str) else None
    if cls is None:
        raise DataFormatError(f"unknown model {d.get('model')!r}", path=source)
    try:
        model = cls(**d["params"])
        state = d["state"]
        model.classes_ = np.asarray(state["classes"])
        if state.get("schema") is not None:
            model.schema_ = Schema.from_dict(state["schema"])
            model.n_features_in_ = len(model.schema_)
        if state.get("feature_names_in") is not None:
            model.feature_names_in_ = np.asarray(state["feature_names_in"], dtype=object)
        model._set_state(state)
    except DataFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise DataFormatError(f"malformed model file ({type(e).__name__}: {e})", path=source) from None
    return model


def save_model(model, path, overwrite=False):
    """Write a fitted model to ``path`` as JSON (atomically; an existing file
    is replaced only with ``overwrite=True``)."""
    atomic_write_text(path, json.dumps(model_to_dict(model), indent=1) + "\n", overwrite)


def load_model(path):
    """Read a model written by :func:`save_model`.

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
    try:
        with open(path, encoding="utf-8") as fh:
            d = json.load(fh)
    except FileNotFoundError:
        raise DataFormatError("no such file", path=str(path)) from None
    except json.JSONDecodeError as e:
        raise DataFormatError(f"not valid JSON ({e.msg})", path=str(path), line=e.lineno,
                              column=e.colno) from None
    return model_from_dict(d, source=str(path))
