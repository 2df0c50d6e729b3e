"""``seminaive classify FILEBASE``: classes for the filebase's unlabelled data."""

from .. import jcalls
from ..report import format_predictions
from ._common import add_output_options, emit


def add_parser(sub):
    p = sub.add_parser("classify", help="J call: learn, then show the class of each NAME.cls instance")
    p.add_argument("filebase", help="the filebase: a path without extension")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    emit(format_predictions(jcalls.classify(args.filebase), fmt=args.format), args)
