"""``seminaive datasets``: the data sets known by name, with sizes and attribute types."""

from ._common import add_output_options, emit


def add_parser(sub):
    p = sub.add_parser("datasets", help="list the bundled, generated and KEEL data sets with sizes and types")
    p.add_argument("--source", choices=["all", "bundled", "generated", "keel"], default="all",
                   help="which data sets to list (default: all)")
    add_output_options(p)
    p.set_defaults(run=run)


def run(args):
    from ..datasets import dataset_table
    from ..report import format_frame
    t = dataset_table(include_keel=args.source in ("all", "keel"))
    if args.source != "all":
        t = t[t["source"].str.startswith(args.source if args.source != "keel" else "keel")]
    emit(format_frame(t, args.format), args)
