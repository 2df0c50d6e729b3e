"""The entry point: parse the subcommand, run it, turn user errors into one line."""

import argparse
import signal
import sys
import warnings

from .. import __version__
from ..exceptions import SeminaiveError
from . import (accuracy, classify, compare, datasets, dependencies, evaluate, fit, learn, models, predict, priors,
               search, show, subsets, test)

SUBCOMMANDS = (learn, test, accuracy, classify, priors, fit, predict, evaluate, show, compare, subsets, datasets,
               models, search, dependencies)


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad option is one line (and where to read more), not the usage block."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} ('{self.prog} --help' lists the options)\n")

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but arguments nobody knows are the subcommand's error, pointing to its own help
        (as an invalid choice is), not the top level's."""
        ns, extra = self.parse_known_args(args, namespace)
        if extra:
            sub = self._subparsers._group_actions[0].choices.get(getattr(ns, "command", None)) \
                if self._subparsers else None
            (sub or self).error(f"unrecognized arguments: {' '.join(extra)}")
        return ns


def build_parser():
    p = _Parser(prog="seminaive",
                                description="Naive Bayes and its semi-naive extensions.")
    p.add_argument("--version", action="version", version=f"seminaive {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for mod in SUBCOMMANDS:
        mod.add_parser(sub)
    return p


def options_table():
    """The command-line vocabulary as a Markdown table: every option (rows) on every subcommand
    (columns), read from the parser itself (the README's table is this; a test keeps it current).

    Examples
    --------
    >>> options_table().splitlines()[3].startswith("| DATA ")
    True
    """
    parser = build_parser()
    subs = parser._subparsers._group_actions[0].choices
    rows, spelled = {}, {}  # an option by its first name; every other name it has anywhere beside it
    for name, p in subs.items():
        for action in p._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            key = action.option_strings[0] if action.option_strings else action.dest.upper()
            rows.setdefault(key, set()).add(name)
            spelled.setdefault(key, {key: None}).update(dict.fromkeys(action.option_strings))
    names = list(subs)
    order = sorted(rows, key=lambda k: (k.startswith("-"), list(rows).index(k)))
    lines = ["| option | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    lines += [f"| {'/'.join(spelled[k]).replace('|', '/')} | " + " | ".join("x" if n in rows[k] else "" for n in names)
              + " |" for k in order]
    return "\n".join(lines)


def _terminated(signum, frame):
    raise KeyboardInterrupt


def _one_line(message, category, filename, lineno, file=None, line=None):
    """A warning as the command line shows it: one line, no source location."""
    print(f"seminaive: warning: {message}", file=sys.stderr if file is None else file)


def main(argv=None):
    """Run the command line; return the exit status (2 for a user error)."""
    from .._progress import progress_to, wanted
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    try:  # a clean exit (temporary files removed) on kill, as on Ctrl-C
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread: no handler to set
        previous = None
    try:
        with warnings.catch_warnings(), progress_to(sys.stderr if wanted(sys.stderr) else None):
            warnings.showwarning = _one_line
            args.run(args)
    except SeminaiveError as e:
        print(f"seminaive: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`| head`): not an error; nothing more to write
        import os
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:  # pragma: no cover - stdout already gone
            pass
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"seminaive: error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("seminaive: interrupted", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
