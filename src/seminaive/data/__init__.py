"""Data: schemas, datasets, encoding and one reader per file format."""

from .arff import read_arff
from .csv import read_csv
from .dataset import Dataset
from .encoding import EncodedTable, encode, infer_schema
from .filebase import Filebase, read_filebase, write_filebase
from .io import load_file
from .keel import read_keel
from .schema import Attribute, Schema

__all__ = ["Attribute", "Schema", "Dataset", "EncodedTable", "encode", "infer_schema",
           "read_csv", "read_arff", "read_keel", "read_filebase", "write_filebase", "Filebase",
           "load_file"]
