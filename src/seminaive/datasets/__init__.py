"""Bundled data sets and generators."""

from .generators import make_led, make_thesis_simulation, make_wave
from .keel import list_keel, load_keel
from .registry import dataset_path, dataset_table, filebase_path, list_datasets, load, load_any
from .registry import check_names, known  # noqa: F401  (for the command line; not part of the public API)

__all__ = ["load", "dataset_path", "filebase_path", "list_datasets", "make_led", "make_wave", "load_keel",
           "list_keel", "make_thesis_simulation", "dataset_table", "load_any"]
