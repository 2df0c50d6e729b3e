"""``seminaive subsets``: Naive Bayes on every combination of attributes."""

import sys

from ._common import (add_data_options, add_model_options, add_output_options, add_protocol_options, emit, load_data,
                      make_model)


def add_parser(sub):
    p = sub.add_parser("subsets", help="evaluate a model on every combination of attributes, with per-class rates")
    add_data_options(p)
    p.add_argument("--max-attributes", type=int, default=12, help="refuse more attributes than this (default 12)")
    p.add_argument("--max-size", type=int, default=None, help="largest combination size")
    add_model_options(p)
    add_protocol_options(p)
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    from ..evaluation.resampling import parse_protocol
    from ..evaluation.subsets import format_subsets, subset_study
    d = load_data(args)
    test = load_data(args, path=args.test) if args.test else None
    protocol = parse_protocol(args.cv, args.repeats, args.loo, args.holdout, args.per_class, args.seed,
                              test=test is not None)
    print(("validation on " + args.test) if test is not None else protocol.describe(), file=sys.stderr)
    table = subset_study(make_model(args), d, protocol, test=test, max_attributes=args.max_attributes,
                         max_size=args.max_size)
    emit(format_subsets(table, args.format), args)
