"""Every estimator of the library, as the shared contract suite runs them.

Later estimators (1R, the searches, constrained NB, ...) are added here and
the contract tests cover them automatically.
"""

from seminaive import NaiveBayes

ESTIMATORS = [
    NaiveBayes(),
    NaiveBayes(alpha=0.5, priors="uniform", ddof=0),
    NaiveBayes(alpha=0.0, priors="mle"),
]


def ids(est):
    return repr(est)
