"""Every estimator of the library, as the shared contract suite runs them.

Later estimators (1R, the searches, constrained NB, ...) are added here and
the contract tests cover them automatically.
"""

from seminaive import (AODE, ESKDB, HNB, KDB, TAN, WAODE, AODEsr, AnDE, SuperParentTAN, LBR, NBTree, SelectiveKDB, BernoulliNaiveBayes, ComplementNaiveBayes, ConstrainedNaiveBayes, MultinomialNaiveBayes,
                       NaiveBayes, OffsetNaiveBayes, OneR, ZeroR)
from seminaive.calibration import Calibrated
from seminaive.wanbia import WANBIA
from seminaive.search import BSE, BSEJ, BSJ, FSSJ

NAIVE_BAYES = [
    NaiveBayes(),
    NaiveBayes(alpha=0.5, priors="uniform", ddof=0),
    NaiveBayes(alpha=0.0, priors="mle"),
    NaiveBayes(numeric="kernel"),
    NaiveBayes(numeric="equal_width", n_bins=5),
    NaiveBayes(numeric="equal_frequency"),
    NaiveBayes(numeric="mdl"),
    NaiveBayes(numeric="1r", min_bucket=3),
    NaiveBayes(estimation="map"),
    NaiveBayes(estimation="predictive", prior={"k0": 0.5, "a0": 2.0}),
    NaiveBayes(estimation="m-estimate", alpha=2.0),
    ConstrainedNaiveBayes(min_rates={"minority": 0.95}),  # binding on the toy data: the optimizer runs
    OffsetNaiveBayes(min_rates={"minority": 0.9}),
]

RULES = [OneR(), OneR(min_bucket=3), ZeroR()]

SEARCHES = [BSE(), BSJ(), BSEJ(cv=3, scoring="log_loss"), FSSJ(numeric="discretize")]

FAMILY = [TAN(), KDB(k=1), KDB(k=2), AnDE(n=1), AODE(min_count=2), WAODE(), AODEsr(), AODEsr(critical=2, laplace=True),
          HNB(), WAODE(estimation="hgs"), AODEsr(estimation="hdp", hdp_iterations=20), HNB(estimation="hls"),
          WAODE(discriminative="parameter", penalty=1.0), AODEsr(discriminative="table", penalty=1.0),
          HNB(discriminative="parameter", penalty=1.0),
          SuperParentTAN(), SuperParentTAN(scoring="log_loss", epsilon=0.0), LBR(), NBTree(),
          NBTree(min_instances=5, min_improvement=0.0), NBTree(folds="shuffled"),
          AnDE(n=2, alpha=0.5), SelectiveKDB(), SelectiveKDB(k=1, scoring="accuracy"),
          SelectiveKDB(k=1, hybrid="gaussian"),
          KDB(k=2, estimation="hdp", hdp_iterations=30), KDB(k=2, estimation="hgs"),
          ESKDB(n_estimators=3, k=2, hdp_iterations=30), AODE(discriminative="table", penalty=1.0)]

CALIBRATED = [Calibrated(), Calibrated(NaiveBayes(numeric="kernel"), method="isotonic", cv=3),
              Calibrated(BSE(), method="temperature"), Calibrated(TAN(), method="sigmoid")]

WEIGHTED = [WANBIA(), WANBIA(objective="mse", numeric="mdl")]

# every estimator that takes tabular data (nominal, numeric, missing values)
ESTIMATORS = NAIVE_BAYES + RULES + SEARCHES + FAMILY + CALIBRATED + WEIGHTED

# count models take non-negative counts (no missing values, no nominal columns)
COUNT_ESTIMATORS = [
    MultinomialNaiveBayes(),
    MultinomialNaiveBayes(alpha=0.5, priors="mle"),
    BernoulliNaiveBayes(),
    BernoulliNaiveBayes(alpha=2.0, priors="uniform", binarize=None),
    ComplementNaiveBayes(),
    ComplementNaiveBayes(alpha=0.5, norm=True),
]


def optimized(est):
    """Models fitted by a numerical optimizer agree only to its tolerance."""
    return isinstance(est, ConstrainedNaiveBayes)


def chance_level(est):
    """ZeroR is at chance by design; every other estimator must beat it."""
    return isinstance(est, ZeroR)


def ids(est):
    return repr(est)


def registered_models():
    """{name: unfitted model} for every registered model kind (``--model`` names), comparison name
    (scikit-learn's peers left out) and ESKDB preset: the registry's list, not one kept here."""
    from seminaive.bayesnet.eskdb import PRESETS
    from seminaive.models import PEERS
    from seminaive.registry import variants
    out = {}
    for name, (_, make) in variants("model").items():
        out[f"model:{name}"] = make()
    for name, (_, make) in variants("compare").items():
        if name not in PEERS:
            out[f"compare:{name}"] = make(0.8) if name.endswith(":R") else make()
    for name in PRESETS:
        out[f"preset:{name}"] = ESKDB.preset(name)
    return out
