"""The data sets that ship with seminaive."""

import os

from ..exceptions import ParameterError

__all__ = ["load", "dataset_path", "filebase_path", "list_datasets", "DATA_DIR"]

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")

# name -> (file, description)
BUNDLED = {
    "weather.nominal": ("weather.nominal.arff", "the weather data, nominal (slides 003)"),
    "weather.numeric": ("weather.numeric.arff", "the weather data, numeric temperature and humidity (slides 003)"),
    "ihealth": ("ihealth.csv", "the ihealth questionnaire, Table 2 of the BSEJ project (000)"),
    "led": ("led.dat", "LED digits, 7 binary attributes, noise 0.1: a J filebase (002)"),
    "wave": ("wave.dat", "Breiman's waveform, 21 attributes cut into 7 values: a J filebase (002)"),
}


def dataset_path(name):
    """The path of a bundled data file."""
    if name not in BUNDLED:
        raise ParameterError(f"dataset: expected one of {', '.join(BUNDLED)}, got {name!r}")
    return os.path.join(DATA_DIR, BUNDLED[name][0])


def filebase_path(name):
    """The base path (without extension) of a bundled J filebase (``led``, ``wave``)."""
    return os.path.splitext(dataset_path(name))[0]


def load(name):
    """Load a bundled data set as a Dataset.

    Examples
    --------
    >>> load("ihealth").summary().splitlines()[0]
    'ihealth: 15 instances, 4 attributes (4 nominal, 0 numeric)'
    """
    from ..data.io import load_file
    d = load_file(dataset_path(name))
    d.name = name
    return d


def list_datasets():
    """``(name, description)`` of every bundled data set."""
    return [(k, v[1]) for k, v in BUNDLED.items()]
