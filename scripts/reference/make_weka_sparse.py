"""Weka 3.6's sparse ARFF form of some of its example data, kept as test data
(tests/data/weka/sparse-*.arff) so that the tests need no Java: Weka's own
NonSparseToSparse filter writes them, and the reader must give the dense files' data.

Needs the Debian package weka (its jar at /usr/share/java/weka.jar) and java.

    python scripts/reference/make_weka_sparse.py
"""

import pathlib
import subprocess

HERE = pathlib.Path(__file__).resolve().parents[2]
DATA = HERE / "tests" / "data" / "weka"
JAR = "/usr/share/java/weka.jar"
SETS = ["weather.numeric", "vote", "soybean"]

if __name__ == "__main__":
    for name in SETS:
        subprocess.run(["java", "-Xmx1g", "-cp", JAR, "weka.filters.unsupervised.instance.NonSparseToSparse",
                        "-i", str(DATA / f"{name}.arff"), "-o", str(DATA / f"sparse-{name}.arff")], check=True)
        print(f"wrote {DATA / f'sparse-{name}.arff'}")
