"""Plots of a Normal-Gamma prior and posterior (as the thesis's Figures 2.8-2.9)."""


import numpy as np
from scipy.special import gammaln

from .._atomic import check_writable, save_figure
from .._scale import stats_scale
from ..exceptions import ParameterError
from .bayesian import normal_gamma_posterior

__all__ = ["normal_gamma_logpdf", "plot_prior_posterior"]


def normal_gamma_logpdf(mu, lam, m, k, a, b):
    """log NG(mu, lam | m, k, a, b) over mean ``mu`` and precision ``lam`` (thesis Eq. 2.4)."""
    return (a * np.log(b) + 0.5 * np.log(k) - gammaln(a) - 0.5 * np.log(2 * np.pi)
            + (a - 0.5) * np.log(lam) - b * lam - 0.5 * k * lam * (mu - m) ** 2)


def plot_prior_posterior(model, attribute, cls, path, overwrite=False):
    """Contour plots of the prior and the posterior density of (mean, precision)
    of one Gaussian attribute in one class of a NaiveBayes fitted with
    ``estimation="map"`` or ``"predictive"``; the MAP is marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(model.schema_.names)
    if attribute not in names:
        raise ParameterError(f"attribute: expected one of {', '.join(names)}, got {attribute!r}")
    j = names.index(attribute)
    comp = model.components_[j]
    if comp.kind != "gaussian":
        raise ParameterError(f"attribute: {attribute!r} is not a Gaussian attribute")
    classes = [str(c) for c in model.classes_]
    if str(cls) not in classes:
        raise ParameterError(f"cls: expected one of {', '.join(classes)}, got {cls!r}")
    c = classes.index(str(cls))
    st = model.stats_[j]
    est = model._estimator(attribute)
    s = stats_scale(st)  # the statistics' units back to the data's: mean x s, b x s^2
    (mn, kn, an, bn), (m0, k0, a0, b0) = normal_gamma_posterior(st["weight"], st["mean"], st["m2"],
                                                                getattr(est, "prior", None), s)
    post = (mn[c] * s, kn[c], an[c], bn[c] * s * s)
    m0, b0 = m0 * s, b0 * s * s
    check_writable(path, overwrite)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.3))
    for ax, (m, k, a, b), title in ((axes[0], (m0, k0, a0, b0), "prior"), (axes[1], post, "posterior")):
        lam_mode = (a - 0.5) / b
        sd_mu = 1 / np.sqrt(k * lam_mode) if lam_mode > 0 else 1.0
        mus = np.linspace(m - 4 * sd_mu, m + 4 * sd_mu, 200)
        lams = np.linspace(max(lam_mode, 1e-12) * 1e-3, (a + 4 * np.sqrt(a)) / b, 200)
        MU, LAM = np.meshgrid(mus, lams)
        Z = np.exp(normal_gamma_logpdf(MU, LAM, m, k, a, b))
        cs = ax.contourf(MU, LAM, Z, levels=20, cmap="viridis")
        fig.colorbar(cs, ax=ax)
        ax.plot([m], [lam_mode], "r+", markersize=12, label=f"mode ({m:.3g}, {lam_mode:.3g})")
        ax.set_xlabel("mean")
        ax.set_ylabel("precision")
        ax.set_title(f"{title}: NG({m:.3g}, {k:.3g}, {a:.3g}, {b:.3g})", fontsize=9)
        ax.legend(fontsize=8)
    fig.suptitle(f"{attribute} given class {cls}")
    fig.tight_layout()
    return save_figure(fig, path, overwrite)
