"""Discretizers: scikit-learn transformers that cut numeric attributes into intervals."""

from functools import lru_cache

from .._seeds import derived_seed
from ..registry import registered
from .base import Discretizer, apply_cuts, interval_labels
from .equal_width import EqualWidthDiscretizer  # imported in the order they are listed
from .equal_frequency import EqualFrequencyDiscretizer
from .mdl import MDLDiscretizer
from .mdl_fallback import MDLFallbackDiscretizer
from .mdl_stochastic import StochasticMDLDiscretizer
from .one_r import OneRDiscretizer
from .resolution import ResolutionDiscretizer, StochasticResolutionDiscretizer
from .few_values import CODES, choose_reading

__all__ = ["column_seed", "Discretizer", "EqualWidthDiscretizer", "EqualFrequencyDiscretizer", "MDLDiscretizer",
           "MDLFallbackDiscretizer", "StochasticMDLDiscretizer",
           "OneRDiscretizer", "ResolutionDiscretizer", "StochasticResolutionDiscretizer", "apply_cuts", "interval_labels", "DISCRETIZERS", "learn_cuts", "attribute_cuts"]

DISCRETIZERS = registered("discretizer")  # name -> class, as each module registers it


def column_seed(random_state, column):
    """The seed of attribute ``column``'s drawn cuts under a model's ``random_state`` (one stream per column).

    Examples
    --------
    >>> column_seed(0, 1) == column_seed(0, 1) != column_seed(0, 2)
    True
    """
    return derived_seed(random_state, column)


@lru_cache(maxsize=None)
def _parameters(kind):
    """A discretizer class's parameter names (read once: inspecting a signature costs more than
    cutting a small column, and a model cuts every column)."""
    return frozenset(kind._get_param_names())


def learn_cuts(name, x, y, weight=None, n_bins=10, min_bucket=6, random_state=0, ladder=False):
    """The cut points the discretizer ``name`` learns from values ``x`` (NaN
    missing) and class codes ``y``, as every model learns them inside its fit:
    integer weights repeat instances, fractional ones count as presence;
    ``random_state`` seeds a discretizer that draws its cuts. ``ladder``: the cuts
    and their levels (:meth:`~.base.Discretizer.ladder_for`).

    Examples
    --------
    >>> import numpy as np
    >>> learn_cuts("equal_width", np.array([0.0, 1.0, 2.0, 4.0]), None, n_bins=2).tolist()
    [2.0]
    """
    kind = DISCRETIZERS[name]
    disc = kind(**{k: v for k, v in (("n_bins", n_bins), ("min_bucket", min_bucket), ("random_state", random_state))
                   if k in _parameters(kind)})
    both = disc.ladder_for(x, y if disc.supervised else None, weight)
    return both if ladder else both[0]


def attribute_cuts(name, columns, y, weight=None, n_bins=10, min_bucket=6, random_state=0, ladder=False,
                   codes="numbers"):
    """``{attribute index: cut points}`` of every numeric attribute: ``columns`` maps each one's
    attribute index to its values (NaN missing). The one place a model learns its cuts, in memory
    and from chunks alike: attribute ``j``'s drawn cuts take :func:`column_seed` ``(random_state, j)``.
    ``ladder``: ``{attribute index: (cut points, their levels)}`` (:func:`learn_cuts`). ``codes``:
    whether a column of few distinct values is read one interval per value
    (:func:`~.few_values.choose_reading`: "auto", "numbers" or "values").

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0.0, 1.0, 2.0, 4.0])
    >>> attribute_cuts("equal_width", {3: x}, None, n_bins=2)[3].tolist()
    [2.0]
    """
    out = {}
    for j, x in columns.items():
        cuts, levels = learn_cuts(name, x, y, weight, n_bins, min_bucket, column_seed(random_state, j), True)
        cuts, levels, _ = choose_reading(x, y, weight, cuts, levels, codes)
        out[j] = (cuts, levels) if ladder else cuts
    return out
