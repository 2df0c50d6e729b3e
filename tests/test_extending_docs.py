"""The user guide's page on extending seminaive (docs/user_guide/extending.rst), run as written: its
code blocks, in a fresh process, then the model, the estimations and the file format they define,
each checked against what the package gives."""

import pathlib
import subprocess
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _blocks():
    text = (ROOT / "docs" / "user_guide" / "extending.rst").read_text(encoding="utf-8")
    out = []
    for part in text.split(".. code-block:: python\n\n")[1:]:
        lines = []
        for line in part.splitlines():
            if line and not line.startswith("    "):
                break
            lines.append(line[4:])
        out.append("\n".join(lines))
    return out


CHECKS = """
import numpy as np
from seminaive import NaiveBayes, TAN, load_model, save_model
from seminaive.data import load_file
from seminaive.datasets import load
from seminaive.scale import fit_file

d = load("weather.nominal")
m = ChainBayes().fit(d)
assert m.structure_.parents_of(1) == (0,) and m.structure_.parents_of(0) == ()
save_model(m, TMP + "/c.json")
assert np.array_equal(load_model(TMP + "/c.json").predict_proba(d.X), m.predict_proba(d.X))

nb, plain = NaiveBayes(estimation="perks").fit(d), NaiveBayes().fit(d)
assert not np.allclose(nb.predict_proba(d.X), plain.predict_proba(d.X))
assert "Perks" in TAN(estimation="perks").fit(d).to_text()

iris = load("iris")
frame = iris.X.assign(cls=iris.y.astype(str))
frame.to_json(TMP + "/iris.jsonl", orient="records", lines=True)
frame.to_csv(TMP + "/iris.csv", index=False)
got, want = load_file(TMP + "/iris.jsonl"), load_file(TMP + "/iris.csv")
assert got.schema == want.schema and list(got.y) == list(want.y)
assert np.allclose(fit_file(ChainBayes(), TMP + "/iris.jsonl", chunksize=40).predict_proba(iris.X),
                   ChainBayes().fit(want).predict_proba(iris.X), rtol=1e-12)
print("ok")
"""


def test_the_extending_page_runs_as_written(tmp_path):
    blocks = _blocks()
    assert len(blocks) == 3
    program = "\n\n".join(blocks) + "\n" + f"TMP = {str(tmp_path)!r}\n" + textwrap.dedent(CHECKS)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]
