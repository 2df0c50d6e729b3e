"""Names the command line offers before it imports anything heavy.

``seminaive --help`` must not import numpy's consumers (scikit-learn, pandas,
matplotlib), so the choices it shows are plain text: the registry's names
(models, searches, comparison names, discretizers, estimations) from the
generated :mod:`seminaive._catalog`, and the formats, scoring rules,
calibrations and model options, which are listed here once. A model option's
accepted values are the model's own declaration (``_param_rules``),
checked when the model is made (:func:`seminaive.models.make_model`).
"""

from . import _catalog

DATA_FORMATS = tuple(_catalog.FORMATS)  # the package's data file formats (each declared where it is read: data.formats)
OUTPUT_FORMATS = ("text", "csv", "json")
SCORINGS = ("accuracy", "balanced_accuracy", "log_loss", "brier", "rmse")  # seminaive.scoring's rules
CALIBRATIONS = ("isotonic", "sigmoid", "temperature")

MODEL_NAMES = _catalog.MODELS  # seminaive fit/evaluate --model NAME (beside the compare names)
SEARCH_NAMES = tuple(_catalog.SEARCHES)  # seminaive search --model NAME
COMPARE_NAMES = tuple(_catalog.COMPARE)  # seminaive compare --models
DISCRETIZER_NAMES = tuple(_catalog.DISCRETIZERS)
ESTIMATIONS = tuple(_catalog.ESTIMATIONS)
NUMERIC_MODELS = ("gaussian", "kernel") + DISCRETIZER_NAMES

# The options that set a model's parameters, the same on every subcommand that builds a model:
# flag -> (constructor parameter, how the value is read, help). A model name may carry them too,
# as NAME:PARAMETER=VALUE[:...] (kdb:k=2, nb:numeric=kernel:alpha=0.5), in --model and in compare's --models.
MODEL_OPTIONS = {
    "--alpha": ("alpha", "float", "smoothing of nominal attributes and conditional tables (1: Laplace, "
                                  "0: maximum likelihood)"),
    "--priors": ("priors", "str", "class priors: laplace ((n_c + 1) / (N + K)), mle, uniform or m-estimate"),
    "--ddof": ("ddof", "int", "Gaussian variance divisor n - ddof (Naive Bayes: 1, as the documents)"),
    "--numeric": ("numeric", "str", "numeric attributes: gaussian, kernel (Naive Bayes), or intervals: equal_width, "
                                    "equal_frequency, mdl, mdl_fallback, mdl_stochastic, 1r, resolution, "
                                    "resolution_stochastic (Naive Bayes: gaussian; TAN, kDB, selective kDB, AnDE: "
                                    "mdl_fallback; ESKDB: mdl_stochastic)"),
    "--bins": ("n_bins", "int", "intervals of equal-width or equal-frequency binning (10)"),
    "--min-bucket": ("min_bucket", "int", "1R's minimum bucket size (6)"),
    "--bandwidth": ("bandwidth", "bandwidth", "kernel bandwidth: silverman, scott or a number"),
    "--estimation": ("estimation", "str", "Naive Bayes: frequency, Normal-Gamma map or predictive, or m-estimate; "
                                          "the family: frequency, m-estimate, hdp, hgs or hls (ESKDB: hgs)"),
    "--integer-codes": ("integer_codes", "str", "a numeric column of at most 64 distinct values read one "
                                                "interval per value: auto (where its leave-one-out says so; selective "
                                                "kDB and ESKDB by default), numbers (the others' default), values "
                                                "(always) or column"),
    "--k": ("k", "int", "kDB and selective kDB: the most parents an attribute takes besides the class"),
    "--scoring": ("scoring", "str", "selective kDB and the searches: the rule candidates are judged by ("
                                    + ", ".join(SCORINGS) + ")"),
    "--discretizer": ("discretizer", "str", "the searches: how numeric attributes are cut before joining"),
    "--min-rate": ("min_rates", "rates", "constrained Naive Bayes: this class's training rate at least RATE, as "
                                         "CLASS=RATE (repeatable; CLASS may be 'minority')"),
}
