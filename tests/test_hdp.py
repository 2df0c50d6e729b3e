"""Hierarchical Dirichlet process estimates of conditional tables: against the authors' Java
(fpetitjean/HDP; tests/data/reference/hdp_reference.json, made by
scripts/reference/hdp/make_hdp_reference.py) within Monte Carlo error, the log Stirling numbers,
the tree's back-off and seeds (the family's models with it: test_hierarchical.py)."""

import json
from pathlib import Path

import numpy as np
import pytest

from seminaive.estimation import Frequency
from seminaive.estimation._hdp_sampler import TABLE_N, kernel
from seminaive.estimation.hdp import HDP
from seminaive.exceptions import ParameterError

REFERENCE = json.loads((Path(__file__).parent / "data" / "reference" / "hdp_reference.json").read_text())
RUNS = 20


def table_counts(rows, arities, m):
    """Rows (child, class, parents...) as counts (K, P, m), P row-major over the parents'
    ``arities`` [K, v1..vk] (also the hierarchical gradient smoothing's tests' tables)."""
    rows = np.asarray(rows)
    code = np.zeros(len(rows), dtype=int)
    for j, a in enumerate(arities[1:]):
        code = code * a + rows[:, 2 + j]
    counts = np.zeros((arities[0], int(np.prod(arities[1:], dtype=int)), m))
    np.add.at(counts, (rows[:, 1], code, rows[:, 0]), 1)
    return counts


def _counts(case):
    """A reference case's rows as counts."""
    return table_counts(case["rows"], case["arities"], case["n_values"])


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: c["name"])
def test_the_leaf_probabilities_match_the_authors_sampler_within_monte_carlo_error(case):
    counts, m = _counts(case), case["n_values"]
    runs = np.array([np.exp(HDP(iterations=case["iterations"], tying=case["tying"], random_state=s)
                            .conditional(counts, levels=case["arities"][1:])).reshape(-1, m) for s in range(RUNS)])
    ref_mean, ref_sd = np.array(case["mean"]), np.array(case["std"])
    se = np.sqrt(runs.var(axis=0, ddof=1) / RUNS + ref_sd ** 2 / case["runs"])
    z = np.abs(runs.mean(axis=0) - ref_mean) / np.maximum(se, 1e-9)
    assert z.max() < 5.0, z.max()
    np.testing.assert_allclose(runs.sum(axis=2), 1.0, atol=1e-12)
    # the comparison can see a wrong answer: Laplace's unsmoothed-by-level estimate is many errors away
    laplace = np.exp(Frequency(alpha=1).conditional(counts)).reshape(-1, m)
    assert (np.abs(laplace - ref_mean) / np.maximum(se, 1e-9)).max() > 10


def _exact_log_stirling(n_max):
    rows = np.full((n_max + 1, n_max + 1), -np.inf)
    rows[0, 0] = 0.0
    for n in range(n_max):
        shifted = np.concatenate([[-np.inf], rows[n, :-1]])
        rows[n + 1] = np.logaddexp(shifted, rows[n] + (np.log(n) if n else -np.inf))
    return rows


def test_log_stirling_numbers_exact_in_the_table_and_close_beyond():
    exact = _exact_log_stirling(1300)
    log_stirling = kernel("log_stirling")
    table = kernel("_stirling_table")(TABLE_N)
    np.testing.assert_allclose(table[TABLE_N, 1:TABLE_N + 1], exact[TABLE_N, 1:TABLE_N + 1], rtol=1e-12)
    assert table[5, 2] == pytest.approx(np.log(50.0))  # S(5, 2) = 50
    empty = np.zeros((1, 1))  # no table: every value from the formulas
    for n in (7, 40, 300, 1100, 1300):
        approx = np.array([log_stirling(empty, n, t) for t in range(1, n + 1)])
        err = np.abs(approx - exact[n, 1:n + 1])
        assert err.max() < 0.035, (n, err.max())  # the saddle point is weakest at t = 4 and t = n - 3
        for t in (1, 2, 3, n - 2, n - 1, n):  # these are exact
            assert err[t - 1] < 1e-8 * max(1.0, abs(exact[n, t])), (n, t)
        if n > 100:
            assert err[20:n - 20].max() < 0.005
    assert log_stirling(table, 3, 0) == -np.inf and log_stirling(table, 3, 4) == -np.inf


def test_a_configuration_without_data_backs_off_to_the_level_above():
    counts = np.zeros((2, 3, 2))
    counts[0, 0] = [9, 1]
    counts[0, 1] = [2, 8]
    counts[1, 2] = [5, 5]
    levels = HDP(iterations=300).smooth(counts, (3,))
    assert [a.shape for a in levels] == [(1, 2), (2, 2), (6, 2)]
    leaf = levels[-1].reshape(2, 3, 2)
    np.testing.assert_array_equal(leaf[0, 2], levels[1][0])  # class 0, parent value 2: no data
    np.testing.assert_array_equal(leaf[1, 0], levels[1][1])
    assert leaf[0, 0, 0] > levels[1][0, 0] > leaf[0, 1, 0]  # the data pull each leaf from its parent
    empty = HDP(iterations=10).smooth(np.zeros((2, 1, 3)), (1,))
    np.testing.assert_allclose(empty[-1], 1 / 3)


def test_seeds_tables_and_weights():
    counts = _counts(REFERENCE["cases"][2])
    a = HDP(iterations=200, random_state=3).conditional(counts, levels=(2, 2), key=(1, 2))
    np.testing.assert_array_equal(a, HDP(iterations=200, random_state=3).conditional(counts, levels=(2, 2), key=(1, 2)))
    assert not np.array_equal(a, HDP(iterations=200, random_state=4).conditional(counts, levels=(2, 2), key=(1, 2)))
    assert not np.array_equal(a, HDP(iterations=200, random_state=3).conditional(counts, levels=(2, 2), key=(0, 2)))
    with pytest.raises(ParameterError, match="integer weights"):
        HDP().conditional(counts + 0.5, levels=(2, 2))
    with pytest.raises(ParameterError, match="tying"):
        HDP(tying="levels").conditional(counts, levels=(2, 2))
