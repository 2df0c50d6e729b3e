"""The scoring rules against scikit-learn's metrics, weights as copies, sums that add over parts."""

import numpy as np
import pytest

from _scoring import reference_score
from seminaive.exceptions import ParameterError
from seminaive.scoring import SCORINGS, check_scoring, score_of, score_sums, score_value


@pytest.mark.parametrize("rule", SCORINGS)
@pytest.mark.parametrize("k", [2, 3])
def test_rules_equal_scikit_learn_metrics(rule, k):
    rng = np.random.default_rng(k)
    jll = rng.normal(0, 2, (200, k))
    y = rng.integers(0, k, 200)
    prior = np.zeros(k)
    assert score_of(jll, y, rule, prior) == pytest.approx(reference_score(jll, y, rule), rel=1e-12)
    # a weight of w counts as w copies
    w = rng.integers(0, 4, 200)
    rep = np.repeat(np.arange(200), w)
    assert score_of(jll, y, rule, prior, w.astype(float)) == pytest.approx(score_of(jll[rep], y[rep], rule, prior),
                                                                           rel=1e-12)
    # the sums add over parts
    parts = score_sums(jll[:70], y[:70], rule, prior) + score_sums(jll[70:], y[70:], rule, prior)
    assert score_value(parts, rule, k) == pytest.approx(score_of(jll, y, rule, prior), rel=1e-12)


def test_a_shift_of_a_row_changes_nothing_and_a_better_model_scores_better():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    good = np.log(np.where(np.eye(3)[y] == 1, 0.8, 0.1))
    bad = np.log(np.full((300, 3), 1 / 3))
    for rule in SCORINGS:
        a = score_of(good + rng.normal(0, 50, (300, 1)), y, rule, np.zeros(3))
        assert a == pytest.approx(score_of(good, y, rule, np.zeros(3)), rel=1e-9)
        b = score_of(bad, y, rule, np.zeros(3))
        assert (a > b) if rule.endswith("accuracy") else (a < b), rule


def test_degenerate_rows_follow_prediction():
    inf = np.inf
    jll = np.array([[-inf, -1.0], [-inf, -inf], [inf, -2.0]])
    y = np.array([1, 0, 0])
    prior = np.log([0.25, 0.75])
    # row 2 takes the priors: P(y=0) = 0.25
    assert score_of(jll, y, "log_loss", prior) == pytest.approx(-np.log(0.25) / 3)
    assert score_of(jll, y, "accuracy", prior) == pytest.approx(2 / 3)
    assert score_of(np.array([[-inf, 0.0]]), np.array([0]), "log_loss", prior) == inf


def test_misspelled_rules_are_named():
    with pytest.raises(ParameterError, match=r"scoring: expected one of 'accuracy', 'balanced_accuracy', "
                                             r"'log_loss', 'brier', 'rmse', got 'brier_score'"):
        check_scoring("scoring", "brier_score")
