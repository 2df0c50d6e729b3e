"""``seminaive show``: print a saved model, or fit one on a data file and print it."""

from ._common import (add_data_options, add_model_options, add_output_options, add_tables_option, emit, load_data,
                      make_model)


def add_parser(sub):
    p = sub.add_parser("show", help="print a model: a saved JSON model, or one fitted on a data file")
    add_data_options(p, data_help="a model JSON file, or a data file or data set name to fit on")
    add_model_options(p)
    add_tables_option(p)
    add_output_options(p, formats=False)
    p.set_defaults(run=run)


def run(args):
    from ..models import describe
    from ..persistence import load_model
    if args.data.endswith(".json"):
        model = load_model(args.data)
    else:
        d = load_data(args)
        model = make_model(args).fit(d)
    emit(describe(model, args.tables), args)
