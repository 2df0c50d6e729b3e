"""Calibration maps: from a model's log-posteriors (n, K) to calibrated probabilities.

Each map is fitted on out-of-sample log-posteriors (leave-one-out or out-of-fold)
and the true class codes, and saved as plain numbers:

- :class:`Sigmoid`: Platt scaling of each class's log-odds, p = 1 / (1 + exp(-(a f + b)))
  with f = log p_c - log(1 - p_c) read within +-36.04 (1 - machine epsilon), fitted by Newton's
  method on Platt's smoothed targets;
- :class:`Isotonic`: a non-decreasing step map of each class's probability (the
  least-squares isotonic fit, as scikit-learn's ``IsotonicRegression``, linearly
  interpolated between its steps), kept within [1 / (n + 2), (n + 1) / (n + 2)]
  so that a block of training rows without the class does not make it impossible;
- :class:`Temperature`: one number T > 0 for all classes, p = softmax(log p / T).

Two classes: the second class's probability is mapped and the first is 1 minus
it. More: Sigmoid and Isotonic map each class against the rest and renormalize.
Log-probabilities below -700 (probabilities under about 1e-304, including 0)
are read as -700, so that every map sees finite numbers.
"""

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import expit, log_expit

from .._scale import LOG_FLOOR as FLOOR

__all__ = ["Sigmoid", "Isotonic", "Temperature", "CALIBRATORS", "calibrator_from_dict"]

# Platt's map reads log-odds within +-36.04, where a probability is 1 - machine epsilon: beyond, a
# probability cannot be told from 1 anyway, and one instance's log-odds of 1e8 (a class whose
# leave-one-out variance nearly vanishes) would otherwise flatten the map for every other instance
LOG_ODDS_CAP = float(np.log((1.0 - np.finfo(np.float64).eps) / np.finfo(np.float64).eps))


def _clip(log_p):
    return np.maximum(np.asarray(log_p, dtype=np.float64), FLOOR)


def _log_odds(log_p):
    """log p_c - log(1 - p_c) per class, from normalized log-posteriors (finite)."""
    log_p = _clip(log_p)
    k = log_p.shape[1]
    out = np.empty_like(log_p)
    for c in range(k):
        rest = np.logaddexp.reduce(np.delete(log_p, c, axis=1), axis=1)
        out[:, c] = log_p[:, c] - np.maximum(rest, FLOOR)
    return out


def _columns(k):
    """The classes mapped: the second of two, or each of more."""
    return [1] if k == 2 else list(range(k))


def _combine(p, k):
    """Per-class mapped probabilities (n, len(columns)) into rows that sum to 1."""
    if k == 2:
        return np.column_stack([1.0 - p[:, 0], p[:, 0]])
    total = p.sum(axis=1, keepdims=True)
    return np.divide(p, total, out=np.full_like(p, 1.0 / k), where=total > 0)


class Sigmoid:
    """Platt scaling per class (one-vs-rest beyond two classes).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> f = 4 * (2 * y - 1) + rng.normal(0, 4, 200)  # over-confident log-odds
    >>> log_p = np.column_stack([-np.logaddexp(0, f), -np.logaddexp(0, -f)])
    >>> s = Sigmoid().fit(log_p, y)
    >>> bool(0 < s.a_[1] < 1)  # the log-odds are shrunk
    True
    """

    name = "sigmoid"

    def fit(self, log_p, y):
        k = log_p.shape[1]
        f = np.clip(_log_odds(log_p), -LOG_ODDS_CAP, LOG_ODDS_CAP)
        self.a_, self.b_ = np.ones(k), np.zeros(k)
        for c in _columns(k):
            pos = y == c
            n1, n0 = pos.sum(), (~pos).sum()
            t = np.where(pos, (n1 + 1.0) / (n1 + 2.0), 1.0 / (n0 + 2.0))  # Platt's targets
            self.a_[c], self.b_[c] = _platt(f[:, c], t)
        return self

    def transform(self, log_p):
        k = log_p.shape[1]
        f = np.clip(_log_odds(log_p), -LOG_ODDS_CAP, LOG_ODDS_CAP)
        cols = _columns(k)
        return _combine(np.column_stack([expit(self.a_[c] * f[:, c] + self.b_[c]) for c in cols]), k)

    def to_dict(self):
        return {"method": self.name, "a": self.a_.tolist(), "b": self.b_.tolist()}

    def _load(self, d, k):
        self.a_, self.b_ = (_vector(d, key, k) for key in ("a", "b"))
        return self

    def describe(self, classes):
        k = len(classes)
        return [f"  {classes[c]}: p = 1 / (1 + exp(-({self.a_[c]:.4g} * log-odds + {self.b_[c]:.4g})))"
                for c in _columns(k)]


def _platt(f, t):
    """(a, b) minimizing the cross-entropy of sigmoid(a f + b) against targets t, by Newton's
    method with backtracking (Lin, Lin and Weng's note on Platt's algorithm); Platt's soft
    targets keep the minimum finite even when ``f`` separates the classes."""
    scale = max(float(np.abs(f).max(initial=0.0)), 1.0)
    g = f / scale  # well-conditioned; a is rescaled back

    def loss(x):
        z = x[0] * g + x[1]
        return -(t * log_expit(z) + (1.0 - t) * log_expit(-z)).sum()

    x = np.array([scale, 0.0])  # a = 1, b = 0: the identity map
    value = loss(x)
    for _ in range(100):
        p = expit(x[0] * g + x[1])
        r, w = p - t, p * (1.0 - p)
        grad = np.array([np.dot(r, g), r.sum()])
        hess = np.array([[np.dot(w, g * g), np.dot(w, g)], [np.dot(w, g), w.sum()]]) + 1e-12 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        size, new = 1.0, value
        while size > 1e-12:
            cand = x - size * step
            new = loss(cand)
            if new <= value - 1e-4 * size * np.dot(grad, step):
                break
            size /= 2
        else:
            break
        x, done = cand, value - new <= 1e-13 * max(1.0, abs(value))
        value = new
        if done:
            break
    return float(x[0] / scale), float(x[1])


class Isotonic:
    """A non-decreasing map of each class's probability (one-vs-rest beyond two classes).

    Examples
    --------
    >>> import numpy as np
    >>> log_p = np.log([[0.9, 0.1], [0.8, 0.2], [0.3, 0.7], [0.1, 0.9]])
    >>> iso = Isotonic().fit(log_p, np.array([0, 1, 1, 1]))
    >>> iso.transform(log_p).sum(axis=1).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """

    name = "isotonic"

    def fit(self, log_p, y):
        k, n = log_p.shape[1], log_p.shape[0]
        p = np.exp(_clip(log_p))
        self.low_, self.high_ = 1.0 / (n + 2.0), (n + 1.0) / (n + 2.0)
        self.x_, self.y_ = {}, {}
        for c in _columns(k):
            self.x_[c], self.y_[c] = _isotonic_steps(p[:, c], (y == c).astype(np.float64), self.low_, self.high_)
        return self

    def transform(self, log_p):
        k = log_p.shape[1]
        p = np.exp(_clip(log_p))
        cols = _columns(k)
        return _combine(np.column_stack([np.interp(p[:, c], self.x_[c], self.y_[c]) for c in cols]), k)

    def to_dict(self):
        return {"method": self.name, "low": self.low_, "high": self.high_,
                "x": {str(c): v.tolist() for c, v in self.x_.items()},
                "y": {str(c): v.tolist() for c, v in self.y_.items()}}

    def _load(self, d, k):
        self.low_, self.high_ = float(d["low"]), float(d["high"])
        if not 0 < self.low_ <= self.high_ < 1:
            raise ValueError("state.calibrator: expected 0 < low <= high < 1")
        self.x_, self.y_ = {}, {}
        for c in _columns(k):
            x, yv = (np.asarray(d[key][str(c)], dtype=np.float64) for key in ("x", "y"))
            if x.ndim != 1 or x.shape != yv.shape or x.size == 0 or np.any(np.diff(x) < 0) or \
                    np.any(np.diff(yv) < 0) or not np.isfinite(x).all() or not np.isfinite(yv).all() or \
                    yv.min() < 0 or yv.max() > 1:
                raise ValueError(f"state.calibrator: class {c}'s steps must be increasing finite probabilities")
            self.x_[c], self.y_[c] = x, yv
        return self

    def describe(self, classes):
        return [f"  {classes[c]}: {len(self.x_[c])} steps, from {self.y_[c][0]:.4g} to {self.y_[c][-1]:.4g}"
                for c in _columns(len(classes))]


def _isotonic_steps(x, target, low, high):
    """The least-squares non-decreasing fit of ``target`` on ``x`` (tied x values pooled first,
    scipy's pool-adjacent-violators), clipped to [low, high], as the points where it changes."""
    from scipy.optimize import isotonic_regression
    xs, where, count = np.unique(x, return_inverse=True, return_counts=True)
    mean = np.bincount(where, target, xs.size) / count
    fit = np.clip(isotonic_regression(mean, weights=count.astype(np.float64), increasing=True).x, low, high)
    same_before = np.r_[False, fit[1:] == fit[:-1]]
    same_after = np.r_[fit[:-1] == fit[1:], False]
    keep = ~(same_before & same_after)  # the ends of every flat step (interpolation is unchanged)
    return xs[keep], fit[keep]


_LOG_T = (-7.0, 7.0)  # the logarithms of the temperatures a fit searches (and a model file may hold)


class Temperature:
    """One temperature T for every class: p = softmax(log p / T).

    Examples
    --------
    >>> import numpy as np
    >>> log_p = np.log([[0.99, 0.01], [0.02, 0.98], [0.97, 0.03], [0.01, 0.99]])
    >>> t = Temperature().fit(log_p, np.array([0, 1, 1, 0]))  # half of them wrong
    >>> t.temperature_ > 1  # too sure: divided by more than 1
    True
    """

    name = "temperature"

    def fit(self, log_p, y):
        log_p = _clip(log_p)
        rows = np.arange(y.size)

        def loss(log_t):
            z = log_p / np.exp(log_t)
            return -(z[rows, y] - np.logaddexp.reduce(z, axis=1)).sum()

        res = minimize_scalar(loss, bounds=_LOG_T, method="bounded", options={"xatol": 1e-10})
        self.temperature_ = float(np.exp(res.x))
        return self

    def transform(self, log_p):
        z = _clip(log_p) / self.temperature_
        return np.exp(z - np.logaddexp.reduce(z, axis=1, keepdims=True))

    def to_dict(self):
        return {"method": self.name, "temperature": self.temperature_}

    def _load(self, d, k):
        t = d.get("temperature")
        low, high = np.exp(_LOG_T)
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not low * (1 - 1e-12) <= t <= high * (1 + 1e-12):
            raise ValueError(f"state.calibrator.temperature: expected a number from {low:.4g} to {high:.4g} "
                             f"(the range a fit searches)")
        self.temperature_ = float(t)
        return self

    def describe(self, classes):
        return [f"  temperature T = {self.temperature_:.4g} (log-posteriors divided by T)"]


def _vector(d, key, k):
    v = np.asarray(d.get(key), dtype=np.float64)
    if v.shape != (k,) or not np.isfinite(v).all():
        raise ValueError(f"state.calibrator.{key}: expected {k} finite numbers")
    return v


CALIBRATORS = {c.name: c for c in (Isotonic, Sigmoid, Temperature)}


def calibrator_from_dict(d, k):
    """A fitted map from its :meth:`to_dict` form (every field checked)."""
    if not isinstance(d, dict) or not isinstance(d.get("method"), str) or d["method"] not in CALIBRATORS:
        raise ValueError(f"state.calibrator.method: expected one of {', '.join(CALIBRATORS)}")
    try:
        return CALIBRATORS[d["method"]]()._load(d, k)
    except (KeyError, TypeError, ValueError) as e:
        text = str(e)
        raise ValueError(text if text.startswith("state.calibrator") else f"state.calibrator: malformed ({text})") \
            from None
