"""The one registry that models join where they are defined.

A model class declares itself with :func:`register`: the name a model file
records (the class name), and optionally the names the command line and the
comparisons know it by, each with a description and a factory. Persistence,
the command line and the comparison runner read this registry; none of them
imports a model module, so there are no import cycles, and adding a model
means its own module (class with ``_get_state``, ``_set_state``, ``to_text``
and a ``@register`` line), an export line in the package and its tests.

Examples
--------
>>> from seminaive.registry import model_class, variants
>>> model_class("NaiveBayes").__name__
'NaiveBayes'
>>> variants("compare")["nb-mdl"][0]
'Naive Bayes, MDL intervals'
"""

import importlib

__all__ = ["register", "register_variant", "model_class", "variants"]

_CLASSES = {}
_VARIANTS = {"model": {}, "search": {}, "compare": {}}
_PROVIDERS = ("seminaive.naive_bayes", "seminaive.multinomial", "seminaive.bernoulli", "seminaive.rules",
              "seminaive.constrained", "seminaive.search", "seminaive.bayesnet", "seminaive.calibration", "seminaive.wanbia",
              "seminaive.models")  # importing these registers every model


def register(cls):
    """Class decorator: the class can be saved and loaded by its name."""
    _CLASSES[cls.__name__] = cls
    return cls


def register_variant(kind, name, description, factory):
    """A name the command line (``kind="model"``: ``--model NAME``; ``kind="search"``:
    ``search --method NAME``) or the comparisons (``kind="compare"``: ``--models NAME,...``;
    a name ending in ``:R`` takes a number, as ``cnb:0.8``) build an estimator from. Model and
    search factories take the command line's options as keywords and use those that apply."""
    _VARIANTS[kind][name] = (description, factory)


def _load():
    for module in _PROVIDERS:
        importlib.import_module(module)


def model_class(name):
    """The registered class called ``name``, or None."""
    if name not in _CLASSES:
        _load()
    return _CLASSES.get(name)


def variants(kind):
    """``{name: (description, factory)}`` of every registered name of that kind, in registration order."""
    _load()
    return dict(_VARIANTS[kind])
