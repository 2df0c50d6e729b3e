"""The model a search keeps when it leaves out every attribute: the class priors alone."""

import numpy as np

from ..base import decide

__all__ = ["_PriorsOnly"]


class _PriorsOnly:
    """The model with no attribute: the class priors for every instance."""

    def __init__(self, classes, log_prior):
        self.classes_, self.class_log_prior_ = classes, log_prior

    def predict_log_proba(self, X):
        return np.tile(self.class_log_prior_ - np.logaddexp.reduce(self.class_log_prior_), (len(X), 1))

    def predict_proba(self, X):
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        return self.classes_[decide(self.predict_log_proba(X))]
