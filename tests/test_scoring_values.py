"""score_values (one array operation for a search step's candidates) against score_value row by row."""

import numpy as np
import pytest

from seminaive.scoring import SCORINGS, score_value, score_values


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("scoring", sorted(SCORINGS))
def test_score_values_equal_score_value_row_by_row(scoring, k):
    rng = np.random.default_rng(len(scoring) + k)
    width = 2 * k if scoring == "balanced_accuracy" else 2
    sums = rng.integers(0, 50, (40, width)).astype(float) * rng.random((40, width))
    sums[:5, -1] = 0.0  # a weight of 0: NaN
    want = [score_value(s, scoring, k) for s in sums]
    got = score_values(sums, scoring, k)
    np.testing.assert_array_equal(got, want)
    assert len(set(np.round(got[np.isfinite(got)], 12))) > 20
