"""Weka 3.6's AODE class distributions on its example data, kept as test data
(tests/data/reference/weka_aode.json) so that the tests need no Java.

Needs the Debian package weka (its jar at /usr/share/java/weka.jar) and a JDK
(javac) to compile WekaProba.java, which prints distributionForInstance of
every training instance with 17 significant digits. Nominal data go to
weka.classifiers.bayes.AODE (frequency limits 1 and 20); data with numeric
attributes go through weka.classifiers.meta.FilteredClassifier with the
supervised (Fayyad-Irani MDL) Discretize filter, as AODE cannot take numbers.

    python scripts/reference/make_weka_aode.py
"""

import json
import pathlib

from weka_proba import weka_proba

HERE = pathlib.Path(__file__).resolve().parents[2]
DATA = HERE / "tests" / "data" / "weka"
OUT = HERE / "tests" / "data" / "reference" / "weka_aode.json"
NOMINAL = ["weather.nominal", "contact-lenses", "vote", "breast-cancer", "soybean"]
NUMERIC = ["iris", "diabetes", "glass", "labor"]


def main():
    out = {}
    with weka_proba() as run:

        def proba(classifier, arff, *options):
            return run(classifier, arff, *options, memory="1g")

        for name in NOMINAL:
            for limit in (1, 20):
                out[f"{name}/F{limit}"] = proba("weka.classifiers.bayes.AODE", str(DATA / f"{name}.arff"),
                                                "-F", str(limit))
                print(name, limit, len(out[f"{name}/F{limit}"]), flush=True)
        for name in NUMERIC:
            out[f"{name}/discretized"] = proba("weka.classifiers.meta.FilteredClassifier", str(DATA / f"{name}.arff"),
                                               "-F", "weka.filters.supervised.attribute.Discretize",
                                               "-W", "weka.classifiers.bayes.AODE")
            print(name, len(out[f"{name}/discretized"]), flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
