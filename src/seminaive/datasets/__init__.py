"""Bundled data sets and generators."""

from .generators import make_led, make_thesis_simulation, make_wave
from .keel import list_keel, load_keel
from .registry import check_names, dataset_path, dataset_table, filebase_path, known, list_datasets, load, load_any

__all__ = ["load", "dataset_path", "filebase_path", "list_datasets", "make_led", "make_wave", "load_keel",
           "list_keel", "make_thesis_simulation", "dataset_table", "known", "load_any", "check_names"]
