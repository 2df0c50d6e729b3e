"""Calibrated probabilities: a model's own out-of-sample probabilities mapped
by Platt scaling, isotonic regression or a temperature."""

from .calibrated import Calibrated
from .calibrators import CALIBRATORS, Isotonic, Sigmoid, Temperature

__all__ = ["Calibrated", "CALIBRATORS", "Isotonic", "Sigmoid", "Temperature"]
