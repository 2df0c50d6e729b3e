"""Calibration from leave-one-out against scikit-learn's CalibratedClassifierCV, and WANBIA.

    python benchmarks/bench_calibration.py [--datasets iris,keel:pima,...] [--folds 10] [--plot calibration.png]

On the same stratified folds of every data set (the 20 sets of `make demo` by
default), each model is fitted on the training part and judged on the test part:

- nb: Naive Bayes;
- loo-isotonic, loo-sigmoid, loo-temperature: Calibrated(NaiveBayes(), method), the map fitted on
  the model's exact leave-one-out probabilities (one fit, no refit);
- ccv-isotonic, ccv-sigmoid: scikit-learn's CalibratedClassifierCV(NaiveBayes(), method, cv=5)
  (5 refits, an ensemble of the 5 calibrated fold models);
- wanbia: WANBIA (attribute weights by conditional log-likelihood).

Printed: log loss, Brier score and accuracy per data set (mean over the test folds;
log loss with probabilities clipped to [eps, 1 - eps] as scikit-learn clips them), their averages,
wins of each calibrated model over nb in log loss, and the fit time of each model
summed over every fold of every data set (wall clock, perf_counter), with the ratio
of CalibratedClassifierCV's fit time to the LOO calibration's of the same method.
"""

import argparse
import time

import numpy as np

from seminaive import NaiveBayes
from seminaive.calibration import Calibrated
from seminaive.datasets import load_any
from seminaive.evaluation.reliability import probability_measures
from seminaive.evaluation.resampling import kfold
from seminaive.wanbia import WANBIA

SUITE = ("iris,keel:wine,keel:pima,keel:heart,keel:breast,keel:crx,keel:monk-2,keel:tic-tac-toe,keel:housevotes,"
         "keel:sonar,keel:ionosphere,keel:bupa,keel:led7digit,keel:wdbc,keel:german,keel:australian,keel:vehicle,"
         "keel:mushroom,keel:splice,keel:chess")


def models():
    from sklearn.calibration import CalibratedClassifierCV
    out = {"nb": NaiveBayes()}
    for m in ("isotonic", "sigmoid", "temperature"):
        out[f"loo-{m}"] = Calibrated(NaiveBayes(), method=m)
    for m in ("isotonic", "sigmoid"):
        out[f"ccv-{m}"] = CalibratedClassifierCV(NaiveBayes(), method=m, cv=5)
    out["wanbia"] = WANBIA()
    return out


def run(names, folds):
    from sklearn.base import clone
    table, seconds = {}, {}
    for name in names:
        d = load_any(name)
        X, y = d.X, np.asarray(d.y, dtype=object).astype(str)
        labels = sorted(set(y))
        splits = kfold(y, folds, 0)
        row = {}
        for key, model in models().items():
            got = {"log_loss": [], "brier": [], "accuracy": []}
            for tr, te in splits:
                m = clone(model)
                t0 = time.perf_counter()
                m.fit(X.iloc[tr], y[tr])
                seconds[key] = seconds.get(key, 0.0) + time.perf_counter() - t0
                proba = np.zeros((len(te), len(labels)))
                proba[:, [labels.index(c) for c in m.classes_]] = m.predict_proba(X.iloc[te])
                codes = np.array([labels.index(c) for c in y[te]])
                ms = probability_measures(proba, codes)
                got["log_loss"].append(ms["log_loss"])
                got["brier"].append(ms["brier"])
                got["accuracy"].append(float(np.mean(proba.argmax(axis=1) == codes)))
            row[key] = {k: float(np.mean(v)) for k, v in got.items()}
        table[d.name] = row
        print(f"  {d.name}: " + ", ".join(f"{k} {v['log_loss']:.4f}" for k, v in row.items()), flush=True)
    return table, seconds


def report(table, seconds):
    keys = list(next(iter(table.values())))
    for what, fmt in (("log_loss", "{:.4f}"), ("brier", "{:.4f}"), ("accuracy", "{:.2%}")):
        print(f"\n{what} per data set (mean over the test folds)\n")
        print("| data set | " + " | ".join(keys) + " |")
        print("|---" * (len(keys) + 1) + "|")
        for ds, row in table.items():
            vals = [row[k][what] for k in keys]
            best = (max if what == "accuracy" else min)(vals)
            print(f"| {ds} | " + " | ".join(("**" + fmt.format(v) + "**") if v == best else fmt.format(v)
                                            for v in vals) + " |")
        print("| average | " + " | ".join(fmt.format(np.mean([r[k][what] for r in table.values()]))
                                        for k in keys) + " |")
    print("\nlog loss below nb's on how many data sets:")
    for k in keys[1:]:
        wins = sum(r[k]["log_loss"] < r["nb"]["log_loss"] for r in table.values())
        print(f"  {k}: {wins} of {len(table)}")
    print("\nfit time, every fold of every data set (seconds):")
    for k in keys:
        print(f"  {k:<16} {seconds[k]:8.3f}")
    for m in ("isotonic", "sigmoid"):
        print(f"  ccv-{m} / loo-{m} fit time: {seconds[f'ccv-{m}'] / seconds[f'loo-{m}']:.1f}x")


def plot(table, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    keys = [k for k in next(iter(table.values())) if k != "nb"]
    sets = list(table)
    fig, ax = plt.subplots(figsize=(12, 4.8))
    width = 0.8 / len(keys)
    x = np.arange(len(sets))
    for i, k in enumerate(keys):
        ratio = [table[s][k]["log_loss"] / table[s]["nb"]["log_loss"] for s in sets]
        ax.bar(x + (i - (len(keys) - 1) / 2) * width, ratio, width, label=k)
    ax.axhline(1.0, color="0.3", lw=1)
    ax.set_xticks(x)
    ax.set_xticklabels(sets, rotation=35, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("test log loss / Naive Bayes's (log scale; below 1: better)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("Calibrated Naive Bayes and WANBIA against Naive Bayes, same folds")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"\nplot: {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default=SUITE)
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--plot", default=None)
    args = ap.parse_args()
    table, seconds = run(args.datasets.split(","), args.folds)
    report(table, seconds)
    if args.plot:
        plot(table, args.plot)


if __name__ == "__main__":
    main()
