"""Estimators: map per-class sufficient statistics to model parameters."""

from .frequency import PRIORS, Frequency, class_log_prior

__all__ = ["Frequency", "class_log_prior", "PRIORS"]
