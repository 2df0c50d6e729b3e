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


def refit_leave_one_out_jll(model, X, y, attributes, k):
    """Each row's joint log-likelihood (n, K) under a fitted selective kDB's tables of ``attributes``
    (each with the first ``k`` of its parents), the class prior (Laplace) and the tables refitted
    without the row (the intervals and the structure fixed): leave-one-out by brute force."""
    from seminaive.components import ConditionalTable
    from seminaive.data.encoding import encode
    from seminaive.estimation import class_log_prior
    ycodes = np.searchsorted(model.classes_, y)
    n, K = len(y), len(model.classes_)
    jll = np.empty((n, K))
    for r in range(n):
        keep = np.arange(n) != r
        sub = encode(X[keep], model.schema_)
        jll[r] = class_log_prior(np.bincount(ycodes[keep], minlength=K).astype(float), "laplace")
        one = encode(X.iloc[[r]], model.schema_)
        for i in attributes:
            t = ConditionalTable(i, model.readers_[i], [model.readers_[p] for p in model._full_parents[i][:k]])
            t.estimate(t.count(sub, ycodes[keep], K, None), model._estimator())
            jll[r] += t.log_likelihood(one)[0]
    return jll, ycodes
