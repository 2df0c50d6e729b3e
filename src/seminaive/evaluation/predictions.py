"""A fitted model's predictions on a test set, as every evaluation takes them."""

import numpy as np

__all__ = ["predictions"]


def predictions(model, X, one_pass=True):
    """The classes ``model`` predicts for ``X`` (an object array) and its class probabilities (None for a
    model without them), from one pass over ``X`` where the model offers ``predict_with_proba`` and
    ``one_pass``; else by ``predict`` and ``predict_proba`` (two passes, as for any scikit-learn
    classifier: what a comparison of models' times takes, so that each does the same work).

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> pred, proba = predictions(NaiveBayes().fit(d), d.X[:3])
    >>> pred.tolist(), proba.shape
    (['no', 'no', 'yes'], (3, 2))
    """
    both = getattr(model, "predict_with_proba", None) if one_pass else None
    if both is not None:
        pred, proba = both(X)
    else:
        pred, proba = model.predict(X), _proba(model, X)
    return np.asarray(pred, dtype=object), proba


def _proba(model, X):
    """``model.predict_proba(X)``, or None where the model has none (an estimator may hide it)."""
    if not hasattr(model, "predict_proba"):
        return None
    try:
        return model.predict_proba(X)
    except AttributeError:
        return None
