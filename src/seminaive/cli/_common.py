"""What the subcommands share: data options, loading and writing output."""

import sys

from .._atomic import atomic_write_text
from .._names import CALIBRATIONS, DATA_FORMATS, ESTIMATIONS, MODEL_NAMES, NUMERIC_MODELS
from .._names import OUTPUT_FORMATS as FORMATS


def add_data_options(p, target=True):
    p.add_argument("data", help="data file (CSV, ARFF, KEEL .dat, a filebase's .dat) or a data set name")
    p.add_argument("--input-format", choices=DATA_FORMATS, default=None,
                   help="file format (default: from the extension)")
    if target:
        p.add_argument("--target", default=None, help="class column, by name or index (default: last)")
    p.add_argument("--no-header", action="store_true", help="the CSV file has no header row")
    p.add_argument("--sep", default=None, help="the CSV field separator (default: found from the first lines: "
                                               "comma, semicolon, tab or bar)")
    p.add_argument("--nominal", default=None,
                   help="comma-separated columns to treat as nominal ('all' for every one)")


def add_output_options(p):
    p.add_argument("--output", "-o", default=None, help="write the result to this file (default: stdout)")
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")


def add_protocol_options(p):
    p.add_argument("--cv", type=int, default=10, help="k of stratified k-fold cross-validation (default 10)")
    p.add_argument("--repeats", type=int, default=1, help="repetitions of the resampling (default 1)")
    p.add_argument("--loo", action="store_true", help="leave-one-out instead of k-fold")
    p.add_argument("--holdout", type=float, default=None, help="hold out this fraction for testing instead")
    p.add_argument("--per-class", default=None,
                   help="per-class hold-out sizes TRAIN/TEST, e.g. 35/15 (the thesis's Iris protocol)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the splits (default 0)")


def split_names(text):
    return [t.strip() for t in text.split(",") if t.strip()]


def load_named(name, target=None):
    """A data set by registry name, or a data file."""
    import os

    from ..data.io import load_file
    from ..datasets import load
    if os.path.exists(name):
        d, _ = load_file(name, target=target).labelled()
        return d
    return load(name)


def add_filebase_command(sub, name, help, run, formats=True):
    """A J call: one positional filebase argument and the output options."""
    p = sub.add_parser(name, help=help)
    p.add_argument("filebase", help="the filebase: a path without extension")
    if formats:
        add_output_options(p)
    else:
        p.add_argument("--output", "-o", default=None, help="write the result to this file (default: stdout)")
        p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.set_defaults(run=run)
    return p


def add_model_options(p):
    p.add_argument("--model", choices=list(MODEL_NAMES), default="nb",
                   help="; ".join(f"{k}: {v}" for k, v in MODEL_NAMES.items()) + " (default: nb)")
    p.add_argument("--alpha", type=float, default=1.0,
                   help="smoothing of nominal attributes (1: Laplace, 0: maximum likelihood)")
    p.add_argument("--priors", default="laplace", help="laplace, mle or uniform (default: laplace)")
    p.add_argument("--ddof", type=int, default=1, help="Gaussian variance divisor n - ddof (default 1)")
    p.add_argument("--numeric", choices=NUMERIC_MODELS, default="gaussian",
                   help="how Naive Bayes models numeric attributes (default: gaussian)")
    p.add_argument("--bins", type=int, default=10, help="intervals of equal-width/frequency binning")
    p.add_argument("--min-bucket", type=int, default=6, help="1R's minimum bucket size (default 6)")
    p.add_argument("--bandwidth", default="silverman",
                   help="kernel bandwidth: silverman, scott or a number (default: silverman)")
    p.add_argument("--estimation", default="frequency", choices=list(ESTIMATIONS),
                   help="frequency (default), Normal-Gamma map or predictive, or the m-estimate")
    p.add_argument("--calibration", choices=list(CALIBRATIONS), default=None,
                   help="calibrate the model's probabilities on its own leave-one-out (or 5-fold) probabilities")
    p.add_argument("--min-rate", action="append", default=[], metavar="CLASS=RATE",
                   help="constrained Naive Bayes: this class's training rate at least RATE (repeatable; "
                        "CLASS may be 'minority')")


def nominal_arg(args):
    if args.nominal is None:
        return None
    return "all" if args.nominal == "all" else [c.strip() for c in args.nominal.split(",") if c.strip()]


def load_data(args, labelled=True, unlabelled=False):
    """Load the data file named on the command line; with ``labelled`` drop
    instances whose class is missing, saying how many on stderr."""
    import os

    from ..data.io import load_file
    from ..datasets import known, load
    from ..exceptions import ParameterError
    if not os.path.exists(args.data) and not args.input_format:
        if known(args.data):  # a data set known by name
            return load(args.data)
        if os.sep not in args.data and not os.path.splitext(args.data)[1]:
            raise ParameterError(f"data: {args.data!r} is neither a data file nor a data set name "
                                 f"('seminaive datasets' lists the names)")
    d = load_file(args.data, format=args.input_format, target=getattr(args, "target", None),
                  header=not args.no_header, nominal=nominal_arg(args), unlabelled=unlabelled,
                  sep=getattr(args, "sep", None))
    if labelled:
        d, dropped = d.labelled()
        if dropped:
            print(f"seminaive: note: {dropped} instances with a missing class were left out",
                  file=sys.stderr)
    return d


def make_model(args):
    from ..models import make_model as build
    bw = args.bandwidth
    try:
        bw = float(bw)
    except ValueError:
        pass
    rates = {}
    for item in args.min_rate:
        cls, sep, val = item.rpartition("=")
        try:
            rates[cls] = float(val)
        except ValueError:
            cls = ""
        if not sep or not cls:
            from ..exceptions import ParameterError
            raise ParameterError(f"--min-rate: expected CLASS=RATE such as minority=0.8, got {item!r}")
    model = build(args.model, alpha=args.alpha, priors=args.priors, ddof=args.ddof, numeric=args.numeric,
                  n_bins=args.bins, min_bucket=args.min_bucket, bandwidth=bw, estimation=args.estimation,
                  min_rates=rates or None)
    if getattr(args, "calibration", None):
        if getattr(args, "chunksize", None):
            from ..exceptions import ParameterError
            raise ParameterError("--calibration: needs the data in memory (leave-one-out or folds); "
                                 "not with --chunksize")
        from ..calibration import Calibrated
        model = Calibrated(model, method=args.calibration)
    return model


def check_outputs(args, *names):
    """Every destination a command will write, checked before any work: none
    may exist unless --force, and each folder must exist."""
    from .._atomic import check_writable, _folder_of
    for name in names:
        path = getattr(args, name, None)
        if path:
            check_writable(path, getattr(args, "force", False))
            _folder_of(path)


def emit(text, args):
    """Print ``text``, or write it atomically to ``--output``."""
    out = getattr(args, "output", None)
    if out:
        atomic_write_text(out, text + "\n", overwrite=args.force)
        print(f"wrote {out}", file=sys.stderr)
    else:
        print(text)
