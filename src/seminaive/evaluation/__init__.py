"""Evaluation: resampling, measures and experiments."""

from .holdout import EvaluationResult, evaluate, split_indices

__all__ = ["evaluate", "EvaluationResult", "split_indices"]
