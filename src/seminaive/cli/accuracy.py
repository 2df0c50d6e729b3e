"""``seminaive accuracy FILEBASE``: percentage correct on the filebase's test data (a call of the J implementation)."""

from ._common import add_filebase_command, emit, j_on_files


def add_parser(sub):
    add_filebase_command(sub, "accuracy", "J call: learn, then show the percentage of NAME.tst classified correctly", run,
                         files=True)


def run(args):
    import numpy as np

    from .. import jcalls
    from ..report import format_value
    got = j_on_files(args)
    if got is None:
        value = jcalls.accuracy(args.filebase)
    else:
        value = 100.0 * float(np.mean(np.asarray(got[0], dtype=object) == np.asarray(got[1], dtype=object)))
    emit(format_value("accuracy", value, args.format, unit="%"), args)
