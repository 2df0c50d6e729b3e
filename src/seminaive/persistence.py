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
    """A JSON-ready dict of a fitted model."""
    model._check_fitted()
    return {
        "format": FORMAT, "version": VERSION, "model": type(model).__name__,
        "params": _plain(model.get_params()),
        "schema": model.schema_.to_dict(),
        "classes": _plain(model.classes_),
        "class_count": _plain(model.class_count_),
        "feature_names_in": _plain(getattr(model, "feature_names_in_", None)),
        "components": [_plain(c.to_dict()) for c in model.components_],
        "stats": [_plain(s) for s in model.stats_],
    }


def _models():
    from .naive_bayes import NaiveBayes
    return {"NaiveBayes": NaiveBayes}


def model_from_dict(d, source="model"):
    """Rebuild a fitted model from ``model_to_dict`` output."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise DataFormatError(f"not a seminaive model file (expected \"format\": \"{FORMAT}\")", path=source)
    if d.get("version") != VERSION:
        raise DataFormatError(f"model file version {d.get('version')!r} is not supported "
                              f"(this seminaive reads version {VERSION})", path=source)
    cls = _models().get(d.get("model"))
    if cls is None:
        raise DataFormatError(f"unknown model {d.get('model')!r}", path=source)
    try:
        model = cls(**d["params"])
        model.schema_ = Schema.from_dict(d["schema"])
        model.classes_ = np.asarray(d["classes"])
        model.class_count_ = np.asarray(d["class_count"], dtype=np.float64)
        model.n_features_in_ = len(model.schema_)
        if d.get("feature_names_in") is not None:
            model.feature_names_in_ = np.asarray(d["feature_names_in"], dtype=object)
        from .components import COMPONENTS
        model.components_ = [COMPONENTS[c["kind"]].from_dict(c) for c in d["components"]]
        model.stats_ = [{k: np.asarray(v, dtype=np.float64) for k, v in s.items()} for s in d["stats"]]
        if len(model.stats_) != len(model.components_):
            raise DataFormatError("the statistics do not match the schema", path=source)
        model._estimate()
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, DataFormatError):
            raise
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
