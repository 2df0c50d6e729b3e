"""Models by name: what the command line and experiments build from options."""

from .exceptions import ParameterError

__all__ = ["MODELS", "make_model", "describe"]

MODELS = {
    "nb": "Naive Bayes (nominal, Gaussian or discretized/kernel numeric attributes)",
    "1r": "Holte's 1R: rules on the single best attribute",
    "zeror": "the majority-class baseline",
    "multinomial": "multinomial Naive Bayes for count data",
    "bernoulli": "Bernoulli Naive Bayes for binary data",
}


def make_model(name="nb", alpha=1.0, priors="laplace", ddof=1, numeric="gaussian", n_bins=10,
               min_bucket=6, bandwidth="silverman"):
    """A fresh estimator by name, taking the options that apply to it.

    Examples
    --------
    >>> make_model("1r", min_bucket=3)
    OneR(min_bucket=3)
    """
    from .bernoulli import BernoulliNaiveBayes
    from .multinomial import MultinomialNaiveBayes
    from .naive_bayes import NaiveBayes
    from .rules import OneR, ZeroR
    if name == "nb":
        return NaiveBayes(alpha=alpha, priors=priors, ddof=ddof, numeric=numeric, n_bins=n_bins,
                          min_bucket=min_bucket, bandwidth=bandwidth)
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
        return format_model(model)
    if hasattr(model, "to_text"):
        return model.to_text()
    import numpy as np
    lines = [f"{type(model).__name__}: {model.n_features_in_} features, {len(model.classes_)} classes"]
    for c, lp, row in zip(model.classes_, model.class_log_prior_, model.feature_log_prob_):
        top = np.argsort(-row)[:5]
        lines.append(f"  {c}: P(class) {np.exp(lp):.4f}; most probable features "
                     + ", ".join(f"x{j} {np.exp(row[j]):.4f}" for j in top))
    return "\n".join(lines)
