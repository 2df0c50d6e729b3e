"""What LBR and NBTree share as models of the family whose estimates are their reference's own
(Laplace's, as Weka's), not the family's options: the estimation options as fixed class values, the
data options stored by one helper, the training rows as one (rows, attributes) array of codes, and a
chunked fit refused in one line where the model needs every row at once."""

import numpy as np

from ..components.categorical import reader_codes
from ..exceptions import ParameterError

__all__ = ["LaplaceOnly", "row_codes"]


def row_codes(readers, table):
    """Every reader's codes of ``table`` as one C-ordered (rows, readers) int64 array (-1: missing).

    Examples
    --------
    >>> from seminaive.components import Categorical
    >>> from seminaive.data import EncodedTable
    >>> t = EncodedTable(np.array([[0, 2], [1, -1]]), np.empty((2, 0)), np.zeros(2))
    >>> row_codes([Categorical(1, 1, 3), Categorical(0, 0, 2)], t).tolist()
    [[2, 0], [-1, 1]]
    """
    codes = np.asarray(reader_codes(readers, table), dtype=np.int64).reshape(len(readers), table.n_samples)
    return np.ascontiguousarray(codes.T)


class LaplaceOnly:
    """A mixin (before the family's base): Laplace's estimates fixed, the data options as the family's."""

    # fixed: class values, not parameters (the reference's estimates replace the family's)
    alpha, priors, estimation, hdp_iterations, hdp_tying, discriminative, penalty = (1.0, "laplace", "frequency",
                                                                                     1000, "level", None, "auto")
    _fixed_structure = True
    _in_memory_why = "(it needs every row at once)"  # a subclass says why

    def _data_options(self, nominal, numeric, integer_codes, n_bins, min_bucket, random_state):
        """Store the family's data options (the constructors' shared part)."""
        self.nominal, self.numeric, self.integer_codes = nominal, numeric, integer_codes
        self.n_bins, self.min_bucket, self.random_state = n_bins, min_bucket, random_state

    @property
    def partial_fit(self):  # no chunk by chunk fit: hasattr(model, "partial_fit") is False
        raise AttributeError(f"partial_fit: {type(self).__name__} learns from every row at once {self._in_memory_why}")

    def _in_memory_only(self, source, other="read the data in memory"):
        """Refuse a source read in chunks, in one line that says why and what to do (``other``)."""
        if not source.in_memory:
            raise ParameterError(f"{type(self).__name__} cannot be fitted chunk by chunk {self._in_memory_why}; "
                                 f"{other}")

    def _smoothing_text(self):
        return "Laplace's estimates"
