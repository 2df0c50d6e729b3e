"""``seminaive learn FILEBASE``: learn from a filebase and show the probabilities."""

from .. import jcalls
from ..report import format_model
from ._common import emit


def add_parser(sub):
    p = sub.add_parser("learn", help="J call: learn NAME.des + NAME.dat and show class and attribute probabilities")
    p.add_argument("filebase", help="the filebase: a path without extension")
    p.add_argument("--output", "-o", default=None)
    p.add_argument("--force", action="store_true")
    p.set_defaults(run=run)


def run(args):
    emit(format_model(jcalls.learn(args.filebase)), args)
