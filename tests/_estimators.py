"""Every estimator of the library, as the shared contract suite runs them.

Later estimators (1R, the searches, constrained NB, ...) are added here and
the contract tests cover them automatically.
"""

from seminaive import NaiveBayes

ESTIMATORS = [
    NaiveBayes(),
    NaiveBayes(alpha=0.5, priors="uniform", ddof=0),
    NaiveBayes(alpha=0.0, priors="mle"),
    NaiveBayes(numeric="kernel"),
    NaiveBayes(numeric="equal_width", n_bins=5),
    NaiveBayes(numeric="equal_frequency"),
    NaiveBayes(numeric="mdl"),
    NaiveBayes(numeric="1r", min_bucket=3),
]


def ids(est):
    return repr(est)
