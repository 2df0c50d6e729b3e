"""Naive Bayes whose estimation imposes lower bounds on the correct
classification rate of chosen classes (the constrained NB of the thesis 004,
in the published form: Blanquero, Carrizosa, Ramirez-Cobo and Sillero-Denamiel).

    maximize    log-likelihood (or log-posterior) of the training data
    subject to  rate_c(theta) >= threshold_c   for each constrained class c

The rate (recall) of a class is an average of indicators; it is smoothed as
the mean over the class's instances of sigmoid(margin / temperature), where
the margin is the log-odds of the true class against all the others (by
default the temperature is a tenth of the interquartile range of the
starting margins). The
problem is solved by scipy's SLSQP (or trust-constr / COBYQA) from the
unconstrained estimate. The hard (true) rates are then checked: the smoothed
targets are the thresholds plus a common shift, raised by the shortfall while
a class falls short (up to ``max_rounds`` times), then bisected down to the
smallest shift whose hard rates still hold, since a soft sigmoid otherwise
overshoots the bound and gives up likelihood. Parameters: the class
log-priors (softmax), the Gaussian means and log standard deviations, and
the categorical log-probabilities (softmax) of every class and attribute.
"""

import warnings

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_softmax, logsumexp
from sklearn.utils.validation import _num_samples

from ._target import encode_target, unwrap
from ._validation import check_param
from .base import decide
from .exceptions import ParameterError
from .naive_bayes import NaiveBayes

__all__ = ["ConstrainedNaiveBayes", "OffsetNaiveBayes", "ConstraintWarning", "resolve_min_rates"]

_LOG_2PI = np.log(2 * np.pi)


class ConstraintWarning(UserWarning):
    """The requested minimum rates could not all be met on the training data."""


def resolve_min_rates(min_rates, classes, y_codes, weight=None):
    """``{class index: threshold}`` from ``{class label or "minority": threshold}``
    (the minority class by weighted count)."""
    if not isinstance(min_rates, dict) or not min_rates:
        raise ParameterError(f"min_rates: expected a dict {{class: minimum rate}}, got {min_rates!r}")
    labels = [str(c) for c in classes]
    out = {}
    for key, thr in min_rates.items():
        check_param(f"min_rates[{key!r}]", thr, kind="number", low=0, high=1)
        if key == "minority":
            counts = np.bincount(y_codes, weights=weight, minlength=len(classes)).astype(float)
            counts[counts == 0] = np.inf
            k = int(np.argmin(counts))
        elif str(key) in labels:
            k = labels.index(str(key))
        else:
            raise ParameterError(f"min_rates: {key!r} is not a class (classes: {', '.join(labels)}, or 'minority')")
        out[k] = float(thr)
    return out


def _rates(jll, y, k, w=None):
    """Each class's (weighted) correct classification rate."""
    pred = decide(jll)
    w = np.ones(y.size) if w is None else w
    out = []
    for c in range(k):
        sel = y == c
        out.append(np.sum(w[sel] * (pred[sel] == c)) / w[sel].sum() if w[sel].sum() > 0 else np.nan)
    return np.array(out)


def _need_two_classes(classes, y_codes, weight):
    weight = None if weight is None else np.asarray(weight, dtype=np.float64)
    present = np.count_nonzero(np.bincount(y_codes, weights=weight, minlength=len(classes)) > 0)
    if present < 2:
        raise ParameterError(f"y: a model with minimum class rates needs at least two classes with "
                             f"instances; got {present} class")


class _Objective:
    """Packs the parameters of a fitted NaiveBayes into one vector and computes
    the joint log-likelihood of the training rows from any such vector."""

    def __init__(self, nb, X):
        self.nb = nb
        table = nb._encode(X)
        self.n = table.n_samples
        self.k = len(nb.classes_)
        self.parts = []  # (kind, component, data)
        x0 = [nb.class_log_prior_.copy()]
        for c in nb.components_:
            if c.kind == "gaussian":
                if getattr(c, "df_", None) is not None:
                    raise ParameterError("estimation: the constrained model needs 'frequency' or 'map' "
                                         "estimates (a Student-t predictive has no free parameters)")
                x = table.numeric[:, c.column]
                self.parts.append(("g", c, x))
                x0 += [c.mean_.copy(), 0.5 * np.log(c.var_)]
            elif c.kind in ("categorical", "discretized"):
                codes = np.asarray(c.codes(table), dtype=np.intp)
                self.parts.append(("c", c, codes))
                x0.append(c.log_table_[:-1].T.ravel().copy())  # (K, m) log-probabilities
            else:
                raise ParameterError(f"numeric: the constrained model supports Gaussian and discretized "
                                     f"numeric attributes, not {c.kind}")
        self.x0 = np.concatenate(x0)
        # keep the optimizer in a sane box: logits within +-50, log sds within +-8 of the start
        lo, hi = np.full(self.x0.size, -np.inf), np.full(self.x0.size, np.inf)
        pos = self.k
        lo[:pos], hi[:pos] = -50, 50
        for kind, c, _ in self.parts:
            if kind == "g":
                lo[pos + self.k:pos + 2 * self.k] = self.x0[pos + self.k:pos + 2 * self.k] - 8
                hi[pos + self.k:pos + 2 * self.k] = self.x0[pos + self.k:pos + 2 * self.k] + 8
                pos += 2 * self.k
            else:
                size = self.k * c.n_values
                lo[pos:pos + size], hi[pos:pos + size] = -50, 50
                pos += size
        self.bounds = list(zip(lo, hi))

    def unpack(self, theta):
        k = self.k
        pos = k
        prior = log_softmax(theta[:k])
        params = []
        for kind, c, data in self.parts:
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
        for (kind, c, data), p in zip(self.parts, params):
            if kind == "g":
                mu, log_sd = p
                z = (data[:, None] - mu) * np.exp(-log_sd)
                term = -0.5 * _LOG_2PI - log_sd - 0.5 * z * z
                term[np.isnan(data)] = 0.0
            else:
                table = np.vstack([p.T, np.zeros((1, self.k))])
                term = table[data]
            out += term
        return out

    def grad(self, theta, G):
        """sum over i, k of G[i, k] times d jll[i, k] / d theta (G of shape (n, K))."""
        prior, params = self.unpack(theta)
        k = self.k
        out = [G.sum(axis=0) - np.exp(prior) * G.sum()]
        for (kind, c, data), p in zip(self.parts, params):
            if kind == "g":
                mu, log_sd = p
                inv = np.exp(-log_sd)
                z = (data[:, None] - mu) * inv
                z[np.isnan(data)] = 0.0
                present = ~np.isnan(data)
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
        return np.concatenate(out)


class _WholeDataOnly:
    """Hides ``partial_fit`` and ``merge``: these models solve for their
    parameters over all the data, so their statistics cannot simply add.
    (``hasattr(model, "partial_fit")`` is then false, as tools expect.)"""

    @property
    def partial_fit(self):
        raise AttributeError(f"{type(self).__name__} has no partial_fit: its parameters are chosen over all the "
                             f"training data at once; stream the data into NaiveBayes.partial_fit instead")

    @property
    def merge(self):
        raise AttributeError(f"{type(self).__name__} has no merge: its parameters are not sums of statistics")


class _Result:
    """A candidate solution that did not come from the optimizer."""

    def __init__(self, x, fun):
        self.x, self.fun = x, fun


class ConstrainedNaiveBayes(_WholeDataOnly, NaiveBayes):
    """Naive Bayes estimated under lower bounds on chosen classes' correct
    classification rates (see the module text).

    Parameters
    ----------
    min_rates : dict
        ``{class label: minimum rate}``; the key ``"minority"`` names the least
        frequent training class.
    temperature : float or "auto", default "auto"
        Scale of the sigmoid that smooths the rate (log-odds units); "auto"
        takes a tenth of the interquartile range of the constrained classes'
        starting margins, clipped to [0.01, 5], so the smoothing is sharp
        whatever the data's scale (and outlying margins do not widen it).
    objective : {"likelihood", "posterior"}, default "likelihood"
        "posterior" adds the log-density of the Normal-Gamma priors (use with
        ``estimation="map"``).
    solver : {"SLSQP", "trust-constr", "COBYQA"}, default "SLSQP"
    max_rounds : int, default 4
        Times the smoothed targets may be raised by the hard rates' shortfall.
    bisections : int, default 5
        Bisection steps towards the lowest smoothed targets whose hard rates
        still hold (the most likely model that meets the bounds).
    max_iter : int, default 300
    (other parameters as NaiveBayes; its estimate is the starting point)

    Attributes
    ----------
    constraints_ : list of dict
        Per constrained class: threshold, smoothed and hard training rates,
        whether it holds (and validation rates when validation data are given).
    feasible_ : bool
        Whether every hard training rate meets its threshold.
    unconstrained_ : NaiveBayes
        The starting, unconstrained model.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("iris")
    >>> m = ConstrainedNaiveBayes(min_rates={"virginica": 1.0}).fit(d)
    >>> m.feasible_, m.constraints_[0]["train_rate"]
    (True, 1.0)
    """

    def __init__(self, *, min_rates=None, temperature="auto", objective="likelihood", solver="SLSQP", max_rounds=4,
                 bisections=5, max_iter=300, alpha=1.0, priors="laplace", ddof=1, var_smoothing=1e-9, nominal=None,
                 numeric="gaussian", n_bins=10, min_bucket=6, bandwidth="silverman", estimation="frequency",
                 prior=None):
        super().__init__(alpha=alpha, priors=priors, ddof=ddof, var_smoothing=var_smoothing, nominal=nominal,
                         numeric=numeric, n_bins=n_bins, min_bucket=min_bucket, bandwidth=bandwidth,
                         estimation=estimation, prior=prior)
        self.min_rates = min_rates
        self.temperature = temperature
        self.objective = objective
        self.solver = solver
        self.max_rounds = max_rounds
        self.bisections = bisections
        self.max_iter = max_iter

    def fit(self, X, y=None, sample_weight=None, X_val=None, y_val=None):
        """Fit under the rate constraints; ``X_val, y_val`` only report rates there."""
        if self.temperature != "auto":
            check_param("temperature", self.temperature, kind="number", low=0, low_inclusive=False)
        check_param("objective", self.objective, options=("likelihood", "posterior"))
        check_param("solver", self.solver, options=("SLSQP", "trust-constr", "COBYQA"))
        check_param("max_rounds", self.max_rounds, kind="int", low=1)
        check_param("max_iter", self.max_iter, kind="int", low=1)
        X, y = unwrap(X, y)
        params = {k: v for k, v in self.get_params().items() if k in NaiveBayes().get_params()}
        base = NaiveBayes(**params).fit(X, y, sample_weight=sample_weight)
        self.unconstrained_ = base
        super().fit(X, y, sample_weight=sample_weight)  # schema, components and the same start
        ycodes, _ = encode_target(y, _num_samples(X))
        _need_two_classes(self.classes_, ycodes, sample_weight)
        w = np.ones(len(ycodes)) if sample_weight is None else np.asarray(sample_weight, float)
        targets = resolve_min_rates(self.min_rates, self.classes_, ycodes, w)
        obj = _Objective(self, X)
        k = len(self.classes_)
        members = {c: (ycodes == c) for c in targets}

        rows = np.arange(len(ycodes))
        G_obj = np.zeros((len(ycodes), k))
        G_obj[rows, ycodes] = -w / w.sum()

        def negloglik(theta):
            jll = obj.jll(theta)
            val = -np.sum(w * jll[rows, ycodes]) / w.sum()
            if self.objective == "posterior":
                val -= self._log_prior_density(obj, theta) / w.sum()
            return val

        def negloglik_grad(theta):
            g = obj.grad(theta, G_obj)
            if self.objective == "posterior":  # the prior term by central differences (few parameters)
                eps = 1e-6
                g = g - np.array([(self._log_prior_density(obj, theta + eps * e) -
                                   self._log_prior_density(obj, theta - eps * e)) / (2 * eps)
                                  for e in np.eye(theta.size)]) / w.sum()
            return g

        def margins(jll, c):
            others = np.delete(jll, c, axis=1)
            return jll[:, c] - logsumexp(others, axis=1), others

        def smooth_rate(theta, c, temp):
            margin, _ = margins(obj.jll(theta), c)
            sel = members[c]
            return np.sum(w[sel] * expit(margin[sel] / temp)) / w[sel].sum()

        def smooth_rate_grad(theta, c, temp):
            jll = obj.jll(theta)
            margin, others = margins(jll, c)
            sel = members[c]
            sig = expit(margin / temp)
            a = np.where(sel, w * sig * (1 - sig) / temp, 0.0) / w[sel].sum()
            q = np.exp(others - logsumexp(others, axis=1, keepdims=True))
            G = np.zeros_like(jll)
            G[:, c] = a
            G[:, [j for j in range(k) if j != c]] = -a[:, None] * q
            return obj.grad(theta, G)

        lo_b = [b[0] for b in obj.bounds]
        hi_b = [b[1] for b in obj.bounds]
        self.n_iter_ = 0

        def solve(slack, temp, start):
            cons = [{"type": "ineq", "fun": (lambda t, c=c: smooth_rate(t, c, temp) - min(0.999, targets[c] + slack[c])),
                     "jac": (lambda t, c=c: smooth_rate_grad(t, c, temp))} for c in targets]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = minimize(negloglik, np.clip(start, lo_b, hi_b), jac=negloglik_grad, method=self.solver,
                               constraints=cons, bounds=obj.bounds, options={"maxiter": self.max_iter})
            self.n_iter_ += max(1, int(getattr(res, "nit", 1)))
            hard = _rates(obj.jll(res.x), ycodes, k, w)
            short = {c: targets[c] - hard[c] for c in targets if hard[c] < targets[c] - 1e-12}
            return res, short

        best = None

        def keep(res, short):
            nonlocal best
            worst = max(short.values(), default=0.0)
            fun = float(res.fun) if np.isfinite(res.fun) else np.inf
            if best is None or worst < best[0] - 1e-12 or (worst <= best[0] + 1e-12 and fun < best[2]):
                best = (worst, res.x, fun)

        theta = obj.x0.copy()
        temp = self.temperature
        if temp == "auto":  # sharp relative to how spread the starting margins are
            jll0 = obj.jll(theta)
            spread = [np.subtract(*np.percentile(jll0[members[c], c] - logsumexp(
                np.delete(jll0[members[c]], c, axis=1), axis=1), [75, 25])) for c in targets]
            temp = float(np.clip(0.1 * np.mean(spread), 0.01, 5.0))
        self.temperature_ = temp
        # a feasible point of the same problem: the decision-offset baseline's parameters
        # (shifting log-priors); it is a candidate and a start, so the result is never less
        # likely than the baseline
        offset = OffsetNaiveBayes(min_rates=self.min_rates, **params).fit(X, y, sample_weight=sample_weight)
        theta_off = theta.copy()
        theta_off[:k] += offset.offsets_
        hard_off = _rates(obj.jll(theta_off), ycodes, k, w)
        keep(_Result(theta_off, negloglik(theta_off)),
             {c: targets[c] - hard_off[c] for c in targets if hard_off[c] < targets[c] - 1e-12})
        # the smoothed targets are threshold + shift; find the smallest shift whose hard rates hold
        res, short = solve(dict.fromkeys(targets, 0.0), temp, theta)
        keep(res, short)
        if short and best[0] <= 0:
            theta = theta_off  # start the escalation from the feasible baseline
        feasible_shift, infeasible_shift = (0.0, None) if not short else (None, 0.0)
        shift, start = 0.0, res.x
        for _ in range(self.max_rounds - 1):
            if feasible_shift is not None:
                break
            shift += max(short.values())
            res, short = solve(dict.fromkeys(targets, shift), temp, start)
            keep(res, short)
            if short:
                infeasible_shift, start = shift, res.x
            else:
                feasible_shift = shift
        if feasible_shift is not None:
            lo = infeasible_shift if infeasible_shift is not None else -min(targets.values()) / 2
            hi = feasible_shift
            for _ in range(self.bisections):
                mid = (lo + hi) / 2
                res, short = solve(dict.fromkeys(targets, mid), temp, best[1])
                keep(res, short)
                lo, hi = (mid, hi) if short else (lo, mid)
        worst, theta, _ = best
        self._install(obj, theta)
        jll_train = obj.jll(theta)
        hard = _rates(jll_train, ycodes, k, w)
        self.feasible_ = worst <= 0
        val_rates = None
        if X_val is not None:
            yv, _ = encode_target(y_val if not hasattr(y_val, "cat") else y_val, len(X_val))
            pred_codes = decide(self._joint_log_likelihood(X_val))
            lookup = {c: i for i, c in enumerate(self.classes_)}
            yv = np.array([lookup.get(v, -1) for v in np.asarray(y_val, dtype=object)])
            val_rates = [np.mean(pred_codes[yv == c] == c) if np.any(yv == c) else np.nan for c in range(k)]
        self.constraints_ = [{"class": self.classes_[c], "threshold": thr,
                              "smoothed_rate": smooth_rate(theta, c, self.temperature_),
                              "train_rate": float(hard[c]), "holds": bool(hard[c] >= thr - 1e-12),
                              "unconstrained_train_rate": float(_rates(base._joint_log_likelihood(X), ycodes, k, w)[c]),
                              **({"validation_rate": float(val_rates[c])} if val_rates is not None else {})}
                             for c, thr in targets.items()]
        if not self.feasible_:
            missed = "; ".join(f"class {r['class']!r}: {r['train_rate']:.3f} < {r['threshold']:.3f}"
                               for r in self.constraints_ if not r["holds"])
            warnings.warn(f"the minimum rates cannot all be met on the training data ({missed}); "
                          f"returning the closest solution found", ConstraintWarning, stacklevel=2)
        return self

    def _log_prior_density(self, obj, theta):
        """Sum of the Normal-Gamma log-densities (precision parametrization) of the Gaussian parameters."""
        from .estimation.bayesian import normal_gamma_posterior
        total = 0.0
        _, params = obj.unpack(theta)
        for (kind, c, _), (p, stats) in zip(obj.parts, zip(params, [self.stats_[i] for i in
                                                                    [cc.attribute for _, cc, _ in obj.parts]])):
            if kind != "g":
                continue
            _, (mu0, k0, a0, b0) = normal_gamma_posterior(stats["weight"], stats["mean"], stats["m2"],
                                                          self._estimator(self.schema_.attributes[c.attribute].name).prior)
            mu, log_sd = p
            lam = np.exp(-2 * log_sd)
            total += np.sum((a0 - 0.5) * np.log(lam) - b0 * lam - 0.5 * k0 * lam * (mu - mu0) ** 2)
        return total

    def _install(self, obj, theta):
        prior, params = obj.unpack(theta)
        self.class_log_prior_ = prior
        for (kind, c, _), p in zip(obj.parts, params):
            if kind == "g":
                mu, log_sd = p
                c.mean_, c.var_ = mu.copy(), np.exp(2 * log_sd)
                c._inv_sd = 1.0 / np.sqrt(c.var_)
                c._log_norm = -0.5 * (_LOG_2PI + np.log(c.var_))
            else:
                c.log_table_ = np.vstack([p.T, np.zeros((1, p.shape[0]))])

    def constraint_report(self):
        """The constraints as a text table."""
        from .report import format_table
        rows = [[str(r["class"]), f"{r['threshold']:.3f}", f"{r['unconstrained_train_rate']:.3f}",
                 f"{r['train_rate']:.3f}", "yes" if r["holds"] else "NO"]
                + ([f"{r['validation_rate']:.3f}"] if "validation_rate" in r else []) for r in self.constraints_]
        head = ["class", "minimum", "NB train rate", "train rate", "holds"]
        if self.constraints_ and "validation_rate" in self.constraints_[0]:
            head.append("validation rate")
        return format_table(head, rows)

    def _get_state(self):
        """The statistics (as NaiveBayes) plus the optimized parameters, which override them on loading."""
        state = super()._get_state()
        state["optimized"] = {"class_log_prior": self.class_log_prior_.tolist(),
                              "components": [({"mean": c.mean_.tolist(), "var": c.var_.tolist()} if c.kind == "gaussian"
                                              else {"log_table": c.log_table_.tolist()}) for c in self.components_]}
        state["constraints"] = [{k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()}
                                for r in self.constraints_]
        state["feasible"] = self.feasible_
        return state

    def _set_state(self, state):
        super()._set_state(state)
        opt = state["optimized"]
        self.class_log_prior_ = np.asarray(opt["class_log_prior"], dtype=np.float64)
        for c, p in zip(self.components_, opt["components"]):
            if "mean" in p:
                c.mean_, c.var_ = np.asarray(p["mean"], float), np.asarray(p["var"], float)
                c._inv_sd = 1.0 / np.sqrt(c.var_)
                c._log_norm = -0.5 * (_LOG_2PI + np.log(c.var_))
            else:
                c.log_table_ = np.asarray(p["log_table"], float)
        self.constraints_ = state["constraints"]
        self.feasible_ = state["feasible"]


class OffsetNaiveBayes(_WholeDataOnly, NaiveBayes):
    """The simple baseline: plain Naive Bayes whose log-priors are shifted
    (decision offsets) until each constrained class's training rate reaches its
    threshold; the smallest shift that does so, class by class, repeated until
    all hold or nothing changes.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("iris")
    >>> m = OffsetNaiveBayes(min_rates={"versicolor": 1.0}).fit(d)
    >>> float(m.offsets_[1]) > 0
    True
    """

    def __init__(self, *, min_rates=None, max_rounds=50, alpha=1.0, priors="laplace", ddof=1,
                 var_smoothing=1e-9, nominal=None, numeric="gaussian", n_bins=10, min_bucket=6,
                 bandwidth="silverman", estimation="frequency", prior=None):
        super().__init__(alpha=alpha, priors=priors, ddof=ddof, var_smoothing=var_smoothing, nominal=nominal,
                         numeric=numeric, n_bins=n_bins, min_bucket=min_bucket, bandwidth=bandwidth,
                         estimation=estimation, prior=prior)
        self.min_rates = min_rates
        self.max_rounds = max_rounds

    def fit(self, X, y=None, sample_weight=None):
        X, y = unwrap(X, y)
        super().fit(X, y, sample_weight=sample_weight)
        ycodes, _ = encode_target(y, _num_samples(X))
        _need_two_classes(self.classes_, ycodes, sample_weight)
        w = np.ones(ycodes.size) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        targets = resolve_min_rates(self.min_rates, self.classes_, ycodes, w)
        k = len(self.classes_)
        base = self._joint_log_likelihood(X) - self.class_log_prior_
        offsets = np.zeros(k)
        for _ in range(self.max_rounds):
            changed = False
            for c, thr in targets.items():
                jll = base + self.class_log_prior_ + offsets
                sel = (ycodes == c) & (w > 0)
                if not sel.any():
                    continue
                margin = jll[sel, c] - np.delete(jll[sel], c, axis=1).max(axis=1)
                order = np.argsort(-margin, kind="stable")
                reach = np.cumsum(w[sel][order]) / w[sel].sum()  # weighted share kept at each margin
                idx = int(np.searchsorted(reach, thr - 1e-12))
                kth = margin[order][min(idx, order.size - 1)]
                if kth < 1e-9:  # shift until that instance's margin is positive
                    offsets[c] += -kth + 1e-6 * (1 + abs(kth))
                    changed = True
            if not changed:
                break
        self.offsets_ = offsets
        self.class_log_prior_ = self.class_log_prior_ + offsets
        hard = _rates(base + self.class_log_prior_, ycodes, k, w)
        self.feasible_ = all(hard[c] >= t - 1e-12 for c, t in targets.items())
        if not self.feasible_:
            warnings.warn("decision offsets could not meet every minimum rate on the training data",
                          ConstraintWarning, stacklevel=2)
        return self

    def _get_state(self):
        return {**super()._get_state(), "offsets": self.offsets_.tolist(), "feasible": self.feasible_}

    def _set_state(self, state):
        super()._set_state(state)
        self.offsets_ = np.asarray(state["offsets"], dtype=np.float64)
        self.class_log_prior_ = self.class_log_prior_ + self.offsets_
        self.feasible_ = state["feasible"]
