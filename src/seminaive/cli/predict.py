"""``seminaive predict --model-file M DATA``: classes (and probabilities) for a data file."""

from ._common import add_data_options, add_output_options, check_outputs, data_file, emit, ignore_args, load_data


def add_parser(sub):
    p = sub.add_parser("predict", help="predict the classes of a data file with a saved model")
    add_data_options(p)
    p.add_argument("--model-file", "-m", required=True, help="a model saved by 'seminaive fit'")
    p.add_argument("--proba", action="store_true", help="also print the class probabilities")
    p.add_argument("--unlabelled", action="store_true", default=None,
                   help="the file has only the attributes (no class column); by default a CSV file's "
                        "class column is found by name, and may be absent")
    add_output_options(p)
    p.add_argument("--chunksize", type=int, default=None,
                   help="predict in chunks of this many rows, writing CSV to --output as it goes")
    p.set_defaults(run=run)


def run(args):
    from ..persistence import load_model
    from ..report import format_predictions, known_correct, unknown_classes
    from ..data.io import load_for_model
    check_outputs(args, "output")
    model = load_model(args.model_file)
    path = data_file(args)  # a data set's name: its bundled file, or (KEEL's, generated ones) its rows in memory
    if args.chunksize and path is None:
        from ..exceptions import ParameterError
        raise ParameterError(f"--chunksize: {args.data!r} is a data set made in memory; predict it without "
                             f"--chunksize")
    ignore, index_col = ignore_args(args)
    if args.chunksize:
        import sys

        from ..exceptions import ParameterError
        from ..scale import predict_file
        if not args.output:
            raise ParameterError("--chunksize: chunked prediction writes to a file; give --output")
        score = {}
        n = predict_file(model, path, args.output, args.chunksize, args.input_format, args.target,
                         not args.no_header, proba=args.proba, overwrite=args.force,
                         unlabelled=bool(args.unlabelled), score=score, sep=args.sep,
                         decimal=args.decimal, ignore=ignore, index_col=index_col)
        print(f"wrote {n:,} predictions to {args.output}", file=sys.stderr)
        _accuracy(score.get("labelled", 0), score.get("correct", 0), score.get("unknown", {}))
        return
    if path is None:
        d = load_data(args, labelled=False)
        X, actual = d.X, None if d.y is None else d.y.astype(object).where(d.y.notna(), None).to_numpy()
    else:
        X, actual = load_for_model(path, model.schema_, args.input_format, args.target, not args.no_header,
                                   args.unlabelled, args.sep, with_class=True, decimal=args.decimal, ignore=ignore,
                                   index_col=index_col)
    proba = model.predict_proba(X) if args.proba else None
    labels = model.predict(X)
    emit(format_predictions(labels, proba, model.classes_, args.format, actual=actual), args)
    if actual is not None:
        _accuracy(*known_correct(actual, labels), unknown_classes(actual, model.classes_))


def _accuracy(labelled, correct, unknown=None):
    """The accuracy line of a labelled file (on stderr, so that the predictions stay machine-readable),
    and a warning naming the file's classes the model does not know (their rows counted wrong)."""
    import sys
    from .._words import plural
    if unknown:
        shown = ", ".join(f"{k!r} ({v:,})" for k, v in list(unknown.items())[:5])
        print(f"seminaive: warning: {plural(sum(unknown.values()), 'instance')} of the file have a class the model "
              f"does not know: {shown}{' ...' if len(unknown) > 5 else ''}; they are counted wrong", file=sys.stderr)
    if labelled:
        print(f"accuracy: {correct:,} of {plural(labelled, 'instance')} with a known class correct "
              f"({100.0 * correct / labelled:.2f}%)", file=sys.stderr)
