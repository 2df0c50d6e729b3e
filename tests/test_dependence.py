"""Dependence measures: MI and CMI against hand values and scikit-learn, MIC against published behaviour."""

import numpy as np
import pytest
from sklearn.metrics import mutual_info_score

from seminaive.datasets import load, make_thesis_simulation
from seminaive.dependence import (conditional_mutual_information, dependence_matrices, mic,
                                  mutual_information, plot_matrices)


def test_mutual_information_matches_sklearn():
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 4, 500), rng.integers(0, 3, 500)
    b = np.where(rng.random(500) < 0.5, a % 3, b)
    assert mutual_information(a, b) == pytest.approx(mutual_info_score(a, b))


def test_conditional_mutual_information_by_hand():
    """A = Z xor B with B, Z fair coins: I(A;B) = 0 but I(A;B|Z) = log 2 (the XOR case)."""
    b = np.tile([0, 0, 1, 1], 1000)
    z = np.tile([0, 1, 0, 1], 1000)
    a = b ^ z
    assert mutual_information(a, b) == pytest.approx(0.0, abs=1e-12)
    assert conditional_mutual_information(a, b, z) == pytest.approx(np.log(2), rel=1e-9)


def test_missing_pairs_are_left_out():
    a = np.array([0, 1, -1, 1, 0])
    b = np.array([0, 1, 1, -1, 0])
    assert mutual_information(a, b) == pytest.approx(mutual_information(a[[0, 1, 4]], b[[0, 1, 4]]))


def test_mic_published_behaviour():
    """Reshef et al. 2011: noiseless functional relationships score 1; MIC is
    symmetric; independent samples score near 0 (about 0.15 at n = 500); with
    noise MIC falls roughly like R^2. minepy's documented example
    (x = linspace(0, 1, 1000), y = sin(10 pi x) + x) gives MIC 1.0."""
    x = np.linspace(0, 1, 1000)
    assert mic(x, np.sin(10 * np.pi * x) + x) == pytest.approx(1.0)
    rng = np.random.default_rng(0)
    u = rng.uniform(-1, 1, 500)
    for y in (2 * u + 1, u ** 2, np.sin(8 * np.pi * u)):
        assert mic(u, y) == pytest.approx(1.0)
    noise = rng.uniform(-1, 1, 500)
    assert mic(u, noise) < 0.25 and mic(u, noise) == pytest.approx(mic(noise, u))
    noisy = u + rng.normal(0, 0.5, 500)
    r2 = np.corrcoef(u, noisy)[0, 1] ** 2
    assert abs(mic(u, noisy) - r2) < 0.15
    assert mic(u, u + rng.normal(0, 0.1, 500)) > mic(u, noisy)


def test_simulation_m1_m2_dependence_stands_out(tmp_path):
    d = make_thesis_simulation(600, random_state=0)
    mats = dependence_matrices(d)
    cmi = mats["cmi"].to_numpy().copy()
    np.fill_diagonal(cmi, 0)
    assert np.unravel_index(np.argmax(cmi), cmi.shape) in ((0, 1), (1, 0))
    # MIC is unconditional: the class's shifted means make M2 and M4 look dependent too
    assert mats["mic"].loc["M1", "M2"] > 0.5 and mats["mic"].loc["M1", "M3"] < 0.3
    out = plot_matrices(mats, str(tmp_path / "dep.png"))
    assert open(out, "rb").read(4) == b"\x89PNG"


def test_no_empty_mic_panel_for_nominal_data(tmp_path):
    """MIC needs numeric pairs: on nominal data it is left out, and the printout says why."""
    from seminaive.dependence.matrices import dependence_matrices, format_matrices, plot_matrices
    d = load("weather.nominal")
    mats = dependence_matrices(d)
    assert mats["mic"] is None and mats["mi"].shape == (4, 4)
    assert format_matrices(mats).startswith("(no maximal information coefficient: it needs two numeric")
    assert "maximal information coefficient\n" not in format_matrices(mats)
    path = plot_matrices(mats, tmp_path / "d.png")
    import matplotlib.image
    assert matplotlib.image.imread(path).shape[1] < 2 * 5.2 * 110 + 50  # two panels, not three
