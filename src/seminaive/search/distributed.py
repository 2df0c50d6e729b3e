"""Wrapper searches on a Dask DataFrame: the engine's passes as map-reduce steps
on the cluster.

The partitions are the chunks of a :class:`~seminaive.learning.dask_source.DaskFrameSource`,
declared and kept on the workers (``persist``: a search runs a pass per step); each pass of the engine (counting
the statistics of new groups, scoring a step's candidates) maps one function over
them on the cluster and reduces the results there (counts add, Gaussian moments
merge, numbers of right decisions add); only statistics and scores travel. The
search is :func:`~seminaive.search.streamed.search_source`, the one every source
runs, so its steps and scores equal the in-memory search's on the same data and folds.
"""

from ..learning.dask_source import DaskFrameSource
from .streamed import check_streamable, search_source

__all__ = ["search_dask"]


def search_dask(search, X, y, progress=None):
    """Run a wrapper search (an unfitted BSE, BSJ, BSEJ or FSSJ) on a Dask
    DataFrame ``X`` with a Dask Series ``y``, on whatever scheduler is active
    (a ``distributed.Client`` beforehand puts it on that cluster). The fitted
    search equals ``search.fit`` on the same rows in memory with the same folds
    (k-fold scoring uses :func:`~seminaive.core.folds.stratified_folds`
    folds over the rows in partition order, ``random_state`` as the seed).

    Nominal columns are declared as :func:`seminaive.scale.dask.fit_dask`
    declares them (their sorted values); numeric attributes for joins are cut
    by the search's discretizer, from every row as in memory.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from seminaive.datasets import load
    >>> from seminaive.search import BSE
    >>> d = load("weather.nominal")
    >>> frame = dd.from_pandas(d.X.assign(play=d.y.astype(str)), npartitions=2)
    >>> m = search_dask(BSE(), frame.drop(columns="play"), frame["play"])  # doctest: +SKIP
    >>> m.structure_ == BSE().fit(d.X, d.y.astype(str)).structure_  # doctest: +SKIP
    True
    """
    check_streamable(search)
    return search_source(search, DaskFrameSource(X, y, keep=True), progress)
