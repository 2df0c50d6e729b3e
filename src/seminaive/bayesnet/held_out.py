"""The held-out scoring engine of the family's models that select by scores (selective kDB,
SuperParent TAN): one construction over the readers' codes, in memory or over a source of chunks."""

import numpy as np

from ..core.folds import fold_labels, stratified_folds
from ..exceptions import ParameterError
from ..learning.engine import Engine
from .hybrid import engine_attributes

__all__ = ["HeldOutEngine"]


class HeldOutEngine:
    """A mixin (before the family's base) for a model with ``cv``, ``scoring``, ``random_state`` and
    ``priors``: its :meth:`_engine`."""

    def _engine(self, columns, y, weight=None, source=None, xs=None, unit=None):
        """The scoring engine over the readers' codes: in memory (``columns``, ``y``, ``weight``; the
        hybrid's values ``xs``), or over a ``source`` of chunks; leave-one-out, or the folds of ``cv``;
        ``unit``: the hybrid's scale and floor of each numeric attribute (:func:`.hybrid.units`)."""
        if weight is not None and not np.all(weight == np.round(weight)):
            raise ParameterError("sample_weight: the leave-one-out selection needs integer weights (copies)")
        attrs = engine_attributes(self.readers_, columns, xs, unit or {})
        fold = None
        if isinstance(self.cv, (list, tuple)):
            fold = fold_labels(list(self.cv), y.size)
        elif self.cv is not None:
            fold = stratified_folds(np.asarray(self.classes_, dtype=object)[y], self.cv, self.random_state)
        return Engine(attrs, y, len(self.classes_), self._count_estimator(), self.priors, source=source, fold=fold,
                      scoring=self.scoring, weight=weight)
