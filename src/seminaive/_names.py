"""Names the command line offers before it imports anything heavy.

``seminaive --help`` must not import numpy's consumers (scikit-learn, pandas,
matplotlib), so the choices it shows live here as plain text. The modules
that own them import their tuples from here, and a test holds the model
names equal to those the models register (:mod:`seminaive.registry`).
"""

DATA_FORMATS = ("csv", "arff", "keel", "filebase")
OUTPUT_FORMATS = ("text", "csv", "json")
ESTIMATIONS = ("frequency", "map", "predictive", "m-estimate")
SCORINGS = ("accuracy", "balanced_accuracy", "log_loss", "brier", "rmse")  # seminaive.scoring's rules
CALIBRATIONS = ("isotonic", "sigmoid", "temperature")
NUMERIC_MODELS = ("gaussian", "kernel", "equal_width", "equal_frequency", "mdl", "1r")

MODEL_NAMES = {  # names only --model knows beside the COMPARE_NAMES (every --model, every compare name)
    "nb": "Naive Bayes (nominal, Gaussian or discretized/kernel numeric attributes)",
    "cnb": "constrained Naive Bayes (with --min-rate CLASS=RATE)",
    "multinomial": "multinomial Naive Bayes for count data",
    "bernoulli": "Bernoulli Naive Bayes for binary data",
    "1r": "Holte's 1R: rules on the single best attribute",
    "zeror": "the majority-class baseline",
    "tan": "tree-augmented Naive Bayes (numeric attributes in MDL intervals)",
    "kdb": "k-dependence Bayes, k=1 (numeric attributes in MDL intervals)",
    "skdb": "selective kDB: attributes and k chosen by leave-one-out RMSE",
    "aode": "averaged one-dependence estimators (numeric attributes in MDL intervals)",
    "a2de": "averaged two-dependence estimators (numeric attributes in MDL intervals)",
    "wanbia": "WANBIA: Naive Bayes with attribute weights fitted by conditional log-likelihood",
}
SEARCH_NAMES = ("bse", "bsj", "bsej", "fssj")  # seminaive search --model NAME
COMPARE_NAMES = ("nb", "nb-kernel", "nb-ew", "nb-ef", "nb-mdl", "nb-map", "nb-predictive", "nb-sigmoid", "nb-isotonic",
                 "nb-temperature", "1r", "zeror", "bse", "bsj",
                 "bsej", "fssj", "tan", "kdb1", "kdb2", "skdb", "aode", "a2de", "wanbia", "wanbia-mse", "tree", "forest", "svm", "cnb:R", "offset:R")  # seminaive compare --models

# The options that set a model's parameters, the same on every subcommand that builds a model:
# flag -> (constructor parameter, how the value is read, help). A model name may carry them too,
# as NAME:PARAMETER=VALUE[:...] (kdb:k=2, nb:numeric=kernel:alpha=0.5), in --model and in compare's --models.
MODEL_OPTIONS = {
    "--alpha": ("alpha", "float", "smoothing of nominal attributes and conditional tables (1: Laplace, "
                                  "0: maximum likelihood)"),
    "--priors": ("priors", "str", "class priors: laplace ((n_c + 1) / (N + K)), mle or uniform"),
    "--ddof": ("ddof", "int", "Gaussian variance divisor n - ddof (Naive Bayes: 1, as the documents)"),
    "--numeric": ("numeric", "str", "numeric attributes: gaussian, kernel, equal_width, equal_frequency, mdl or "
                                    "1r (Naive Bayes: gaussian; TAN, kDB, AnDE: their discretizer, mdl)"),
    "--bins": ("n_bins", "int", "intervals of equal-width or equal-frequency binning (10)"),
    "--min-bucket": ("min_bucket", "int", "1R's minimum bucket size (6)"),
    "--bandwidth": ("bandwidth", "bandwidth", "kernel bandwidth: silverman, scott or a number"),
    "--estimation": ("estimation", "str", "frequency, Normal-Gamma map or predictive, or m-estimate"),
    "--k": ("k", "int", "kDB and selective kDB: the most parents an attribute takes besides the class"),
    "--scoring": ("scoring", "str", "selective kDB and the searches: the rule candidates are judged by ("
                                    + ", ".join(SCORINGS) + ")"),
    "--discretizer": ("discretizer", "str", "the searches: how numeric attributes are cut before joining"),
    "--min-rate": ("min_rates", "rates", "constrained Naive Bayes: this class's training rate at least RATE, as "
                                         "CLASS=RATE (repeatable; CLASS may be 'minority')"),
}
OPTION_CHOICES = {"--numeric": NUMERIC_MODELS, "--estimation": ESTIMATIONS, "--scoring": SCORINGS,
                  "--discretizer": ("equal_width", "equal_frequency", "mdl", "1r")}
