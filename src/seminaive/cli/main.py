"""The entry point: parse the subcommand, run it, turn user errors into one line."""

import argparse
import sys
import warnings

from .. import __version__
from ..exceptions import SeminaiveError
from . import (accuracy, classify, compare, datasets, dependencies, evaluate, fit, learn, predict, priors, search, show,
               subsets, test)

SUBCOMMANDS = (learn, test, accuracy, classify, priors, fit, predict, evaluate, show, compare, subsets, datasets,
               search, dependencies)


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad option is one line (and where to read more), not the usage block."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} ('{self.prog} --help' lists the options)\n")


def build_parser():
    p = _Parser(prog="seminaive",
                                description="Naive Bayes and its semi-naive extensions.")
    p.add_argument("--version", action="version", version=f"seminaive {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for mod in SUBCOMMANDS:
        mod.add_parser(sub)
    return p


def _one_line(message, category, filename, lineno, file=None, line=None):
    """A warning as the command line shows it: one line, no source location."""
    print(f"seminaive: warning: {message}", file=sys.stderr if file is None else file)


def main(argv=None):
    """Run the command line; return the exit status (2 for a user error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line
            args.run(args)
    except SeminaiveError as e:
        print(f"seminaive: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"seminaive: error: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("seminaive: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
