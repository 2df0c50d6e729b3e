"""The four wrapper searches of Pazzani (1996) and the BSEJ project (000)."""

from ..registry import register, register_variant
from .base import SearchNaiveBayes

__all__ = ["BSE", "BSJ", "BSEJ", "FSSJ"]


def _deletions(search, groups):
    if len(groups) <= max(search.min_attributes, 0):
        return
    for g in groups:
        yield "delete", (g,), ()


def _joins(search, groups, engine):
    for i, g in enumerate(groups):
        for h in groups[i + 1:]:
            if search._joinable(g, h, engine):
                yield "join", (g, h), (g + h,)


@register
class BSE(SearchNaiveBayes):
    """Backward sequential elimination (000, Figure 7): from all attributes,
    repeatedly delete the one whose removal most improves the score.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = BSE().fit(load("weather.nominal"))
    >>> [h["operator"] for h in m.history_][0], m.structure_.n_attributes
    ('start', 4)
    """

    def _start(self, d):
        return [(j,) for j in range(d)]

    def _candidates(self, groups, d, engine):
        yield from _deletions(self, groups)


@register
class BSJ(SearchNaiveBayes):
    """Backward sequential joining (000, Figure 6): from all attributes,
    repeatedly replace the pair whose Cartesian product most improves the score.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = BSJ().fit(load("weather.nominal"))
    >>> [h["operator"] for h in m.history_][:1]
    ['start']
    """

    def _start(self, d):
        return [(j,) for j in range(d)]

    def _candidates(self, groups, d, engine):
        yield from _joins(self, groups, engine)


@register
class BSEJ(SearchNaiveBayes):
    """Backward sequential elimination and joining (Pazzani 1996): at each step
    the best of deleting one attribute (joined ones included) and joining two.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = BSEJ(scoring="log_loss").fit(load("weather.nominal"))
    >>> m.history_[0]["operator"], bool(m.history_[-1]["score"] <= m.history_[0]["score"])
    ('start', True)
    """

    def _start(self, d):
        return [(j,) for j in range(d)]

    def _candidates(self, groups, d, engine):
        yield from _deletions(self, groups)
        yield from _joins(self, groups, engine)


@register
class FSSJ(SearchNaiveBayes):
    """Forward sequential selection and joining (Pazzani 1996): from the class
    priors alone, repeatedly add an unused attribute as independent, or join it
    with an attribute (or joined group) already used.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = FSSJ().fit(load("weather.nominal"))
    >>> m.history_[0]["attributes"].split(";")[0]  # it starts from no attribute
    '(no attribute: the class priors)'
    """

    def _start(self, d):
        return []

    def _candidates(self, groups, d, engine):
        used = {j for g in groups for j in g}
        unused = [j for j in range(d) if j not in used]
        for j in unused:
            yield "add", (), ((j,),)
        for j in unused:
            for g in groups:
                if self._joinable(g, (j,), engine):
                    yield "add-join", (g,), (g + (j,),)


_SEARCH_OPTIONS = ("alpha", "priors", "ddof", "n_bins", "scoring", "cv", "discretizer", "candidate_pairs", "verbose")
for _cls, _text in ((BSE, "BSE: backward elimination, leave-one-out"), (BSJ, "BSJ: backward joining, leave-one-out"),
                    (BSEJ, "BSEJ: backward elimination and joining, leave-one-out"),
                    (FSSJ, "FSSJ: forward selection and joining, leave-one-out")):
    register_variant("search", _cls.__name__.lower(), _text,
                     lambda _c=_cls, **o: _c(**{k: v for k, v in o.items() if k in _SEARCH_OPTIONS}))
    register_variant("compare", _cls.__name__.lower(), _text, _cls)
