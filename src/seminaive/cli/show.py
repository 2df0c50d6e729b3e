"""``seminaive show``: print a saved model, or fit one on a data file and print it."""

from .._names import DATA_FORMATS
from ._common import add_model_options, emit, load_data, make_model


def add_parser(sub):
    p = sub.add_parser("show", help="print a model: a saved JSON model, or one fitted on a data file")
    p.add_argument("data", help="a model JSON file, or a data file to fit on")
    p.add_argument("--input-format", choices=DATA_FORMATS, default=None)
    p.add_argument("--target", default=None)
    p.add_argument("--no-header", action="store_true")
    p.add_argument("--nominal", default=None)
    add_model_options(p)
    p.add_argument("--output", "-o", default=None)
    p.add_argument("--force", action="store_true")
    p.set_defaults(run=run)


def run(args):
    from ..models import describe
    from ..persistence import load_model
    if args.data.endswith(".json"):
        model = load_model(args.data)
    else:
        d = load_data(args)
        model = make_model(args).fit(d.X, d.y)
    emit(describe(model), args)
