"""The compiled interval codes (:mod:`seminaive.discretize.interval_kernel`) against numpy's
``searchsorted``, the reading they replace from ``COMPILED_FROM`` values up: values on the cuts, between
them, beyond both ends, infinite and missing; few cuts (compared without branches) and many (a binary
search); a column read from a table (strided)."""

import numpy as np
import pytest

from seminaive.discretize.base import apply_cuts
from seminaive.discretize.interval_kernel import COMPILED_FROM, LINEAR_UP_TO, interval_codes


def _reference(x, cuts):
    codes = np.searchsorted(cuts, x, side="left")
    codes[np.isnan(x)] = -1
    return codes


@pytest.mark.parametrize("m", [0, 1, 2, 9, LINEAR_UP_TO, LINEAR_UP_TO + 1, 250])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_compiled_codes_are_searchsorted_s(m, seed):
    rng = np.random.default_rng(seed)
    cuts = np.unique(np.round(rng.normal(size=m), 2))
    x = np.round(rng.normal(scale=1.5, size=5000), 2)
    if cuts.size:
        x[::3] = cuts[rng.integers(0, cuts.size, x[::3].size)]  # exactly on a cut: the interval it closes
    x[::7], x[::11], x[::13] = np.nan, np.inf, -np.inf
    got = interval_codes(x, cuts)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, _reference(x, cuts))
    table = np.stack([x, -x], axis=1)  # a column of a table: strided
    np.testing.assert_array_equal(interval_codes(table[:, 1], cuts), _reference(-x, cuts))


def test_apply_cuts_reads_many_values_through_the_kernel_with_the_same_codes():
    rng = np.random.default_rng(2)
    cuts = np.sort(rng.normal(size=9))
    x = rng.normal(size=COMPILED_FROM + 5)
    x[::17] = np.nan
    np.testing.assert_array_equal(apply_cuts(x, cuts), _reference(x, cuts))
    np.testing.assert_array_equal(apply_cuts(x[:100], cuts), _reference(x[:100], cuts))
