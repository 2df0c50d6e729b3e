"""Run the authors' HDP estimator (github.com/fpetitjean/HDP, Java) on small random tables and keep
its averaged leaf probabilities (mean and standard deviation over independent runs) as test data,
so that the tests need no Java: tests/data/reference/hdp_reference.json.

Usage (needs a JDK and a checkout of fpetitjean/HDP with its lib/ jars):
    python scripts/reference/hdp/make_hdp_reference.py /path/to/HDP
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[2] / "tests" / "data" / "reference" / "hdp_reference.json"
RUNS, ITERATIONS = 40, 2000
TYINGS = {"none": 0, "parent": 1, "level": 2, "single": 3}
CASES = [  # name, child values, conditioning arities (class first), rows, tying
    ("class only", 3, [2], 30, "level"),
    ("one parent", 2, [2, 3], 40, "level"),
    ("two parents", 3, [3, 2, 2], 80, "level"),
    ("two parents, single", 3, [3, 2, 2], 80, "single"),
    ("two parents, parent", 3, [2, 3, 2], 60, "parent"),
]


def rows_for(rng, m, arities, n):
    """Rows whose child depends on the class and the first parent, so that the levels differ."""
    cond = np.column_stack([rng.integers(0, a, n) for a in arities])
    logits = rng.normal(size=(int(np.prod(arities[:2])), m)) * 1.5
    key = cond[:, 0] * (arities[1] if len(arities) > 1 else 1) + (cond[:, 1] if len(arities) > 1 else 0)
    p = np.exp(logits[key])
    p /= p.sum(axis=1, keepdims=True)
    x = np.array([rng.choice(m, p=q) for q in p])
    return np.column_stack([x, cond])


def main(repo):
    repo = Path(repo)
    rng = np.random.default_rng(20261201)
    with tempfile.TemporaryDirectory() as tmp:
        src = sorted(str(p) for p in (repo / "src").rglob("*.java") if "testing" not in p.parts)
        cp = f"{repo}/lib/MLTools.jar:{repo}/lib/commons-math3-3.6.1/commons-math3-3.6.1.jar"
        subprocess.run(["javac", "-nowarn", "-d", tmp, "-cp", cp, *src, str(HERE / "HdpReference.java")], check=True)
        cases = []
        for name, m, arities, n, tying in CASES:
            data = rows_for(rng, m, arities, n)
            text = " ".join(map(str, [m, *arities])) + "\n" + "\n".join(" ".join(map(str, r)) for r in data) + "\n"
            out = subprocess.run(["java", "-cp", f"{tmp}:{cp}", "hdp.HdpReference", str(RUNS), str(ITERATIONS),
                                  str(TYINGS[tying])], input=text, capture_output=True, text=True, check=True).stdout
            values = np.array([[float(v) for v in line.split()[2:]] for line in out.splitlines()])
            values = values.reshape(RUNS, -1, m)
            cases.append({"name": name, "n_values": m, "arities": arities, "tying": tying, "rows": data.tolist(),
                          "runs": RUNS, "iterations": ITERATIONS, "mean": values.mean(axis=0).tolist(),
                          "std": values.std(axis=0, ddof=1).tolist()})
            print(name, values.mean(axis=0).round(3).tolist())
    OUT.write_text(json.dumps({"source": "fpetitjean/HDP (Java), scripts/reference/hdp/make_hdp_reference.py",
                               "cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
