"""``seminaive search --method bse|bsj|bsej|fssj DATA``: a wrapper search, its steps and structure."""

import sys

from .._names import SCORINGS, SEARCH_NAMES
from ._common import add_data_options, check_outputs, emit, load_data


def add_parser(sub):
    p = sub.add_parser("search", help="run a wrapper search (BSE, BSJ, BSEJ, FSSJ) and print its steps")
    add_data_options(p)
    p.add_argument("--method", choices=list(SEARCH_NAMES), default="bsej")
    p.add_argument("--scoring", choices=list(SCORINGS), default="accuracy",
                   help="the rule candidates are judged by (default accuracy; log_loss, brier and rmse judge "
                        "the probabilities)")
    p.add_argument("--cv", type=int, default=None,
                   help="score by k-fold cross-validation with this many folds (default: leave-one-out)")
    p.add_argument("--discretizer", default="equal_width",
                   choices=["equal_width", "equal_frequency", "mdl", "1r"], help="cuts numeric attributes for joins")
    p.add_argument("--bins", type=int, default=10)
    p.add_argument("--candidate-pairs", type=int, default=None,
                   help="consider joining only this many pairs with the highest conditional MI")
    p.add_argument("--model-file", "-m", default=None, help="save the fitted model as JSON")
    p.add_argument("--output", "-o", default=None)
    p.add_argument("--plot", default=None, help="draw the structure found (joined attributes as one node, "
                                               "left-out ones greyed) into this PNG file")
    p.add_argument("--force", action="store_true")
    p.add_argument("--quiet", action="store_true", help="do not print the steps as they happen")
    p.add_argument("--chunksize", type=int, default=None,
                   help="stream the file in chunks of this many rows: scores from merged statistics")
    p.set_defaults(run=run)


def run(args):
    from ..models import describe, make_model
    from ..persistence import save_model
    check_outputs(args, "model_file", "output", "plot")
    m = make_model(args.method, n_bins=args.bins, scoring=args.scoring, cv=args.cv, discretizer=args.discretizer,
                   candidate_pairs=args.candidate_pairs, verbose=not args.quiet)
    if args.chunksize:
        from ..search.streamed import search_file
        print(f"{args.method.upper()} on {args.data}, streamed in chunks of {args.chunksize:,} rows",
              file=sys.stderr)
        search_file(m, args.data, args.chunksize, args.input_format, args.target, not args.no_header)
        class_name = "class"
    else:
        d = load_data(args)
        print(f"{args.method.upper()} on {d.summary().splitlines()[0]}",
              file=sys.stderr)
        m.fit(d.X, d.y)
        class_name = getattr(d.y, "name", None) or "class"
    if args.model_file:
        save_model(m, args.model_file, overwrite=args.force)
    if args.plot:
        from ..search.drawing import plot_structure
        plot_structure(m, args.plot, overwrite=args.force, class_name=str(class_name))
        print(f"drew the structure in {args.plot}", file=sys.stderr)
    emit(describe(m), args)
