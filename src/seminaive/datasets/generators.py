"""Synthetic data sets: Breiman's LED and waveform problems.

The J implementation (Vector 16:2) was tested on "led" (seven binary
attributes, ten classes) and "wave" (21 attributes of seven values, three
classes) filebases of 200 instances per file. These generators make such data.
"""

import numpy as np
import pandas as pd

from ..data.dataset import Dataset
from ..data.schema import NOMINAL, NUMERIC, Attribute, Schema

__all__ = ["make_led", "make_wave", "make_thesis_simulation", "LED_SEGMENTS", "WAVE_BINS", "SIMULATION_MEANS"]

# segments a..g lit for the digits 0..9 (a top, b upper right, c lower right,
# d bottom, e lower left, f upper left, g middle)
LED_SEGMENTS = np.array([
    [1, 1, 1, 1, 1, 1, 0], [0, 1, 1, 0, 0, 0, 0], [1, 1, 0, 1, 1, 0, 1], [1, 1, 1, 1, 0, 0, 1],
    [0, 1, 1, 0, 0, 1, 1], [1, 0, 1, 1, 0, 1, 1], [1, 0, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 1, 1]])

#: edges of the seven equal-width intervals the discretized waveform uses
WAVE_BINS = np.linspace(-2.0, 8.0, 8)[1:-1]


def make_led(n_samples=200, noise=0.1, random_state=None):
    """The LED display problem: a digit shown on seven segments, each segment
    flipped with probability ``noise`` (Breiman et al. 1984 use 0.1).

    Returns a Dataset of seven nominal attributes ``a1``..``a7`` with values
    0 and 1 and the class ``digit`` 0..9.

    Examples
    --------
    >>> d = make_led(50, noise=0.0, random_state=0)
    >>> d.n_attributes, len(d.classes)
    (7, 10)
    """
    rng = np.random.default_rng(random_state)
    digits = rng.integers(0, 10, n_samples)
    lit = LED_SEGMENTS[digits] ^ (rng.random((n_samples, 7)) < noise)
    return _nominal_dataset(lit, digits, [f"a{j + 1}" for j in range(7)], (0, 1), "digit",
                            tuple(range(10)), "led")


def make_wave(n_samples=200, discretize=True, random_state=None):
    """Breiman's waveform problem: each instance is a random mix of two of three
    triangular waves over 21 points plus unit Gaussian noise; the class says
    which pair. With ``discretize`` the values are cut into seven intervals of
    width 10/7 over [-2, 8] (coded 0..6, the ends open), as in the J
    implementation's 7-valued "wave" data; otherwise they stay numeric.

    Examples
    --------
    >>> d = make_wave(30, random_state=0)
    >>> d.n_attributes, d.schema.attributes[0].values
    (21, (0, 1, 2, 3, 4, 5, 6))
    """
    rng = np.random.default_rng(random_state)
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0)
    h2, h3 = np.maximum(6 - np.abs(i - 15), 0), np.maximum(6 - np.abs(i - 7), 0)
    pairs = [(h1, h2), (h1, h3), (h2, h3)]
    cls = rng.integers(0, 3, n_samples)
    u = rng.random((n_samples, 1))
    a = np.array([pairs[c][0] for c in cls])
    b = np.array([pairs[c][1] for c in cls])
    x = u * a + (1 - u) * b + rng.standard_normal((n_samples, 21))
    names = [f"a{j + 1}" for j in range(21)]
    if discretize:
        return _nominal_dataset(np.digitize(x, WAVE_BINS), cls, names, tuple(range(7)), "wave",
                                (0, 1, 2), "wave")
    X = pd.DataFrame(x, columns=names)
    y = pd.Series(pd.Categorical.from_codes(cls, categories=pd.Index([0, 1, 2])), name="wave")  # int classes
    schema = Schema(tuple(Attribute(n, NUMERIC) for n in names), Attribute("wave", NOMINAL, (0, 1, 2)))
    return Dataset(X, y, schema, name="wave")


def _nominal_dataset(codes, cls, names, values, target, classes, name):
    cats = pd.Index(values, dtype=object)
    X = pd.DataFrame({n: pd.Categorical.from_codes(codes[:, j], categories=cats) for j, n in enumerate(names)})
    y = pd.Series(pd.Categorical.from_codes(cls, categories=pd.Index(classes)), name=target)  # classes of their type
    schema = Schema(tuple(Attribute(n, NOMINAL, values) for n in names), Attribute(target, NOMINAL, classes))
    return Dataset(X, y, schema, name=name)


#: class means of the thesis's four-feature simulation (004, section 2.2)
SIMULATION_MEANS = {"positive": (2.0, 3.0, 4.0, 1.0), "negative": (3.0, 6.5, 2.0, 3.5)}


def make_thesis_simulation(n_samples=1300, correlation=0.9, random_state=None):
    """The constrained-NB thesis's simulation (004, Table 2.1): four normal
    features M1..M4 with class means (2, 3, 4, 1) and (3, 6.5, 2, 3.5), unit
    variances, and correlation ``correlation`` between M1 and M2 only; the two
    classes in equal numbers (the thesis trains on 1000 and validates on 300).

    Examples
    --------
    >>> d = make_thesis_simulation(1000, random_state=0)
    >>> pos = d.X[(d.y == "positive").to_numpy()]
    >>> d.y.value_counts().tolist(), round(float(pos["M1"].corr(pos["M2"])), 1)
    ([500, 500], 0.9)
    """
    rng = np.random.default_rng(random_state)
    cov = np.eye(4)
    cov[0, 1] = cov[1, 0] = correlation
    half = n_samples // 2
    parts, labels = [], []
    for k, (name, mean) in enumerate(SIMULATION_MEANS.items()):
        m = half if k == 0 else n_samples - half
        parts.append(rng.multivariate_normal(mean, cov, m))
        labels += [name] * m
    order = rng.permutation(n_samples)
    X = pd.DataFrame(np.vstack(parts)[order], columns=["M1", "M2", "M3", "M4"])
    y = pd.Series(pd.Categorical(np.array(labels, dtype=object)[order],
                                 categories=pd.Index(list(SIMULATION_MEANS), dtype=object)), name="class")
    schema = Schema(tuple(Attribute(n, NUMERIC) for n in X.columns),
                    Attribute("class", NOMINAL, tuple(SIMULATION_MEANS)))
    return Dataset(X, y, schema, name="thesis-simulation")
