"""``seminaive dependencies DATA``: MI, conditional MI and MIC matrices, printed and drawn."""

import sys

from ._common import add_data_options, add_output_options, check_outputs, emit, load_data


def add_parser(sub):
    p = sub.add_parser("dependencies", help="mutual information, conditional MI and MIC between attributes")
    add_data_options(p)
    p.add_argument("--bins", type=int, default=10, help="equal-width intervals for numeric attributes in MI")
    p.add_argument("--plot", default=None, help="draw the matrices as heat maps into this file (.png, .svg, .pdf, ...: as its name says)")
    p.add_argument("--no-mic", action="store_true", help="skip MIC (the slowest)")
    add_output_options(p, formats=False)
    p.set_defaults(run=run)


def run(args):
    from ..dependence import dependence_matrices, format_matrices, plot_matrices
    check_outputs(args, "plot", "output")
    d = load_data(args)
    mats = dependence_matrices(d, args.bins, ("mi", "cmi") if args.no_mic else ("mi", "cmi", "mic"))
    emit(format_matrices(mats), args)
    if args.plot:
        plot_matrices(mats, args.plot, overwrite=args.force)
        print(f"wrote {args.plot}", file=sys.stderr)
