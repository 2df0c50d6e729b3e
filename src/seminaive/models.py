"""Models by name: what the command line and experiments build, read from the
registry that each model joins where it is defined (:mod:`seminaive.registry`),
plus scikit-learn's classifiers as comparison peers."""

from ._validation import check_param
from .exceptions import ParameterError
from .registry import register_variant, variants
from .calibration import Calibrated

__all__ = ["make_model", "parse_spec", "model_parameters", "model_parameters_text", "compare_model", "model_description", "model_names",
           "sklearn_model", "describe", "PEERS"]


PEERS = ("tree", "forest", "boosting", "lightgbm", "svm")  # peers' models: compared with ours, not ours


def sklearn_model(name, random_state=0):
    """A scikit-learn classifier behind the encoding it needs: nominal (category)
    columns one-hot encoded, missing values imputed (most frequent value,
    mean), numeric columns standardized for the SVM. ``"boosting"`` is
    HistGradientBoostingClassifier with its defaults (it threads through OpenMP:
    run it under ``threadpoolctl.threadpool_limits(1)`` for one thread); ``"lightgbm"``
    LightGBM's ``LGBMClassifier`` with its defaults on one thread (the benchmark extra:
    ``pip install -e '.[bench]'``)."""
    from sklearn.compose import make_column_selector, make_column_transformer
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier
    est = {"tree": lambda: DecisionTreeClassifier(criterion="entropy", random_state=random_state),
           "lightgbm": lambda: _lightgbm(random_state),
           "forest": lambda: RandomForestClassifier(100, random_state=random_state, n_jobs=1),
           "svm": lambda: SVC(random_state=random_state),
           "boosting": lambda: HistGradientBoostingClassifier(random_state=random_state)}[name]()
    numeric = [SimpleImputer(strategy="mean")] + ([StandardScaler()] if name == "svm" else [])
    prep = make_column_transformer(
        (make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore")),
         make_column_selector(dtype_include=["category", "object"])),
        (make_pipeline(*numeric), make_column_selector(dtype_include="number")),
        sparse_threshold=0)
    return make_pipeline(prep, est)


def _lightgbm(random_state):
    """LightGBM's classifier with its defaults, one thread, quiet; a missing package is one line."""
    try:
        from lightgbm import LGBMClassifier
    except ImportError:
        raise ParameterError("models: 'lightgbm' needs the lightgbm package, a peer of the benchmarks "
                             "(pip install -e '.[bench]')") from None
    return LGBMClassifier(random_state=random_state, n_jobs=1, verbose=-1)


register_variant("compare", "tree", "scikit-learn decision tree (entropy, as ID3/C4.5)",
                 lambda: sklearn_model("tree"))
register_variant("compare", "forest", "scikit-learn random forest, 100 trees", lambda: sklearn_model("forest"))
register_variant("compare", "boosting", "scikit-learn histogram gradient boosting (its defaults)",
                 lambda: sklearn_model("boosting"))
register_variant("compare", "lightgbm", "LightGBM gradient boosting (its defaults, one thread)",
                 lambda: sklearn_model("lightgbm"))
register_variant("compare", "svm", "scikit-learn SVM, RBF kernel, standardized inputs", lambda: sklearn_model("svm"))


def model_names(kind):
    """``{name: description}`` of the names of one kind ("model", "search", "compare")."""
    return {k: v[0] for k, v in variants(kind).items()}


def _parametrized(name, kind="compare"):
    """``(factory, description, number)`` of a name such as ``cnb:0.8``, or None."""
    head, sep, rate = name.partition(":")
    entry = variants(kind).get(head + ":R") if sep else None
    try:
        r = float(rate)
    except ValueError:
        return None
    return None if entry is None else (entry[1], entry[0].format(R=rate), r)


def _literal(text):
    """A parameter value written in a model name: an int, a float, true/false/none, or the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def parse_spec(spec):
    """``(name, parameters)`` of a model name that may carry parameters, as NAME:PARAMETER=VALUE[:...].

    Examples
    --------
    >>> parse_spec("kdb:k=2:alpha=0.5")
    ('kdb', {'k': 2, 'alpha': 0.5})
    >>> parse_spec("cnb:0.8")
    ('cnb:0.8', {})
    """
    name, *parts = str(spec).split(":")
    if parts and all("=" not in p for p in parts):
        return str(spec), {}  # a name with a number, as cnb:0.8
    params = {}
    for p in parts:
        key, sep, value = p.partition("=")
        if not sep or not key.strip():
            raise ParameterError(f"model: expected NAME or NAME:PARAMETER=VALUE[:...] such as kdb:k=2, got {spec!r}")
        params[key.strip().replace("-", "_")] = _literal(value.strip())
    return name, params


def _known_names():
    names = list(variants("compare")) + list(variants("model")) + list(variants("search"))
    return list(dict.fromkeys(n for n in names if not n.endswith(":R"))) + [n for n in names if n.endswith(":R")]


def _preset(name):
    """A fresh estimator for a bare model name (every name ``--model`` and ``compare`` know)."""
    for kind in ("compare", "model", "search"):
        entry = variants(kind).get(name)
        if entry is not None:
            return entry[1]()
    got = _parametrized(name)
    if got is None:
        raise ParameterError(f"model: expected one of {', '.join(_known_names())} (any may carry parameters, "
                             f"as kdb:k=2), got {name!r}")
    return got[0](got[2])


def _apply(est, name, params):
    """Set the parameters on the estimator, or on the model a wrapper (calibration) wraps."""
    own = est.get_params(deep=False)
    for key, value in params.items():
        if key in own:
            est.set_params(**{key: value})
        elif isinstance(est, Calibrated) and key in est._base().get_params(deep=False):
            est.set_params(estimator=est._base().set_params(**{key: value}))
        else:
            inner = est._base().get_params(deep=False) if isinstance(est, Calibrated) else {}
            raise ParameterError(f"{key}: model {name!r} has no such parameter (its parameters: "
                                 f"{', '.join(sorted(set(own) | set(inner)))})")
    return est


def _check_declared(est, name, given):
    """The parameters ``given`` to a model made by name checked at once against its class's declaration
    (``_param_rules``: the one list of choices, the command line offers no other), so that a
    value the model refuses is named before any data are read."""
    for part in (est, *([est._base()] if isinstance(est, Calibrated) else [])):
        if type(part).__module__.split(".")[0] != "seminaive":
            continue
        specs = {}
        for klass in reversed(type(part).__mro__):
            specs.update(klass.__dict__.get("_param_rules", {}))
        try:
            for key in given:
                if key in specs:
                    spec, value = specs[key], part.get_params(deep=False)[key]
                    spec(key, value) if callable(spec) else check_param(key, value, **spec)
        except ParameterError as e:
            raise ParameterError(f"{e} (model {name!r})") from None


def make_model(spec="nb", calibration=None, **options):
    """A fresh estimator by its name (every name the command line's ``--model`` and
    ``compare --models`` know), with the parameters that name carries
    (NAME:PARAMETER=VALUE[:...]) and those in ``options`` (None: the model's own
    default); ``min_rates`` turns Naive Bayes into the constrained model;
    ``calibration`` wraps the model in :class:`~seminaive.calibration.Calibrated`.

    Examples
    --------
    >>> make_model("1r", min_bucket=3)
    OneR(min_bucket=3)
    >>> make_model("bse", scoring="log_loss", cv=5)
    BSE(cv=5, scoring='log_loss')
    >>> make_model("kdb:k=2", alpha=0.5)
    KDB(alpha=0.5, k=2)
    >>> make_model("kdb2").k == make_model("kdb", k=2).k == 2
    True
    """
    name, params = parse_spec(spec)
    for key, value in options.items():
        if value is None:
            continue
        if key in params and params[key] != value:
            raise ParameterError(f"{key}: given twice ({params[key]!r} in {spec!r}, {value!r} as an option)")
        params[key] = value
    if name == "nb" and params.get("min_rates"):
        name = "cnb"
    est = _apply(_preset(name), name, params)
    _check_declared(est, name, params)
    if calibration:
        est = Calibrated(est, method=calibration)
    return est


def model_description(name):
    """What a model name stands for."""
    base, params = parse_spec(name)
    known = variants("compare")
    if base in known:
        text = known[base][0]
    else:
        got = _parametrized(base)
        text = got[1] if got else next((v[base][0] for v in (variants("model"), variants("search")) if base in v),
                                       base)
    return text + "".join(f", {k}={v}" for k, v in params.items())


def compare_model(name):
    """A fresh estimator for a comparison: :func:`make_model` of the name.

    Examples
    --------
    >>> type(compare_model("nb-mdl")).__name__, compare_model("cnb:0.8").min_rates
    ('NaiveBayes', {'minority': 0.8})
    """
    return make_model(name)


def model_parameters():
    """A table of every model name: what it is and the parameters a name may carry (with the
    values that name gives them).

    Examples
    --------
    >>> t = model_parameters()
    >>> [p for p in t.set_index("name").loc["kdb2", "parameters"].split(", ") if p.startswith(("alpha", "estim", "k="))]
    ['alpha=1.0', 'estimation=frequency', 'k=2']
    """
    import pandas as pd
    rows = []
    for name in _known_names():
        if name in PEERS:  # the peers (a pipeline; LightGBM's may not be installed): their own parameters
            rows.append((name, model_description(name), "(the peer's own parameters, not set from here)"))
            continue
        est = make_model(name.replace(":R", ":0.8"))
        if hasattr(est, "steps"):  # a pipeline
            params = "(scikit-learn's parameters, not set from here)"
        else:
            params = ", ".join(f"{k}={v}" for k, v in sorted(est.get_params(deep=False).items())
                               if not hasattr(v, "get_params"))
        rows.append((name, model_description(name), params))
    return pd.DataFrame(rows, columns=["name", "model", "parameters"])


def model_parameters_text(width=100):
    """:func:`model_parameters` as text for a terminal: each name and what it is on one line, its
    parameters wrapped beneath it, no line longer than ``width``.

    Examples
    --------
    >>> text = model_parameters_text()
    >>> max(len(line) for line in text.splitlines()) <= 100, "nb              Naive Bayes" in text
    (True, True)
    """
    import textwrap
    lines = []
    for name, what, params in model_parameters().itertuples(index=False):
        head = f"{name:<15} {what}"
        lines.append(head if len(head) <= width else head[:width - 3] + "...")
        lines += textwrap.wrap(params, width, initial_indent=" " * 16, subsequent_indent=" " * 16,
                               break_on_hyphens=False)
    return "\n".join(lines)


def describe(model, tables=False):
    """The readable printout of any fitted model (its own ``to_text``; ``tables``: the
    whole tables where its printout summarizes them by default, as the searches' does)."""
    import inspect
    if tables and "tables" in inspect.signature(model.to_text).parameters:
        return model.to_text(tables=True)
    return model.to_text()
