"""Estimators: map per-class sufficient statistics to model parameters.

Each way of estimating registers its name (:mod:`seminaive.registry`) with a
factory taking the model's options; :func:`make_estimator` builds one by name.
"""

from ..registry import factory, register_variant, registered
from .bayesian import PRIOR_KEYS, MEstimate, NormalGamma, normal_gamma_posterior
from .hdp import HDP
from .hgs import HGS
from .hls import HLS
from ._tree import Ladder
from .frequency import PRIORS, Frequency, class_log_prior, laplace_log_prior, lidstone_log, loo_class_log_prior
from .._names import ESTIMATIONS as _ESTIMATIONS
from .._validation import check_param

__all__ = ["Frequency", "HDP", "HGS", "HLS", "Ladder", "NormalGamma", "MEstimate", "normal_gamma_posterior",
           "class_log_prior", "PRIORS", "PRIOR_KEYS", "ESTIMATIONS", "make_estimator", "check_estimation", "loo_class_log_prior",
           "laplace_log_prior", "lidstone_log"]

ESTIMATIONS = _ESTIMATIONS


def check_estimation(name, value):
    """``value`` must name a registered estimation: the package's, or one registered since (an
    estimation defined outside the package, ``register_variant("estimation", ...)``).

    Examples
    --------
    >>> check_estimation("estimation", "map")
    >>> try:
    ...     check_estimation("estimation", "mapp")
    ... except ValueError as e:
    ...     print(str(e)[:61])
    estimation: expected one of 'frequency', 'map', 'predictive',
    """
    check_param(name, value, options=tuple(dict.fromkeys((*ESTIMATIONS, *registered("estimation")))))


def _normal_gamma(predictive):
    def make(alpha, ddof, prior, name):
        prior = prior or {}
        chosen = {k: v for k, v in prior.items() if k in PRIOR_KEYS}
        if isinstance(prior.get(name), dict):
            chosen.update(prior[name])
        return NormalGamma(alpha=alpha, predictive=predictive, prior=chosen)
    return make


register_variant("estimation", "frequency", "relative frequencies smoothed by alpha (Laplace, Lidstone); "
                 "Gaussian sample moments", lambda alpha, ddof, prior, name: Frequency(alpha=alpha, ddof=ddof))
register_variant("estimation", "map", "Dirichlet and Normal-Gamma posterior modes", _normal_gamma(False))
register_variant("estimation", "predictive", "Dirichlet and Normal-Gamma posterior predictives (Student t)",
                 _normal_gamma(True))
register_variant("estimation", "m-estimate", "Cestnik's m-estimate (m = alpha) toward the prior frequencies",
                 lambda alpha, ddof, prior, name: MEstimate(m=alpha, ddof=ddof))


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
    return factory("estimation", estimation)(alpha=alpha, ddof=ddof, prior=prior, name=name)
