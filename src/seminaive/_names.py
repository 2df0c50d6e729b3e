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

MODEL_NAMES = {  # seminaive fit/evaluate/show/subsets --model NAME
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
SEARCH_NAMES = ("bse", "bsj", "bsej", "fssj")  # seminaive search --method NAME
COMPARE_NAMES = ("nb", "nb-kernel", "nb-ew", "nb-ef", "nb-mdl", "nb-map", "nb-predictive", "nb-sigmoid", "nb-isotonic",
                 "nb-temperature", "1r", "zeror", "bse", "bsj",
                 "bsej", "fssj", "tan", "kdb1", "kdb2", "skdb", "aode", "a2de", "wanbia", "wanbia-mse", "tree", "forest", "svm", "cnb:R", "offset:R")  # seminaive compare --models
