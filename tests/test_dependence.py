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


# ---------------------------------------------------------------- the compiled, batched values
def _cmi_reference(counts):
    """The per-table formula the batched kernel replaced (numpy margins, math.fsum), kept as the
    reference: for whole counts the kernel must give its values to the last bit."""
    import math
    n = counts.sum()
    if n == 0:
        return 0.0
    pz = counts.sum(axis=(1, 2), keepdims=True)
    pa = counts.sum(axis=2, keepdims=True)
    pb = counts.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = counts * (np.log(counts) + np.log(pz) - (np.log(pa) + np.log(pb)))
    return math.fsum(terms[counts > 0].tolist()) / float(n)


def test_exact_sum_is_math_fsum_to_the_last_bit():
    import math
    from seminaive.dependence.information import _COMPILED, _KERNELS, exact_sum
    from seminaive._jit import compiled
    import seminaive.dependence.information as info
    fsum = compiled(vars(info), _KERNELS, _COMPILED)["exact_sum"]
    rng = np.random.default_rng(0)
    partials = np.empty(128)
    cases = [np.array([1e-16, 1.0, 1e16]), np.array([1e100, 1.0, -1e100, 1e-100]), np.array([0.1] * 10),
             np.array([]), np.array([0.0, -0.0]), np.array([1.0, 1e-16, -1e-16 * 0.5, 1e-32])]
    for _ in range(300):  # wide exponents and cancellations, where a plain sum loses bits
        v = rng.normal(size=rng.integers(1, 40)) * 10.0 ** rng.integers(-20, 20, size=1)
        cases.append(np.concatenate([v, -v[: len(v) // 2] * (1 + 1e-15), rng.normal(size=3) * 1e-30]))
    wrong = 0
    for v in cases:
        assert fsum(v, 0, len(v), partials) == math.fsum(v.tolist())
        assert exact_sum(v, 0, len(v), partials) == math.fsum(v.tolist())  # the Python form (the same steps)
        wrong += sum(v.tolist()) != math.fsum(v.tolist())
    assert wrong > 50  # the cases are ones where a plain sum differs


def test_information_values_are_the_per_table_formula_to_the_last_bit():
    from seminaive.dependence.information import information_values
    rng = np.random.default_rng(1)
    tables = [rng.integers(0, rng.integers(1, 30), size=tuple(rng.integers(1, 6, size=3))).astype(float)
              for _ in range(400)] + [np.zeros((2, 3, 2)), np.ones((1, 1, 1))]
    got = information_values(tables)
    assert got.tolist() == [_cmi_reference(t) for t in tables]
    assert (got > 0.01).sum() > 100  # real dependences among them, not only zeros
    weighted = [t * rng.uniform(0.1, 3.0, size=t.shape) for t in tables[:100]]  # fractional counts: the
    # margins are summed in another order than numpy's, so equal up to rounding only
    assert np.allclose(information_values(weighted), [_cmi_reference(t) for t in weighted], rtol=1e-12, atol=1e-15)


def test_cmi_matrix_is_each_pair_alone():
    from seminaive.bayesnet.statistics import cmi_matrix_from, mutual_informations, pair_statistics
    rng = np.random.default_rng(2)
    cols = [rng.integers(-1, m, 300) for m in (2, 3, 5, 4)]
    y = (cols[0] + cols[1] + rng.integers(0, 2, 300)) % 3
    stats = pair_statistics(cols, [2, 3, 5, 4], y, 3)
    W = cmi_matrix_from(stats, 4)
    for i in range(4):
        for j in range(4):
            expected = 0.0 if i == j else conditional_mutual_information(cols[i], cols[j], y)
            assert W[i, j] == expected
    assert W[0, 1] > 0.05
    assert mutual_informations(stats) == [_cmi_reference(s[None]) for s in stats["single"]]
