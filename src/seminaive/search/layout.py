"""How a search reads its numeric attributes: each one's cut points for joins (and for itself where
it is discretized), and the columns of few distinct values read by their values instead of a Gaussian
(:mod:`seminaive.learning.readings`), from the data in memory."""

from ..discretize import attribute_cuts
from ..learning.readings import gaussian_or_values

__all__ = ["numeric_layout"]


def numeric_layout(search, schema, table, ycodes):
    """``(cuts, coded)``: every numeric attribute's cut points under ``search``'s discretizer and
    ``integer_codes``, and the attributes read by their values though Gaussian when alone."""
    columns = {j: table.numeric[:, c] for c, j in enumerate(schema.numeric_indices)}
    gaussian = search.numeric == "gaussian"
    cuts = attribute_cuts(search.discretizer, columns, ycodes, None, search.n_bins, random_state=search.random_state,
                          codes="numbers" if gaussian else search.integer_codes)
    coded = set()
    for j, x in columns.items() if gaussian and search.integer_codes != "numbers" else ():
        mine = gaussian_or_values(x, ycodes, None, search._estimator(schema.names[j]), search.var_smoothing,
                                  search.var_smoothing_rule, search.alpha, search.integer_codes, search.priors)
        if mine is not None:
            cuts[j] = mine
            coded.add(j)
    return cuts, coded
