"""The comparison report: tables, significance marks, plots, Markdown and HTML.

Marks compare each model with the baseline on each data set by the corrected
resampled t-test at 5%: ``(+)`` significantly better, ``(-)`` worse.
"""

import html
import json
import os
import re
import sys

import numpy as np

from .._atomic import atomic_write_text, check_writable, save_figure
from .experiment import folder_lock, run_locked
from .metrics import summarize
from .reliability import expected_calibration_error, plot_reliability
from .significance import corrected_t_test, wilcoxon_test

__all__ = ["comparison_table", "write_report", "markdown_to_html", "run_and_report", "REPORT_FILES"]

# what a report writes into its folder (besides results.csv and experiment.json)
REPORT_FILES = ("report.md", "report.html", "results.json", "accuracy.png", "cpu_time.png", "reliability.png")


def _order(values):
    return list(dict.fromkeys(values))


def _test_fraction(results):
    return float((results["n_test"] / (results["n_train"] + results["n_test"])).mean())


def _marks(results, baseline, level=0.05):
    """{(dataset, model): "+" / "-" / ""} by the corrected resampled t-test."""
    frac = _test_fraction(results)
    out = {}
    for (ds, model), g in results.groupby(["dataset", "model"], sort=False):
        if model == baseline:
            out[(ds, model)] = ""
            continue
        base = results[(results["dataset"] == ds) & (results["model"] == baseline)].sort_values("split")
        g = g.sort_values("split")
        if len(base) != len(g) or len(g) < 2 or g["n_test"].max() == 1:
            out[(ds, model)] = ""
            continue
        r = corrected_t_test(g["accuracy"].to_numpy(), base["accuracy"].to_numpy(), frac)
        out[(ds, model)] = ("+" if r.mean_difference > 0 else "-") if r.significant(level) else ""
    return out


def comparison_table(results, baseline, precision=2):
    """Markdown: accuracy % (mean +- sd over splits) per data set and model, with
    significance marks against ``baseline``, then wins/ties/losses and the average.

    Examples
    --------
    >>> import tempfile
    >>> from seminaive import NaiveBayes, OneR
    >>> from seminaive.evaluation.experiment import Experiment, run_experiment
    >>> from seminaive.evaluation.resampling import Protocol
    >>> res = run_experiment(Experiment({"nb": NaiveBayes(), "1r": OneR()}, ["iris"], Protocol(folds=3)),
    ...                      tempfile.mkdtemp(), progress=None)
    >>> print(comparison_table(res, "nb").splitlines()[0])
    | data set | nb | 1r |
    """
    models, sets = _order(results["model"]), _order(results["dataset"])
    marks = _marks(results, baseline)
    stats = results.groupby(["dataset", "model"], sort=False)["accuracy"].agg(["mean", "std"])
    lines = ["| data set | " + " | ".join(models) + " |", "|---" * (len(models) + 1) + "|"]
    for ds in sets:
        shown = {m: f"{100 * stats.loc[(ds, m), 'mean']:.{precision}f}" for m in models}  # ties as printed
        best = shown[max(models, key=lambda m: stats.loc[(ds, m), "mean"])]
        cells = []
        for m in models:
            mean, sd = stats.loc[(ds, m), "mean"], stats.loc[(ds, m), "std"]
            cell = f"{100 * mean:.{precision}f} ± {100 * (0 if np.isnan(sd) else sd):.{precision}f}"
            mk = marks.get((ds, m), "")
            cells.append((f"**{cell}**" if shown[m] == best else cell) + (f" ({mk})" if mk else ""))
        lines.append(f"| {ds} | " + " | ".join(cells) + " |")
    wtl = []
    for m in models:
        if m == baseline:
            wtl.append("baseline")
            continue
        v = [marks[(ds, m)] for ds in sets]
        wtl.append(f"{v.count('+')}/{len(v) - v.count('+') - v.count('-')}/{v.count('-')}")
    lines.append("| wins/ties/losses | " + " | ".join(wtl) + " |")
    avg = results.groupby("model", sort=False)["accuracy"].mean()
    lines.append("| average | " + " | ".join(f"{100 * avg[m]:.{precision}f}" for m in models) + " |")
    return "\n".join(lines)


def _wilcoxon_lines(results, baseline):
    means = results.groupby(["model", "dataset"], sort=False)["accuracy"].mean()
    sets = _order(results["dataset"])
    out = []
    if len(sets) < 2:
        return out
    for m in _order(results["model"]):
        if m == baseline:
            continue
        r = wilcoxon_test([means[(m, d)] for d in sets], [means[(baseline, d)] for d in sets])
        out.append(f"| {m} | {100 * r.mean_difference:+.2f} | {r.statistic:g} | {r.p_value:.4f} |")
    return ["| model | mean difference (points) | W | p |", "|---|---|---|---|"] + out


def _per_class_lines(results):
    lines = []
    for ds, g in results.groupby("dataset", sort=False):
        rows = {}
        for m, gm in g.groupby("model", sort=False):
            recs = [json.loads(r) for r in gm["recall"]]
            classes = list(recs[0])
            rows[m] = {c: summarize([r[c] for r in recs])["mean"] for c in classes}
        classes = list(next(iter(rows.values())))
        lines += [f"**{ds}**", "", "| model | " + " | ".join(map(str, classes)) + " |",
                  "|---" * (len(classes) + 1) + "|"]
        lines += [f"| {m} | " + " | ".join(f"{100 * v:.1f}" for v in r.values()) + " |" for m, r in rows.items()]
        lines.append("")
    return lines


def _cpu_lines(results):
    models = _order(results["model"])
    t = results.assign(cpu=results["fit_cpu"] + results["predict_cpu"]).groupby(
        ["dataset", "model"], sort=False)["cpu"].mean()
    lines = ["| data set | " + " | ".join(models) + " |", "|---" * (len(models) + 1) + "|"]
    for ds in _order(results["dataset"]):
        lines.append(f"| {ds} | " + " | ".join(f"{1000 * t[(ds, m)]:.1f}" for m in models) + " |")
    return lines


def _plots(results, folder):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    models, sets = _order(results["model"]), _order(results["dataset"])
    paths = []
    for what, fname, ylabel in (("accuracy", "accuracy.png", "accuracy (%)"),
                                ("cpu", "cpu_time.png", "CPU time per split, fit + predict (ms)")):
        r = results.assign(cpu=1000 * (results["fit_cpu"] + results["predict_cpu"]), accuracy=100 * results["accuracy"])
        g = r.groupby(["dataset", "model"], sort=False)[what].agg(["mean", "std"])
        fig, ax = plt.subplots(figsize=(min(16, max(6, 1.1 * len(sets) * max(1, len(models)) / 3 + 2)), 4.8))
        width = 0.8 / len(models)
        x = np.arange(len(sets))
        for k, m in enumerate(models):
            mean = np.array([g.loc[(d, m), "mean"] for d in sets])
            sd = np.nan_to_num(np.array([g.loc[(d, m), "std"] for d in sets]))
            # error bars of one sd, cut at 0 and 100%: accuracy cannot leave them
            err = np.vstack([np.minimum(sd, mean), np.minimum(sd, 100 - mean)]) if what == "accuracy" else None
            ax.bar(x + (k - (len(models) - 1) / 2) * width, mean, width, yerr=err, label=m, capsize=2)
        ax.set_xticks(x)
        ax.set_xticklabels(sets, rotation=35, ha="right")
        ax.set_ylabel(ylabel)
        if what == "cpu":
            ax.set_yscale("log")
        else:
            ax.set_ylim(0, 100)  # bars start at zero, or their lengths mislead
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), title="model")  # beside, not over, the bars
        ax.set_title("Accuracy per data set and model" if what == "accuracy" else "CPU time per data set and model")
        fig.tight_layout()
        save_figure(fig, os.path.join(folder, fname), overwrite=True)
        paths.append(fname)
    return paths


def _probability_lines(results, folder):
    """The probabilities' section: proper scoring rules per data set and model, and a reliability
    diagram per model from the test parts of every split of every data set."""
    pooled = {}
    for m, g in results.groupby("model", sort=False):
        bins = [json.loads(b) for b in g["reliability"] if isinstance(b, str) and b]
        if bins:
            pooled[m] = {k: np.sum([b[k] for b in bins], axis=0) for k in ("count", "confidence", "right")}
    if not pooled:
        return []
    models, sets = list(pooled), _order(results["dataset"])
    mean = results.groupby(["dataset", "model"], sort=False)[["log_loss", "brier"]].mean()
    lines = ["## Probabilities", "",
             "Proper scoring rules of the test parts' probabilities (lower is better; log loss with "
             "probabilities clipped to [eps, 1 - eps], eps the machine epsilon, as scikit-learn clips them; "
             "Brier as scikit-learn's for two classes, the multi-class score otherwise), mean over splits; "
             "the best log loss and the best Brier per data set in bold.", "",
             "| data set | " + " | ".join(f"{m} log loss / Brier" for m in models) + " |",
             "|---" * (len(models) + 1) + "|"]
    for ds in sets:
        best = {k: f"{min(mean.loc[(ds, m), k] for m in models):.3f}" for k in ("log_loss", "brier")}  # as printed
        cells = [" / ".join(f"**{v:.3f}**" if f"{v:.3f}" == best[k] else f"{v:.3f}"
                            for k, v in ((k, mean.loc[(ds, m), k]) for k in ("log_loss", "brier")))
                 for m in models]  # each measure bold where it is the best
        lines.append(f"| {ds} | " + " | ".join(cells) + " |")
    avg = results.groupby("model", sort=False)[["log_loss", "brier", "rmse", "ece"]].mean()
    lines += ["", "| model | log loss | Brier | RMSE | ECE per split | ECE pooled |", "|---|---|---|---|---|---|"]
    lines += [f"| {m} | {avg.loc[m, 'log_loss']:.4f} | {avg.loc[m, 'brier']:.4f} | {avg.loc[m, 'rmse']:.4f} | "
              f"{avg.loc[m, 'ece']:.4f} | {expected_calibration_error(pooled[m]):.4f} |" for m in models]
    plot_reliability(pooled, os.path.join(folder, "reliability.png"), overwrite=True,
                     title="Reliability of the test parts' probabilities, all data sets")
    return lines + ["", "Reliability diagrams: the confidence of each test prediction against how often it "
                        "was right, pooled over every split and data set (on the diagonal: calibrated).", "",
                    "![reliability](reliability.png)", ""]


def _align(cell, tag, j):
    """Numbers right-aligned, text (and the first column) left.

    >>> _align("**0.123** / 0.2", "td", 1), _align("nb-isotonic", "td", 1), _align("75.1%", "td", 0)
    ('', ' class="t"', ' class="t"')
    """
    numeric = re.fullmatch(r"[\d\s.,%/+*()eE\-]*\d[\d\s.,%/+*()eE\-]*", cell.replace("**", ""))
    return "" if (numeric and j > 0) else ' class="t"'


def markdown_to_html(text, title="report"):
    """HTML for the Markdown this module writes (headings, tables, images, paragraphs).

    Examples
    --------
    >>> "<h1>Title</h1>" in markdown_to_html("# Title")
    True
    """
    out, table = [], []

    def inline(s):
        s = html.escape(s)
        parts = s.split("**")
        return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))

    def flush():
        if table:
            rows = [r for r in table if not set(r.replace("|", "").strip()) <= set("-: ")]
            out.append("<table>")
            for i, r in enumerate(rows):
                tag = "th" if i == 0 else "td"
                cells = [c.strip() for c in r.strip().strip("|").split("|")]
                out.append("<tr>" + "".join(f"<{tag}{_align(c, tag, j)}>{inline(c)}</{tag}>"
                                            for j, c in enumerate(cells)) + "</tr>")
            out.append("</table>")
            table.clear()

    for line in text.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level}>{inline(line[level:].strip())}</h{level}>")
        elif line.startswith("![") and "](" in line:
            alt, src = line[2:].split("](", 1)
            out.append(f'<p><img src="{html.escape(src.rstrip(")"))}" alt="{html.escape(alt)}"></p>')
        elif line.strip():
            out.append(f"<p>{inline(line)}</p>")
    flush()
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse;"
             "margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}"
             ".t{text-align:left}img{max-width:100%}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(out) + "\n</body></html>\n")


def write_report(results, folder, protocol_text, baseline, descriptions=None):
    """Write report.md, report.html, accuracy.png, cpu_time.png, reliability.png and results.json
    into ``folder`` (each atomically); return the Markdown report's path.

    Examples
    --------
    >>> import os, tempfile
    >>> from seminaive import NaiveBayes
    >>> from seminaive.evaluation.experiment import Experiment, run_experiment
    >>> from seminaive.evaluation.resampling import Protocol
    >>> folder = tempfile.mkdtemp()
    >>> res = run_experiment(Experiment({"nb": NaiveBayes()}, ["iris"], Protocol(folds=3)), folder, progress=None)
    >>> os.path.basename(write_report(res, folder, "3-fold", "nb"))
    'report.md'
    """
    models, sets = _order(results["model"]), _order(results["dataset"])
    plots = _plots(results, folder)
    md = ["# Comparison of classifiers", "",
          f"Protocol: {protocol_text}. Every model sees the same splits; a model that searches or "
          f"tunes itself does so inside each training part (nested evaluation).", "",
          f"Data sets: {len(sets)}. Models: {len(models)}. Baseline for the marks: {baseline}.", ""]
    if descriptions:
        md += ["| model | what it is |", "|---|---|"] + [f"| {m} | {descriptions.get(m, '')} |" for m in models] + [""]
    md += ["## Accuracy (%)", "",
           "Mean ± standard deviation over splits; best per data set in bold; (+) / (-): significantly "
           "better / worse than the baseline (corrected resampled t-test, Nadeau and Bengio, 5%).", "",
           comparison_table(results, baseline), "", f"![accuracy]({plots[0]})", ""]
    wl = _wilcoxon_lines(results, baseline)
    if wl:
        md += ["## Across data sets", "", "Wilcoxon signed-rank test of mean accuracies against the baseline.", ""]
        md += wl + [""]
    md += ["## Correct classification rate per class (%)", ""] + _per_class_lines(results)
    md += ["## CPU time (ms per split, fit + predict)", ""] + _cpu_lines(results) + ["", f"![cpu time]({plots[1]})", ""]
    md += _probability_lines(results, folder)
    other = results.groupby("model", sort=False)[["kappa", "macro_f1", "auc", "n_attributes"]].mean()
    md += ["## Other measures (mean over all splits)", "",
           "| model | kappa | macro F1 | AUC | attributes used |", "|---|---|---|---|---|"]
    md += [f"| {m} | {r.kappa:.3f} | {r.macro_f1:.3f} | {r.auc:.3f} | {r.n_attributes:.1f} |"
           for m, r in other.iterrows()]
    md += ["", "Raw results per split: results.csv (and results.json)."]
    text = "\n".join(md) + "\n"
    path = os.path.join(folder, "report.md")
    atomic_write_text(path, text, overwrite=True)
    atomic_write_text(os.path.join(folder, "report.html"), markdown_to_html(text, "seminaive comparison"),
                      overwrite=True)
    summary = results.groupby(["dataset", "model"], sort=False)["accuracy"].agg(["mean", "std"]).reset_index()
    atomic_write_text(os.path.join(folder, "results.json"),
                      json.dumps({"protocol": protocol_text, "baseline": baseline,
                                  "summary": summary.to_dict(orient="records"),
                                  "splits": results.to_dict(orient="records")}, indent=1, default=float) + "\n",
                      overwrite=True)
    return path


def run_and_report(experiment, folder, protocol_text, descriptions=None, resume=True, overwrite=False,
                   progress="stderr"):
    """Run (or resume) ``experiment`` in ``folder`` and write its report there, holding the folder
    throughout: a second run on the same folder is refused until both are done (so it cannot clear
    this run's temporary files while the report is being written). Returns ``(results, report path)``.

    Examples
    --------
    >>> import tempfile
    >>> from seminaive import NaiveBayes
    >>> from seminaive.evaluation.experiment import Experiment
    >>> from seminaive.evaluation.resampling import Protocol
    >>> res, path = run_and_report(Experiment({"nb": NaiveBayes()}, ["iris"], Protocol(folds=3)),
    ...                            tempfile.mkdtemp(), "3-fold", progress=None)
    >>> len(res), os.path.basename(path)
    (3, 'report.md')
    """
    if progress == "stderr":
        progress = sys.stderr
    os.makedirs(folder, exist_ok=True)
    for name in REPORT_FILES:  # a link where the report goes is refused before the work, not after it
        check_writable(os.path.join(folder, name), overwrite=True)
    with folder_lock(folder):
        results = run_locked(experiment, folder, resume, overwrite, progress)
        return results, write_report(results, folder, protocol_text, experiment.baseline, descriptions)
