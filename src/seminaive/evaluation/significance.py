"""Significance tests for comparing classifiers.

- the paired two-tailed t-test over the same folds (Pazzani's comparison);
- the corrected resampled t-test (Nadeau and Bengio 2003), because folds
  share training data and the plain test is over-confident;
- the Wilcoxon signed-rank test across data sets (Demsar 2006).
"""

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["TestResult", "paired_t_test", "corrected_t_test", "wilcoxon_test"]


@dataclass
class TestResult:
    """A test's statistic, two-tailed p-value and mean difference (first minus second).

    Examples
    --------
    >>> r = TestResult(statistic=2.0, p_value=0.01, mean_difference=0.03)
    >>> r.significant(0.05)
    True
    """

    statistic: float
    p_value: float
    mean_difference: float

    def significant(self, level=0.05):
        return bool(self.p_value < level)


def paired_t_test(a, b):
    """Two-tailed paired t-test of scores ``a`` and ``b`` (same folds), as scipy's ttest_rel.

    Examples
    --------
    >>> r = paired_t_test([0.8, 0.82, 0.85, 0.81], [0.78, 0.8, 0.82, 0.8])
    >>> round(r.mean_difference, 4), r.p_value < 0.05
    (0.02, True)
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = a - b
    if np.allclose(d, d[0]):
        return TestResult(0.0 if d[0] == 0 else np.sign(d[0]) * np.inf, 1.0 if d[0] == 0 else 0.0, float(d.mean()))
    r = stats.ttest_rel(a, b)
    return TestResult(float(r.statistic), float(r.pvalue), float(d.mean()))


def corrected_t_test(a, b, test_fraction):
    """Nadeau and Bengio's corrected resampled t-test.

    The variance of the mean difference over J folds is inflated from
    s^2 / J to (1 / J + n_test / n_train) s^2; with ``test_fraction`` =
    n_test / n (0.1 for 10-fold CV), n_test / n_train = f / (1 - f).

    Examples
    --------
    >>> r = corrected_t_test([0.9, 0.8, 0.85, 0.9], [0.8, 0.8, 0.8, 0.85], 0.25)
    >>> round(r.statistic, 3), round(r.p_value, 3)
    (1.604, 0.207)
    """
    d = np.asarray(a, float) - np.asarray(b, float)
    j = d.size
    var = d.var(ddof=1)
    ratio = test_fraction / (1 - test_fraction)
    if var == 0:
        mean = d.mean()
        return TestResult(0.0 if mean == 0 else np.sign(mean) * np.inf, 1.0 if mean == 0 else 0.0, float(mean))
    t = d.mean() / np.sqrt((1 / j + ratio) * var)
    p = 2 * stats.t.sf(abs(t), df=j - 1)
    return TestResult(float(t), float(p), float(d.mean()))


def wilcoxon_test(a, b):
    """Wilcoxon signed-rank test of per-data-set scores ``a`` against ``b`` (scipy's).

    Examples
    --------
    >>> r = wilcoxon_test([0.9, 0.8, 0.85, 0.7, 0.95], [0.8, 0.7, 0.8, 0.6, 0.9])
    >>> round(r.p_value, 4)
    0.0625
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = a - b
    if np.all(d == 0):
        return TestResult(0.0, 1.0, 0.0)
    r = stats.wilcoxon(a, b)
    return TestResult(float(r.statistic), float(r.pvalue), float(d.mean()))
