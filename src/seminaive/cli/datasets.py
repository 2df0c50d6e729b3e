"""``seminaive datasets``: the data sets known by name, with sizes and attribute types."""

from ._common import emit


def add_parser(sub):
    p = sub.add_parser("datasets", help="list the bundled, generated and KEEL data sets with sizes and types")
    p.add_argument("--source", choices=["all", "bundled", "generated", "keel"], default="all")
    p.add_argument("--format", choices=["text", "csv", "json"], default="text")
    p.add_argument("--output", "-o", default=None)
    p.add_argument("--force", action="store_true")
    p.set_defaults(run=run)


def run(args):
    from ..datasets import dataset_table
    from ..report import format_frame
    t = dataset_table(include_keel=args.source in ("all", "keel"))
    if args.source != "all":
        t = t[t["source"].str.startswith(args.source if args.source != "keel" else "keel")]
    emit(format_frame(t, args.format), args)
