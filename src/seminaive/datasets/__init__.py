"""Bundled data sets and generators."""

from .generators import make_led, make_wave
from .registry import dataset_path, filebase_path, list_datasets, load

__all__ = ["load", "dataset_path", "filebase_path", "list_datasets", "make_led", "make_wave"]
