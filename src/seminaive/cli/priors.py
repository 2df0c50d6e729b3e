"""``seminaive priors FILEBASE``: the Laplace-corrected class probabilities (a call of the J implementation)."""

from ._common import add_filebase_command, emit


def add_parser(sub):
    add_filebase_command(sub, "priors", "J call: show the class probabilities (n_c + 1) / (N + K)", run)


def run(args):
    from .. import jcalls
    from ..report import format_mapping
    emit(format_mapping(jcalls.priors(args.filebase), args.format), args)
