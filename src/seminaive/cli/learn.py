"""``seminaive learn FILEBASE``: learn from a filebase and show the probabilities (a call of the J implementation)."""

from ._common import add_filebase_command, emit


def add_parser(sub):
    add_filebase_command(sub, "learn", "J call: learn NAME.des + NAME.dat and show class and attribute probabilities", run, formats=False)


def run(args):
    from .. import jcalls
    from ..report import format_model
    emit(format_model(jcalls.learn(args.filebase)), args)
