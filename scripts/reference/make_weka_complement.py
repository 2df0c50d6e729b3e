"""Weka 3.6's ComplementNaiveBayes on generated count data, kept as test data
(tests/data/reference/weka_complement.json, the data with the classes Weka chose)
so that the tests need no Java.

Weka's ComplementNaiveBayes gives no probabilities: its distributionForInstance is
the one-hot vector of classifyInstance (the class of least complement score), which
WekaProba.java prints for every training instance. Each set: rows of Poisson counts
whose rates depend on the class, classes of unequal sizes (where complement Naive
Bayes differs from the multinomial model), written as ARFF; options -S (smoothing)
and -N (normalized word weights).

Needs the Debian package weka (/usr/share/java/weka.jar) and a JDK (javac).

    python scripts/reference/make_weka_complement.py
"""

import json
import pathlib

import numpy as np
from weka_proba import weka_proba

HERE = pathlib.Path(__file__).resolve().parents[2]
OUT = HERE / "tests" / "data" / "reference" / "weka_complement.json"
SETS = [(0, 60, 8, 2), (1, 120, 15, 3), (2, 200, 30, 4), (3, 90, 5, 5)]  # seed, rows, features, classes
OPTIONS = [("S1", ["-S", "1.0"]), ("S0.5-N", ["-S", "0.5", "-N"]), ("S2", ["-S", "2.0"])]


def counts(seed, n, d, k):
    rng = np.random.default_rng(seed)
    y = rng.choice(k, size=n, p=np.arange(1, k + 1) / np.arange(1, k + 1).sum())  # unequal classes
    rates = rng.gamma(1.0, 1.5, size=(k, d))
    X = rng.poisson(rates[y])
    return X, y


def write_arff(path, X, y, k):
    lines = ["@relation counts"] + [f"@attribute w{j} numeric" for j in range(X.shape[1])]
    lines.append("@attribute class {" + ",".join(f"c{c}" for c in range(k)) + "}")
    lines.append("@data")
    lines += [",".join(map(str, row)) + f",c{c}" for row, c in zip(X.tolist(), y.tolist())]
    path.write_text("\n".join(lines) + "\n")


def main():
    out = {}
    with weka_proba() as run:
        tmp = run.folder
        for seed, n, d, k in SETS:
            X, y = counts(seed, n, d, k)
            write_arff(tmp / "data.arff", X, y, k)
            entry = {"X": X.tolist(), "y": [f"c{c}" for c in y.tolist()], "predicted": {}}
            for name, opts in OPTIONS:
                rows = run("weka.classifiers.bayes.ComplementNaiveBayes", tmp / "data.arff", *opts, memory="1g")
                entry["predicted"][name] = [f"c{int(np.argmax(r))}" for r in rows]
            out[f"seed{seed}"] = entry
            print(seed, n, d, k, flush=True)
    OUT.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
