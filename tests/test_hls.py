"""Hierarchical linear smoothing: the tree's log-linear model against scikit-learn's logistic
regression on the same design (the authors' own form), and the tables it makes."""

import numpy as np
import pytest
from scipy.optimize import check_grad
from sklearn.linear_model import LogisticRegression

from seminaive import KDB
from seminaive.estimation import HLS
from seminaive.estimation._tree import ancestors, probability_tree
from seminaive.estimation.hls import _objective, _path_sums, _softmax, hls_logits


def _counts(seed, k=2, p=(3, 2), m=3, rows=60):
    rng = np.random.default_rng(seed)
    counts = np.zeros((k, int(np.prod(p)), m))
    for _ in range(rows):
        c = rng.integers(k)
        config = rng.integers(int(np.prod(p)) // 2 + c)  # not every configuration reached
        counts[c, min(config, counts.shape[1] - 1), (config + c + rng.integers(2)) % m] += 1
    return counts


@pytest.mark.parametrize("seed", range(3))
def test_the_gradient_is_the_objectives(seed):
    codes, parent, start, leaf = probability_tree(_counts(seed), [2, 3, 2], "hls")
    beta = np.random.default_rng(seed).normal(size=parent.size * 3)
    f = lambda b: _objective(b, leaf.astype(float), parent, start, 0.7)  # noqa: E731
    assert check_grad(lambda b: f(b)[0], lambda b: f(b)[1], beta, epsilon=1e-6) < 1e-4 * np.linalg.norm(f(beta)[1])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("penalty", [0.3, 1.0, 5.0])
def test_the_leaves_are_a_logistic_regression_on_prefix_indicators(seed, penalty):
    """The same model as the authors': a multinomial logistic regression of the child on one
    indicator per tree node (the root as the intercept), counts as sample weights, L2 = 1 / C."""
    counts = _counts(seed)
    codes, parent, start, leaf = probability_tree(counts, [2, 3, 2], "hls")
    beta = hls_logits(leaf, parent, start, penalty)
    ours = _softmax(_path_sums(beta, parent, start))[start[-2]:]
    anc = np.c_[ancestors(parent, start), np.arange(start[-2], start[-1])]  # every leaf's path, itself included
    design = np.zeros((anc.shape[0], parent.size - 1))
    for i, path in enumerate(anc):
        design[i, path[1:] - 1] = 1.0  # the root is the intercept
    n = leaf[start[-2]:]
    rows, values = np.nonzero(n)
    lr = LogisticRegression(C=1.0 / penalty, tol=1e-12, max_iter=10_000).fit(design[rows], values,
                                                                            sample_weight=n[rows, values])
    np.testing.assert_allclose(ours, lr.predict_proba(design), atol=2e-5)


def test_tables_sum_to_one_and_follow_the_data():
    counts = _counts(4)
    p = np.exp(HLS().conditional(counts, levels=(3, 2)))
    np.testing.assert_allclose(p.sum(axis=2), 1.0)
    mostly = np.zeros((2, 1, 2))
    mostly[0, 0] = [40, 2]
    mostly[1, 0] = [3, 30]
    q = np.exp(HLS().conditional(mostly, levels=(1,)))[:, 0, 0]
    assert q[0] > 0.9 and q[1] < 0.15


def test_kdb_with_hls_tables():
    from seminaive.datasets import load
    d = load("weather.nominal")
    m = KDB(k=2, estimation="hls").fit(d)
    np.testing.assert_allclose(m.predict_proba(d.X).sum(axis=1), 1.0)
    assert "linear smoothing" in m.to_text()


def _logistic_reference(leaf, parent, start, penalty):
    """P(value | leaf) of the same objective minimized independently: scikit-learn's multinomial
    LogisticRegression (Newton-Cholesky, the exact Hessian) on the explicit design, one indicator column
    per node below the root (the root: its unpenalized intercept), each leaf's counts as weights of its
    rows, C = 1 / penalty."""
    from sklearn.linear_model import LogisticRegression
    m, inner, nodes = leaf.shape[1], int(start[-2]), parent.size
    design = np.zeros((nodes - inner, nodes - 1))
    for i, node in enumerate(range(inner, nodes)):
        while node > 0:
            design[i, node - 1] = 1.0
            node = parent[node]
    rows, labels, weights = [], [], []
    for i, node in enumerate(range(inner, nodes)):
        for k in np.flatnonzero(leaf[node] > 0):
            rows.append(design[i])
            labels.append(k)
            weights.append(leaf[node, k])
    clf = LogisticRegression(C=1.0 / penalty, solver="newton-cholesky", tol=1e-12, max_iter=1000)
    clf.fit(np.array(rows), np.array(labels), sample_weight=np.array(weights))
    out = np.zeros((nodes - inner, m))
    out[:, clf.classes_] = clf.predict_proba(design)
    return out


@pytest.mark.parametrize("scale", [1.0, 1e3, 1e5, 1e7])
@pytest.mark.parametrize("penalty", [0.1, 1.0, 10.0])
def test_hls_reaches_the_minimum_at_every_count_size(scale, penalty):
    """Leaves of counts up to ``scale`` beside leaves of a few: L-BFGS stopped 0.046 (10^5) and 0.57 (10^7)
    away in probability from the minimum; the Newton steps reach scikit-learn's to 1e-6."""
    from seminaive.estimation._tree import probability_tree
    from seminaive.estimation.hls import _path_sums, _softmax, hls_logits
    rng = np.random.default_rng(int(scale) % 97)
    counts = rng.integers(0, 5, (2, 6, 3)).astype(float)
    counts[0, :3] *= scale  # big leaves beside small ones
    codes, parent, start, leaf = probability_tree(counts, [2, 6], "hls")
    got = _softmax(_path_sums(hls_logits(leaf, parent, start, penalty), parent, start))[int(start[-2]):]
    np.testing.assert_allclose(got, _logistic_reference(leaf.astype(float), parent, start, penalty), rtol=0, atol=1e-6)
