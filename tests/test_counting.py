"""The one counting primitive against a brute-force loop over the rows, and
every table of the package against it."""

import numpy as np
import pytest

from seminaive.core.counting import ROWS, count_codes, distinct, joint_codes, merge_distinct


def _brute(block, width, y, k, parent, n_parent, fold, n_folds, weight):
    """np.add.at over every (row, child) pair that counts: an independent path to the same table."""
    n, c = block.shape
    out = np.zeros((c, n_folds, k, n_parent, width))
    rows, cols = np.nonzero(block >= 0)
    p = np.zeros(n, dtype=int) if parent is None else parent
    keep = p[rows] >= 0
    rows, cols = rows[keep], cols[keep]
    f = np.zeros(n, dtype=int) if fold is None else fold
    w = np.ones(n) if weight is None else weight
    np.add.at(out, (cols, f[rows], y[rows], p[rows], block[rows, cols]), w[rows])
    return out


@pytest.mark.parametrize("seed", range(12))
def test_count_codes_equals_a_loop_over_the_rows(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 60)) if seed != 11 else 40_000  # one run over several row chunks
    c, width, k = int(rng.integers(1, 5)), int(rng.integers(1, 6)), int(rng.integers(1, 4))
    block = rng.integers(-1, width, size=(n, c))
    y = rng.integers(0, k, n)
    use_parent, use_fold, use_weight = rng.random(3) < 0.5
    n_parent = int(rng.integers(1, 5)) if use_parent else 1
    parent = rng.integers(-1, n_parent, n) if use_parent else None
    n_folds = int(rng.integers(1, 4)) if use_fold else 1
    fold = rng.integers(0, n_folds, n) if use_fold else None
    weight = rng.random(n) * 3 if use_weight else None
    got = count_codes(block, width, y, k, parent=parent, n_parent=n_parent, fold=fold, n_folds=n_folds, weight=weight)
    want = _brute(block, width, y, k, parent, n_parent, fold, n_folds, weight)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    columns = count_codes([block[:, j] for j in range(c)], width, y, k, parent=parent, n_parent=n_parent,
                          fold=fold, n_folds=n_folds, weight=weight)
    np.testing.assert_array_equal(columns, got)


def test_joint_codes_enumerates_the_cartesian_product_row_major():
    a, b = np.repeat(np.arange(3), 4), np.tile(np.arange(4), 3)
    assert joint_codes([a, b], [3, 4]).tolist() == list(range(12))
    a[5] = -1
    assert joint_codes([a, b], [3, 4])[5] == -1 and joint_codes([a, b], [3, 4], missing=12)[5] == 12


@pytest.mark.parametrize("weighted", [False, True])
def test_a_table_larger_than_a_block_is_counted_in_longer_chunks(weighted):
    """A table of more cells than ROWS rows' is counted in bincounts of size / children rows each
    (here two), as one brute-force scatter over every row counts it."""
    rng = np.random.default_rng(5)
    n, k, n_parent, width = 260_000, 3, 10_000, 4
    child = rng.integers(-1, width, (n, 2))
    parent = rng.integers(-1, n_parent, n)
    y = rng.integers(0, k, n)
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    got = count_codes(child, width, y, k, parent=parent, n_parent=n_parent, weight=w)
    size = 2 * k * (n_parent + 1) * (width + 1)
    assert size > ROWS * 2 and size // 2 < n < size  # longer chunks than ROWS, two of them
    expected = np.zeros((2, 1, k, n_parent, width))
    for c in range(2):
        keep = (child[:, c] >= 0) & (parent >= 0)
        np.add.at(expected[c, 0], (y[keep], parent[keep], child[keep, c]), 1.0 if w is None else w[keep])
    assert np.array_equal(got, expected)
    assert got.sum() > n  # rows counted, not an empty table


@pytest.mark.parametrize("seed", range(6))
def test_distinct_and_merge_distinct_are_numpys_unique_and_union(seed):
    """The sort-based distinct values and the merge of two sorted distinct arrays give np.unique's
    and np.union1d's answers (wide and narrow ranges, empty and one-element arrays, negatives)."""
    rng = np.random.default_rng(seed)
    for high in (3, 1000, 10 ** 12):
        for n in (0, 1, 2, 57, 5000):
            a = rng.integers(-high, high, n)
            b = rng.integers(-high, high, int(rng.integers(0, 3000)))
            assert np.array_equal(distinct(a), np.unique(a))
            assert distinct(a).dtype == a.dtype
            assert np.array_equal(merge_distinct(np.unique(a), np.unique(b)), np.union1d(a, b))
            assert np.array_equal(merge_distinct(np.unique(b), np.unique(a)), np.union1d(a, b))
