"""``seminaive evaluate DATA``: accuracy and probability measures by 10-fold cross-validation or hold-out."""

import json

from ._common import (add_data_options, add_model_options, add_output_options, add_protocol_options, announce_class,
                      emit, load_data, make_model)


def add_parser(sub):
    p = sub.add_parser("evaluate", help="estimate accuracy by stratified k-fold cross-validation or hold-out")
    add_data_options(p)
    add_model_options(p)
    add_protocol_options(p)
    p.add_argument("--plot", default=None, help="draw the reliability diagram of the test folds' probabilities "
                                               "into this file (.png, .svg, .pdf, ...: as its name says)")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    from .._target import unwrap
    from ..evaluation import evaluate
    from .._words import plural
    from ..evaluation.class_column import class_summary
    from ._common import check_outputs
    check_outputs(args, "output", "plot")
    from ..evaluation.resampling import parse_protocol
    protocol = parse_protocol(args.cv, args.repeats, args.loo, args.holdout, args.per_class, args.seed,
                              test=bool(args.test))
    d = load_data(args)
    announce_class(d, None if args.test else protocol)
    model = make_model(args)
    if args.test:
        r = evaluate(model, *unwrap(d), test=load_data(args, path=args.test))
    else:
        r = evaluate(model, *unwrap(d), protocol=protocol)
    if args.format == "json":
        text = json.dumps(r.to_dict(), indent=1)
    elif args.format == "csv":
        text = r.to_csv()
    else:
        text = f"{d.name}: {plural(d.n_samples, 'instance')}; {class_summary(d.schema.target.name, d.y)}\n" + \
            r.to_text()
    if args.plot:
        import sys
        from ..evaluation.reliability import plot_reliability
        if r.reliability is None:
            from ..exceptions import ParameterError
            raise ParameterError("--plot: the model gives no probabilities to draw")
        name = args.model + (f" ({args.calibration} calibration)" if args.calibration else "")
        plot_reliability({name: r.reliability}, args.plot, overwrite=args.force,
                         title=f"{d.name}: {r.protocol}")
        print(f"drew the reliability diagram in {args.plot}", file=sys.stderr)
    emit(text, args)
