"""``seminaive search --method bse|bsj|bsej|fssj DATA``: a wrapper search, its steps and structure."""

import sys

from .._names import SEARCH_NAMES
from ._common import (add_data_options, add_model_options, add_output_options, add_tables_option, check_outputs, emit,
                      fit_from_chunks, load_data, make_model)


def add_parser(sub):
    p = sub.add_parser("search", help="run a wrapper search (BSE, BSJ, BSEJ, FSSJ) and print its steps")
    add_data_options(p)
    add_model_options(p, names=SEARCH_NAMES, default="bsej")
    p.set_defaults(model=None)  # (bsej when neither --model nor --method names one)
    p.add_argument("--method", default=None, choices=SEARCH_NAMES, help="the same as --model (its older name)")
    p.add_argument("--cv", type=int, default=None,
                   help="score candidates by k-fold cross-validation with this many folds (default: leave-one-out)")
    p.add_argument("--candidate-pairs", type=int, default=None,
                   help="consider joining only this many pairs with the highest conditional MI")
    add_tables_option(p)
    p.add_argument("--model-file", "-m", default=None, help="save the fitted model as JSON")
    add_output_options(p, formats=False)
    p.add_argument("--plot", default=None, help="draw the structure found (joined attributes as one node, "
                                               "left-out ones greyed) into this file (.png, .svg, .pdf, ...: as its name says)")
    p.add_argument("--quiet", action="store_true", help="do not print the steps as they happen")
    p.add_argument("--chunksize", type=int, default=None,
                   help="stream the file in chunks of this many rows: scores from merged statistics")
    p.set_defaults(run=run)


def run(args):
    from ..exceptions import ParameterError
    from ..models import describe, parse_spec
    from ..persistence import save_model
    check_outputs(args, "model_file", "output", "plot")
    if args.method and args.model and parse_spec(args.model)[0] != args.method:
        raise ParameterError(f"--method, --model: two searches named ({args.method!r} and {args.model!r}); "
                             f"give one (--method is --model's older name)")
    args.model = args.model or args.method or "bsej"
    if parse_spec(args.model)[0] not in SEARCH_NAMES:
        raise ParameterError(f"--model: expected a search, one of {', '.join(SEARCH_NAMES)} (fit, evaluate and "
                             f"compare take every model), got {args.model!r}")
    m = make_model(args, cv=args.cv, candidate_pairs=args.candidate_pairs, verbose=not args.quiet)
    method = parse_spec(args.model)[0]
    if args.chunksize:
        print(f"{method.upper()} on {args.data}, streamed in chunks of {args.chunksize:,} rows",
              file=sys.stderr)
        fit_from_chunks(m, args)
        class_name = "class"
    else:
        d = load_data(args)
        print(f"{method.upper()} on {d.summary().splitlines()[0]}",
              file=sys.stderr)
        m.fit(d)
        class_name = getattr(d.y, "name", None) or "class"
    if args.model_file:
        save_model(m, args.model_file, overwrite=args.force)
    if args.plot:
        from ..drawing import plot_structure
        plot_structure(m, args.plot, overwrite=args.force, class_name=str(class_name))
        print(f"drew the structure in {args.plot}", file=sys.stderr)
    emit(describe(m, args.tables), args)
