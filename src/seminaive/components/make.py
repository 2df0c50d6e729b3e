"""The components of a Naive Bayes: one per attribute, as its options say."""

from .categorical import Categorical
from .discretized import Discretized
from .gaussian import Gaussian
from .kernel import Kernel

__all__ = ["make_components"]


def make_components(schema, numeric, bandwidth="silverman", cuts=None):
    """One component per attribute of ``schema``: nominal ones categorical, numeric ones ``numeric``
    (gaussian, kernel, or a discretizer's intervals: ``cuts`` by attribute index, learned from the
    data in one place, :func:`seminaive.learning.cuts.source_cuts`); a Gaussian or kernel model's
    columns read one interval per value have their ``cuts`` too).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> from seminaive.data import infer_schema
    >>> schema = infer_schema(load("weather.numeric").X)
    >>> [c.kind for c in make_components(schema, "equal_width", cuts={1: [70.0], 2: [80.0]})]
    ['categorical', 'discretized', 'discretized', 'categorical']
    """
    if numeric == "gaussian" and not schema.nominal_indices and not cuts:  # all Gaussian (a wide numeric table)
        return [Gaussian(i, i) for i in range(len(schema.attributes))]
    comps, nom, num = [], 0, 0
    for i, a in enumerate(schema.attributes):
        if a.is_nominal:
            comps.append(Categorical(i, nom, a.n_values))
            nom += 1
            continue
        if cuts and i in cuts:
            comps.append(Discretized(i, num, cuts[i]))
        elif numeric == "gaussian":
            comps.append(Gaussian(i, num))
        elif numeric == "kernel":
            comps.append(Kernel(i, num, bandwidth))
        else:
            comps.append(Discretized(i, num, cuts[i]))
        num += 1
    return comps
