"""Data: schemas, datasets, encoding and one reader per file format."""

from .codes import Codes
from .dataset import Dataset
from .encoding import EncodedTable, encode
from .kinds import infer_schema
from .filebase import Filebase, read_filebase, write_filebase
from .io import load_file, read_arff, read_csv, read_keel
from .schema import Attribute, Schema

__all__ = ["Attribute", "Codes", "Schema", "Dataset", "EncodedTable", "encode", "infer_schema",
           "read_csv", "read_arff", "read_keel", "read_filebase", "write_filebase", "Filebase",
           "load_file"]
