"""WekaProba.java compiled once and run: what every scripts/reference/make_weka_*.py that keeps Weka's
class distributions shares. Needs the Debian package weka (/usr/share/java/weka.jar) and a JDK (javac).

    with weka_proba() as proba:
        rows = proba("weka.classifiers.bayes.AODE", "data.arff", "-F", "1")
"""

import contextlib
import pathlib
import subprocess
import tempfile

HERE = pathlib.Path(__file__).resolve().parents[2]
JAR = "/usr/share/java/weka.jar"
DISCRETIZE = ["weka.classifiers.meta.FilteredClassifier", "-F", "weka.filters.supervised.attribute.Discretize", "-W"]


class WekaFailed(Exception):
    """Weka's run ended with an error: its first line naming an exception."""


@contextlib.contextmanager
def weka_proba():
    """A function ``proba(classifier, arff, *options, memory="2g", step=None)`` giving the class distribution
    of every ``step``-th training row (WekaProba's ``-Dstep``; default every row) as lists of floats; raises
    :class:`WekaFailed` with Weka's message where Weka refuses. Its ``folder`` attribute is a temporary
    folder for the data the caller writes."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        subprocess.run(["javac", "-cp", JAR, "-d", str(tmp), str(HERE / "scripts" / "reference" / "WekaProba.java")],
                       check=True)

        def proba(classifier, arff, *options, memory="2g", step=None):
            props = [] if step is None else [f"-Dstep={step}"]
            run = subprocess.run(["java", f"-Xmx{memory}", *props, "-cp", f"{JAR}:{tmp}", "WekaProba", classifier,
                                  str(arff), *options], capture_output=True, text=True)
            if run.returncode:
                raise WekaFailed(next((line.strip() for line in run.stderr.splitlines() if "Exception" in line),
                                      "failed"))
            return [[float(v) for v in line.split(",")] for line in run.stdout.splitlines() if line.strip()]

        proba.folder = tmp
        yield proba


def discretized(spec):
    """A classifier spec ([class, options...]) behind Weka's supervised (MDL) Discretize filter."""
    return [DISCRETIZE[0], *DISCRETIZE[1:], spec[0], *(["--", *spec[1:]] if spec[1:] else [])]
