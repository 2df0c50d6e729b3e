"""WAODE, AODEsr and hidden Naive Bayes against their definitions written plainly, one row, class and
attribute at a time, on generated data with missing values and weights (Weka's references, in
test_weka_one_dependence.py, have neither); their counts against a direct count; subsumption
resolution against Weka's loop transcribed."""

import numpy as np
import pandas as pd
import pytest

from seminaive import AODEsr, HNB, WAODE, load_model, save_model
from seminaive.bayesnet.pair_counts import pair_counts


def generate(seed, n=120, d=5, missing=0.08):
    rng = np.random.default_rng(seed)
    widths = rng.integers(2, 5, size=d)
    y = rng.integers(0, 3, size=n)
    cols = {}
    for j, m in enumerate(widths):
        base = (y + rng.integers(0, 2, size=n) + (np.asarray(cols[f"a{j - 1}"].codes) if j else 0)) % m
        noisy = np.where(rng.random(n) < 0.3, rng.integers(0, m, size=n), base)
        codes = np.where(rng.random(n) < missing, -1, noisy)
        cols[f"a{j}"] = pd.Categorical.from_codes(codes, categories=[f"v{v}" for v in range(m)])
    if d > 2:  # a value that specializes another: a1 = v0 only where a0 = v0
        a0 = cols["a0"].codes
        a1 = np.where((a0 == 0) & (rng.random(n) < 0.5), 0, np.maximum(cols["a1"].codes, 1 if widths[1] > 1 else 0))
        cols["a1"] = pd.Categorical.from_codes(np.where(cols["a1"].codes < 0, -1, a1), categories=cols["a1"].categories)
    return pd.DataFrame(cols), np.array(["p", "q", "r"])[y], rng.integers(1, 4, size=n).astype(float)


def direct_counts(X, y, w, classes):
    """N(c, x_i = u, x_j = v) by a loop over the rows (missing: the value past the last)."""
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])
    widths = [len(X[c].cat.categories) for c in X.columns]
    starts = np.concatenate([[0], np.cumsum(np.array(widths) + 1)[:-1]])
    out = np.zeros((len(classes), starts[-1] + widths[-1] + 1, starts[-1] + widths[-1] + 1))
    for r in range(len(y)):
        c = list(classes).index(y[r])
        slots = [starts[a] + (codes[r, a] if codes[r, a] >= 0 else widths[a]) for a in range(len(widths))]
        for u in slots:
            for v in slots:
                out[c, u, v] += w[r]
    return out, codes, widths


def est(f, total, width, m=1.0, laplace=False):
    return (f + 1.0) / (total + width) if laplace else (f + m / width) / (total + m)


def plain_posteriors(kind, model, X, y, w, rows, **o):
    classes = list(model.classes_)
    N, codes, widths = direct_counts(X, y, w, classes)
    starts = np.concatenate([[0], np.cumsum(np.array(widths) + 1)[:-1]])
    d, K, total = len(widths), len(classes), w.sum()
    cc = np.array([w[y == c].sum() for c in classes])
    slot = lambda a, v: starts[a] + v  # noqa: E731
    miss = lambda a: starts[a] + widths[a]  # noqa: E731
    ncu = lambda c, a, v: N[c, slot(a, v), slot(a, v)]  # noqa: E731
    laplace, m = o.get("laplace", False), o.get("m", 1.0)
    out = []
    for r in rows:
        x = codes[r]
        present = [a for a in range(d) if x[a] >= 0]
        if kind == "aodesr":  # Weka's loop
            gen = [-1] * d
            for i in present:
                for j in present:
                    if j == i or gen[j] == i:
                        continue
                    nj = N.sum(axis=0)[slot(j, x[j]), slot(j, x[j])]
                    if nj > o.get("critical", 50) and N.sum(axis=0)[slot(i, x[i]), slot(j, x[j])] == nj:
                        if nj == N.sum(axis=0)[slot(i, x[i]), slot(i, x[i])] and i < j:
                            continue
                        gen[i] = j
                        break
            kept = [a for a in present if gen[a] < 0]
        else:
            kept = present
        probs = np.zeros(K)
        for c in range(K):
            if kind == "hnb":
                info = model.information_
                p = est(cc[c], total, K, m)
                for s in present:
                    ws = [(info[s, q], q) for q in present if q != s]
                    tot = sum(v for v, _ in ws)
                    if tot > 0:
                        mix = sum(v * est(N[c, slot(q, x[q]), slot(s, x[s])], ncu(c, q, x[q]) - N[c, slot(q, x[q]), miss(s)],
                                          widths[s], m) for v, q in ws)
                        p *= mix / tot
                    else:
                        p *= est(ncu(c, s, x[s]), cc[c] - N[c, miss(s), miss(s)], widths[s], m)
                probs[c] = p
                continue
            weights = model.parent_weights_ if kind == "waode" else np.ones(d)
            parents = [q for q in kept if N.sum(axis=0)[slot(q, x[q]), slot(q, x[q])] >= model.min_count]
            acc, wsum = 0.0, 0.0
            for q in parents:
                n_missing = N[:, miss(q), miss(q)].sum()
                p = est(ncu(c, q, x[q]), total - n_missing, K * widths[q], m, laplace)
                for s in kept:
                    if s != q:
                        p *= est(N[c, slot(q, x[q]), slot(s, x[s])], ncu(c, q, x[q]) - N[c, slot(q, x[q]), miss(s)],
                                 widths[s], m, laplace)
                acc += weights[q] * p
                wsum += weights[q]
            probs[c] = acc
        out.append(probs / probs.sum())
    return np.array(out)


@pytest.mark.parametrize("seed", range(6))
def test_the_pair_counts_are_a_direct_count(seed):
    X, y, w = generate(seed)
    m = WAODE().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(pair_counts(m).counts, direct_counts(X, y, w, m.classes_)[0], rtol=0, atol=1e-9)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind,options", [("waode", {}), ("waode", {"m": 2.0}), ("hnb", {}), ("hnb", {"m": 0.5}),
                                          ("aodesr", {"critical": 3}), ("aodesr", {"critical": 3, "laplace": True}),
                                          ("aodesr", {"critical": 0, "min_count": 4})])
def test_posteriors_equal_the_definition_written_plainly(seed, kind, options):
    X, y, w = generate(seed)
    make = {"waode": WAODE, "hnb": HNB, "aodesr": AODEsr}[kind]
    m = make(**options).fit(X, y, sample_weight=w)
    rows = list(range(0, len(y), 7))
    np.testing.assert_allclose(m.predict_proba(X.iloc[rows]), plain_posteriors(kind, m, X, y, w, rows, **options),
                               rtol=1e-10, atol=1e-13)


def test_subsumption_drops_the_generalization_and_changes_the_answer():
    X, y, w = generate(0, n=300, missing=0.0)
    m = AODEsr(critical=3).fit(X, y)
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])
    slots = m.slot_start_[None, :] + codes
    gen = m.generalizations(slots, codes >= 0)
    assert (gen[:, 0] == 1).any()  # a0 = v0 generalizes a1 = v0 (built into the data)
    assert (gen < 0).all(axis=1).any()  # and rows with nothing dropped
    plain = AODEsr(critical=10 ** 6).fit(X, y)  # nothing specialized: AODE with the m-estimate
    assert np.abs(plain.predict_proba(X) - m.predict_proba(X)).max() > 1e-3


@pytest.mark.parametrize("make", [WAODE, HNB, lambda: AODEsr(critical=3)])
def test_partial_fits_merges_and_model_files_equal_one_fit(make, tmp_path):
    X, y, w = generate(4, missing=0.0)
    one = make().fit(X, y, sample_weight=w)
    parts = make()
    for a, b in ((0, 40), (40, 90), (90, 120)):
        parts.partial_fit(X.iloc[a:b], y[a:b], classes=["p", "q", "r"], sample_weight=w[a:b])
    merged = make().fit(X.iloc[:50], y[:50], sample_weight=w[:50]).merge(
        make().fit(X.iloc[50:], y[50:], sample_weight=w[50:]))
    save_model(one, tmp_path / "m.json")
    for other in (parts, merged, load_model(tmp_path / "m.json")):
        np.testing.assert_allclose(other.predict_proba(X), one.predict_proba(X), rtol=1e-12)


def test_printouts_show_what_each_model_weighs():
    from seminaive.datasets import load
    d = load("weather.nominal")
    waode, hnb, sr = WAODE().fit(d), HNB().fit(d), AODEsr(laplace=True).fit(d)
    assert "outlook  weight 0.2467" in waode.to_text() and "m-estimates toward the uniform, m=1" in waode.to_text()
    assert "Laplace's estimates" in sr.to_text() and "weight" not in sr.to_text()
    top = hnb.hidden_weights_[0].argmax()
    assert f"outlook: {list(d.X.columns)[top]} {hnb.hidden_weights_[0, top]:.3f}" in hnb.to_text()
    np.testing.assert_allclose(hnb.hidden_weights_.sum(axis=1), 1.0, rtol=1e-12)  # each hidden parent's mixture


def _kept(model, codes, r, critical):
    """The row's values AODEsr keeps (Weka's subsumption loop, transcribed as in plain_posteriors)."""
    together = model.together_
    d = codes.shape[1]
    slot = lambda a: model.slot_start_[a] + codes[r, a]  # noqa: E731
    present = [a for a in range(d) if codes[r, a] >= 0]
    gen = [-1] * d
    for i in present:
        for j in present:
            if j == i or gen[j] == i:
                continue
            nj = together[slot(j), slot(j)]
            if nj > critical and together[slot(i), slot(j)] == nj:
                if nj == together[slot(i), slot(i)] and i < j:
                    continue
                gen[i] = j
                break
    return [a for a in present if gen[a] < 0]


def family_posteriors(kind, model, aode, X, rows, critical=50):
    """The definitions written plainly on AODE's own tables under the same family estimation (its
    P(c, x_p), P(x_s | c, x_p), P(x_s | c) and P(c), read cell by cell)."""
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])
    d, K = codes.shape[1], len(model.classes_)

    def cond(c, q, s):
        t = aode.parent_tables_[q][[a for a in range(d) if a != q].index(s)]
        return np.exp(t.log_table_[codes[r, q], codes[r, s], c])

    out = []
    for r in rows:
        present = [a for a in range(d) if codes[r, a] >= 0]
        kept = _kept(model, codes, r, critical) if kind == "aodesr" else present
        probs = np.zeros(K)
        for c in range(K):
            if kind == "hnb":
                p = np.exp(aode.class_log_prior_[c])
                for s in present:
                    ws = [(model.information_[s, q], q) for q in present if q != s]
                    tot = sum(v for v, _ in ws)
                    p *= sum(v * cond(c, q, s) for v, q in ws) / tot if tot > 0 else \
                        np.exp(aode.tables_[s].log_table_[0, codes[r, s], c])
                probs[c] = p
                continue
            weights = model.parent_weights_ if kind == "waode" else np.ones(d)
            for q in kept:
                p = np.exp(aode.joint_log_[q][c, codes[r, q]])
                for s in kept:
                    if s != q:
                        p *= cond(c, q, s)
                probs[c] += weights[q] * p
        out.append(probs / probs.sum())
    return np.array(out)


@pytest.mark.parametrize("estimation", ["frequency", "m-estimate", "hgs", "hdp", "hls"])
@pytest.mark.parametrize("kind", ["waode", "hnb", "aodesr"])
def test_the_family_s_estimations_are_aode_s_tables_in_each_definition(kind, estimation):
    """``estimation=`` one of the family's: each model's definition on AODE's tables under it (weights,
    missing values); AODEsr with nothing subsumed is AODE itself."""
    from seminaive import AODE
    X, y, w = generate(2)
    o = dict(estimation=estimation, hdp_iterations=30)
    make = {"waode": lambda: WAODE(**o), "hnb": lambda: HNB(**o), "aodesr": lambda: AODEsr(critical=3, **o)}[kind]
    m = make().fit(X, y, sample_weight=w)
    aode = AODE(**o).fit(X, y, sample_weight=w)
    rows = list(range(0, len(y), 5))
    np.testing.assert_allclose(m.predict_proba(X.iloc[rows]), family_posteriors(kind, m, aode, X, rows, critical=3),
                               rtol=1e-10, atol=1e-13)
    if kind == "aodesr":
        whole = AODEsr(critical=10 ** 9, **o).fit(X, y, sample_weight=w)
        np.testing.assert_allclose(whole.predict_proba(X), aode.predict_proba(X), rtol=1e-12, atol=1e-14)
    assert np.abs(m.predict_proba(X) - make().set_params(estimation="weka").fit(X, y, sample_weight=w)
                  .predict_proba(X)).max() > 1e-4  # the estimation reaches the answer


@pytest.mark.parametrize("how", ["table", "parameter"])
def test_the_factors_gradient_is_the_objective_s_slope(how):
    """The mixture factors' objective against its gradient by central differences, away from 1."""
    from seminaive.bayesnet.one_dependence_weights import _mixture_layout, _mixture_objective, _size
    X, y, w = generate(1)
    m = WAODE().fit(X, y, sample_weight=w)
    table = m._encode(X)
    codes = np.searchsorted(m.classes_, y)
    terms, slots, yy, ww = _mixture_layout(m, table, codes, w)
    rng = np.random.default_rng(0)
    theta = 1.0 + 0.3 * rng.standard_normal(_size(m, how))
    args = (terms, slots, m._parent_weights(), yy, ww, how, len(m.classes_), 0.7)
    value, grad = _mixture_objective(theta, *args)
    for j in rng.choice(theta.size, size=min(12, theta.size), replace=False):
        e = np.zeros_like(theta)
        e[j] = 1e-6
        slope = (_mixture_objective(theta + e, *args)[0] - _mixture_objective(theta - e, *args)[0]) / 2e-6
        assert slope == pytest.approx(grad[j], rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("make", [WAODE, lambda **o: AODEsr(critical=3, **o), HNB])
@pytest.mark.parametrize("how", ["table", "parameter"])
def test_discriminative_weights_fit_the_training_rows_better_and_start_from_the_model(make, how):
    """Weights at 1 are the generative model; fitted ones (a small penalty) give the training rows a
    conditional log-likelihood no worse than it, and a different answer; a model file keeps them."""
    import copy
    from seminaive import load_model, save_model
    X, y, w = generate(3, n=200)
    plain = make().fit(X, y, sample_weight=w)
    weighted = make(discriminative=how, penalty=1e-3).fit(X, y, sample_weight=w)
    ones = copy.deepcopy(weighted)
    ones.weights_ = dict(weighted.weights_, theta=np.ones_like(weighted.weights_["theta"]))
    np.testing.assert_allclose(ones.predict_proba(X), plain.predict_proba(X), rtol=1e-10, atol=1e-13)
    rows = np.searchsorted(plain.classes_, y)

    def cll(model):
        return float(np.dot(w, np.log(model.predict_proba(X)[np.arange(len(y)), rows])))

    assert cll(weighted) >= cll(plain) - 1e-9
    moved = np.abs(weighted.weights_["theta"] - 1.0).max() > 1e-4
    assert moved or how == "table"  # WANBIA's weights (HNB's "table") may all stay at their bound, 1
    if moved:
        assert np.abs(weighted.predict_proba(X) - plain.predict_proba(X)).max() > 1e-4
    import tempfile, os
    with tempfile.TemporaryDirectory() as tmp:
        save_model(weighted, os.path.join(tmp, "m.json"))
        again = load_model(os.path.join(tmp, "m.json"))
    np.testing.assert_array_equal(again.predict_proba(X), weighted.predict_proba(X))
