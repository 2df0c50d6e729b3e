"""The Dask pass's reduction: the tree of halving the partitions level by level, in order, whatever the
window; at most a window of partitions' results alive at once (not all of them); on a cluster the same."""

import io
import math
import os
import weakref

import dask
import numpy as np
import pytest

from seminaive._progress import progress_to
from seminaive.exceptions import ParameterError
from seminaive.learning.dask_reduce import _Levels, reduce_in_order
from seminaive.learning.dask_source import DaskFrameSource

from test_dask import client  # noqa: F401  (the module's LocalCluster)


def halving(items, combine):
    """The reference: pairs formed level by level, an odd one out carried up as it is."""
    while len(items) > 1:
        items = [combine(items[i], items[i + 1]) if i + 1 < len(items) else items[i] for i in range(0, len(items), 2)]
    return items[0]


def bracket(a, b):
    return f"({a} {b})"


@pytest.mark.parametrize("n", range(1, 70))
def test_the_levels_build_the_halving_tree(n):
    levels = _Levels(bracket)
    for i in range(n):
        levels.push(str(i))
    assert levels.result() == halving([str(i) for i in range(n)], bracket)


def test_no_leaves_give_none():
    assert _Levels(bracket).result() is None
    assert reduce_in_order(str, bracket, []) is None


class Counted:
    """A result that counts how many of its kind are alive."""
    alive = weakref.WeakSet()
    most = 0

    def __init__(self, text):
        self.text = text
        Counted.alive.add(self)
        Counted.most = max(Counted.most, len(Counted.alive))


def leaf(i):
    return Counted(str(i))


def merge(a, b):
    return Counted(bracket(a.text, b.text))


def test_a_pass_holds_a_window_of_results_not_all_of_them():
    window = 2 * (os.cpu_count() or 1)
    n = 6 * window + 3
    Counted.most = 0
    with dask.config.set(scheduler="threads"):
        got = reduce_in_order(leaf, merge, [(dask.delayed(i),) for i in range(n)])
    assert got.text == halving([str(i) for i in range(n)], bracket)
    # the window's results, one per level of the tree, the one being merged and the one made
    assert Counted.most <= window + math.ceil(math.log2(n)) + 3 < n


def test_progress_counts_the_sizes():
    out = io.StringIO()
    with progress_to(out, every=0.0):
        reduce_in_order(str, bracket, [(dask.delayed(i),) for i in range(5)], sizes=[10, 20, 30, 40, 50],
                        what="rows")
    assert [line.split(" (")[0] for line in out.getvalue().splitlines()] == \
        [f"  rows: {n} of 150" for n in (10, 30, 60, 100, 150)]


def fails(i):
    if i == 3:
        raise ParameterError("x: expected something else, got 3")
    return str(i)


def test_on_a_cluster_the_tree_is_the_same_and_errors_come_back(client):  # noqa: F811
    n = 23
    assert reduce_in_order(str, bracket, [(dask.delayed(i),) for i in range(n)]) == \
        halving([str(i) for i in range(n)], bracket)
    with pytest.raises(ParameterError, match="got 3"):
        reduce_in_order(fails, bracket, [(dask.delayed(i),) for i in range(n)])


def test_the_source_reads_or_keeps_its_partitions_alike(client):  # noqa: F811
    import pandas as pd
    import dask.dataframe as dd
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"a": rng.integers(0, 3, 500).astype(str), "b": rng.normal(size=500),
                          "c": rng.choice(["x", "y", None], 500)})
    ddf = dd.from_pandas(frame, npartitions=9)
    read, kept = (DaskFrameSource(ddf[["a", "b"]], ddf["c"], keep=keep) for keep in (False, True))
    assert read.n_rows == kept.n_rows == int(frame["c"].notna().sum())
    np.testing.assert_array_equal(read.starts, kept.starts)
    labels = read.labels()
    np.testing.assert_array_equal(labels, frame["c"].dropna().to_numpy(dtype=object))
    np.testing.assert_array_equal(labels, kept.labels())
    assert read.passes == kept.passes == 1
