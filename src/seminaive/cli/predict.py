"""``seminaive predict --model-file M DATA``: classes (and probabilities) for a data file."""

from ..persistence import load_model
from ..report import format_predictions
from ._common import add_data_options, add_output_options, emit, load_data


def add_parser(sub):
    p = sub.add_parser("predict", help="predict the classes of a data file with a saved model")
    add_data_options(p)
    p.add_argument("--model-file", "-m", required=True, help="a model saved by 'seminaive fit'")
    p.add_argument("--proba", action="store_true", help="also print the class probabilities")
    p.add_argument("--unlabelled", action="store_true",
                   help="the file has only the attributes (no class column)")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    model = load_model(args.model_file)
    d = load_data(args, labelled=False, unlabelled=args.unlabelled)
    X = d.X
    proba = model.predict_proba(X) if args.proba else None
    labels = model.predict(X)
    emit(format_predictions(labels, proba, model.classes_, args.format), args)
