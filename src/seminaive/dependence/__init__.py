"""Dependence measures between attributes: MI, conditional MI, MIC."""

from .information import conditional_mutual_information, mutual_information
from .matrices import dependence_matrices, format_matrices, plot_matrices
from .mic import characteristic_matrix, mic

__all__ = ["mutual_information", "conditional_mutual_information", "mic", "characteristic_matrix",
           "dependence_matrices", "format_matrices", "plot_matrices"]
