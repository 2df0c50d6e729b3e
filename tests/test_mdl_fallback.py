"""MDL with an equal-frequency fallback: MDL's cut points wherever MDL finds any, the capped
proportional equal-frequency intervals where it finds none, so a family model on a small sample
does not fall to the class priors."""

import math

import numpy as np
import pytest

from seminaive import TAN, SelectiveKDB
from seminaive.datasets import load
from seminaive.discretize import EqualFrequencyDiscretizer, MDLDiscretizer, MDLFallbackDiscretizer, learn_cuts
from seminaive.evaluation import evaluate


@pytest.mark.parametrize("seed", range(20))
def test_mdl_cuts_where_mdl_finds_any_else_equal_frequency(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    y = rng.integers(0, 3, n)
    x = np.round(rng.normal(y * rng.uniform(0, 2), 1.0, n), 2)  # some seeds separate the classes, some do not
    mdl = MDLDiscretizer().fit(x[:, None], y).cut_points_[0]
    got = MDLFallbackDiscretizer(n_bins=8).fit(x[:, None], y).cut_points_[0]
    if mdl.size:
        np.testing.assert_array_equal(got, mdl)
    else:
        bins = min(8, math.isqrt(n))
        np.testing.assert_array_equal(got, EqualFrequencyDiscretizer(n_bins=bins).fit(x[:, None]).cut_points_[0])
        assert got.size <= bins - 1


def test_the_fallback_is_a_registered_discretizer_with_its_n_bins():
    x = np.arange(400.0)
    y = np.arange(400) % 2  # no class signal: MDL finds no cut
    assert learn_cuts("mdl", x, y).size == 0
    assert learn_cuts("mdl_fallback", x, y, n_bins=5).size == 4
    assert learn_cuts("mdl_fallback", x, y).size == 9  # n_bins 10, sqrt(400) = 20: ten intervals


@pytest.mark.parametrize("model", [TAN, SelectiveKDB])
def test_a_small_numeric_sample_no_longer_falls_to_the_priors(model):
    """KEEL tae (151 rows, 5 numeric attributes): with MDL intervals every attribute is one
    interval and the model predicts the majority class; with the fallback it learns."""
    d = load("keel:tae")
    majority = max(np.mean(d.y == c) for c in set(d.y))
    codes = dict(integer_codes="numbers")  # its codes read as intervals (not as values: test_integer_codes.py)
    mdl = evaluate(model(numeric="mdl", **codes), d.X, d.y, cv=5, random_state=0).accuracy
    fallback = evaluate(model(numeric="mdl_fallback", **codes), d.X, d.y, cv=5, random_state=0).accuracy
    assert mdl <= majority + 1e-9
    assert fallback > majority + 0.1
