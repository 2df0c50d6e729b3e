"""``seminaive priors FILEBASE``: the Laplace-corrected class probabilities."""

from .. import jcalls
from ..report import format_mapping
from ._common import add_output_options, emit


def add_parser(sub):
    p = sub.add_parser("priors", help="J call: show the class probabilities (n_c + 1) / (N + K)")
    p.add_argument("filebase", help="the filebase: a path without extension")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    emit(format_mapping(jcalls.priors(args.filebase), args.format), args)
