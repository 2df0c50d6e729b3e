"""``seminaive models``: every model name that --model and compare --models know, and its parameters."""

from ._common import add_output_options, emit


def add_parser(sub):
    p = sub.add_parser("models", help="list the model names --model and compare --models take, with parameters")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    from ..models import model_parameters, model_parameters_text
    from ..report import format_frame
    emit(model_parameters_text() if args.format == "text" else format_frame(model_parameters(), args.format), args)
