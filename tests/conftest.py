"""Toy data defined once for the whole suite."""

import numpy as np
import pandas as pd
import pytest

from seminaive.datasets import load


def write(tmp_path, name, text):
    """Write a small file for a test and return its path."""
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.fixture(scope="session")
def weather():
    return load("weather.nominal")


@pytest.fixture(scope="session")
def weather_numeric():
    return load("weather.numeric")


@pytest.fixture(scope="session")
def ihealth():
    return load("ihealth")


def mixed_frame(n=300, seed=0, missing=0.1):
    """Random mixed data: two nominal, two numeric attributes, three classes,
    with a fraction of missing values, and labels that depend on the attributes."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    X = pd.DataFrame({
        "colour": pd.Categorical(np.array(["red", "green", "blue"], dtype=object)[a],
                                 categories=["red", "green", "blue", "violet"]),
        "size": np.array(["s", "m", "l", "xl"], dtype=object)[rng.integers(0, 4, n)],
        "height": rng.normal(y * 1.5, 1.0),
        "weight": rng.normal(10 - y, 2.0),
    })
    if missing:
        for col in X.columns:
            X.loc[rng.random(n) < missing, col] = np.nan
    return X, np.array(["low", "mid", "high"], dtype=object)[y]


@pytest.fixture
def mixed():
    return mixed_frame()
