"""Naive Bayes whose estimation imposes lower bounds on the correct
classification rate of chosen classes (the constrained NB of the thesis 004,
in the published form: Blanquero, Carrizosa, Ramirez-Cobo and Sillero-Denamiel).

    maximize    Naive Bayes's objective (see :mod:`.objective`)
    subject to  rate_c(theta) >= threshold_c   for each constrained class c

Where Naive Bayes already meets every bound it is the answer (it is the
objective's unconstrained optimum). Otherwise the rate (recall) of a class,
an average of indicators, is smoothed as the mean over the class's instances
of sigmoid(margin / temperature), the margin being the log-odds of the true
class against all the others, and the problem is solved by scipy's SLSQP (or
trust-constr / COBYQA) from Naive Bayes's estimate. The hard (true) rates are
then checked: the smoothed targets are the thresholds plus a common shift,
raised by the shortfall while a class falls short (up to ``max_rounds``
times), then bisected down to the smallest shift whose hard rates still hold
(a soft sigmoid otherwise overshoots the bound and gives up likelihood).

When the bounds cannot all be met, the answer minimizes the largest
shortfall (threshold minus training rate) among the candidates tried: Naive
Bayes itself, the decision-offset baseline, the solutions above, and
solutions for thresholds all lowered by a common amount, bisected towards
the smallest amount that can be met. It is never further from the bounds,
by that measure, than Naive Bayes.
"""

import copy
import warnings

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, logsumexp

from .._progress import step
from .._target import class_codes
from .._validation import check_param
from ..base import decide
from ..components.kernel import weighted_quantile
from .._state import checked_records, field, numbers
from ..naive_bayes import NaiveBayes
from ..registry import register, register_variant
from ..report import format_table
from .objective import Objective
from .offset import MAX_ROUNDS, decision_offsets
from .rates import (RATE_TOL, ConstraintWarning, WholeDataOnly, check_min_rates, class_rates, need_two_classes, resolve_min_rates,
                    shortfalls)

__all__ = ["ConstrainedNaiveBayes"]

OBJECTIVES = ("penalized", "likelihood")


class _Problem:
    """The optimization over one data set: objective, smoothed and hard rates."""

    def __init__(self, obj, y, w, targets, penalized):
        self.obj, self.y, self.w, self.targets, self.penalized = obj, y, w, targets, penalized
        self.rows = np.arange(y.size)
        self.G = np.zeros((y.size, obj.k))
        self.G[self.rows, y] = -w / w.sum()
        self.members = {c: y == c for c in targets}

    def value(self, theta):
        """What is minimized: minus the (penalized) log-likelihood, per unit weight."""
        val = -np.sum(self.w * self.obj.jll(theta)[self.rows, self.y]) / self.w.sum()
        return val - self.obj.penalty(theta)[0] / self.w.sum() if self.penalized else val

    def gradient(self, theta):
        g = self.obj.grad(theta, self.G)
        return g - self.obj.penalty(theta)[1] / self.w.sum() if self.penalized else g

    def _margins(self, jll, c):
        others = np.delete(jll, c, axis=1)
        return jll[:, c] - logsumexp(others, axis=1), others

    def smooth_rate(self, theta, c, temp):
        margin, _ = self._margins(self.obj.jll(theta), c)
        sel = self.members[c]
        return np.sum(self.w[sel] * expit(margin[sel] / temp)) / self.w[sel].sum()

    def smooth_rate_grad(self, theta, c, temp):
        jll = self.obj.jll(theta)
        margin, others = self._margins(jll, c)
        sel = self.members[c]
        sig = expit(margin / temp)
        a = np.where(sel, self.w * sig * (1 - sig) / temp, 0.0) / self.w[sel].sum()
        q = np.exp(others - logsumexp(others, axis=1, keepdims=True))
        G = np.zeros_like(jll)
        G[:, c] = a
        G[:, [j for j in range(self.obj.k) if j != c]] = -a[:, None] * q
        return self.obj.grad(theta, G)

    def shortfalls(self, theta):
        return shortfalls(class_rates(self.obj.jll(theta), self.y, self.obj.k, self.w), self.targets)

    def auto_temperature(self):
        """A tenth of the interquartile range of the constrained classes' starting margins, in [0.01, 5]."""
        jll0 = self.obj.jll(self.obj.x0)
        spread = []
        for c in self.targets:
            sel = self.members[c] & (self.w > 0)
            q1, q3 = weighted_quantile(self._margins(jll0[sel], c)[0], self.w[sel], [0.25, 0.75])
            spread.append(q3 - q1)
        return float(np.clip(0.1 * np.mean(spread), 0.01, 5.0))


@register
class ConstrainedNaiveBayes(WholeDataOnly, NaiveBayes):
    """Naive Bayes estimated under lower bounds on chosen classes' correct
    classification rates (see the module text).

    Parameters
    ----------
    min_rates : dict
        ``{class label: minimum rate}``; the key ``"minority"`` names the least
        frequent training class.
    objective : {"penalized", "likelihood"}, default "penalized"
        "penalized": Naive Bayes's own objective, so ``alpha``, ``priors``,
        ``ddof`` and ``estimation`` (Dirichlet, Normal-Gamma) mean what they
        mean there and no probability is zero; "likelihood": plain maximum
        likelihood (the smoothing parameters then only give the start).
    temperature : float or "auto", default "auto"
        Scale of the sigmoid that smooths the rate (log-odds units); "auto"
        takes a tenth of the interquartile range of the constrained classes'
        starting margins, clipped to [0.01, 5].
    solver : {"SLSQP", "trust-constr", "COBYQA"}, default "SLSQP"
    max_rounds : int, default 4
        Times the smoothed targets may be raised by the hard rates' shortfall.
    bisections : int, default 5
        Bisection steps towards the lowest smoothed targets whose hard rates
        still hold (and, when the bounds cannot be met, towards the smallest
        common lowering of the thresholds that can).
    max_iter : int, default 300
    (other parameters as NaiveBayes; its estimate is the starting point)

    Attributes
    ----------
    constraints_ : list of dict
        Per constrained class: threshold, smoothed and hard training rates,
        whether it holds (and validation rates when validation data are given).
    feasible_ : bool
        Whether every hard training rate meets its threshold.
    fitted_as_ : str
        What the parameters are: Naive Bayes's estimate (the bounds hold
        there) or the constrained optimum of which objective.
    unconstrained_ : NaiveBayes
        Naive Bayes with the same parameters (the starting point).
    n_iter_ : int
        1 (the start) plus the solvers' iterations.
    history_ : list of dict
        The candidates tried (Naive Bayes, the offsets, each solve with its
        smoothed targets), with their largest shortfall and objective value
        (minus the penalized log-likelihood per unit weight); the chosen one
        has the smallest shortfall, then the smallest objective. Empty when
        Naive Bayes meets the bounds.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("iris")
    >>> m = ConstrainedNaiveBayes(min_rates={"virginica": 1.0}).fit(d)
    >>> m.feasible_, m.constraints_[0]["train_rate"]
    (True, 1.0)
    """

    def __init__(self, *, min_rates=None, objective="penalized", temperature="auto", solver="SLSQP", max_rounds=4,
                 bisections=5, max_iter=300, alpha=1.0, priors="laplace", ddof=1, var_smoothing=None,
                 var_smoothing_rule="range", nominal=None, numeric="gaussian", n_bins=10, min_bucket=6,
                 bandwidth="silverman", estimation="frequency", prior=None):
        super().__init__(alpha=alpha, priors=priors, ddof=ddof, var_smoothing=var_smoothing,
                         var_smoothing_rule=var_smoothing_rule, nominal=nominal, numeric=numeric, n_bins=n_bins,
                         min_bucket=min_bucket, bandwidth=bandwidth, estimation=estimation, prior=prior)
        self.min_rates = min_rates
        self.objective = objective
        self.temperature = temperature
        self.solver = solver
        self.max_rounds = max_rounds
        self.bisections = bisections
        self.max_iter = max_iter

    _param_rules = {
        "min_rates": check_min_rates, "objective": dict(options=OBJECTIVES),
        "temperature": lambda name, v: v if v == "auto" else check_param(name, v, kind="number", low=0,
                                                                         low_inclusive=False),
        "solver": dict(options=("SLSQP", "trust-constr", "COBYQA")), "max_rounds": dict(kind="int", low=1),
        "bisections": dict(kind="int", low=0), "max_iter": dict(kind="int", low=1),
        # the optimizer moves log-probabilities: a zero count's log of 0 (alpha = 0) has nowhere to start
        "alpha": dict(kind="number", low=0, low_inclusive=False)}

    def _nb_params(self):
        return {k: v for k, v in self.get_params().items() if k in NaiveBayes().get_params()}

    def fit(self, X, y=None, sample_weight=None, X_val=None, y_val=None):
        """Fit under the rate constraints (the counts, then :meth:`_step` on the same rows);
        ``X_val, y_val`` only report rates there."""
        super().fit(X, y, sample_weight=sample_weight)
        if X_val is not None:
            pred = decide(self._jll(X_val))
            yv = class_codes(y_val, self.classes_, strict=False)
            for r in self.constraints_:
                c = list(self.classes_).index(r["class"])
                r["validation_rate"] = float(np.mean(pred[yv == c] == c)) if np.any(yv == c) else np.nan
        return self

    def _step(self, source):
        """The constrained fit from Naive Bayes's (the start and the unconstrained optimum) on the rows
        the counts came from: the encoded table of the fit, its class codes and weights."""
        table, ycodes, weight = source.chunk
        base = NaiveBayes(**self._nb_params())
        params = self.get_params(deep=False)  # the learned state, held blocks too (not only names ending in _)
        base.__dict__.update(copy.deepcopy({k: v for k, v in self.__dict__.items() if k not in params}))
        self.unconstrained_ = base
        need_two_classes(self.classes_, ycodes, weight)
        w = np.ones(len(ycodes)) if weight is None else weight
        targets = resolve_min_rates(self.min_rates, self.classes_, ycodes, w)
        penalized = self.objective == "penalized"
        obj = Objective(self, table, w, penalized)
        problem = _Problem(obj, ycodes, w, targets, penalized)
        self.n_iter_ = 1  # the start's evaluation, then the solvers' iterations
        self.history_ = []
        self.temperature_ = problem.auto_temperature() if self.temperature == "auto" else float(self.temperature)
        if not problem.shortfalls(obj.x0):
            theta = obj.x0
            self.fitted_as_ = "Naive Bayes's estimate (it meets every minimum rate)"
        else:
            theta = self._search(problem, base._table_jll(table) - base.class_log_prior_)
            obj.install(self, theta)
            self.fitted_as_ = ("the constrained optimum of " + ("Naive Bayes's penalized likelihood (its smoothing "
                               "and priors as prior densities)" if penalized else
                               "the plain likelihood (maximum likelihood: alpha, ddof and the estimation's priors "
                               "only gave the start)"))
        self._report(problem, theta, ycodes, w)
        return self

    def _solve(self, problem, targets, start):
        """SLSQP (or the chosen solver) for smoothed rates >= ``targets``; returns the solution."""
        temp = self.temperature_
        cons = [{"type": "ineq", "fun": (lambda t, c=c: problem.smooth_rate(t, c, temp) - min(0.999, max(0.0, v))),
                 "jac": (lambda t, c=c: problem.smooth_rate_grad(t, c, temp))} for c, v in targets.items()]
        bounds = problem.obj.bounds
        lo, hi = [b[0] for b in bounds], [b[1] for b in bounds]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = minimize(problem.value, np.clip(start, lo, hi), jac=problem.gradient, method=self.solver,
                           constraints=cons, bounds=bounds, options={"maxiter": self.max_iter})
        self.n_iter_ += max(1, int(getattr(res, "nit", 1)))
        return res.x

    def _search(self, problem, nb_terms):
        """The constrained candidates from Naive Bayes's parameters (``nb_terms``: its joint of the rows
        without the class prior, for the decision-offset baseline); the best kept."""
        targets, obj = problem.targets, problem.obj
        best = [np.inf, None, np.inf]  # (largest shortfall, theta, objective value)
        most = len(self.history_) + 2 + self.max_rounds + self.bisections  # the candidates this search can try

        def keep(theta, label):
            short = problem.shortfalls(theta)
            worst = max(short.values(), default=0.0)
            val = problem.value(theta)
            val = val if np.isfinite(val) else np.inf
            self.history_.append({"candidate": label, "largest_shortfall": float(worst), "objective": float(val)})
            step("constrained candidates (at most)", len(self.history_), most)
            if worst < best[0] - 1e-12 or (worst <= best[0] + 1e-12 and val < best[2]):
                best[:] = [worst, theta, val]
            return short

        keep(obj.x0, "naive bayes")  # never further from the bounds than Naive Bayes
        if obj.free_priors:  # the decision-offset baseline: shifted log-priors, a feasible start where it holds
            theta_off = obj.x0.copy()
            theta_off[:obj.k] += decision_offsets(nb_terms, self.unconstrained_.class_log_prior_, problem.y,
                                                  problem.w, targets, MAX_ROUNDS)
            keep(theta_off, "decision offsets")
        theta = self._solve(problem, dict(targets), obj.x0)
        short = keep(theta, "targets + 0")
        feasible_shift, infeasible_shift = (0.0, None) if not short else (None, 0.0)
        shift, start = 0.0, theta
        for _ in range(self.max_rounds - 1):
            if feasible_shift is not None:
                break
            shift += max(short.values())
            theta = self._solve(problem, {c: t + shift for c, t in targets.items()}, start)
            short = keep(theta, f"targets + {shift:.4g}")
            if short:
                infeasible_shift, start = shift, theta
            else:
                feasible_shift = shift
        if feasible_shift is not None:  # the smallest shift whose hard rates hold: the most likely such model
            lo = infeasible_shift if infeasible_shift is not None else -min(targets.values()) / 2
            hi = feasible_shift
            for _ in range(self.bisections):
                mid = (lo + hi) / 2
                short = keep(self._solve(problem, {c: t + mid for c, t in targets.items()}, best[1]),
                             f"targets + {mid:.4g}")
                lo, hi = (mid, hi) if short else (lo, mid)
        elif best[0] > 0:  # infeasible: lower every threshold by a common amount, as little as can be met
            lo, hi = 0.0, best[0]
            for _ in range(self.bisections):
                mid = (lo + hi) / 2
                short = keep(self._solve(problem, {c: t - mid for c, t in targets.items()}, best[1]),
                             f"targets - {mid:.4g}")
                lo, hi = (lo, mid) if max(short.values(), default=0.0) <= mid + 1e-12 else (mid, hi)
        step("constrained candidates (at most)", most, most)
        return best[1]

    def _report(self, problem, theta, ycodes, w):
        k = len(self.classes_)
        hard = class_rates(problem.obj.jll(theta), ycodes, k, w)
        start = class_rates(problem.obj.jll(problem.obj.x0), ycodes, k, w)
        self.constraints_ = [{"class": self.classes_[c], "threshold": thr,
                              "smoothed_rate": problem.smooth_rate(theta, c, self.temperature_),
                              "train_rate": float(hard[c]), "holds": bool(hard[c] >= thr - RATE_TOL),
                              "unconstrained_train_rate": float(start[c])}
                             for c, thr in problem.targets.items()]
        self.feasible_ = all(r["holds"] for r in self.constraints_)
        if not self.feasible_:
            missed = "; ".join(f"class {r['class']!r}: {r['train_rate']:.3f} < {r['threshold']:.3f}"
                               for r in self.constraints_ if not r["holds"])
            worst = max(r["threshold"] - r["train_rate"] for r in self.constraints_)
            nb_worst = max(r["threshold"] - r["unconstrained_train_rate"] for r in self.constraints_)
            warnings.warn(f"the minimum rates cannot all be met on the training data ({missed}); returning the "
                          f"solution found with the smallest largest shortfall ({worst:.3f}; Naive Bayes: "
                          f"{nb_worst:.3f})", ConstraintWarning, stacklevel=5)

    def _smoothing_label(self, kind):
        if self.fitted_as_.startswith("Naive Bayes's estimate"):
            return super()._smoothing_label(kind)
        return f"constrained fit, {self.objective} objective"

    def to_text(self, precision=4):
        """The constraints (minimum, Naive Bayes's and the model's training rates), then the model."""
        return ("Minimum correct classification rates (training data)\n" + self.constraint_report() + "\n\n"
                + super().to_text(precision))

    def constraint_report(self):
        """The constraints as a text table."""
        rows = [[str(r["class"]), f"{r['threshold']:.3f}", f"{r['unconstrained_train_rate']:.3f}",
                 f"{r['train_rate']:.3f}", "yes" if r["holds"] else "NO"]
                + ([f"{r['validation_rate']:.3f}"] if "validation_rate" in r else []) for r in self.constraints_]
        head = ["class", "minimum", "NB train rate", "train rate", "holds"]
        if self.constraints_ and "validation_rate" in self.constraints_[0]:
            head.append("validation rate")
        return f"Parameters: {self.fitted_as_}\n" + format_table(head, rows)

    def _get_state(self):
        """The statistics (as NaiveBayes) plus the fitted parameters (in the statistics' units),
        which override the estimates on loading."""
        state = super()._get_state()
        state["optimized"] = {"class_log_prior": self.class_log_prior_.tolist(),
                              "components": [({"mean": c._mu.tolist(), "var": c._var.tolist()}
                                              if c.kind == "gaussian" else {"log_table": c.log_table_.tolist()})
                                             for c in self.components_]}
        state["constraints"] = [{k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()}
                                for r in self.constraints_]
        state["feasible"] = self.feasible_
        state["fitted_as"] = self.fitted_as_
        state["history"] = self.history_
        return state

    def _set_state(self, state):
        super()._set_state(state)
        k = len(self.classes_)
        opt = field(state, "optimized", dict)
        self.class_log_prior_ = numbers(opt.get("class_log_prior"), "state.optimized.class_log_prior", (k,))
        parts = field(opt, "components", list, "state.optimized")
        if len(parts) != len(self.components_):
            raise ValueError("state.optimized.components: expected one per attribute")
        for i, (c, p) in enumerate(zip(self.components_, parts)):
            where = f"state.optimized.components[{i}]"
            if c.kind == "gaussian":
                mean = numbers(field(p, None, dict, where).get("mean"), f"{where}.mean", (k,))
                c.set_parameters(mean, numbers(p.get("var"), f"{where}.var", (k,), low=0))
            else:
                c.log_table_ = numbers(field(p, None, dict, where).get("log_table"), f"{where}.log_table",
                                       (c.n_values + 1, k))
        self.constraints_ = checked_records(state, "constraints", {
            "class": "label", "threshold": "number", "smoothed_rate": "number", "train_rate": "number",
            "holds": "bool", "unconstrained_train_rate": "number"})
        for i, r in enumerate(self.constraints_):
            if str(r["class"]) not in map(str, self.classes_):
                raise ValueError(f"state.constraints[{i}].class: expected one of the classes")
        self.feasible_ = bool(field(state, "feasible", bool))
        self.fitted_as_ = field(state, "fitted_as", str) if "fitted_as" in state else "the constrained optimum"
        self.history_ = checked_records(state, "history", {"candidate": "text", "largest_shortfall": "number",
                                                           "objective": "number"}) if "history" in state else []


register_variant("model", "cnb", "constrained Naive Bayes (with --min-rate CLASS=RATE)",
                 lambda **o: ConstrainedNaiveBayes(**{k: v for k, v in o.items()
                                                     if k in ConstrainedNaiveBayes().get_params()}))
register_variant("compare", "cnb:R", "constrained Naive Bayes, minority-class training rate >= {R}",
                 lambda r: ConstrainedNaiveBayes(min_rates={"minority": r}))
