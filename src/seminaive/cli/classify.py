"""``seminaive classify FILEBASE``: classes for the filebase's unlabelled data (a call of the J implementation)."""

from ._common import add_filebase_command, emit


def add_parser(sub):
    add_filebase_command(sub, "classify", "J call: learn, then show the class of each NAME.cls instance", run)


def run(args):
    from .. import jcalls
    from ..report import format_predictions
    emit(format_predictions(jcalls.classify(args.filebase), fmt=args.format), args)
