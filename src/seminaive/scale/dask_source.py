"""A source of chunks kept on a Dask cluster: the partitions, encoded once and
persisted on the workers, over which a pass maps a function and reduces the
results on the cluster (the searches' engine and the family's fits use it)."""

from ..exceptions import ParameterError

__all__ = ["DaskSource"]


def _tree(items, combine):
    """Pairwise reduction of delayed values (log2 levels)."""
    import dask
    while len(items) > 1:
        items = [dask.delayed(combine)(items[i], items[i + 1]) if i + 1 < len(items) else items[i]
                 for i in range(0, len(items), 2)]
    return items[0]


class DaskSource:
    """Encoded partitions kept on the workers, each ``(first row, codes, values,
    class codes, folds)``; :meth:`map_reduce` runs a pass on the cluster."""

    single = False

    def __init__(self, parts):
        self.parts = parts

    def map_reduce(self, fn, combine, *args):
        import dask
        return _tree([dask.delayed(fn)(p, *args) for p in self.parts], combine).compute()

    def __iter__(self):  # the engine's in-memory helpers; a pass never needs them
        raise ParameterError("a distributed source's chunks stay on the cluster")
