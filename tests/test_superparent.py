"""SuperParent TAN against bnclassify's definition (tan_hcsp: learn-hc.R and learn-hc-operators.R,
read, not run: R is not a test dependency) written plainly: every candidate structure refitted on the
training folds and scored by its accuracy on the test folds, the arcs it adds compared with ours."""

import numpy as np
import pandas as pd
import pytest

from seminaive import SuperParentTAN, load_model, save_model
from seminaive.base import decide
from seminaive.datasets import load


def generate(seed, n=120, d=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=n)
    cols = {}
    prev = y
    for j in range(d):
        m = int(rng.integers(2, 4))
        v = np.where(rng.random(n) < 0.6, (prev + rng.integers(0, 2, size=n)) % m, rng.integers(0, m, size=n))
        cols[f"a{j}"] = pd.Categorical.from_codes(v, categories=[f"v{i}" for i in range(m)])
        prev = v if rng.random() < 0.7 else y
    return pd.DataFrame(cols), np.array(["no", "yes"])[y]


def held_out_accuracy(X, y, parents, folds, alpha=1.0):
    """Refit on each fold's training rows (Lidstone's alpha, Laplace class prior) and count the test
    rows predicted right (the package's tie rule); the fraction over all rows (equal folds: the mean
    of the folds' accuracies, bnclassify's)."""
    codes = [X[c].cat.codes.to_numpy() for c in X.columns]
    widths = [len(X[c].cat.categories) for c in X.columns]
    classes = sorted(set(y))
    yc = np.array([classes.index(v) for v in y])
    right = 0
    for train, test in folds:
        k = len(classes)
        prior = np.log((np.bincount(yc[train], minlength=k) + 1) / (len(train) + k))
        S = np.tile(prior, (len(test), 1))
        for i, p in enumerate(parents):
            for r_at, r in enumerate(test):
                for c in range(k):
                    same = (yc[train] == c) & ((codes[p][train] == codes[p][r]) if p is not None else True)
                    n = np.count_nonzero(same & (codes[i][train] == codes[i][r]))
                    S[r_at, c] += np.log((n + alpha) / (np.count_nonzero(same) + alpha * widths[i]))
        right += np.count_nonzero(decide(S) == yc[test])
    return right / len(y)


def plain_tan_hcsp(X, y, folds, epsilon):
    d = X.shape[1]
    parents = [None] * d
    current = held_out_accuracy(X, y, parents, folds)
    arcs = []
    while True:
        orphans = [i for i in range(d) if parents[i] is None]
        if len(orphans) <= 1 or current >= 1.0:
            break
        options = {}
        for f in range(d):
            above, p = set(), parents[f]
            while p is not None:
                above.add(p)
                p = parents[p]
            ok = [o for o in orphans if o != f and o not in above]
            if ok:
                options[f] = ok
        whole = {f: held_out_accuracy(X, y, [f if i in ch else parents[i] for i in range(d)], folds)
                 for f, ch in options.items()}
        sp = max(options, key=lambda f: (whole[f], -f))  # the best; ties: the first
        scores = [(held_out_accuracy(X, y, [sp if i == o else parents[i] for i in range(d)], folds), o)
                  for o in options[sp]]
        best, child = max(scores, key=lambda t: (t[0], -t[1]))
        if not best - epsilon >= current:
            break
        parents[child], current = sp, best
        arcs.append((sp, child))
    return arcs


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("epsilon", [0.0, 0.01])
def test_arcs_equal_the_plain_definition_on_given_folds(seed, epsilon):
    X, y = generate(seed)
    order = np.random.default_rng(seed).permutation(len(y))
    folds = [(np.setdiff1d(order, order[f::4]), np.sort(order[f::4])) for f in range(4)]  # 4 folds of 30 rows
    m = SuperParentTAN(cv=folds, epsilon=epsilon, numeric="mdl").fit(X, y)
    got = [(h["superparent"], h["child"]) for h in m.history_[1:]]
    assert got == plain_tan_hcsp(X, y, folds, epsilon)
    assert m.history_[-1]["score"] == pytest.approx(held_out_accuracy(
        X, y, [p[0] if p else None for p in m.structure_.parents], folds), abs=1e-12)


def test_a_worked_example_by_leave_one_out():
    """Leave-one-out (Keogh and Pazzani's own protocol) is the folds of one row each."""
    X, y = generate(11, n=40, d=4)
    loo = [(np.delete(np.arange(40), r), np.array([r])) for r in range(40)]
    m = SuperParentTAN(epsilon=0.0).fit(X, y)
    assert [(h["superparent"], h["child"]) for h in m.history_[1:]] == plain_tan_hcsp(X, y, loo, 0.0)
    assert len(m.history_) > 1  # the example adds arcs


def test_model_file_and_text(tmp_path):
    d = load("keel:chess")
    m = SuperParentTAN().fit(d)
    save_model(m, tmp_path / "sp.json")
    again = load_model(tmp_path / "sp.json")
    np.testing.assert_array_equal(again.predict_proba(d.X), m.predict_proba(d.X))
    assert again.history_ == m.history_ and "arcs by held-out accuracy" in m.to_text()


@pytest.mark.parametrize("options", [{"estimation": "hgs"}, {"discriminative": "parameter", "penalty": 1.0}])
def test_the_family_s_smoothing_and_weights_on_the_chosen_tree(options):
    d = load("keel:housevotes")
    plain, other = SuperParentTAN(epsilon=0.0).fit(d), SuperParentTAN(epsilon=0.0, **options).fit(d)
    assert other.structure_ == plain.structure_  # the search scores by Lidstone's leave-one-out either way
    assert np.abs(other.predict_proba(d.X) - plain.predict_proba(d.X)).max() > 1e-4
