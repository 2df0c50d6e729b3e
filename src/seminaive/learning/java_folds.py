"""Weka's fold orders, reproduced: java.util.Random's generator and Weka's ``Instances.randomize``,
``stratify`` and ``testCV``, so that a model whose definition includes Weka's cross-validation (NBTree's
split scores) scores the same folds.

Examples
--------
>>> r = JavaRandom(1)
>>> [r.next_int(10) for _ in range(5)]  # new java.util.Random(1).nextInt(10), five times
[5, 8, 7, 3, 4]
"""

__all__ = ["JavaRandom", "randomize", "stratify", "fold_positions"]

_MULTIPLIER, _ADDEND, _MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1


class JavaRandom:
    """java.util.Random: a 48-bit linear congruential generator."""

    def __init__(self, seed):
        self.seed = (seed ^ _MULTIPLIER) & _MASK

    def _next31(self):
        self.seed = (self.seed * _MULTIPLIER + _ADDEND) & _MASK
        return self.seed >> 17  # next(31): the top 31 of the 48 bits

    def next_int(self, bound):
        """nextInt(bound): uniform in [0, bound)."""
        if bound & -bound == bound:  # a power of two
            return (bound * self._next31()) >> 31
        while True:
            bits = self._next31()
            value = bits % bound
            if bits - value + (bound - 1) < 1 << 31:  # Java's int overflow test
                return value


def randomize(items, random):
    """Weka's ``Instances.randomize``: from the last position down, each swapped with one at or before it."""
    items = list(items)
    for j in range(len(items) - 1, 0, -1):
        k = random.next_int(j + 1)
        items[j], items[k] = items[k], items[j]
    return items


def stratify(items, classes, folds):
    """Weka's ``Instances.stratify``: the items grouped by class (its swapping pass), then dealt out
    ``folds`` apart (its ``stratStep``). ``classes[i]``: the class of item ``items[i]``."""
    items, classes = list(items), list(classes)
    index = 1
    while index < len(items):
        first = classes[index - 1]
        for j in range(index, len(items)):
            if classes[j] == first:
                items[index], items[j] = items[j], items[index]
                classes[index], classes[j] = classes[j], classes[index]
                index += 1
        index += 1
    out = []
    start = 0
    while len(out) < len(items):
        out.extend(items[start::folds])
        start += 1
    return out


def fold_positions(n, folds, fold):
    """The positions (start, stop) of fold ``fold``'s test part among ``n`` ordered items (Weka's ``testCV``)."""
    size, extra = divmod(n, folds)
    if fold < extra:
        size, offset = size + 1, fold
    else:
        offset = extra
    first = fold * (n // folds) + offset
    return first, first + size
