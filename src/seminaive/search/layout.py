"""How a search reads its numeric attributes: each one's cut points for joins (and for itself where
it is discretized), and the columns of few distinct values read by their values instead
(:mod:`seminaive.discretize.few_values`, :mod:`seminaive.learning.readings`), from the data in memory
or, for a streamed search, from the (value, class, count) triples of one pass: the same choice."""

from ..discretize import attribute_cuts
from ..discretize.few_values import choose_reading
from ..learning.readings import gaussian_or_values

__all__ = ["numeric_layout", "read_codes"]


def numeric_layout(search, schema, table, ycodes):
    """``(cuts, coded)`` from the encoded table in memory: every numeric attribute's cut points
    under ``search``'s discretizer, then :func:`read_codes`."""
    columns = {j: table.numeric[:, c] for c, j in enumerate(schema.numeric_indices)}
    cuts = attribute_cuts(search.discretizer, columns, ycodes, None, search.n_bins, random_state=search.random_state)
    return read_codes(search, schema.names, {j: (x, ycodes, None) for j, x in columns.items()}, cuts)


def read_codes(search, names, columns, cuts):
    """``(cuts, coded)``: the numeric attributes' ``cuts``, with those of the columns ``search``'s
    ``integer_codes`` reads one interval per value replaced, and the set of those that are Gaussian
    when alone but so read (``columns``: ``{attribute: (values, class codes, weights)}``; ``names``:
    the attributes' names, for their estimators)."""
    cuts, coded = dict(cuts), set()
    if search.integer_codes == "numbers":
        return cuts, coded
    for j, (x, y, w) in columns.items():
        if search.numeric == "gaussian":
            mine = gaussian_or_values(x, y, w, search._estimator(names[j]), search.var_smoothing,
                                      search.var_smoothing_rule, search.alpha, search.integer_codes, search.priors)
            if mine is not None:
                cuts[j] = mine
                coded.add(j)
        else:
            cuts[j] = choose_reading(x, y, w, cuts[j], None, search.integer_codes)[0]
    return cuts, coded
