"""``seminaive evaluate DATA``: accuracy by 10-fold cross-validation or hold-out."""

import json

from ._common import add_data_options, add_model_options, add_output_options, emit, load_data, make_model


def add_parser(sub):
    p = sub.add_parser("evaluate", help="estimate accuracy by stratified k-fold cross-validation or hold-out")
    add_data_options(p)
    add_model_options(p)
    p.add_argument("--cv", type=int, default=10, help="number of folds (default 10)")
    p.add_argument("--holdout", type=float, default=None, help="hold out this fraction for testing instead")
    p.add_argument("--seed", type=int, default=0, help="random seed of the shuffling (default 0)")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    from ..evaluation import evaluate
    d = load_data(args)
    r = evaluate(make_model(args), d.X, d.y, cv=args.cv, holdout=args.holdout, random_state=args.seed)
    if args.format == "json":
        text = json.dumps(r.to_dict(), indent=1)
    elif args.format == "csv":
        text = r.to_csv()
    else:
        text = f"{d.name}: {d.n_samples} instances\n" + r.to_text()
    emit(text, args)
