"""``seminaive accuracy FILEBASE``: percentage correct on the filebase's test data."""

from .. import jcalls
from ..report import format_value
from ._common import add_output_options, emit


def add_parser(sub):
    p = sub.add_parser("accuracy", help="J call: learn, then show the percentage of NAME.tst classified correctly")
    p.add_argument("filebase", help="the filebase: a path without extension")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    emit(format_value("accuracy", jcalls.accuracy(args.filebase), args.format, unit="%"), args)
