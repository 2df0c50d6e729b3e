"""Scoring rules computed independently of seminaive.scoring, from scikit-learn's metrics where
they exist, for brute-force checks."""

import numpy as np
from sklearn import metrics


def reference_score(jll, y, scoring):
    """The rule's value of joint log-likelihoods (n, K) of finite rows against class codes ``y``."""
    log_p = jll - np.logaddexp.reduce(jll, axis=1, keepdims=True)
    p = np.exp(log_p)
    k = p.shape[1]
    onehot = np.eye(k)[y]
    if scoring == "accuracy":
        return metrics.accuracy_score(y, jll.argmax(axis=1))
    if scoring == "balanced_accuracy":
        return metrics.balanced_accuracy_score(y, jll.argmax(axis=1))
    if scoring == "log_loss":
        return float(-np.mean(log_p[np.arange(len(y)), y]))
    if scoring == "brier":
        if k == 2:
            return metrics.brier_score_loss(y == 1, p[:, 1])
        return float(np.mean(((p - onehot) ** 2).sum(axis=1)))
    if scoring == "rmse":
        return float(np.sqrt(metrics.mean_squared_error(onehot.ravel(), p.ravel())))
    raise ValueError(scoring)
