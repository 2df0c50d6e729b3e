"""Seeds derived from a model's seed and keys (a member, a column, a table), so that every
stream a model draws is fixed by its one ``random_state`` and independent of the others."""

import numpy as np

__all__ = ["derived_seed", "SEED_LIMIT"]

SEED_LIMIT = 2 ** 31  # seeds handed on (a member's random_state, the HDP sampler's) are below this


def derived_seed(*keys):
    """A 32-bit seed from integer keys (numpy's SeedSequence over them).

    Examples
    --------
    >>> derived_seed(0, 1) == derived_seed(0, 1) != derived_seed(0, 2)
    True
    """
    return int(np.random.SeedSequence([int(k) for k in keys]).generate_state(1)[0])
