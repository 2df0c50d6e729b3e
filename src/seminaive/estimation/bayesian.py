"""Bayesian estimation from the same sufficient statistics.

- Nominal attributes: the posterior mean under a symmetric Dirichlet(alpha)
  prior, (count + alpha) / (n_c + alpha m): Laplace (alpha = 1) and Lidstone
  are its special cases. (Its posterior mode, (count + alpha - 1) / ..., gives
  zero probabilities at alpha = 1, so the mean is used.) Or the m-estimate,
  (count + m p_v) / (n_c + m), with p_v the value's Laplace-smoothed overall
  frequency.
- Gaussian attributes: the Normal-Gamma conjugate prior NG(mu0, k0, a0, b0) on
  (mean, precision) of each class, updated as the thesis's Theorem 2.3.1:

      k_n = k0 + n,  mu_n = (k0 mu0 + n xbar) / k_n,  a_n = a0 + n / 2,
      b_n = b0 + S / 2 + k0 n (xbar - mu0)^2 / (2 k_n),   S = sum (x - xbar)^2.

  MAP: the mode of the posterior density over (mean, precision), which the
  thesis gives as (mu_n, (a_n - 1/2) / b_n); so the variance used is
  b_n / (a_n - 1/2). The precision parametrization is the one the conjugate
  prior and the thesis's maximization are stated in; the mode is not
  invariant to reparametrization (over (mean, variance) it would be
  b_n / (a_n + 3/2)). Predictive: the posterior predictive Student t with
  2 a_n degrees of freedom, location mu_n and squared scale
  b_n (k_n + 1) / (a_n k_n), which keeps the parameters' uncertainty.

Default priors need no tuning (empirical Bayes from the attribute's training
data): mu0 = the overall mean with k0 = 0.01 (worth a hundredth of an
observation: vague about each class's mean), a0 = 1 and b0 = a0 x the pooled
within-class variance (so the prior's expected precision is the typical
within-class one, and it weighs like two observations). A prior centred on
the overall variance, or with k0 = 1, would pull every class's variance
towards the between-class spread. Any of them can be given, for all
attributes or per attribute.
"""

import numpy as np

from .frequency import Frequency, pooled_moments
from .family import TableEstimation, declare

__all__ = ["NormalGamma", "MEstimate", "normal_gamma_posterior", "PRIOR_KEYS"]

PRIOR_KEYS = ("mu0", "k0", "a0", "b0")


def _pooled(weight, mean, m2):
    """The overall mean and the pooled within-class variance (divisor n), over the last axis (kept)."""
    w_all, mu_all, _ = pooled_moments(weight, mean, m2)
    within = np.divide(m2.sum(axis=-1, keepdims=True), w_all, out=np.zeros_like(w_all), where=w_all > 0)
    return mu_all, within


def normal_gamma_posterior(weight, mean, m2, prior=None, scale=1.0):
    """Posterior NG parameters per class, as arrays ``(mu_n, k_n, a_n, b_n)``,
    and the prior used ``(mu0, k0, a0, b0)``.

    The statistics are of the data divided by ``scale``; a given prior is in
    the data's units (mu0 like the data, b0 like a variance), and the results
    are in the statistics' units.

    Examples
    --------
    >>> post, pri = normal_gamma_posterior(np.array([4.0]), np.array([2.0]), np.array([8.0]),
    ...                                    {"mu0": 0.0, "k0": 1.0, "a0": 2.0, "b0": 1.0})
    >>> [float(v[0]) for v in post]
    [1.6, 5.0, 4.0, 6.6]
    """
    prior = dict(prior or {})
    weight, mean, m2 = (np.asarray(a, dtype=np.float64) for a in (weight, mean, m2))
    mu_all, var_all = _pooled(weight, mean, m2)
    k0 = float(prior.get("k0", 0.01))
    a0 = float(prior.get("a0", 1.0))
    mu0 = float(prior["mu0"]) / scale if "mu0" in prior else mu_all
    b0 = float(prior["b0"]) / scale ** 2 if "b0" in prior else np.where(var_all > 0, a0 * var_all, a0)
    if np.ndim(mu0) and np.size(mu0) == 1 and weight.ndim == 1:  # one attribute's classes: scalars
        mu0, b0 = float(np.ravel(mu0)[0]), float(np.ravel(b0)[0])
    kn = k0 + weight
    mun = (k0 * mu0 + weight * mean) / kn
    an = a0 + weight / 2.0
    bn = b0 + m2 / 2.0 + k0 * weight * (mean - mu0) ** 2 / (2.0 * kn)
    return (mun, kn, an, bn), (mu0, k0, a0, b0)


class NormalGamma(Frequency):
    """Dirichlet posterior means for nominal attributes, Normal-Gamma MAP or
    predictive estimates for Gaussian ones (see the module text).

    Parameters
    ----------
    alpha : float
        Dirichlet concentration (nominal attributes).
    predictive : bool
        Student-t posterior predictive instead of the MAP normal.
    prior : dict, optional
        Any of mu0, k0, a0, b0.

    Examples
    --------
    >>> est = NormalGamma(prior={"mu0": 0.0, "k0": 1.0, "a0": 2.0, "b0": 1.0})
    >>> mu, var = est.gaussian(np.array([4.0]), np.array([2.0]), np.array([8.0]), 0.0)
    >>> float(mu[0]), round(float(var[0]), 4)
    (1.6, 1.8857)
    """

    def __init__(self, alpha=1.0, predictive=False, prior=None):
        super().__init__(alpha=alpha, ddof=0)
        self.predictive = predictive
        self.prior = prior

    def gaussian(self, weight, mean, m2, floor, scale=1.0):
        (mun, kn, an, bn), _ = normal_gamma_posterior(weight, mean, m2, self.prior, scale)
        if self.predictive:
            return mun, bn * (kn + 1.0) / (an * kn) + floor
        return mun, bn / (an - 0.5) + floor

    def degrees_of_freedom(self, weight, mean, m2, scale=1.0):
        """2 a_n of the predictive Student t (None for MAP)."""
        if not self.predictive:
            return None
        (_, _, an, _), _ = normal_gamma_posterior(weight, mean, m2, self.prior, scale)
        return 2.0 * an


class MEstimate(Frequency):
    """The m-estimate for nominal attributes: (count + m p_v) / (n_c + m), p_v
    the value's overall frequency (Laplace-smoothed); Gaussian ones as Frequency.

    Examples
    --------
    >>> np.exp(MEstimate(m=2).categorical(np.array([[3.0, 1.0], [0.0, 4.0]]))).round(3).tolist()
    [[0.633, 0.367], [0.133, 0.867]]
    """

    def __init__(self, m=2.0, ddof=1):
        super().__init__(alpha=0.0, ddof=ddof)
        self.m = m

    def _pseudo(self, counts, n_values):
        """m p_v for every class, p_v the value's Laplace-smoothed overall frequency
        (over all n_values values, so the pseudo-counts total m)."""
        overall = counts.sum(axis=0)
        p = (overall + 1.0) / (overall.sum() + n_values)
        return np.broadcast_to(self.m * p, counts.shape).copy(), np.full((counts.shape[0], 1), float(self.m))

    def loo_pseudo(self, n_values, overall, total):
        """m p_v with p_v = (overall_v + 1) / (N + m), the row taken out of both; they total m."""
        p = (np.asarray(overall, dtype=np.float64) + 1.0) / (total + n_values)
        return self.m * np.reshape(p, (-1, 1)), float(self.m)


declare("m-estimate", "Cestnik's m-estimate, m = alpha, toward the child's overall frequencies",
        TableEstimation(make=lambda m: MEstimate(m=m.alpha), describe=lambda m: f"m-estimate, m={m.alpha:g}",
                        rank=1))
