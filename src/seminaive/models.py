"""Models by name: what the command line and experiments build from options."""

from .exceptions import ParameterError

__all__ = ["MODELS", "COMPARE_MODELS", "make_model", "compare_model", "model_description", "sklearn_model",
           "describe"]

MODELS = {
    "nb": "Naive Bayes (nominal, Gaussian or discretized/kernel numeric attributes)",
    "1r": "Holte's 1R: rules on the single best attribute",
    "zeror": "the majority-class baseline",
    "multinomial": "multinomial Naive Bayes for count data",
    "bernoulli": "Bernoulli Naive Bayes for binary data",
}

# models for comparisons, by name: a description and a factory
COMPARE_MODELS = {
    "nb": ("Naive Bayes, Gaussian numeric attributes", lambda: _nb()),
    "nb-kernel": ("Naive Bayes, kernel densities", lambda: _nb(numeric="kernel")),
    "nb-ew": ("Naive Bayes, 10 equal-width intervals", lambda: _nb(numeric="equal_width")),
    "nb-ef": ("Naive Bayes, 10 equal-frequency intervals", lambda: _nb(numeric="equal_frequency")),
    "nb-mdl": ("Naive Bayes, MDL intervals", lambda: _nb(numeric="mdl")),
    "1r": ("Holte's 1R, minimum bucket 6", lambda: make_model("1r")),
    "zeror": ("the majority class", lambda: make_model("zeror")),
    "nb-map": ("Naive Bayes, Normal-Gamma MAP estimates", lambda: _nb(estimation="map")),
    "nb-predictive": ("Naive Bayes, Normal-Gamma posterior predictive", lambda: _nb(estimation="predictive")),
    "bse": ("BSE: backward elimination, leave-one-out", lambda: _search("bse")),
    "bsj": ("BSJ: backward joining, leave-one-out", lambda: _search("bsj")),
    "bsej": ("BSEJ: backward elimination and joining, leave-one-out", lambda: _search("bsej")),
    "fssj": ("FSSJ: forward selection and joining, leave-one-out", lambda: _search("fssj")),
    # also: cnb:R and offset:R, the constrained model and the offset baseline (minority rate >= R)
    "tree": ("scikit-learn decision tree (entropy, as ID3/C4.5)",
             lambda: sklearn_model("tree")),
    "forest": ("scikit-learn random forest, 100 trees", lambda: sklearn_model("forest")),
    "svm": ("scikit-learn SVM, RBF kernel, standardized inputs", lambda: sklearn_model("svm")),
}


def _search(name, **kw):
    from .search import SEARCHES
    return SEARCHES[name](**kw)


def _nb(**kw):
    from .naive_bayes import NaiveBayes
    return NaiveBayes(**kw)


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


def model_description(name):
    """What a comparison model name stands for."""
    if name in COMPARE_MODELS:
        return COMPARE_MODELS[name][0]
    kind, _, rate = name.partition(":")
    if kind == "cnb":
        return f"constrained Naive Bayes, minority-class training rate >= {rate}"
    if kind == "offset":
        return f"Naive Bayes with decision offsets, minority-class training rate >= {rate}"
    return name


def compare_model(name):
    """A fresh estimator for a comparison, by its name in COMPARE_MODELS, or
    ``cnb:R`` / ``offset:R`` for the constrained model / the offset baseline
    with minimum rate R on the minority class.

    Examples
    --------
    >>> type(compare_model("nb-mdl")).__name__, compare_model("cnb:0.8").min_rates
    ('NaiveBayes', {'minority': 0.8})
    """
    if ":" in name:
        from .constrained import ConstrainedNaiveBayes, OffsetNaiveBayes
        kind, _, rate = name.partition(":")
        try:
            r = float(rate)
        except ValueError:
            r = None
        if kind in ("cnb", "offset") and r is not None:
            cls = ConstrainedNaiveBayes if kind == "cnb" else OffsetNaiveBayes
            return cls(min_rates={"minority": r})
    if name not in COMPARE_MODELS:
        raise ParameterError(f"models: expected names among {', '.join(COMPARE_MODELS)}, got {name!r}")
    return COMPARE_MODELS[name][1]()


def make_model(name="nb", alpha=1.0, priors="laplace", ddof=1, numeric="gaussian", n_bins=10,
               min_bucket=6, bandwidth="silverman", estimation="frequency", min_rates=None, **search_options):
    """A fresh estimator by name, taking the options that apply to it (a
    wrapper search, by its name in ``seminaive.search.SEARCHES``, also takes
    its own: scoring, cv, discretizer, candidate_pairs, verbose).

    Examples
    --------
    >>> make_model("1r", min_bucket=3)
    OneR(min_bucket=3)
    >>> make_model("bse", scoring="cv", cv=5)
    BSE(cv=5, scoring='cv')
    """
    from .search import SEARCHES
    if name in SEARCHES:
        return SEARCHES[name](alpha=alpha, priors=priors, ddof=ddof, n_bins=n_bins, **search_options)
    if search_options:
        raise ParameterError(f"{', '.join(search_options)}: options of the wrapper searches, not of {name!r}")
    from .bernoulli import BernoulliNaiveBayes
    from .multinomial import MultinomialNaiveBayes
    from .naive_bayes import NaiveBayes
    from .rules import OneR, ZeroR
    if name == "nb":
        kw = dict(alpha=alpha, priors=priors, ddof=ddof, numeric=numeric, n_bins=n_bins, min_bucket=min_bucket,
                  bandwidth=bandwidth, estimation=estimation)
        if min_rates:
            from .constrained import ConstrainedNaiveBayes
            return ConstrainedNaiveBayes(min_rates=min_rates, **kw)
        return NaiveBayes(**kw)
    if name == "1r":
        return OneR(min_bucket=min_bucket)
    if name == "zeror":
        return ZeroR()
    if name == "multinomial":
        return MultinomialNaiveBayes(alpha=alpha, priors=priors)
    if name == "bernoulli":
        return BernoulliNaiveBayes(alpha=alpha, priors=priors)
    raise ParameterError(f"model: expected one of {', '.join(MODELS)}, got {name!r}")


def describe(model):
    """The readable printout of any fitted model."""
    from .naive_bayes import NaiveBayes
    from .report import format_model
    if isinstance(model, NaiveBayes):
        text = format_model(model)
        if hasattr(model, "constraint_report"):
            text = "Minimum correct classification rates (training data)\n" + model.constraint_report() + "\n\n" + text
        return text
    if hasattr(model, "to_text"):
        text = model.to_text()
        inner = getattr(model, "model_", None)
        if isinstance(inner, NaiveBayes):
            text += "\n\n" + format_model(inner)
        return text
    import numpy as np
    lines = [f"{type(model).__name__}: {model.n_features_in_} features, {len(model.classes_)} classes"]
    for c, lp, row in zip(model.classes_, model.class_log_prior_, model.feature_log_prob_):
        top = np.argsort(-row)[:5]
        lines.append(f"  {c}: P(class) {np.exp(lp):.4f}; most probable features "
                     + ", ".join(f"x{j} {np.exp(row[j]):.4f}" for j in top))
    return "\n".join(lines)
