"""What the subcommands share: data options, loading and writing output."""

import argparse
import sys

from .._atomic import atomic_write_text
from .._names import CALIBRATIONS, DATA_FORMATS, MODEL_OPTIONS
from .._names import OUTPUT_FORMATS as FORMATS


def add_data_options(p, target=True, data_help=None):
    p.add_argument("data", help=data_help or "data file (CSV, ARFF, KEEL .dat, a filebase's .dat) or a data set name")
    add_reader_options(p, target)


def add_reader_options(p, target=True):
    """How data files are read: the same options wherever a subcommand reads one."""
    p.add_argument("--input-format", choices=DATA_FORMATS, default=None,
                   help="file format (default: from the extension)")
    if target:
        p.add_argument("--target", default=None, help="class column, by name or index (default: last)")
    p.add_argument("--no-header", action="store_true", help="the CSV file has no header row")
    p.add_argument("--sep", default=None, help="the CSV field separator (default: found from the first lines: "
                                               "comma, semicolon, tab or bar)")
    p.add_argument("--decimal", choices=[".", ","], default=None,
                   help="the numbers' decimal mark (default: a comma when the separator is not a comma and a column "
                        "holds numbers such as 3,25, as R's write.csv2 writes them)")
    p.add_argument("--nominal", default=None,
                   help="comma-separated columns to treat as nominal ('all' for every one)")
    p.add_argument("--encoding", default=None,
                   help="the text file's encoding (default utf-8; latin-1, cp1252, utf-16, ...)")
    p.add_argument("--ignore", default=None,
                   help="comma-separated columns to leave out (names, or indices from 0 as --target takes them)")
    p.add_argument("--index-col", default=None,
                   help="a column of row names to leave out (a CSV header whose first name is empty has one there, "
                        "as R's write.csv writes it: left out by itself)")


def add_output_options(p, formats=True):
    p.add_argument("--output", "-o", default=None, help="write the result to this file (default: stdout)")
    p.add_argument("--force", action="store_true", help="replace the output files if they exist")
    if formats:
        p.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")


def add_tables_option(p):
    p.add_argument("--tables", action="store_true",
                   help="print every table of the model (a search's final model, and a Naive Bayes of more than "
                        "100 attributes, are summarized by default)")


def add_protocol_options(p, test=True):
    if test:
        p.add_argument("--test", default=None, help="a separate test file or data set, read with the same data "
                                                    "options (instead of resampling; Weka's -T)")
    p.add_argument("--cv", type=int, default=None, help="k of stratified k-fold cross-validation (default 10)")
    p.add_argument("--repeats", type=int, default=1, help="repetitions of the resampling (default 1)")
    p.add_argument("--loo", action="store_true", help="leave-one-out instead of k-fold")
    p.add_argument("--holdout", type=float, default=None, help="hold out this fraction for testing instead")
    p.add_argument("--per-class", default=None,
                   help="per-class hold-out sizes TRAIN/TEST, e.g. 35/15 (the thesis's Iris protocol)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the splits (default 0)")


def split_names(text):
    return [t.strip() for t in text.split(",") if t.strip()]


def add_filebase_command(sub, name, help, run, formats=True, files=False):
    """A J call: one positional filebase argument and the output options (``files``: or a
    training file with ``--test FILE``, read with the data options)."""
    p = sub.add_parser(name, help=help)
    if files:
        p.add_argument("filebase", help="the filebase (a path without extension), or with --test a training data "
                                        "file or data set name")
        p.add_argument("--test", default=None, help="a test data file: learn on FILEBASE read as a data file, "
                                                    "test here (Weka's -t and -T)")
        add_reader_options(p)
    else:
        p.add_argument("filebase", help="the filebase: a path without extension")
    if formats:
        add_output_options(p)
    else:
        p.add_argument("--output", "-o", default=None, help="write the result to this file (default: stdout)")
        p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.set_defaults(run=run)
    return p


def _rate(text):
    """CLASS=RATE of --min-rate."""
    cls, sep, val = text.rpartition("=")
    try:
        rate = float(val)
    except ValueError:
        sep = ""
    if not sep or not cls:
        raise argparse.ArgumentTypeError(f"expected CLASS=RATE such as minority=0.8, got {text!r}")
    return cls, rate


def _bandwidth(text):
    try:
        return float(text)
    except ValueError:
        return text


_READ = {"float": float, "int": int, "str": str, "bandwidth": _bandwidth, "rates": _rate}


def add_model_options(p, names=None, default="nb"):
    """``--model`` (any name ``compare`` knows, optionally NAME:PARAMETER=VALUE[:...]) and the options
    that set a model's parameters: the same on every subcommand that builds a model; unset, a model
    keeps its own defaults."""
    listed = ", ".join(names) if names else "nb, tan, kdb, kdb2, skdb, aode, a2de, bsej, 1r, wanbia, nb-isotonic, " \
                                              "cnb:0.8, tree, forest (all: 'seminaive models')"
    p.add_argument("--model", default=default,
                   help=f"the model: {listed}; parameters may follow the name, as kdb:k=2 (default: {default})")
    for flag, (param, kind, text) in MODEL_OPTIONS.items():
        many = kind == "rates"
        p.add_argument(flag, type=_READ[kind], default=[] if many else None, action="append" if many else "store",
                       dest=param, metavar="CLASS=RATE" if many else None,
                       help=text + " (default: the model's own)" if not many else text)
    p.add_argument("--calibration", choices=list(CALIBRATIONS), default=None,
                   help="calibrate the model's probabilities on its own leave-one-out (or 5-fold) probabilities")


def ignore_args(args):
    """``(ignore, index_col)`` of the command line: names as given, numbers as column indices."""
    def column(text):
        return int(text) if text.lstrip("-").isdigit() else text
    ignore = getattr(args, "ignore", None)
    index = getattr(args, "index_col", None)
    return (None if ignore is None else [column(c) for c in split_names(ignore)],
            None if index is None else column(index))


def nominal_arg(args):
    if args.nominal is None:
        return None
    return "all" if args.nominal == "all" else [c.strip() for c in args.nominal.split(",") if c.strip()]


def fit_from_chunks(model, args, progress=None):
    """Fit ``model`` on the data file named on the command line, read in chunks of ``--chunksize``
    rows with the same data options as in memory (a data set known by name: its bundled file, or its
    rows in memory in chunks): one source, whatever the model."""
    from ..learning.data_source import FileSource, MemorySource
    from ..scale.fit_source import fit_source
    path = data_file(args)
    if path is None:
        d = load_data(args)
        source = MemorySource(d.X, d.y, args.chunksize, nominal_arg(args))
    else:
        source = FileSource(path, args.chunksize, args.input_format, args.target, not args.no_header,
                            nominal_arg(args), args.sep, getattr(args, "decimal", None), *ignore_args(args),
                            getattr(args, "encoding", None))
    return fit_source(model, source, progress, how=("--chunksize", "read the file in memory (without --chunksize)"))


def data_file(args):
    """The file the command line's data argument names: a path, or a bundled data set's file (by its
    name); None for a data set known by name that is made in memory (KEEL's, the generated ones)."""
    import os

    from ..datasets import dataset_path, known
    from ..datasets.registry import BUNDLED
    from ..exceptions import ParameterError
    if os.path.exists(args.data) or args.input_format:
        return args.data
    if args.data in BUNDLED:
        return dataset_path(args.data)
    if known(args.data):
        return None
    if os.sep not in args.data and not os.path.splitext(args.data)[1]:
        raise ParameterError(f"data: {args.data!r} is neither a data file nor a data set name "
                             f"('seminaive datasets' lists the names)")
    return args.data


def load_data(args, labelled=True, unlabelled=False, path=None):
    """Load the data file named on the command line (or ``path``, read with the same
    options); with ``labelled`` drop instances whose class is missing, saying how many on stderr."""
    if path is not None:
        args = argparse.Namespace(**{**vars(args), "data": path})
    from ..data.io import load_file
    from ..datasets import known, load
    import os
    if not os.path.exists(args.data) and not args.input_format and known(args.data):  # a data set known by name
        return load(args.data)
    ignore, index_col = ignore_args(args)
    d = load_file(data_file(args), format=args.input_format, target=getattr(args, "target", None),
                  header=not args.no_header, nominal=nominal_arg(args), unlabelled=unlabelled,
                  sep=getattr(args, "sep", None), decimal=getattr(args, "decimal", None),
                  ignore=ignore, index_col=index_col, encoding=getattr(args, "encoding", None))
    if labelled:
        d, dropped = d.labelled()
        if dropped:
            from .._words import plural
            print(f"seminaive: note: {plural(dropped, 'instance')} with a missing class "
                  f"{'was' if dropped == 1 else 'were'} left out",
                  file=sys.stderr)
    return d


def announce_class(d, protocol=None):
    """Warn on stderr (one line each, not an error) where a Dataset's class column cannot be what was
    meant: one class, an identifier, classes of fewer rows than the protocol's folds."""
    from ..evaluation.class_column import class_warnings
    if d.schema.target is None:
        return
    folds = protocol.folds if protocol is not None and protocol.kind == "kfold" else None
    for line in class_warnings(d.schema.target.name, d.y, folds):
        print(f"seminaive: warning: {d.name}: {line}", file=sys.stderr)


def make_model(args, **extra):
    """The model the command line names, with the parameters its options set."""
    from ..models import make_model as build
    if getattr(args, "calibration", None) and getattr(args, "chunksize", None):
        from ..exceptions import ParameterError
        raise ParameterError("--calibration: needs the data in memory (leave-one-out or folds); "
                             "not with --chunksize")
    from ..exceptions import ParameterError
    params = {param: getattr(args, param, None) for param, _, _ in MODEL_OPTIONS.values()}
    params["min_rates"] = dict(params["min_rates"]) if params.get("min_rates") else None
    try:
        return build(args.model, calibration=getattr(args, "calibration", None), **params, **extra)
    except ParameterError as e:  # an option the model refuses: the subcommand's usage error, as argparse's
        prog = f"seminaive {args.command}"
        sys.stderr.write(f"{prog}: error: {e} ('{prog} --help' lists the options)\n")
        raise SystemExit(2) from None


def check_outputs(args, *names):
    """Every destination a command will write, checked before any work: none
    may exist unless --force, and each folder must exist."""
    from .._atomic import check_writable, _folder_of, figure_format
    for name in names:
        path = getattr(args, name, None)
        if path:
            check_writable(path, getattr(args, "force", False))
            _folder_of(path)
            if name == "plot":
                figure_format(path)


def emit(text, args):
    """Print ``text``, or write it atomically to ``--output``."""
    out = getattr(args, "output", None)
    if out:
        atomic_write_text(out, text + "\n", overwrite=args.force)
        print(f"wrote {out}", file=sys.stderr)
    else:
        print(text)


def j_on_files(args):
    """With ``--test``: the J program's predictions of the test file after learning on the
    training file, and the test file's classes; otherwise None."""
    if not getattr(args, "test", None):
        return None
    from .. import jcalls
    train, test = load_data(args, path=args.filebase), load_data(args, path=args.test)
    return jcalls.j_model().fit(train).predict(test.X), test.y
