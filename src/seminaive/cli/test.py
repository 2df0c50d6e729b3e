"""``seminaive test FILEBASE``: classify the filebase's test data."""

from .. import jcalls
from ..report import format_predictions
from ._common import add_output_options, emit


def add_parser(sub):
    p = sub.add_parser("test", help="J call: learn, then show the class of each NAME.tst instance")
    p.add_argument("filebase", help="the filebase: a path without extension")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    emit(format_predictions(jcalls.test(args.filebase), fmt=args.format), args)
