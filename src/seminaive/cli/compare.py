"""``seminaive compare``: models on data sets over the same splits, with a report folder."""

import sys

from .._names import COMPARE_NAMES
from ._common import add_protocol_options, add_reader_options, load_data, split_names


def add_parser(sub):
    p = sub.add_parser("compare", help="compare models on data sets (same folds), write a report folder")
    p.add_argument("--datasets", required=True,
                   help="comma-separated data set names ('seminaive datasets' lists them) or data files")
    p.add_argument("--models", default="nb,1r,tree",
                   help="comma-separated model names, each as --model takes it (parameters may follow, as "
                        "kdb:k=3): " + ", ".join(COMPARE_NAMES) + " (default: nb,1r,tree)")
    add_reader_options(p)
    p.add_argument("--baseline", default=None, help="model the others are tested against (default: the first)")
    add_protocol_options(p, test=False)
    p.add_argument("--out", default="seminaive-report", help="report folder (default: seminaive-report)")
    p.add_argument("--no-resume", action="store_true", help="do not reuse results already in the folder")
    p.add_argument("--force", action="store_true", help="replace a folder holding another experiment's results")
    p.set_defaults(run=run)


def run(args):
    from ..datasets import check_names
    from ..evaluation.experiment import Experiment
    from ..evaluation.report_files import comparison_table, run_and_report
    from ..evaluation.resampling import parse_protocol
    from ..models import compare_model, model_description
    names = split_names(args.models)
    models = {n: compare_model(n) for n in names}  # every model and data set checked before any work
    sets = split_names(args.datasets)
    check_names(sets)
    protocol = parse_protocol(args.cv, args.repeats, args.loo, args.holdout, args.per_class, args.seed)
    sets = [_read(args, s) for s in sets]  # files read with the data options, as every subcommand reads them
    exp = Experiment(models, sets, protocol, baseline=args.baseline or names[0])
    print(f"{protocol.describe()}; results go to {args.out}", file=sys.stderr)
    res, path = run_and_report(exp, args.out, protocol.describe(), {n: model_description(n) for n in names},
                               resume=not args.no_resume, overwrite=args.force)
    print(comparison_table(res, exp.baseline))
    print(f"\nreport: {path} (and report.html, accuracy.png, cpu_time.png, reliability.png, results.csv)")


def _read(args, name):
    """A data file as a Dataset named by the file (read with the data options); a data set name as it is."""
    import os

    from ..datasets import known
    if known(name) or not os.path.exists(name):
        return name
    d = load_data(args, path=name)
    d.name = os.path.basename(name)
    return d
