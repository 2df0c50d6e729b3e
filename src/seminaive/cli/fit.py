"""``seminaive fit DATA --model-file M``: fit a model, save it as JSON, print it."""

import sys

from ._common import (add_data_options, add_model_options, add_output_options, add_tables_option, check_outputs, emit,
                      fit_from_chunks, ignore_args, load_data, make_model, nominal_arg)


def add_parser(sub):
    p = sub.add_parser("fit", help="fit a model on a data file; print it and optionally save it as JSON")
    add_data_options(p)
    add_model_options(p)
    add_tables_option(p)
    p.add_argument("--model-file", "-m", default=None, help="save the fitted model to this JSON file")
    add_output_options(p, formats=False)
    p.add_argument("--plot", default=None, help="draw the model's structure (class, attributes, parent arcs, "
                                               "joined and left-out attributes) into this file (.png, .svg, .pdf, ...: as its name says)")
    p.add_argument("--chunksize", type=int, default=None,
                   help="stream the file in chunks of this many rows (bounded memory; same model)")
    p.add_argument("--sql", action="store_true",
                   help="DATA is a DuckDB SQL query or table name (e.g. \"SELECT * FROM read_parquet('lake/*.parquet')\"), "
                        "read by DuckDB in passes, chunks of --chunksize rows (100,000 by default); needs duckdb")
    p.set_defaults(run=run)


def run(args):
    from ..models import describe
    from ..persistence import save_model
    check_outputs(args, "model_file", "output", "plot")
    if args.sql:
        from ..scale.duckdb import fit_duckdb
        print("reading the query through DuckDB", file=sys.stderr)
        model = fit_duckdb(make_model(args), args.data, target=args.target, chunksize=args.chunksize or 100_000,
                           nominal=nominal_arg(args), ignore=ignore_args(args)[0])
        class_name = "class"
    elif args.chunksize:
        print(f"streaming {args.data} in chunks of {args.chunksize:,} rows", file=sys.stderr)
        model = fit_from_chunks(make_model(args), args)
        class_name = "class"
    else:
        d = load_data(args)
        model = make_model(args).fit(d)
        class_name = getattr(d.y, "name", None) or "class"
    if args.model_file:
        save_model(model, args.model_file, overwrite=args.force)
        print(f"saved the model to {args.model_file}", file=sys.stderr)
    if args.plot:
        from ..drawing import plot_structure
        plot_structure(model, args.plot, overwrite=args.force, class_name=str(class_name))
        print(f"drew the structure in {args.plot}", file=sys.stderr)
    emit(describe(model, args.tables), args)
