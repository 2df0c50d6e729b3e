"""The data sets the Weka reference tests read: a KEEL set by its name (keel:...), else one of Weka's
example ARFF files kept in tests/data/weka."""

import os

from seminaive.data import load_file
from seminaive.datasets import load

WEKA_FILES = os.path.join(os.path.dirname(__file__), "data", "weka")


def weka_data(name):
    return load(name) if name.startswith("keel:") else load_file(os.path.join(WEKA_FILES, f"{name}.arff"))
