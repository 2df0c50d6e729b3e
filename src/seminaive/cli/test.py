"""``seminaive test FILEBASE``: classify the filebase's test data (a call of the J implementation)."""

from ._common import add_filebase_command, emit, j_on_files


def add_parser(sub):
    add_filebase_command(sub, "test", "J call: learn, then show the class of each NAME.tst instance", run, files=True)


def run(args):
    from .. import jcalls
    from ..report import format_predictions
    got = j_on_files(args)
    emit(format_predictions(jcalls.test(args.filebase) if got is None else got[0], fmt=args.format), args)
