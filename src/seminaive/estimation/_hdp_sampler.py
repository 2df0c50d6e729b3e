"""The collapsed Gibbs sampler of a hierarchical Dirichlet process over one
conditional table (Petitjean, Buntine, Webb and Zaidi 2018), compiled by numba.

The tree: the root is P(child), its children P(child | class), theirs P(child |
class, first parent), and so on down to the leaves P(child | class, parents), which
hold the data's counts n_k. Every node keeps table counts t_k (1 <= t_k <= n_k where
n_k > 0; t_k = 0 where n_k = 0); an inner node's n_k is the sum of its children's t_k,
the root's t_k is 1 where its n_k is positive. Each sweep samples every node's t_k from
a window of +-10 around its value (deepest nodes first), with probability proportional
to S(n_k, t_k) c^T (the node's own terms) times S(n'_k, t'_k) / (c')_(N') (its parent's,
whose n'_k moves with t_k); every ``every`` sweeps each concentration c is drawn from its
conditional (a Gamma(2, 2/c0) prior, Escobar and West's auxiliary Beta variables); after
the burn-in, the probabilities p_k = (n_k + c p'_k) / (N + c) are averaged over sweeps.
S are the unsigned Stirling numbers of the first kind: exact in a table for n <= 1024,
from the saddle-point approximation above (exact for t <= 3 and t >= n - 2).

The functions are plain Python until :func:`kernel` first asks for one: then numba (imported
there, so that importing seminaive does not pay for it) compiles them all, caching the machine
code on disk, so an installation pays the compilation once (about 5 seconds here; a later
session loads it in under a second).
"""

import math

import numpy as np

from .._jit import compiled

__all__ = ["kernel", "stirling_table", "TABLE_N"]

TABLE_N = 1024  # exact log Stirling numbers for n up to this
WINDOW = 10  # t_k is sampled in [t_k - 10, t_k + 10]
MAX_TK = 10000
MAX_CONCENTRATION = 4000.0
PRIOR_SHAPE = 2.0


def _stirling_table(n_max):
    """log S(n, t) for 0 <= t <= n <= n_max (-inf elsewhere): S(n+1, t) = S(n, t-1) + n S(n, t)."""
    table = np.full((n_max + 1, n_max + 1), -np.inf)
    table[0, 0] = 0.0
    for n in range(n_max):
        for t in range(1, n + 2):
            a = table[n, t - 1]
            b = table[n, t] + math.log(n) if n > 0 else -np.inf
            hi = max(a, b)
            if hi == -np.inf:
                continue
            table[n + 1, t] = hi + math.log(math.exp(a - hi) + math.exp(b - hi))
    return table


def _digamma(x):
    r = 0.0
    while x < 6.0:
        r -= 1.0 / x
        x += 1.0
    f = 1.0 / (x * x)
    return r + math.log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))))


def _trigamma(x):
    r = 0.0
    while x < 6.0:
        r += 1.0 / (x * x)
        x += 1.0
    f = 1.0 / (x * x)
    return r + 1.0 / x + f / 2.0 + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f / 30)))


def _psi_differences(x, n):
    """x (psi(x + n) - psi(x)) and x^2 (psi'(x + n) - psi'(x)) without cancellation: sums of
    x / (x + j) for the first terms, then the asymptotic series term by term (each a difference
    of two small terms, computed as such)."""
    d1, d2 = 0.0, 0.0
    while n > 0 and x < 16.0:
        d1 += 1.0 / x
        d2 -= 1.0 / (x * x)
        x += 1.0
        n -= 1
    if n == 0:
        return d1, d2
    y, z = x, x + n
    iy, iz = 1.0 / y, 1.0 / z
    d1 += math.log1p(n / y) - 0.5 * (iz - iy) - (iz * iz - iy * iy) / 12.0 + (iz ** 4 - iy ** 4) / 120.0 \
        - (iz ** 6 - iy ** 6) / 252.0
    d2 += -n * iy * iz + 0.5 * (iz * iz - iy * iy) + (iz ** 3 - iy ** 3) / 6.0 - (iz ** 5 - iy ** 5) / 30.0 \
        + (iz ** 7 - iy ** 7) / 42.0
    return d1, d2


def _saddle_log_stirling(n, t):
    """log S(n, t) for 3 < t < n - 2 by the saddle point of x(x+1)...(x+n-1) = sum_t S(n, t) x^t:
    x0 solves x (psi(x + n) - psi(x)) = t, and log S ~ log G(x0 + n) - log G(x0) - t log x0
    - log(2 pi (t + x0^2 (psi'(x0 + n) - psi'(x0)))) / 2."""
    lo, hi = -40.0, 2.0 * math.log(n) + 40.0  # u = log x0; x (psi(x + n) - psi(x)) rises from 1 to n with u
    u = math.log(t / max(math.log(n), 1.0))
    x0 = 0.0
    for _ in range(200):
        x0 = math.exp(u)
        d1, d2 = _psi_differences(x0, n)
        g = x0 * d1 - t
        if abs(g) < 1e-13 * t:
            break
        if g > 0:
            hi = u
        else:
            lo = u
        slope = x0 * d1 + x0 * x0 * d2
        step = u - g / slope if slope > 0 else 0.5 * (lo + hi)
        u = step if lo < step < hi else 0.5 * (lo + hi)
        if hi - lo < 1e-14:
            break
    x0 = math.exp(u)
    d1, d2 = _psi_differences(x0, n)
    curv = t + x0 * x0 * d2
    return math.lgamma(x0 + n) - math.lgamma(x0) - t * u - 0.5 * math.log(2 * math.pi * curv)


def log_stirling(table, n, t):
    """log S(n, t): the table's where it reaches, else exact for t <= 3 or t >= n - 2, else the saddle point."""
    if t > n or (t == 0 and n > 0):
        return -np.inf
    if n < table.shape[0]:
        return table[n, t]
    if t == n:
        return 0.0
    if t == n - 1:
        return math.log(n * (n - 1) / 2.0)
    if t == n - 2:
        return math.log((3.0 * n - 1) / 4.0 * n * (n - 1) * (n - 2) / 6.0)
    if t == 1:
        return math.lgamma(n)
    h1 = _digamma(n) + 0.5772156649015329  # H_(n-1)
    if t == 2:
        return math.lgamma(n) + math.log(h1)  # (n-1)! H_(n-1)
    if t == 3:  # (n-1)! (H_(n-1)^2 - H2_(n-1)) / 2
        return math.lgamma(n) + math.log((h1 * h1 - (math.pi ** 2 / 6 - _trigamma(n))) / 2.0)
    return _saddle_log_stirling(n, t)


def log_stirling_by_column(table_t, n, t):
    """log S(n, t) as :func:`log_stirling`, read from the transposed table (``table_t[t, n]``): the
    sampler reads S(n' + t, t') for consecutive n' + t, which sit together there."""
    if n < table_t.shape[0]:
        return table_t[t, n] if t <= n else -np.inf
    return log_stirling(table_t, n, t)


def _move(i, k, val, nk, tk, big_n, big_t, parent):
    """Set t_k of node i to ``val``, its parent's n_k moving with it."""
    inc = val - tk[i, k]
    tk[i, k] = val
    big_t[i] += inc
    p = parent[i]
    if p >= 0:
        nk[p, k] += inc
        big_n[p] += inc


def _draw_t(i, k, nk, tk, big_n, big_t, parent, conc, log_conc, conc_of, table, table_t, weights):
    """Draw t_k of node i from its conditional over the window around its value: log S(n_k, t)
    + (T_rest + t) log c + log S(n'_rest + t, t'_k) - log G(c' + N'_rest + t), where the parent's
    n'_k (which must stay >= its t'_k) and N' move with t. Unchanged if no value is allowed."""
    p = parent[i]
    old, n = tk[i, k], nk[i, k]
    lo = max(1, old - WINDOW)
    hi = min(old + WINDOW, n, MAX_TK)
    n_rest = nk[p, k] - old
    big_rest = big_n[p] - old
    t_parent = tk[p, k]
    lo = max(lo, t_parent - n_rest)
    if lo > hi:
        return
    t_rest = big_t[i] - old
    log_c = log_conc[conc_of[i]]
    c_parent = conc[conc_of[p]]
    rising = math.lgamma(c_parent + big_rest + lo)
    top = -np.inf
    for val in range(lo, hi + 1):
        w = log_stirling(table, n, val) + (t_rest + val) * log_c \
            + log_stirling_by_column(table_t, n_rest + val, t_parent) - rising
        rising += math.log(c_parent + big_rest + val)
        weights[val - lo] = w
        top = max(top, w)
    total = 0.0
    for j in range(hi - lo + 1):
        weights[j] = math.exp(weights[j] - top)
        total += weights[j]
    u = np.random.random() * total
    chosen = hi
    for j in range(hi - lo + 1):
        u -= weights[j]
        if u < 0:
            chosen = lo + j
            break
    _move(i, k, chosen, nk, tk, big_n, big_t, parent)


def sample_tree(leaf_counts, parent, depth_start, conc_of, n_conc, sampled, iterations, burn_in, every, seed, table,
                table_t):
    """Average probabilities (nodes, m) of the tree's nodes.

    ``leaf_counts`` (nodes, m): the data's counts at the leaves (the last depth), zero elsewhere;
    nodes are numbered by depth (``depth_start[d]`` the first of depth d, the root 0), ``parent``
    their parents (-1 at the root); node i's concentration is ``conc_of[i]`` among ``n_conc``,
    of which those ``sampled`` are drawn every ``every`` sweeps (the others stay at 2); ``table``: the
    log Stirling numbers and their transpose (:func:`stirling_table`, made once per process)."""
    np.random.seed(seed)
    n_nodes, m = leaf_counts.shape
    depth = depth_start.size - 2
    nk = leaf_counts.copy()
    tk = np.zeros_like(nk)
    big_n = np.zeros(n_nodes, dtype=np.int64)
    big_t = np.zeros(n_nodes, dtype=np.int64)
    conc = np.full(n_conc, 2.0)
    log_conc = np.log(conc)
    prior_rate = PRIOR_SHAPE / conc
    for d in range(depth, -1, -1):  # initial t_k, deepest first (an inner node's n_k: its children's t_k)
        for i in range(depth_start[d], depth_start[d + 1]):
            c = conc[conc_of[i]]
            for k in range(m):
                n = nk[i, k]
                big_n[i] += n
                if parent[i] < 0:
                    t = 1 if n > 0 else 0
                elif n <= 1:
                    t = n
                else:
                    t = max(1, int(math.floor(c * (_digamma(c + n) - _digamma(c)))))
                tk[i, k] = t
                big_t[i] += t
                if parent[i] >= 0:
                    nk[parent[i], k] += t
    weights = np.empty(2 * WINDOW + 1)
    pk = np.zeros((n_nodes, m))
    average = np.zeros((n_nodes, m))
    n_average = 0
    for it in range(iterations):
        for d in range(depth, -1, -1):
            for i in range(depth_start[d], depth_start[d + 1]):
                for k in range(m):
                    n = nk[i, k]
                    if n <= 1 or parent[i] < 0:  # t_k has one value: move only if it changed (most cells hold 0)
                        t = 1 if n > 0 and parent[i] < 0 else n
                        if tk[i, k] != t:
                            _move(i, k, t, nk, tk, big_n, big_t, parent)
                    else:
                        _draw_t(i, k, nk, tk, big_n, big_t, parent, conc, log_conc, conc_of, table, table_t, weights)
        if (it + every // 2) % every == 0:
            rate = prior_rate.copy()
            shape = np.full(n_conc, PRIOR_SHAPE)
            for i in range(n_nodes):
                j = conc_of[i]
                if sampled[j]:
                    q = max(1e-75, np.random.beta(conc[j], big_n[i]))
                    rate[j] -= math.log(q)
                    shape[j] += big_t[i]
            for j in range(n_conc):
                if sampled[j]:
                    conc[j] = min(MAX_CONCENTRATION, np.random.gamma(shape[j], 1.0 / rate[j]))
                    log_conc[j] = math.log(conc[j])
        if it >= burn_in:
            for i in range(n_nodes):  # top-down: parents come first in the numbering
                c = conc[conc_of[i]]
                total = 0.0
                for k in range(m):
                    base = pk[parent[i], k] if parent[i] >= 0 else 1.0 / m
                    pk[i, k] = (nk[i, k] + c * base) / (big_n[i] + c)
                    total += pk[i, k]
                for k in range(m):
                    pk[i, k] /= total
                    average[i, k] += pk[i, k]
            n_average += 1
    return average / n_average  # burn_in < iterations: one sweep at least


_KERNELS = ("_stirling_table", "_digamma", "_trigamma", "_psi_differences", "_saddle_log_stirling", "log_stirling",
            "log_stirling_by_column", "_move", "_draw_t", "sample_tree")  # callees first (a caller compiles
#                                                                        against their compiled forms)


def stirling_table():
    """The exact log Stirling numbers up to ``TABLE_N`` and their transpose (the sampler reads
    both ways), computed once per process."""
    if not _TABLE:
        table = kernel("_stirling_table")(TABLE_N)
        _TABLE.extend([table, np.ascontiguousarray(table.T)])
    return tuple(_TABLE)


def kernel(name):
    """The compiled function ``name`` of this module (compiling them all on the first call).

    Examples
    --------
    >>> import numpy as np
    >>> round(float(np.exp(kernel("log_stirling")(np.zeros((1, 1)), 5, 2))), 6)  # S(5, 2)
    50.0
    """
    return compiled(globals(), _KERNELS, _COMPILED)[name]


_COMPILED = []
_TABLE = []
