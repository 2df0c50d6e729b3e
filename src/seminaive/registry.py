"""The one registry that models join where they are defined.

A model class declares itself with :func:`register`: the name a model file
records (the class name), and optionally the names the command line and the
comparisons know it by, each with a description and a factory; discretizers
and estimators register their names the same way. The registry is the one
source of these names: :func:`catalog_text` writes them to
``seminaive/_catalog.py`` (``python scripts/write_catalog.py``), which the
command line reads so that ``--help`` imports nothing heavy, and a test holds
that file equal to the registry. Persistence,
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
import pkgutil
import sys

__all__ = ["SavedModel", "register", "register_variant", "model_class", "variants", "factory", "registered", "catalog_text", "KINDS"]

_CLASSES = {}
KINDS = {"model": "MODELS", "search": "SEARCHES", "compare": "COMPARE", "discretizer": "DISCRETIZERS",
         "estimation": "ESTIMATIONS", "table_estimation": "TABLE_ESTIMATIONS", "format": "FORMATS"}  # kind -> its constant in _catalog.py
_VARIANTS = {kind: {} for kind in KINDS}
_ORIGIN = {}  # (kind, name) -> the module that registered it
_PROVIDERS = ("seminaive.naive_bayes", "seminaive.multinomial", "seminaive.bernoulli", "seminaive.complement", "seminaive.rules",
              "seminaive.constrained", "seminaive.search", "seminaive.bayesnet", "seminaive.calibration",
              "seminaive.wanbia", "seminaive.models", "seminaive.discretize",
              "seminaive.estimation", "seminaive.data")  # importing these and their modules registers every name


class SavedModel:
    """The hooks every registered model declares, which persistence calls without asking whether
    they exist: ``_get_state`` and ``_set_state`` (its learned state as JSON-ready values and back),
    ``to_text`` (its printout), ``_json_params`` (the parameters a file records: by default
    scikit-learn's ``get_params(deep=False)``) and ``_check_params`` (the parameters checked, as
    ``fit`` checks them: by default nothing to check)."""

    def _get_state(self):  # pragma: no cover - every registered model defines it
        raise NotImplementedError

    def _set_state(self, state):  # pragma: no cover - every registered model defines it
        raise NotImplementedError

    def to_text(self):  # pragma: no cover - every registered model defines it
        raise NotImplementedError

    def _json_params(self):
        return self.get_params(deep=False)

    def _check_params(self):
        """Nothing declared to check."""


def register(cls):
    """Class decorator: the class can be saved and loaded by its name (it declares the hooks of
    :class:`SavedModel`).

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> model_class("NaiveBayes") is NaiveBayes
    True
    >>> register(object)
    Traceback (most recent call last):
    ...
    TypeError: object: a registered model derives from seminaive.registry.SavedModel
    """
    if not issubclass(cls, SavedModel):
        raise TypeError(f"{cls.__name__}: a registered model derives from seminaive.registry.SavedModel")
    missing = [h for h in ("_get_state", "_set_state", "to_text") if getattr(cls, h) is getattr(SavedModel, h)]
    if missing:
        raise TypeError(f"{cls.__name__}: a registered model defines {', '.join(missing)}")
    _CLASSES[cls.__name__] = cls
    return cls


def register_variant(kind, name, description, factory, origin=None):
    """A name the command line (``kind="model"``: ``--model NAME``; ``kind="search"``:
    ``search --method NAME``) or the comparisons (``kind="compare"``: ``--models NAME,...``;
    a name ending in ``:R`` takes a number, as ``cnb:0.8``) build an estimator from. Model and
    search factories take the command line's options as keywords and use those that apply;
    ``kind="discretizer"`` names a discretizer class, ``kind="estimation"`` an estimator factory.
    ``origin``: the module declaring it (default: the caller's; a helper that declares for its caller
    passes its caller's, so that the catalog tells the package's names from a user's).

    Examples
    --------
    >>> description, make = variants("model")["nb"]
    >>> type(make()).__name__
    'NaiveBayes'
    """
    _VARIANTS[kind][name] = (description, factory)
    _ORIGIN[(kind, name)] = origin if origin is not None else sys._getframe(1).f_globals.get("__name__", "")


def _load():
    """Import every provider and, for a package, each of its modules: a module that registers a name
    in a provider package is found without being listed anywhere (a new family model is its own file)."""
    for name in _PROVIDERS:
        module = importlib.import_module(name)
        for info in pkgutil.iter_modules(getattr(module, "__path__", ()), name + "."):
            importlib.import_module(info.name)


def model_class(name):
    """The registered class called ``name``, or None."""
    if name not in _CLASSES:
        _load()
    return _CLASSES.get(name)


def variants(kind):
    """``{name: (description, factory)}`` of every registered name of that kind, in registration order."""
    _load()
    return dict(_VARIANTS[kind])


def registered(kind):
    """``{name: factory}`` of the names of ``kind`` registered so far (no module is imported)."""
    return {name: entry[1] for name, entry in _VARIANTS[kind].items()}


def factory(kind, name):
    """The factory (or class) registered as ``name`` of ``kind``, or None."""
    if name not in _VARIANTS[kind]:
        _load()
    entry = _VARIANTS[kind].get(name)
    return None if entry is None else entry[1]


def catalog_text():
    """The text of ``seminaive/_catalog.py``: every registered name with its description, by kind
    (models, searches and comparison names sorted; discretizers and estimations in registration order).
    Names registered outside the package (a user's own models) are left out: the catalog is the package's."""
    _load()
    lines = ['"""Every name the registry holds (generated by scripts/write_catalog.py from',
             'seminaive.registry: do not edit; tests/test_imports.py holds it current)."""', "",
             "# ruff: noqa: E501", ""]
    for kind, constant in KINDS.items():
        ours = [n for n in _VARIANTS[kind] if _ORIGIN[(kind, n)].split(".")[0] == "seminaive"]
        names = ours if kind in ("discretizer", "estimation") else sorted(ours)
        lines.append(f"{constant} = {{")
        lines += [f"    {name!r}: {_VARIANTS[kind][name][0]!r}," for name in names]
        lines += ["}", ""]
    return "\n".join(lines)
