"""``seminaive test FILEBASE``: classify the filebase's test data (a call of the J implementation)."""

from ._common import add_filebase_command, emit


def add_parser(sub):
    add_filebase_command(sub, "test", "J call: learn, then show the class of each NAME.tst instance", run)


def run(args):
    from .. import jcalls
    from ..report import format_predictions
    emit(format_predictions(jcalls.test(args.filebase), fmt=args.format), args)
