"""The API reference lists every public name, read from the modules' ``__all__`` at build time
(the page ``generated/api.rst``, written when conf.py runs), so a new public name cannot be left out."""

import importlib
import inspect
from _write import write_generated

# the modules whose ``__all__`` is the public API, with their headings
MODULES = [
    ("seminaive", "Models, files and errors"),
    ("seminaive.search", "Wrapper searches"),
    ("seminaive.drawing", "Structure pictures"),
    ("seminaive.bayesnet", "The semi-naive family"),
    ("seminaive.calibration", "Calibration"),
    ("seminaive.scoring", "Scoring rules"),
    ("seminaive.discretize", "Discretizers"),
    ("seminaive.estimation", "Estimation"),
    ("seminaive.dependence", "Dependence measures"),
    ("seminaive.evaluation", "Evaluation"),
    ("seminaive.evaluation.resampling", "Resampling protocols"),
    ("seminaive.evaluation.experiment", "Experiments"),
    ("seminaive.evaluation.report_files", "Comparison reports"),
    ("seminaive.evaluation.reliability", "Calibration measures and reliability diagrams"),
    ("seminaive.evaluation.significance", "Significance tests"),
    ("seminaive.evaluation.metrics", "Measures"),
    ("seminaive.evaluation.subsets", "Attribute subsets"),
    ("seminaive.datasets", "Data sets"),
    ("seminaive.data", "Data files and schemas"),
    ("seminaive.scale", "Larger data"),
    ("seminaive.jcalls", "The J calls"),
    ("seminaive.components", "Per-attribute distributions"),
    ("seminaive.protocol", "The model protocol: writing a model"),
]


def public_names():
    """``[(module, heading, [names])]``: each public class and function once, under the first module
    listing it."""
    seen, out = set(), []
    for mod, heading in MODULES:
        m = importlib.import_module(mod)
        names = []
        for name in getattr(m, "__all__", []):
            obj = getattr(m, name, None)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            names.append(name)
        if names:
            out.append((mod, heading, names))
    return out


def generate(app=None):
    lines = ["API reference", "=============", "",
             "Every public class and function, generated from the docstrings (numpydoc); each has a small",
             "example, and the examples run as doctests with the test suite.", ""]
    for mod, heading, names in public_names():
        lines += [heading, "-" * len(heading), "", f".. currentmodule:: {mod}", "", ".. autosummary::",
                  "   :toctree: api", "", *[f"   {n}" for n in names], ""]
    write_generated("api.rst", lines)
