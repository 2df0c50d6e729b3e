"""Run Weka 3.6's BayesNet with its TAN search (Bayes score, SimpleEstimator alpha 0.5) on nominal data
without missing values and keep each attribute's parent as test data:
tests/data/reference/weka_tan.json (needs Java and Debian's weka package; the tests need neither).

    python scripts/reference/make_weka_tan.py
"""

import json
import re
import subprocess
import tempfile
from pathlib import Path

from seminaive.datasets import load

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "reference" / "weka_tan.json"
WEKA = "/usr/share/java/weka.jar"
ARFF = ["weather.nominal", "contact-lenses"]  # tests/data/weka
# (not tic-tac-toe: the board's symmetries make many gains equal in exact arithmetic, and Weka breaks those
# ties by its own floating-point rounding, seminaive by the attributes' order)
KEEL = ["keel:monk-2", "keel:chess", "keel:led7digit", "keel:housevotes", "keel:mushroom"]


def write_arff(name, path):
    d = load(name)
    X = d.X.astype(str)
    lines = [f"@relation {name.replace(':', '_')}"]
    for c in X.columns:
        values = sorted(set(X[c]))
        lines.append(f"@attribute '{c}' {{{','.join(values)}}}")
    y = d.y.astype(str)
    lines.append(f"@attribute class {{{','.join(sorted(set(y)))}}}")
    lines.append("@data")
    lines += [",".join(list(row) + [c]) for row, c in zip(X.itertuples(index=False), y)]
    path.write_text("\n".join(lines) + "\n")


def weka_parents(path):
    out = subprocess.run(["java", "-cp", WEKA, "weka.classifiers.bayes.BayesNet", "-t", str(path), "-no-cv",
                          "-Q", "weka.classifiers.bayes.net.search.local.TAN", "--", "-S", "BAYES",
                          "-E", "weka.classifiers.bayes.net.estimate.SimpleEstimator", "--", "-A", "0.5"],
                         capture_output=True, text=True, check=True).stdout
    block = out.split("Network structure (nodes followed by parents)")[1].split("LogScore")[0]
    rows = [re.match(r"(.+?)\(\d+\): ?(.*)$", line.strip()) for line in block.strip().splitlines()]
    names = [r.group(1) for r in rows]
    parents = {}
    for r in rows[:-1]:  # the class node last
        ps = r.group(2).split()
        extra = [p for p in ps if p != names[-1]]
        parents[r.group(1)] = extra[0] if extra else None
    return parents


def main():
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ARFF + KEEL:
            path = ROOT / "tests" / "data" / "weka" / f"{name}.arff" if name in ARFF else Path(tmp) / "data.arff"
            if name not in ARFF:
                write_arff(name, path)
            result[name] = weka_parents(path)
            print(name, result[name])
    OUT.write_text(json.dumps({"source": "Weka 3.6 BayesNet -Q ...local.TAN -- -S BAYES, SimpleEstimator -A 0.5 "
                                         "(scripts/reference/make_weka_tan.py)", "parents": result}, indent=1) + "\n")


if __name__ == "__main__":
    main()
