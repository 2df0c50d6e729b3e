"""``seminaive compare``: models on data sets over the same splits, with a report folder."""

import sys

from .._names import COMPARE_NAMES
from ._common import add_protocol_options, add_reader_options, load_data, split_names


def add_parser(sub):
    p = sub.add_parser("compare", help="compare models on data sets (same folds), write a report folder")
    p.add_argument("data", nargs="*", help="data set names ('seminaive datasets' lists them) or data files, each "
                                           "optionally with its class column after a colon: penguins.csv:species "
                                           "(--target gives the others')")
    p.add_argument("--datasets", default=None, help="the same, comma-separated (added to the positional ones)")
    p.add_argument("--model", "--models", dest="models", default="nb,1r,tree",
                   help="comma-separated model names, each as --model takes it (parameters may follow, as "
                        "kdb:k=3): " + ", ".join(COMPARE_NAMES) + " (default: nb,1r,tree)")
    add_reader_options(p)
    p.add_argument("--baseline", default=None, help="model the others are tested against (default: the first)")
    add_protocol_options(p, test=False)
    p.add_argument("--output", "-o", "--out", dest="out", default="seminaive-report",
                   help="report folder (default: seminaive-report)")
    p.add_argument("--no-resume", action="store_true", help="do not reuse results already in the folder")
    p.add_argument("--force", action="store_true", help="replace a folder holding another experiment's results")
    p.set_defaults(run=run)


def run(args):
    from ..datasets import check_names
    from ..evaluation.experiment import Experiment
    from ..evaluation.report_files import comparison_table, run_and_report
    from ..evaluation.resampling import parse_protocol
    from ..models import compare_model, model_description
    from ..exceptions import ParameterError
    from ..evaluation.class_column import class_summary
    from ._common import announce_class
    names = split_names(args.models)
    models = {n: compare_model(n) for n in names}  # every model and data set checked before any work
    specs = list(args.data) + split_names(args.datasets or "")
    if not specs:
        raise ParameterError("data: expected at least one data set name or data file (positional, or --datasets)")
    specs = [split_target(s, args.target) for s in specs]
    check_names([name for name, _ in specs])
    protocol = parse_protocol(args.cv, args.repeats, args.loo, args.holdout, args.per_class, args.seed)
    sets = [_read(args, name, target) for name, target in specs]  # files read with the data options
    for d in sets:  # each file's class named with its counts (a data set known by name has its own)
        if not isinstance(d, str):
            print(f"{d.name}: {class_summary(d.schema.target.name, d.y)}", file=sys.stderr)
            announce_class(d, protocol)
    exp = Experiment(models, sets, protocol, baseline=args.baseline or names[0])
    print(protocol.describe(), file=sys.stderr)
    res, path = run_and_report(exp, args.out, protocol.describe(), {n: model_description(n) for n in names},
                               resume=not args.no_resume, overwrite=args.force)
    print(comparison_table(res, exp.baseline))
    print(f"\nreport: {path} (and report.html, accuracy.png, cpu_time.png, reliability.png, results.csv)")


def split_target(spec, target=None):
    """``(data, class column)`` of a compare argument: ``penguins.csv:species`` is the file and its
    class column; a name or file that exists as written (``keel:wine``) takes ``target`` (--target)."""
    import os

    from ..datasets import known
    from ..exceptions import ParameterError
    if os.path.exists(spec) or known(spec):
        return spec, target
    head, sep, tail = spec.rpartition(":")
    if sep and head and tail and os.path.exists(head):
        return head, tail
    if sep and head and tail and known(head):
        raise ParameterError(f"data: {spec!r}: a data set known by name keeps its own class column; only a "
                             f"data file takes FILE:COLUMN")
    return spec, target


def _read(args, name, target):
    """A data file as a Dataset named by the file (read with the data options and its own class column);
    a data set name as it is."""
    import argparse
    import os

    from ..datasets import known
    if known(name) or not os.path.exists(name):
        return name
    d = load_data(argparse.Namespace(**{**vars(args), "target": target}), path=name)
    d.name = os.path.basename(name)
    return d
