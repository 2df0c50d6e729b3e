"""Estimators: map per-class sufficient statistics to model parameters."""

from .._names import ESTIMATIONS as _ESTIMATIONS
from .bayesian import PRIOR_KEYS, MEstimate, NormalGamma, normal_gamma_posterior
from .frequency import PRIORS, Frequency, class_log_prior

__all__ = ["Frequency", "NormalGamma", "MEstimate", "normal_gamma_posterior", "class_log_prior", "PRIORS",
           "PRIOR_KEYS", "ESTIMATIONS", "make_estimator"]

ESTIMATIONS = _ESTIMATIONS


def make_estimator(estimation="frequency", alpha=1.0, ddof=1, prior=None, name=None):
    """The estimator a model's options describe, for the attribute called ``name``
    (a Normal-Gamma ``prior`` may hold global keys and per-attribute dicts).

    Examples
    --------
    >>> make_estimator("m-estimate", alpha=2.0).m
    2.0
    >>> make_estimator("map", prior={"k0": 2.0, "x": {"k0": 5.0}}, name="x").prior
    {'k0': 5.0}
    """
    if estimation == "frequency":
        return Frequency(alpha=alpha, ddof=ddof)
    if estimation == "m-estimate":
        return MEstimate(m=alpha, ddof=ddof)
    prior = prior or {}
    chosen = {k: v for k, v in prior.items() if k in PRIOR_KEYS}
    if isinstance(prior.get(name), dict):
        chosen.update(prior[name])
    return NormalGamma(alpha=alpha, predictive=estimation == "predictive", prior=chosen)
