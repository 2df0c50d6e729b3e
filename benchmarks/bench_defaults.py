"""Defaults chosen by the halves: each candidate setting against the current default on the 23 sets
of ``bench_rival.py`` (stratified 10-fold, the same folds for every model), judged separately on the
tuning and the checking half (``halves.py``); a default changes only when both halves agree.

    python benchmarks/bench_defaults.py [--cv 10] [--seed 0] [--jobs 2] [--folder DIR]
                                        [--pairs tan-bayes:tan,kdb1-bayes:kdb1,...]

Pairs (candidate:incumbent): TAN, kDB (k = 1, 2), selective kDB and ESKDB with the Bayes arc score
against conditional mutual information (each model's default estimation; the pairs name the arc
score explicitly, so they measure the same thing whatever the defaults), and ESKDB with k <= 2 and
discriminative weights against ESKDB's default. Prints per model the means on each half, per pair the halves'
verdict, and writes the per-fold results (resumable) and a report under ``--folder``.
"""

import argparse
import os
import sys
import tempfile


from halves import CHECKING, TUNING, half_lines, run_sets, verdict

PAIRS = ("tan-bayes:tan", "kdb1-bayes:kdb1", "kdb2-bayes:kdb2", "skdb-bayes:skdb")
MORE = ("eskdb-bayes:eskdb", "eskdb-k2-disc:eskdb")  # slow: run with --pairs


def _models(names):
    from seminaive import ESKDB, KDB, TAN, SelectiveKDB
    every = {"tan": lambda: TAN(arc_score="cmi"), "tan-bayes": lambda: TAN(arc_score="bayes"),
             "kdb1": lambda: KDB(k=1, arc_score="cmi"), "kdb1-bayes": lambda: KDB(k=1, arc_score="bayes"),
             "kdb2": lambda: KDB(k=2, arc_score="cmi"), "kdb2-bayes": lambda: KDB(k=2, arc_score="bayes"),
             "skdb": lambda: SelectiveKDB(arc_score="cmi"), "skdb-bayes": lambda: SelectiveKDB(arc_score="bayes"),
             "eskdb": lambda: ESKDB(arc_score="cmi"), "eskdb-bayes": lambda: ESKDB(arc_score="bayes"),
             "eskdb-k2-disc": lambda: ESKDB(k=2, discriminative="parameter")}
    return {n: every[n]() for n in names}


def _run(job):
    """One data set's folds for every model, in its own folder (a process of the pool)."""
    import warnings
    warnings.simplefilter("ignore")
    from seminaive.evaluation.experiment import Experiment, run_experiment
    from seminaive.evaluation.resampling import Protocol
    name, cv, seed, folder, names = job
    exp = Experiment(_models(names), [name], Protocol("kfold", cv, seed=seed), baseline=names[0])
    return run_experiment(exp, os.path.join(folder, name.replace(":", "_")), progress=None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cv", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--folder", default=None, help="keep (and resume) the per-fold results here")
    ap.add_argument("--pairs", default=",".join(PAIRS), help=f"candidate:incumbent pairs among "
                                                           f"{', '.join(PAIRS + MORE)}")
    args = ap.parse_args()
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    if any(len(p) != 2 or f"{p[0]}:{p[1]}" not in PAIRS + MORE for p in pairs):
        ap.error(f"--pairs: expected some of {', '.join(PAIRS + MORE)}, got {args.pairs}")
    names = list(dict.fromkeys(m for p in pairs for m in p))
    folder = args.folder or tempfile.mkdtemp(prefix="bench-defaults-")
    sets = list(TUNING + CHECKING)
    print(f"stratified {args.cv}-fold, seed {args.seed}, {len(sets)} data sets, models {', '.join(names)}: {folder}",
          file=sys.stderr)
    res = run_sets(_run, [(s, args.cv, args.seed, folder, names) for s in sets], args.jobs)
    per = res.groupby(["dataset", "model"])[["accuracy", "log_loss"]].mean().unstack()
    acc, ll = 100 * per["accuracy"][names], per["log_loss"][names]
    lines = [f"stratified {args.cv}-fold, seed {args.seed}; tuning half: {', '.join(TUNING)}; "
             f"checking half: {', '.join(CHECKING)}", ""] + half_lines(acc, ll) + [""]
    lines += [verdict(acc, ll, a, b)[1] for a, b in pairs]
    print("\n".join(lines))
    with open(os.path.join(folder, "defaults.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
