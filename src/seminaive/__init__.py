"""seminaive: Naive Bayes and its semi-naive extensions.

Examples
--------
>>> from seminaive import NaiveBayes
>>> from seminaive.datasets import load
>>> d = load("ihealth")
>>> NaiveBayes(alpha=0, priors="mle").fit(d.X, d.y).predict(
...     [["health", "moderate", "moderate", "yes"]]).tolist()
['i500']
"""

import importlib

__version__ = "0.1.0"

# public names, imported when first used (so that ``seminaive --help`` imports nothing heavy)
_EXPORTS = {
    "NaiveBayes": ".naive_bayes", "MultinomialNaiveBayes": ".multinomial", "BernoulliNaiveBayes": ".bernoulli",
    "ComplementNaiveBayes": ".complement",
    "OneR": ".rules", "ZeroR": ".rules", "ConstrainedNaiveBayes": ".constrained", "OffsetNaiveBayes": ".constrained",
    "ConstraintWarning": ".constrained", "Dataset": ".data", "Schema": ".data", "load_file": ".data",
    "save_model": ".persistence", "load_model": ".persistence", "SeminaiveError": ".exceptions",
    "DataFormatError": ".exceptions", "ParameterError": ".exceptions", "NotFittedError": ".exceptions",
    "UnseenValueWarning": ".exceptions", "KindWarning": ".exceptions", "TAN": ".bayesnet", "KDB": ".bayesnet",
    "SelectiveKDB": ".bayesnet",
    "AnDE": ".bayesnet", "AODE": ".bayesnet", "ESKDB": ".bayesnet", "WAODE": ".bayesnet", "AODEsr": ".bayesnet",
    "HNB": ".bayesnet", "SuperParentTAN": ".bayesnet", "LBR": ".bayesnet", "NBTree": ".bayesnet",
    "Calibrated": ".calibration", "WANBIA": ".wanbia",
}

__all__ = list(_EXPORTS) + ["__version__"]


def __getattr__(name):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'seminaive' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
