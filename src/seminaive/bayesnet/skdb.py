"""Selective kDB (Martinez, Webb, Chen and Zaidi, JMLR 2016): a kDB whose
number of attributes and k are chosen by exact leave-one-out cross-validation."""

import numpy as np

from ..base import decide, resolve_degenerate
from ..components import ConditionalTable
from ..estimation import Frequency
from ..registry import register, register_variant
from ..search.engine import loo_prior
from ..search.structure import Structure
from .kdb import KDB, kdb_parents
from .statistics import pair_statistics

__all__ = ["SelectiveKDB", "LOSSES", "loss_of"]

LOSSES = ("rmse", "log_loss", "zero_one")


def loss_of(jll, y, loss, log_prior, weight=None):
    """The (``weight``-ed) loss of joint log-likelihoods ``jll`` (n, K) against classes ``y``:
    ``rmse`` (root mean squared difference between the posteriors and the 0/1
    class indicators, over every instance and class), ``log_loss`` (mean of
    -log P(y | x)) or ``zero_one`` (error rate, decisions as the classifiers make
    them); rows impossible under every class take the priors."""
    with np.errstate(invalid="ignore"):
        if not np.isfinite(jll.max(axis=1)).all():
            jll = resolve_degenerate(jll, log_prior)
    if loss == "zero_one":
        return float(np.average(decide(jll) != y, weights=weight))
    top = jll.max(axis=1, keepdims=True)
    log_p = jll - top - np.log(np.exp(jll - top).sum(axis=1, keepdims=True))
    if loss == "log_loss":
        return float(-np.average(log_p[np.arange(y.size), y], weights=weight))
    target = np.zeros_like(log_p)
    target[np.arange(y.size), y] = 1.0
    return float(np.sqrt(np.average(((np.exp(log_p) - target) ** 2).mean(axis=1), weights=weight)))


@register
class SelectiveKDB(KDB):
    """kDB with its attributes and k chosen by leave-one-out cross-validation.

    Attributes are ordered by I(X; C) and each takes up to ``k`` parents as in
    :class:`KDB`. The candidate models are nested: the first s attributes of the
    order (s = 0 .. d), each with the first k' <= k of its parents (those of
    largest I(X_i; X_j | C)). Every candidate's leave-one-out loss comes from
    one set of counts: each instance's own counts are taken out of its cells
    (the estimators' leave-one-out forms), so no model is refitted; the
    candidate of least loss is kept (ties: fewer attributes, then smaller k').
    Numeric attributes are cut into intervals from all the training data first.

    Parameters
    ----------
    k : int, default 2
        The most parents an attribute may take besides the class.
    loss : {"rmse", "log_loss", "zero_one"}, default "rmse"
        What the selection minimizes (RMSE of the probabilities is SKDB's).
    alpha, priors, numeric, n_bins, min_bucket
        As :class:`~seminaive.bayesnet.TAN`.

    Attributes
    ----------
    history_ : list of dict
        Every candidate: ``attributes`` (s), ``k`` (k') and its ``loss``.
    n_attributes_, k_ : int
        The chosen s and k'.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = SelectiveKDB(k=1, loss="zero_one").fit(load("weather.nominal"))
    >>> len(m.history_), m.n_attributes_ <= 4
    (10, True)
    """

    _parameter_constraints = {"loss": dict(options=LOSSES)}
    _from_chunks = False  # its leave-one-out selection reads every row (not yet over chunks)

    def __init__(self, *, k=2, loss="rmse", alpha=1.0, priors="laplace", nominal=None, numeric="mdl",
                 n_bins=10, min_bucket=6):
        super().__init__(k=k, alpha=alpha, priors=priors, nominal=nominal, numeric=numeric, n_bins=n_bins,
                         min_bucket=min_bucket)
        self.loss = loss

    def _fit_tables(self, table, columns, y, k, weight):
        if weight is not None and not np.all(weight == np.round(weight)):
            from ..exceptions import ParameterError
            raise ParameterError("sample_weight: the leave-one-out selection needs integer weights (copies)")
        full, self.order_ = kdb_parents(pair_statistics(columns, [r.n_values for r in self.readers_], y, k, weight),
                                        self.k)
        self._full_parents = full
        est = Frequency(alpha=self.alpha)
        r, d = self.readers_, len(columns)
        class_counts = np.bincount(y, weights=weight, minlength=k).astype(np.float64)
        # a weight of w is w copies: each copy is left out in turn (one count less), its loss counted w times;
        # instances of weight 0 take no part
        rows = slice(None) if weight is None else weight > 0
        w = None if weight is None else weight[rows]
        with np.errstate(divide="ignore", invalid="ignore"):
            prior = loo_prior(class_counts, y, self.priors)
        log_prior = np.log(np.bincount(y, minlength=k) + 1.0) - np.log(y.size + k)
        self.history_ = []
        for kk in range(self.k + 1):
            S = prior.copy()
            for s in range(d + 1):
                if s:
                    i = self.order_[s - 1]
                    t = ConditionalTable(i, r[i], [r[p] for p in full[i][:kk]])
                    with np.errstate(divide="ignore", invalid="ignore"):
                        S += t.loo_log_likelihood(t.count(table, y, k, weight), table, y, est)
                value = loss_of(S[rows], y[rows], self.loss, log_prior, w)
                self.history_.append({"attributes": s, "k": kk, "loss": value})
        best = min(self.history_, key=lambda h: (h["loss"], h["attributes"], h["k"]))
        self.n_attributes_, self.k_ = best["attributes"], best["k"]
        chosen = self.order_[:self.n_attributes_]
        self.structure_ = Structure(tuple((i,) for i in sorted(chosen)), d,
                                    tuple(full[i][:self.k_] for i in sorted(chosen)))
        self._make_tables()
        self._set_counts(self._count(table, y, k, weight))

    def _describe(self):
        return (f"k={self.k}, chosen by leave-one-out {self.loss}: {self.n_attributes_} attributes, "
                f"k'={self.k_}")


register_variant("model", "skdb", "selective kDB: attributes and k chosen by leave-one-out RMSE",
                 lambda **o: SelectiveKDB(**{k: v for k, v in o.items() if k in ("alpha", "priors")}))
register_variant("compare", "skdb", "selective kDB (k <= 2, leave-one-out RMSE)", lambda: SelectiveKDB())
