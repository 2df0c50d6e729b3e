"""Dependence matrices over all attribute pairs of a data set, their text and heat maps."""


import numpy as np
import pandas as pd

from .._progress import step
from .._atomic import check_writable, save_figure
from ..data.encoding import encode
from ..discretize import apply_cuts, attribute_cuts
from ..report import format_table
from .information import conditional_mutual_information, mutual_information
from .mic import mic

__all__ = ["dependence_matrices", "format_matrices", "plot_matrices", "coded_columns"]


def coded_columns(dataset, n_bins=10):
    """Codes of every attribute (numeric ones cut into ``n_bins`` equal-width
    intervals) and the class codes."""
    schema = dataset.schema
    table = encode(dataset.X, schema)  # the one encoder: the schema's codes, numbers as floats
    codes = []
    for j, a in enumerate(schema.attributes):
        if a.is_nominal:
            codes.append(table.codes[:, schema.nominal_indices.index(j)].astype(np.int64))
        else:
            x = table.numeric[:, schema.numeric_indices.index(j)]
            cuts = attribute_cuts("equal_width", {j: x}, None, n_bins=n_bins)[j]  # the one cut learner
            codes.append(apply_cuts(x, cuts).astype(np.int64))
    return codes, dataset.y.cat.codes.to_numpy().astype(np.int64)


def dependence_matrices(dataset, n_bins=10, measures=("mi", "cmi", "mic")):
    """Symmetric matrices (DataFrames) of mutual information, conditional mutual
    information given the class, and MIC (numeric pairs only; others NaN). With
    fewer than two numeric attributes MIC would be empty: its entry is None.
    Long work shows its progress (pairs done) where progress is asked for (:mod:`seminaive._progress`).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> mats = dependence_matrices(load("iris"), measures=("mi",))
    >>> mats["mi"].shape
    (4, 4)
    """
    names = list(dataset.X.columns)
    codes, y = coded_columns(dataset, n_bins)
    d = len(names)
    out = {}
    numeric = [not a.is_nominal for a in dataset.schema.attributes]
    if sum(numeric) < 2 and "mic" in measures:
        measures = tuple(m for m in measures if m != "mic")
        out["mic"] = None
    for m in measures:
        total, done = d * (d + 1) // 2, 0
        M = np.full((d, d), np.nan)
        for i in range(d):
            for j in range(i, d):
                step(f"{m.upper()} pairs", done, total)
                done += 1
                if m == "mi":
                    v = mutual_information(codes[i], codes[j])
                elif m == "cmi":
                    v = conditional_mutual_information(codes[i], codes[j], y)
                elif numeric[i] and numeric[j]:
                    v = mic(dataset.X.iloc[:, i].to_numpy(float), dataset.X.iloc[:, j].to_numpy(float))
                else:
                    v = np.nan
                M[i, j] = M[j, i] = v
        step(f"{m.upper()} pairs", total, total)
        out[m] = pd.DataFrame(M, index=names, columns=names)
    return out


TITLES = {"mi": "mutual information (nats)", "cmi": "conditional mutual information given the class (nats)",
          "mic": "maximal information coefficient"}


BLANK = {"mic": "(blank: a pair not both numeric, MIC needs two numbers; and the diagonal)",
         "mi": "(blank: the diagonal, and pairs of no values)", "cmi": "(blank: the diagonal, and pairs of no values)"}


def format_matrices(mats, precision=3):
    """The matrices as aligned text tables, one after another.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> text = format_matrices(dependence_matrices(load("iris"), measures=("mi",)))
    >>> "petal_length" in text
    True
    """
    parts = []
    if "mic" in mats and mats["mic"] is None:
        parts += ["(no maximal information coefficient: it needs two numeric attributes)", ""]
    mats = {k: M for k, M in mats.items() if M is not None}
    for k, M in mats.items():
        parts.append(TITLES[k] + (" " + BLANK[k].replace("; and the diagonal", "") if k == "mic" and
                                  np.isnan(M.to_numpy()).any() else ""))
        parts.append(format_table([""] + list(M.columns),
                                  [[r] + ["" if np.isnan(v) else f"{v:.{precision}f}" for v in M.loc[r]]
                                   for r in M.index]))
        parts.append("")
    return "\n".join(parts).rstrip()


def plot_matrices(mats, path, overwrite=False):
    """Heat maps of the matrices side by side (diagonal left blank), written to ``path`` (PNG).

    Examples
    --------
    >>> import os, tempfile
    >>> from seminaive.datasets import load
    >>> path = os.path.join(tempfile.mkdtemp(), "deps.png")
    >>> _ = plot_matrices(dependence_matrices(load("iris"), measures=("mi",)), path)
    >>> os.path.exists(path)
    True
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    check_writable(path, overwrite)
    mats = {k: M for k, M in mats.items() if M is not None}  # an empty matrix gets no panel
    fig, axes = plt.subplots(1, len(mats), figsize=(5.2 * len(mats), 4.6))
    axes = np.atleast_1d(axes)
    for ax, (k, M) in zip(axes, mats.items()):
        A = M.to_numpy().copy()
        np.fill_diagonal(A, np.nan)  # self-dependence would swamp the scale
        im = ax.imshow(A, cmap="viridis")
        ax.set_xticks(range(len(M)))
        ax.set_yticks(range(len(M)))
        ax.set_xticklabels(M.columns, rotation=60, ha="right", fontsize=7)
        ax.set_yticklabels(M.index, fontsize=7)
        blank = np.isnan(M.to_numpy()[~np.eye(len(M), dtype=bool)]).any()
        ax.set_title(TITLES[k] + ("\n" + BLANK[k] if blank else "\n(diagonal blank: an attribute with itself)"),
                     fontsize=9)
        fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    return save_figure(fig, path, overwrite)
