"""WANBIA: Naive Bayes with one weight per attribute (Zaidi, Cerquides, Carman and Webb, JMLR 2013).

The model is Naive Bayes with every attribute's log-likelihood scaled by a
weight w_j in [0, 1]:

    log P(c | x) = log P(c) + sum_j w_j log P(x_j | c) - log Z(x).

The probabilities P(c) and P(x_j | c) are the Naive Bayes estimates from the
counts; only the weights are fitted, by L-BFGS-B from w = 1 (Naive Bayes), to
minimize the negative conditional log-likelihood of the training data
(``objective="cll"``) or the mean squared error of its posteriors
(``objective="mse"``). Two copies of an attribute share one weight's worth of
evidence, which is how the weights undo the double counting of dependent
attributes.
"""

import numpy as np
from scipy.optimize import minimize

from .core.capabilities import Capabilities
from ._scale import LOG_FLOOR as FLOOR
from ._state import brief, numbers
from .exceptions import ParameterError
from .naive_bayes import NaiveBayes
from .registry import register, register_variant
from .report import format_table

__all__ = ["WANBIA", "wanbia_objective"]



def _posteriors(terms, prior, w):
    """Log-posteriors (n, K) of the weighted model; ``terms`` (n, d, K)."""
    jll = prior + np.einsum("ndk,d->nk", terms, w)
    return jll - np.logaddexp.reduce(jll, axis=1, keepdims=True)


def wanbia_objective(w, terms, prior, y, objective="cll", sample_weight=None):
    """The objective and its gradient in the weights: ``terms`` (n, d, K) the
    per-attribute log-likelihoods, ``prior`` (K,) the log class priors, ``y`` class codes.

    CLL: -sum_n log P(y_n | x_n); MSE: 1/2 sum_n sum_c (P(c | x_n) - [y_n = c])^2
    (each row counted ``sample_weight`` times)."""
    n, _, k = terms.shape
    sw = np.ones(n) if sample_weight is None else sample_weight
    log_p = _posteriors(terms, prior, w)
    p = np.exp(log_p)
    rows = np.arange(n)
    expected = np.einsum("ndk,nk->nd", terms, p)  # E_P[log P(x_j | c)] per row and attribute
    if objective == "cll":
        value = -np.dot(sw, log_p[rows, y])
        grad = -(sw[:, None] * (terms[rows, :, y] - expected)).sum(axis=0)
        return float(value), grad
    diff = p.copy()
    diff[rows, y] -= 1.0
    value = 0.5 * np.dot(sw, (diff * diff).sum(axis=1))
    # dP_c/dw_j = P_c (L_jc - E_P[L_j]); the chain rule through (P - onehot)
    g = np.einsum("nk,nk,ndk->nd", diff, p, terms) - (diff * p).sum(axis=1)[:, None] * expected
    return float(value), (sw[:, None] * g).sum(axis=0)


@register
class WANBIA(NaiveBayes):
    """Weighted Naive Bayes: one weight in [0, 1] per attribute, fitted by
    minimizing the conditional log-likelihood or the mean squared error.

    Parameters
    ----------
    objective : {"cll", "mse"}, default "cll"
        The negative conditional log-likelihood of the training data (WANBIA-CLL)
        or the mean squared error of its posteriors (WANBIA-MSE).
    alpha, priors, ddof, var_smoothing, var_smoothing_rule, nominal, numeric, n_bins, min_bucket, bandwidth, estimation, prior
        As :class:`~seminaive.NaiveBayes`, whose estimates the weights scale
        (numeric attributes too: a weighted Gaussian or kernel log-density).

    Attributes
    ----------
    weights_ : ndarray of shape (n_attributes,)
        The attribute weights (1 for every attribute is Naive Bayes; 0 ignores it).
    n_iter_ : int
        L-BFGS-B iterations.

    Notes
    -----
    The weights need every row at once: ``partial_fit`` and ``merge`` are not
    offered (the counts would add, the weights would not).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = WANBIA().fit(d.X, d.y)
    >>> bool(((0 <= m.weights_) & (m.weights_ <= 1)).all()), m.weights_.shape
    (True, (4,))
    """

    _param_rules = {"objective": dict(options=("cll", "mse"))}

    def _capabilities(self):  # its weights are learned from all the rows at once: no leave-one-out, no passes
        return Capabilities()

    def __init__(self, *, objective="cll", alpha=1.0, priors="laplace", ddof=1, var_smoothing=None,
                 var_smoothing_rule="range", nominal=None, numeric="gaussian", n_bins=10, min_bucket=6,
                 bandwidth="silverman", estimation="frequency", prior=None):
        super().__init__(alpha=alpha, priors=priors, ddof=ddof, var_smoothing=var_smoothing,
                         var_smoothing_rule=var_smoothing_rule, nominal=nominal, numeric=numeric, n_bins=n_bins,
                         min_bucket=min_bucket, bandwidth=bandwidth, estimation=estimation, prior=prior)
        self.objective = objective

    def fit(self, X, y=None, sample_weight=None):
        """Fit the Naive Bayes counts, then the attribute weights on the same rows (:meth:`_step`)."""
        self.weights_ = None
        return super().fit(X, y, sample_weight=sample_weight)

    def _step(self, source):
        """The attribute weights, fitted on the rows the counts came from (the encoded table of the fit)."""
        table, ycodes, sw = source.chunk
        terms = np.maximum(self._terms(table), FLOOR)
        d = terms.shape[1]
        res = minimize(wanbia_objective, np.ones(d), args=(terms, self.class_log_prior_, ycodes, self.objective, sw),
                       jac=True, method="L-BFGS-B", bounds=[(0.0, 1.0)] * d,
                       options={"maxiter": 1000, "ftol": 1e-12, "gtol": 1e-8})
        self.weights_ = np.clip(res.x, 0.0, 1.0)
        self.n_iter_ = int(res.nit)
        return self

    def _joint_log_likelihood(self, X):
        if getattr(self, "weights_", None) is None:
            return super()._joint_log_likelihood(X)
        return self.class_log_prior_ + self._weighted(self._terms(self._encode(X))).sum(axis=1)

    def _weighted(self, terms):
        """Each attribute's term times its weight (an attribute of weight 0 adds nothing, even -inf)."""
        w = self.weights_[None, :, None]
        with np.errstate(invalid="ignore"):
            return np.where(w == 0, 0.0, terms * w)

    def attribute_log_likelihoods(self, X):
        """w_j log P(x_j | c) of every instance and attribute, (n, n_attributes, n_classes):
        with ``class_log_prior_`` they sum to the joint log-likelihood."""
        self._check_fitted()
        return self._weighted(self._terms(self._encode(X)))

    @property
    def partial_fit(self):
        """Not offered (so ``hasattr(model, "partial_fit")`` is False, as scikit-learn's tools ask)."""
        raise AttributeError("WANBIA has no partial_fit: it fits its weights on all the rows at once; use fit")

    def merge(self, other):
        raise ParameterError("merge: WANBIA's weights do not add; fit one model on the union of the data")

    def to_text(self, precision=4):
        """The attribute weights, then the Naive Bayes estimates they scale."""
        self._check_fitted()
        rows = [[a.name, f"{w:.{precision}f}"] for a, w in zip(self.schema_.attributes, self.weights_)]
        head = [f"WANBIA ({'conditional log-likelihood' if self.objective == 'cll' else 'mean squared error'}"
                f", {self.n_iter_} L-BFGS-B iterations): log P(c | x) = log P(c) + sum_j w_j log P(x_j | c) + const",
                "", format_table(["attribute", "weight"], rows), ""]
        return "\n".join(head) + "\n" + super().to_text(precision)

    def _get_state(self):
        return {**super()._get_state(), "weights": self.weights_.tolist(), "n_iter": self.n_iter_}

    def _set_state(self, state):
        self.weights_ = None
        super()._set_state(state)
        self.weights_ = numbers(state.get("weights"), "state.weights", (len(self.schema_),), low=0)
        if (self.weights_ > 1).any():
            raise ValueError("state.weights: expected numbers in [0, 1]")
        n_iter = state.get("n_iter", 0)
        if type(n_iter) is not int or n_iter < 0:
            raise ValueError(f"state.n_iter: expected a whole number >= 0, got {brief(n_iter)}")
        self.n_iter_ = n_iter


register_variant("model", "wanbia", "WANBIA: Naive Bayes with attribute weights fitted by conditional log-likelihood",
                 lambda **o: WANBIA(**{k: v for k, v in o.items() if k in WANBIA().get_params()}))
register_variant("compare", "wanbia", "WANBIA (attribute weights by conditional log-likelihood)", lambda: WANBIA())
register_variant("compare", "wanbia-mse", "WANBIA (attribute weights by mean squared error)",
                 lambda: WANBIA(objective="mse"))
