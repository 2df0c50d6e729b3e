"""The objective the constrained Naive Bayes optimizes: Naive Bayes's own.

Naive Bayes's estimates maximize a penalized log-likelihood of the training
data, and the constrained model maximizes the same function, so that where
the bounds do not bind it returns Naive Bayes itself:

- smoothed nominal probabilities (count + a_v) / (n_c + sum a) maximize
  sum count log p + sum a_v log p (a Dirichlet(a + 1) log-density), with the
  estimator's pseudo-counts a (alpha for Laplace/Lidstone, m p_v for the
  m-estimate);
- Laplace class priors (n_c + 1) / (N + K) maximize sum n_c log pi + sum log pi;
- a variance m2 / (n - ddof) maximizes the normal log-likelihood plus
  ddof log sd; with ``estimation="map"`` the penalty is the Normal-Gamma
  prior's log-density instead, whose maximum is the MAP estimate.

``objective="likelihood"`` drops the penalties (plain maximum likelihood: a
zero count may then give a zero probability). Parameters: the class logits
(unless the priors are fixed: "uniform" or given), each Gaussian's means and
log standard deviations, each nominal table's logits per class, all in the
Gaussian components' units (values over a power of two).
"""

import numpy as np
from scipy.special import log_softmax

from ..estimation import NormalGamma
from ..estimation.bayesian import normal_gamma_posterior
from ..exceptions import ParameterError

__all__ = ["Objective"]

_LOG_2PI = np.log(2 * np.pi)


class Objective:
    """Packs a fitted NaiveBayes's parameters into one vector ``x0`` and gives,
    for any such vector, the training rows' joint log-likelihood (n, K), its
    gradient, and the penalty with its gradient."""

    def __init__(self, nb, table, weight, penalized=True):
        self.n, self.k = table.n_samples, len(nb.classes_)
        self.weight = weight
        self.free_priors = isinstance(nb.priors, str) and nb.priors in ("laplace", "mle")
        self.prior_pseudo = 1.0 if (penalized and nb.priors == "laplace") else 0.0
        self.fixed_prior = None if self.free_priors else nb.class_log_prior_.copy()
        self.parts = []  # (kind, component, data, penalty data)
        x0, lo, hi = [], [], []
        if self.free_priors:
            x0.append(nb.class_log_prior_.copy())
            lo += [-50.0] * self.k
            hi += [50.0] * self.k
        for c, stats in zip(nb.components_, nb.stats_):
            name = nb.schema_.attributes[c.attribute].name
            est = nb._estimator(name)
            if c.kind == "gaussian":
                if c.df_ is not None:
                    raise ParameterError("estimation: the constrained model needs 'frequency', 'm-estimate' or "
                                         "'map' estimates (a Student-t predictive has no free parameters)")
                x = table.numeric[:, c.column] / c.scale_
                log_sd = 0.5 * np.log(c._var)
                pen = None
                if penalized and isinstance(est, NormalGamma):
                    _, pen = normal_gamma_posterior(stats["weight"], stats["mean"], stats["m2"], est.prior, c.scale_)
                elif penalized:
                    pen = float(nb.ddof)
                self.parts.append(("g", c, x, pen))
                x0 += [c._mu.copy(), log_sd]
                # a class with at most ddof values keeps NB's pooled variance (and mean when it has none)
                few = stats["weight"] <= (nb.ddof if not isinstance(est, NormalGamma) else 0)
                empty = stats["weight"] <= 0
                lo += list(np.where(empty, c._mu, -np.inf)) + list(np.where(few, log_sd, log_sd - 8))
                hi += list(np.where(empty, c._mu, np.inf)) + list(np.where(few, log_sd, log_sd + 8))
            elif c.kind in ("categorical", "discretized"):
                codes = np.asarray(c.codes(table), dtype=np.intp)
                pseudo = est.pseudo_counts(stats["counts"]) if penalized else np.zeros_like(stats["counts"])
                self.parts.append(("c", c, codes, np.broadcast_to(pseudo, (self.k, c.n_values))))
                x0.append(c.log_table_[:-1].T.ravel().copy())
                lo += [-50.0] * (self.k * c.n_values)
                hi += [50.0] * (self.k * c.n_values)
            else:
                raise ParameterError(f"numeric: the constrained model supports Gaussian and discretized "
                                     f"numeric attributes, not {c.kind}")
        self.x0 = np.concatenate(x0) if x0 else np.zeros(0)
        self.bounds = list(zip(lo, hi))

    def unpack(self, theta):
        k, pos = self.k, 0
        if self.free_priors:
            prior, pos = log_softmax(theta[:k]), k
        else:
            prior = self.fixed_prior
        params = []
        for kind, c, _, _ in self.parts:
            if kind == "g":
                params.append((theta[pos:pos + k], theta[pos + k:pos + 2 * k]))
                pos += 2 * k
            else:
                m = c.n_values
                params.append(log_softmax(theta[pos:pos + k * m].reshape(k, m), axis=1))
                pos += k * m
        return prior, params

    def jll(self, theta):
        prior, params = self.unpack(theta)
        out = np.tile(prior, (self.n, 1))
        for (kind, c, data, _), p in zip(self.parts, params):
            if kind == "g":
                mu, log_sd = p
                z = (data[:, None] - mu) * np.exp(-log_sd)
                term = -0.5 * _LOG_2PI - log_sd - 0.5 * z * z - np.log(c.scale_)
                term[np.isnan(data)] = 0.0
            else:
                term = np.vstack([p.T, np.zeros((1, self.k))])[data]
            out += term
        return out

    def grad(self, theta, G):
        """sum over i, k of G[i, k] times d jll[i, k] / d theta (G of shape (n, K))."""
        prior, params = self.unpack(theta)
        k = self.k
        out = [G.sum(axis=0) - np.exp(prior) * G.sum()] if self.free_priors else []
        for (kind, c, data, _), p in zip(self.parts, params):
            if kind == "g":
                mu, log_sd = p
                inv = np.exp(-log_sd)
                present = ~np.isnan(data)
                z = np.where(present[:, None], (data[:, None] - mu) * inv, 0.0)
                Gp = G * present[:, None]
                out.append((Gp * z).sum(axis=0) * inv)
                out.append((Gp * (z * z - 1.0)).sum(axis=0))
            else:
                m = c.n_values
                ok = data >= 0
                hit = np.zeros((k, m))
                for cls in range(k):
                    hit[cls] = np.bincount(data[ok], weights=G[ok, cls], minlength=m)
                total = G[ok].sum(axis=0)
                out.append((hit - np.exp(p) * total[:, None]).ravel())
        return np.concatenate(out) if out else np.zeros(0)

    def penalty(self, theta):
        """The log prior density term (0 for plain likelihood) and its gradient."""
        prior, params = self.unpack(theta)
        val, grads = 0.0, []
        if self.free_priors:
            a = self.prior_pseudo
            val += a * prior.sum()
            grads.append(a - np.exp(prior) * a * self.k)
        for (kind, c, _, pen), p in zip(self.parts, params):
            if kind == "g":
                mu, log_sd = p
                if pen is None:
                    grads += [np.zeros(self.k), np.zeros(self.k)]
                elif isinstance(pen, float):  # ddof log sd
                    val += pen * log_sd.sum()
                    grads += [np.zeros(self.k), np.full(self.k, pen)]
                else:  # Normal-Gamma log-density over (mean, precision)
                    mu0, k0, a0, b0 = pen
                    lam = np.exp(-2 * log_sd)
                    d = mu - mu0
                    val += np.sum((a0 - 0.5) * np.log(lam) - b0 * lam - 0.5 * k0 * lam * d * d)
                    grads += [-k0 * lam * d, -(2 * a0 - 1) + 2 * lam * (b0 + 0.5 * k0 * d * d)]
            else:
                a = np.asarray(pen)
                val += np.sum(a * p)
                grads.append((a - np.exp(p) * a.sum(axis=1, keepdims=True)).ravel())
        return val, (np.concatenate(grads) if grads else np.zeros(0))

    def install(self, model, theta):
        """Set ``model``'s priors and component parameters from ``theta``."""
        prior, params = self.unpack(theta)
        model.class_log_prior_ = np.asarray(prior, dtype=np.float64).copy()
        for (kind, c, _, _), p in zip(self.parts, params):
            if kind == "g":
                mu, log_sd = p
                c.set_parameters(mu.copy(), np.exp(2 * log_sd))
            else:
                c.log_table_ = np.vstack([p.T, np.zeros((1, p.shape[0]))])
