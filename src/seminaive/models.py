"""Models by name: what the command line and experiments build, read from the
registry that each model joins where it is defined (:mod:`seminaive.registry`),
plus scikit-learn's classifiers as comparison peers."""

from .exceptions import ParameterError
from .registry import register_variant, variants

__all__ = ["make_model", "compare_model", "model_description", "model_names", "sklearn_model", "describe"]


def sklearn_model(name, random_state=0):
    """A scikit-learn classifier behind the encoding it needs: nominal (category)
    columns one-hot encoded, missing values imputed (most frequent value,
    mean), numeric columns standardized for the SVM."""
    from sklearn.compose import make_column_selector, make_column_transformer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier
    est = {"tree": lambda: DecisionTreeClassifier(criterion="entropy", random_state=random_state),
           "forest": lambda: RandomForestClassifier(100, random_state=random_state, n_jobs=1),
           "svm": lambda: SVC(random_state=random_state)}[name]()
    numeric = [SimpleImputer(strategy="mean")] + ([StandardScaler()] if name == "svm" else [])
    prep = make_column_transformer(
        (make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore")),
         make_column_selector(dtype_include=["category", "object"])),
        (make_pipeline(*numeric), make_column_selector(dtype_include="number")),
        sparse_threshold=0)
    return make_pipeline(prep, est)


register_variant("compare", "tree", "scikit-learn decision tree (entropy, as ID3/C4.5)",
                 lambda: sklearn_model("tree"))
register_variant("compare", "forest", "scikit-learn random forest, 100 trees", lambda: sklearn_model("forest"))
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


def model_description(name):
    """What a comparison model name stands for."""
    known = variants("compare")
    if name in known:
        return known[name][0]
    got = _parametrized(name)
    return got[1] if got else name


def compare_model(name):
    """A fresh estimator for a comparison, by its registered name, or a name
    such as ``cnb:R`` / ``offset:R`` (the constrained model / the offset
    baseline with minimum rate R on the minority class).

    Examples
    --------
    >>> type(compare_model("nb-mdl")).__name__, compare_model("cnb:0.8").min_rates
    ('NaiveBayes', {'minority': 0.8})
    """
    known = variants("compare")
    if name in known:
        return known[name][1]()
    got = _parametrized(name)
    if got is None:
        names = [k for k in known if not k.endswith(":R")] + [k for k in known if k.endswith(":R")]
        raise ParameterError(f"models: expected names among {', '.join(names)}, got {name!r}")
    return got[0](got[2])


def make_model(name="nb", **options):
    """A fresh estimator by its command-line name (a model, or a wrapper search),
    taking the options that apply to it; ``min_rates`` turns Naive Bayes into
    the constrained model.

    Examples
    --------
    >>> make_model("1r", min_bucket=3)
    OneR(min_bucket=3)
    >>> make_model("bse", scoring="log_loss", cv=5)
    BSE(cv=5, scoring='log_loss')
    """
    if name == "nb" and options.get("min_rates"):
        name = "cnb"
    for kind in ("model", "search"):
        entry = variants(kind).get(name)
        if entry is not None:
            return entry[1](**options)
    raise ParameterError(f"model: expected one of {', '.join(list(variants('model')) + list(variants('search')))}, "
                         f"got {name!r}")


def describe(model):
    """The readable printout of any fitted model (its own ``to_text``)."""
    return model.to_text()
