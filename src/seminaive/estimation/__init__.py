"""Estimators: map per-class sufficient statistics to model parameters."""

from .bayesian import PRIOR_KEYS, MEstimate, NormalGamma, normal_gamma_posterior
from .frequency import PRIORS, Frequency, class_log_prior

__all__ = ["Frequency", "NormalGamma", "MEstimate", "normal_gamma_posterior", "class_log_prior", "PRIORS",
           "PRIOR_KEYS", "ESTIMATIONS"]

ESTIMATIONS = ("frequency", "map", "predictive", "m-estimate")
