"""The compiled counting of many tables and AnDE's compiled joint log-likelihood against
brute force: random tables with missing values, weights, one class, one value, wide codes;
both of the prediction kernel's paths (probabilities, and logarithms where a product would
underflow) against each other and against explicit loops."""

import itertools

import numpy as np
import pandas as pd
import pytest

from seminaive import AnDE, TAN
from seminaive.bayesnet import ande_kernel
from seminaive.bayesnet.statistics import pair_statistics
from seminaive.components import ConditionalTable
from seminaive.bayesnet.ande_counts import set_counts
from seminaive.bayesnet.ande_estimate import lidstone_stacks, log_stack_shape
from seminaive.estimation import Frequency
from seminaive.core.subset_counts import conditional_counts, conditional_tables, count_subsets

from test_bayesnet import brute_ande, nominal_data, rows


def random_codes(rng, n, widths, missing=0.2):
    cols = [rng.integers(0, m, n) for m in widths]
    for c in cols:
        c[rng.random(n) < missing] = -1
    return cols


def brute_counts(cols, widths, y, k, q, w):
    """The subset's counts (K, m + 1, ...) by a loop over the rows (missing: the last value)."""
    out = np.zeros((k, *[widths[a] + 1 for a in q]))
    for r in range(len(y)):
        cell = tuple(int(cols[a][r]) if cols[a][r] >= 0 else widths[a] for a in q)
        out[(int(y[r]), *cell)] += 1.0 if w is None else w[r]
    return out


@pytest.mark.parametrize("case", ["plain", "weights", "one class", "one value", "wide codes", "no rows"])
def test_subset_counts_equal_a_loop_over_the_rows(case):
    rng = np.random.default_rng(abs(hash(case)) % 1000)
    n = 0 if case == "no rows" else 257
    widths = [3, 1, 4, 2, 5] if case != "wide codes" else [300, 2, 130, 3, 40000]
    if case == "one value":
        widths = [1, 1, 1, 1, 1]
    k = 1 if case == "one class" else 3
    cols = random_codes(rng, n, widths)
    y = rng.integers(0, k, n)
    w = rng.random(n) * 3 if case == "weights" else None
    # (prefixes shared by subsets apart in the list: (0,) by (0, 1) and (0, 3); () by (0,), (4,) and (2,))
    subsets = [(0,), (4,), (0, 1), (1, 3), (0, 2, 4), (2, 3, 4), (0, 1, 2, 3), (3, 1), (0, 3), (2,)]
    if case == "wide codes":
        subsets = [(0,), (0, 1), (1, 3), (2, 4), (0, 1, 3)]  # (no product of two wide attributes)
    got = count_subsets(cols, widths, y, k, subsets, w)
    for q, t in zip(subsets, got):
        np.testing.assert_allclose(t, brute_counts(cols, widths, y, k, q, w), rtol=1e-13, atol=0)
    # the columns as the rows of one matrix (as reader_codes gives them): the same counts
    for t, u in zip(got, count_subsets(np.array(cols).reshape(len(widths), n), widths, y, k, subsets, w)):
        np.testing.assert_array_equal(t, u)


@pytest.mark.parametrize("lanes", [1, 2, 8])
def test_unweighted_rows_counted_in_lanes_give_the_counts_of_one(lanes, monkeypatch):
    """Unweighted rows go to copies of the tables in turn (row r to copy r mod lanes), then summed:
    the counts of a loop over the rows, to the last bit, however many copies."""
    import seminaive.core.subset_counts as subset_counts
    monkeypatch.setattr(subset_counts, "LANES", lanes)
    rng = np.random.default_rng(lanes)
    widths, n, k = [3, 1, 4, 2, 5], 1003, 3
    cols, y = random_codes(rng, n, widths), rng.integers(0, k, n)
    subsets = [(0,), (0, 1), (1, 3), (0, 2, 4), (2, 3, 4)]
    for q, t in zip(subsets, count_subsets(cols, widths, y, k, subsets)):
        np.testing.assert_array_equal(t, brute_counts(cols, widths, y, k, q, None))


@pytest.mark.parametrize("threads", [2, 3])
def test_unweighted_rows_counted_on_threads_give_the_counts_of_one(threads, monkeypatch):
    """Unweighted rows shared out among threads (each its own copies of the tables, parts of a few
    rows), then summed: a loop over the rows' counts, to the last bit. Weighted rows stay on one
    thread, in their order."""
    import seminaive.core.subset_counts as subset_counts
    rng = np.random.default_rng(threads)
    widths, n, k = [3, 1, 4, 2, 5], 1003, 3
    cols, y, w = random_codes(rng, n, widths), rng.integers(0, k, n), rng.random(n)
    subsets = [(0,), (0, 1), (1, 3), (0, 2, 4), (2, 3, 4)]
    monkeypatch.setattr("seminaive._jit.usable_cores", lambda: threads)
    monkeypatch.setattr(subset_counts, "THREAD_UPDATES", 50 * len(subsets))  # parts of 50 rows at least
    parts = []
    real = subset_counts.on_threads
    monkeypatch.setattr(subset_counts, "on_threads",
                        lambda run, rows, least: real(lambda a, b: parts.append((a, b)) or run(a, b), rows, least))
    for q, t in zip(subsets, count_subsets(cols, widths, y, k, subsets)):
        np.testing.assert_array_equal(t, brute_counts(cols, widths, y, k, q, None))
    assert len(parts) == threads and sorted(parts)[-1][1] == n
    parts.clear()
    one = count_subsets(cols, widths, y, k, subsets, w)
    monkeypatch.setattr("seminaive._jit.usable_cores", lambda: 1)
    assert not parts and all(np.array_equal(a, b) for a, b in zip(one, count_subsets(cols, widths, y, k, subsets, w)))


def test_derived_tables_equal_the_conditional_tables_own_count():
    rng = np.random.default_rng(3)
    widths, n, k = [3, 2, 4], 400, 2
    cols, y, w = random_codes(rng, n, widths), rng.integers(0, k, n), rng.random(n)
    t = count_subsets(cols, widths, y, k, [(0, 1, 2)], w)[0]
    for child in range(3):
        parents = [a for a in range(3) if a != child]
        slots = np.prod([widths[p] for p in parents]) + 1
        want = np.zeros((k, slots, widths[child]))
        for r in range(n):
            if cols[child][r] < 0:
                continue
            pv = [cols[p][r] for p in parents]
            s = slots - 1 if min(pv) < 0 else pv[0] * widths[parents[1]] + pv[1]
            want[y[r], s, cols[child][r]] += w[r]
        np.testing.assert_allclose(conditional_counts(t, child), want, rtol=1e-13, atol=0)
    stacks, joints = set_counts(cols, widths, y, k, 2, w)  # the sets (0, 1), (0, 2), (1, 2): child 2, 1, 0
    for stack, joint, (a, b), child in zip(stacks, joints, [(0, 1), (0, 2), (1, 2)], (2, 1, 0)):
        np.testing.assert_allclose(stack[0, :, :, :widths[child]], conditional_counts(t, child), rtol=1e-13, atol=0)
        want = np.zeros((k, widths[a] * widths[b] + 1))  # the set's own counts: every row, by its value
        for r in range(n):
            pa, pb = cols[a][r], cols[b][r]
            want[y[r], -1 if min(pa, pb) < 0 else pa * widths[b] + pb] += w[r]
        np.testing.assert_allclose(joint, want, rtol=1e-13, atol=0)


def test_pair_statistics_equal_a_loop_over_the_rows():
    rng = np.random.default_rng(4)
    widths, n, k = [3, 2, 4, 2], 300, 3
    cols, y = random_codes(rng, n, widths), rng.integers(0, k, n)
    stats = pair_statistics(cols, widths, y, k)
    for i, j in itertools.combinations(range(4), 2):
        want = brute_counts(cols, widths, y, k, (i, j), None)[:, :widths[i], :widths[j]]
        np.testing.assert_array_equal(stats["pairs"][(i, j)], want)
    for i in range(4):
        np.testing.assert_array_equal(stats["single"][i], brute_counts(cols, widths, y, k, (i,), None)[:, :widths[i]])


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("weighted", [True, False])
def test_ande_counts_equal_each_tables_own_count(n, weighted):
    X, y = nominal_data(n=120, d=5, seed=11, missing=0.15)
    w = np.random.default_rng(0).random(len(y)) * 2 if weighted else None
    m = AnDE(n=n).fit(X, y, sample_weight=w)
    table, yc = m._encode(X), pd.factorize(y, sort=True)[0]
    for P, ts, stack in zip(m.parent_sets_, m.parent_tables_, m.parent_stats_):
        assert stack.shape == (len(ts), 2, ts[0].n_configs + 1, max(t.n_values for t in ts))
        for c, t in enumerate(ts):  # each child's counts, then zeros to the widest child's values
            own = ConditionalTable(t.attribute, m.readers_[t.attribute], [m.readers_[p] for p in P])
            np.testing.assert_allclose(stack[c, :, :, :t.n_values], own.count(table, yc, 2, w)["counts"], rtol=1e-13,
                                       atol=0)
            assert not stack[c, :, :, t.n_values:].any()
    for i, t in enumerate(m.tables_):  # the Naive Bayes tables (AODE's unweighted: from its sets' own counts)
        own = ConditionalTable(i, m.readers_[i]).count(table, yc, 2, w)["counts"]
        np.testing.assert_allclose(m.stats_[i]["counts"], own, rtol=1e-13, atol=0)


@pytest.mark.parametrize("alpha", [1.0, 0.0])
def test_ande_prediction_paths_agree_and_equal_brute_force(alpha, monkeypatch):
    """alpha = 0 gives probabilities of 0 (those rows take the logarithms' path); forcing every
    row through the logarithms must give the same numbers as the probabilities' path."""
    X, y = nominal_data(n=70, d=5, seed=12, missing=0.1)
    m = AnDE(n=2, alpha=alpha).fit(X, y)
    fast = m._joint_log_likelihood(X)
    monkeypatch.setattr(ande_kernel, "TINY", np.inf)  # every row redone in logarithms
    slow = m._joint_log_likelihood(X)
    np.testing.assert_allclose(fast, slow, rtol=1e-12)
    assert not np.isnan(fast).any()
    if alpha == 0:  # (the loops below take 0 / 0 where a class never meets a value; the model: uniform)
        assert np.isneginf(fast).any()
        return
    for r in range(0, len(y), 7):
        want = brute_ande(X, y, m.classes_, 2, alpha, 1, rows(X)[r])
        np.testing.assert_allclose(fast[r], want, rtol=1e-10)


@pytest.mark.parametrize("threads", [2, 3, 5])
def test_ande_prediction_on_threads_equals_one_thread(threads, monkeypatch):
    """Rows shared out among threads (parts of a few rows, on ``threads`` cores) give exactly the
    one thread's numbers, rows without an active set and rows worked out in logarithms included."""
    X, y = nominal_data(n=90, d=5, seed=21, missing=0.3)
    m = AnDE(n=2, alpha=0.0, min_count=2).fit(X, y)
    one = m._joint_log_likelihood(X)
    assert np.isneginf(one).any() and np.isfinite(one).any()  # logarithms' path and ordinary rows
    parts = []
    monkeypatch.setattr("seminaive._jit.usable_cores", lambda: threads)
    per_row = sum(len(ts) for ts in m.parent_tables_) * len(m.classes_)  # look-ups: children of every set, classes
    monkeypatch.setattr(ande_kernel, "THREAD_CELLS", 7 * per_row)  # parts of 7 rows at least
    real = ande_kernel.on_threads
    monkeypatch.setattr(ande_kernel, "on_threads",
                        lambda run, n, least: real(lambda a, b: parts.append((a, b)) or run(a, b), n, least))
    shared = m._joint_log_likelihood(X)
    assert len(parts) == threads and sorted(parts)[-1][1] == len(X)
    np.testing.assert_array_equal(shared, one)


def test_threads_follow_the_environment(monkeypatch, capsys):
    """SEMINAIVE_NUM_THREADS caps the threads (1: the calling thread alone); a value that is no whole
    number is refused by name, on the command line in one line with status 2."""
    from seminaive._jit import on_threads, usable_cores
    from seminaive.cli.main import main
    from seminaive.exceptions import ParameterError
    monkeypatch.setenv("SEMINAIVE_NUM_THREADS", "1")
    parts = []
    on_threads(lambda a, b: parts.append((a, b)), 10 ** 6, 1)
    assert parts == [(0, 10 ** 6)] and usable_cores() == 1
    monkeypatch.setenv("SEMINAIVE_NUM_THREADS", "two")
    with pytest.raises(ParameterError, match="SEMINAIVE_NUM_THREADS: expected a whole number of threads"):
        usable_cores()
    monkeypatch.setattr(ande_kernel, "THREAD_CELLS", 1)  # a prediction that asks how many threads
    code = main(["evaluate", "iris", "--model", "aode", "--cv", "2"])
    err = capsys.readouterr().err
    assert code == 2 and "SEMINAIVE_NUM_THREADS" in err and len(err.strip().splitlines()) == 1


def test_ande_with_products_that_would_underflow():
    """350 attributes of 8 values: a set's product of 349 probabilities falls far below the
    smallest double, so every row is worked out in logarithms; it must still be finite and equal
    the average of the sets' likelihoods (brute force through n = 1's definition in logarithms).
    (Many attributes of few values: the tables grow with values squared, the product's exponent
    with attributes; 200 attributes of 40 values made the suite's peak, 5.8 GB.)"""
    rng = np.random.default_rng(5)
    N, d, v = 60, 350, 8
    X = pd.DataFrame({f"a{j}": pd.Categorical(rng.integers(0, v, N).astype(str), categories=[str(k) for k in
                                                                                              range(v)])
                      for j in range(d)})
    y = rng.integers(0, 2, N)
    m = AnDE(n=1).fit(X, y)
    jll = m._joint_log_likelihood(X.iloc[:3])
    assert np.isfinite(jll).all() and (jll.min(axis=1) < np.log(ande_kernel.TINY)).all()  # the logarithms' path
    codes = np.column_stack([np.asarray(r.codes(m._encode(X.iloc[:3])), dtype=np.int64) for r in m.readers_])
    for r in range(3):
        terms = []
        for P, ts, jl, stack in zip(m.parent_sets_, m.parent_tables_, m.joint_log_, m.set_logs_):
            at = codes[r, P[0]]
            children = np.array([tab.attribute for tab in ts], dtype=np.int64)
            terms.append(jl[:, at] + stack[np.arange(len(ts)), at, codes[r, children]].sum(axis=0))
        terms = np.array(terms)
        top = terms.max(axis=0)
        want = top + np.log(np.exp(terms - top).sum(axis=0)) - np.log(len(terms))
        np.testing.assert_allclose(jll[r], want, rtol=1e-12)


def test_ande_predicts_from_its_latest_estimates():
    """partial_fit and merge estimate afresh after a prediction: the next prediction is that of one
    fit on all the rows (the added rows move the probabilities, so stale tables would show)."""
    X, y = nominal_data(n=90, d=5, seed=14)
    first = AnDE(n=2).fit(X.iloc[:40], y[:40])
    before = first.predict_proba(X)
    first.partial_fit(X.iloc[40:], y[40:])
    whole = AnDE(n=2).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(first.predict_proba(X), whole, rtol=1e-12)
    assert np.abs(whole - before).max() > 1e-3
    merged = AnDE(n=2).fit(X.iloc[:40], y[:40])
    merged.predict_proba(X)
    np.testing.assert_allclose(merged.merge(AnDE(n=2).fit(X.iloc[40:], y[40:])).predict_proba(X), whole, rtol=1e-12)


def test_ande_integer_weights_equal_repeated_rows():
    X, y = nominal_data(n=50, d=4, seed=13)
    w = np.random.default_rng(1).integers(0, 4, len(y))
    rep = np.repeat(np.arange(len(y)), w)
    a = AnDE(n=2).fit(X, y, sample_weight=w.astype(float))
    b = AnDE(n=2).fit(X.iloc[rep].reset_index(drop=True), y[rep])
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-12)


def test_one_class_and_one_value():
    X = pd.DataFrame({"a": ["x"] * 6, "b": ["p", "q", "p", "q", "p", None], "c": ["u"] * 6})
    for model in (AnDE(n=1), AnDE(n=2), TAN()):
        proba = model.fit(X, ["k"] * 6).predict_proba(X)
        np.testing.assert_array_equal(proba, np.ones((6, 1)))
    m = AnDE(n=1).fit(X, ["s", "t", "s", "t", "t", "s"])
    for r in range(6):
        np.testing.assert_allclose(m._joint_log_likelihood(X.iloc[[r]])[0],
                                   brute_ande(X, np.array(["s", "t", "s", "t", "t", "s"]), m.classes_, 1, 1.0, 1,
                                              rows(X)[r]), rtol=1e-10)


def test_conditional_tables_equal_the_counting_primitive_for_any_order_of_parents():
    from seminaive.core.counting import count_codes, joint_codes
    rng = np.random.default_rng(6)
    widths, n, k = [3, 2, 4, 5], 500, 3
    cols, y, w = random_codes(rng, n, widths), rng.integers(0, k, n), rng.random(n) * 2
    terms = [(0, (3, 1)), (2, ()), (1, (0,)), (3, (2, 0, 1))]
    for (child, parents), got in zip(terms, conditional_tables(terms, cols, widths, y, k, w)):
        slots = int(np.prod([widths[p] for p in parents])) if parents else 1
        parent = joint_codes([cols[p] for p in parents], [widths[p] for p in parents], missing=slots) if parents \
            else np.zeros(n, dtype=np.int64)
        want = count_codes([cols[child]], widths[child], y, k, parent=parent, n_parent=slots + 1, weight=w)[0]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)


@pytest.mark.parametrize("model", [TAN(), AnDE(n=1), AnDE(n=2)], ids=["tan", "aode", "a2de"])
def test_tables_counted_from_the_shared_codes_equal_each_tables_own_count(model):
    """A model's tables are counted from every reader's codes read once (a numeric attribute cut
    into intervals once, not once per table reading it): each equals the table's own count from
    the encoded data, on numeric attributes with missing values, nominal ones and weights."""
    rng = np.random.default_rng(5)
    n = 300
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({"a": rng.normal(size=n) + y, "b": np.where(rng.random(n) < 0.1, np.nan, rng.normal(size=n) * y),
                      "c": pd.Categorical(rng.choice(list("pqr"), n)), "d": rng.exponential(size=n) + 0.5 * y})
    w = rng.integers(1, 4, n).astype(float)
    m = model.fit(X, y, sample_weight=w)
    table, yc = m._encode(X), y
    assert any(type(r).__name__ == "Discretized" and r.cuts.size for r in m.readers_)
    for t, st in zip(m.tables_, m.stats_):
        np.testing.assert_array_equal(st["counts"], t.count(table, yc, 3, w)["counts"])
    assert sum(st["counts"].sum() for st in m.stats_) > 0
    # and predicted from them: the tables' sum equals every table's own log-likelihood added up
    Xt = X.sample(frac=1.0, random_state=1).assign(b=lambda f: f["b"] * 1.5)
    test = m._encode(Xt)
    own = np.tile(m.class_log_prior_, (len(Xt), 1))
    for t in m.tables_:  # each table's cells looked up from its own readers' codes (in the model's order)
        own += t.log_table_[t.parent_codes(test), np.asarray(t.child.codes(test), dtype=np.int64)]
    np.testing.assert_array_equal(m._tables_sum(test), own)


@pytest.mark.parametrize("estimation", ["frequency", "m-estimate", "hgs"])
def test_ande_tables_made_when_asked_for_hold_their_own_estimates(estimation):
    """With Lidstone's estimates AnDE fits and predicts from its stacks without making a table object
    per child (another estimator estimates table by table); the tables, made when first asked for,
    read the stacked log tables, which are each table's own estimate from its own counts."""
    from seminaive.estimation import Frequency, MEstimate
    X, y = nominal_data(n=90, d=5, seed=21, missing=0.1)
    m = AnDE(n=2, estimation=estimation).fit(X, y)
    before = set(m.__dict__)
    p = m.predict_proba(X)
    assert set(m.__dict__) == before and ("_parent_tables" in before) == (estimation != "frequency")
    table, yc = m._encode(X), pd.factorize(y, sort=True)[0]
    own_estimator = {"frequency": Frequency(alpha=1.0), "m-estimate": MEstimate(m=1.0)}.get(estimation)
    for P, ts, logs in zip(m.parent_sets_, m.parent_tables_, m.set_logs_):
        for c, t in enumerate(ts):
            assert np.shares_memory(t.log_table_, logs) and t.log_table_.shape == (t.n_configs + 1, t.n_values + 1, 2)
            if own_estimator is not None:
                own = ConditionalTable(t.attribute, m.readers_[t.attribute], [m.readers_[p] for p in P])
                own.estimate(own.count(table, yc, 2, None), own_estimator)
                np.testing.assert_array_equal(t.log_table_[:, :t.n_values], own.log_table_[:, :t.n_values])
            assert not logs[c, :, t.n_values:].any()  # a missing child, or beyond its values: nothing
    np.testing.assert_array_equal(m.predict_proba(X), p)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_size_check_counts_every_sets_cells(n):
    """AnDE's memory check sums, over every super-parent set, its children's cells per class, from
    symmetric sums: the sum of a loop over the sets."""
    from seminaive.bayesnet.ande import _set_cells
    rng = np.random.default_rng(n)
    for d in (n + 1, n + 4, 13):
        m = rng.integers(1, 9, d).astype(float)
        loop = sum((np.prod(m[list(P)]) + 1) * (m.sum() - m[list(P)].sum())
                   for P in itertools.combinations(range(d), n))
        assert _set_cells(m, n) == pytest.approx(loop, rel=1e-12)


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize("batch", [1 << 20, 100])
def test_stacked_lidstone_estimates_equal_each_tables_own(alpha, whole, batch, monkeypatch):
    """Several stacks of children (their widest child at most 7 values: numpy sums those in order)
    estimated in one call (in one batch, or in batches of about 100 cells: a stack at a time and
    several together), each child's table against Frequency's estimate of its own counts: the
    present parent slots row by row, the last slot (a parent missing) from the counts of every
    slot, uniform where a row has no count and alpha is 0, zero beyond a child's values and in the
    row of a missing child. Whole counts (any order of sums) and fractional ones."""
    import seminaive.bayesnet.ande_estimate as ande_estimate
    monkeypatch.setattr(ande_estimate, "BATCH_CELLS", batch)
    rng = np.random.default_rng(int(alpha * 10) + whole)
    stacks, widths = [], []
    for children, k, slots, top in [(3, 2, 4, 5), (1, 3, 2, 7), (4, 1, 3, 2), (1, 1, 2, 3), (2, 2, 5, 6)]:
        m = rng.integers(1, top + 1, children)
        m[0] = top
        st = rng.integers(0, 4, (children, k, slots, top)) * (rng.random((children, k, slots, top)) < 0.6)
        st = st.astype(float) if whole else st * rng.random(st.shape) * 3
        st[0, 0, 1] = 0.0  # an empty row: uniform when alpha is 0
        for c, mc in enumerate(m):
            st[c, :, :, mc:] = 0.0
        stacks.append(st)
        widths.append(m)
    sizes = [int(np.prod(log_stack_shape(st))) for st in stacks]
    at = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    out = np.full(sum(sizes) + 3, np.nan)
    lidstone_stacks(stacks, widths, alpha, out, at)
    assert np.isnan(out[-3:]).all()  # nothing written beyond the stacks
    est = Frequency(alpha=alpha)
    for st, m, a, size in zip(stacks, widths, at, sizes):
        logs = out[a:a + size].reshape(log_stack_shape(st))
        for c, mc in enumerate(m):
            for j in range(st.shape[2]):
                counts = st[c, :, j, :mc] if j < st.shape[2] - 1 else st[c, :, :, :mc].sum(axis=1)
                np.testing.assert_array_equal(logs[c, j, :mc, :], est.categorical(counts).T)
            assert not logs[c, :, mc:, :].any()


def test_a_kept_layout_serves_only_its_own_subsets_widths_and_classes():
    """count_flat and set_counts keep what they work out from the layout (not the rows) for the next
    fit: the same subsets with other widths or classes get their own, what a caller does to the
    results does not reach the next fit, and every count still equals the loop over the rows."""
    from seminaive.bayesnet import ande_counts
    from seminaive.core import subset_counts
    from seminaive.core.subset_counts import count_flat
    rng = np.random.default_rng(5)
    subsets = [(0, 1), (1, 2), (0, 2)]
    for widths, k in [([3, 2, 4], 2), ([3, 2, 4], 3), ([2, 5, 4], 2), ([3, 2, 4], 2)]:  # the last: kept
        cols, y = random_codes(rng, 90, widths), rng.integers(0, k, 90)
        for q, t in zip(subsets, count_subsets(cols, widths, y, k, subsets)):
            np.testing.assert_array_equal(t, brute_counts(cols, widths, y, k, q, None))
        counts, at, shapes = count_flat(cols, widths, y, k, subsets)
        at[:], shapes[:] = 0, []  # a caller's changes stay its own
        stacks, joints = set_counts(cols, widths, y, k, 1)
        for s, stack in enumerate(stacks):  # set (s,): its children's counts by the loop over the rows
            for c, child in enumerate(i for i in range(3) if i != s):
                brute = brute_counts(cols, widths, y, k, (s, child), None)  # (K, m_s + 1, m_child + 1)
                np.testing.assert_array_equal(stack[c, :, :, :widths[child]], brute[:, :, :widths[child]])
            np.testing.assert_array_equal(joints[s], brute_counts(cols, widths, y, k, (s,), None))
    assert subset_counts._plan.cache_info().hits >= 1 and ande_counts._plan.cache_info().hits >= 1
