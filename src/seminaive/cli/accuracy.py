"""``seminaive accuracy FILEBASE``: percentage correct on the filebase's test data (a call of the J implementation)."""

from ._common import add_filebase_command, emit


def add_parser(sub):
    add_filebase_command(sub, "accuracy", "J call: learn, then show the percentage of NAME.tst classified correctly", run)


def run(args):
    from .. import jcalls
    from ..report import format_value
    emit(format_value("accuracy", jcalls.accuracy(args.filebase), args.format, unit="%"), args)
