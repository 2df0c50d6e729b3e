"""seminaive: Naive Bayes and its semi-naive extensions.

Examples
--------
>>> from seminaive import NaiveBayes
>>> from seminaive.datasets import load
>>> d = load("ihealth")
>>> NaiveBayes(alpha=0, priors="mle").fit(d.X, d.y).predict(
...     [["health", "moderate", "moderate", "yes"]]).tolist()
['i500']
"""

from .base import UnseenValueWarning
from .bernoulli import BernoulliNaiveBayes
from .constrained import ConstrainedNaiveBayes, ConstraintWarning, OffsetNaiveBayes
from .data import Dataset, Schema, load_file
from .exceptions import DataFormatError, NotFittedError, ParameterError, SeminaiveError
from .multinomial import MultinomialNaiveBayes
from .naive_bayes import NaiveBayes
from .persistence import load_model, save_model
from .rules import OneR, ZeroR

__version__ = "0.1.0"

__all__ = ["NaiveBayes", "MultinomialNaiveBayes", "BernoulliNaiveBayes", "OneR", "ZeroR", "ConstrainedNaiveBayes",
           "OffsetNaiveBayes", "ConstraintWarning", "Dataset", "Schema", "load_file", "save_model", "load_model",
           "SeminaiveError", "DataFormatError", "ParameterError", "NotFittedError",
           "UnseenValueWarning", "__version__"]
