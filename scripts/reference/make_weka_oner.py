"""Weka 3.6's OneR rules on its example data, kept as test data
(tests/data/reference/weka_oner.json) so that the tests need no Java.

Needs the Debian package weka (its jar at /usr/share/java/weka.jar) and java.
For every data set and minimum bucket size it records Weka's rule on every
attribute alone (the data reduced to that attribute and the class) and the
rule Weka chooses over all attributes: attribute, branches (interval or
value, class) and the training count correct.

    python scripts/reference/make_weka_oner.py
"""

import json
import pathlib
import re
import subprocess
import tempfile

HERE = pathlib.Path(__file__).resolve().parents[2]
DATA = HERE / "tests" / "data" / "weka"
OUT = HERE / "tests" / "data" / "reference" / "weka_oner.json"
JAR = "/usr/share/java/weka.jar"
SETS = ["weather.numeric", "iris", "diabetes", "glass", "labor", "vote", "breast-cancer", "credit-g"]
BUCKETS = [1, 3, 6, 10]


def java(*args):
    return subprocess.run(["java", "-Xmx1g", "-cp", JAR, *args], check=True, capture_output=True,
                          text=True).stdout


def parse_rule(text):
    """The rule block Weka prints: 'name:' then tab-indented 'branch\\t-> class' lines, then '(c/n instances correct)'."""
    lines = text.split("Options:")[1].splitlines()[2:]
    name = lines[0].rstrip(":")
    branches = []
    for line in lines[1:]:
        m = re.match(r"\((\d+)/(\d+) instances correct\)", line)
        if m:
            return {"attribute": name, "branches": branches, "correct": int(m[1]), "total": int(m[2])}
        cond, cls = line.strip("\t").split("\t-> ")
        branches.append([cond, cls])
    raise ValueError(text)


def n_attributes(path):
    return sum(1 for line in open(path) if line.lower().startswith("@attribute")) - 1


def main():
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in SETS:
            path = DATA / f"{name}.arff"
            d = n_attributes(path)
            for b in BUCKETS:
                entry = {"chosen": parse_rule(java("weka.classifiers.rules.OneR", "-B", str(b), "-t", str(path),
                                                   "-no-cv")), "per_attribute": []}
                for j in range(1, d + 1):
                    one = pathlib.Path(tmp) / f"{name}-{j}.arff"
                    java("weka.filters.unsupervised.attribute.Remove", "-V", "-R", f"{j},last",
                         "-i", str(path), "-o", str(one))
                    entry["per_attribute"].append(parse_rule(java("weka.classifiers.rules.OneR", "-B", str(b),
                                                                  "-t", str(one), "-no-cv")))
                out[f"{name}/B{b}"] = entry
                print(name, b, entry["chosen"]["attribute"], entry["chosen"]["correct"], flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
