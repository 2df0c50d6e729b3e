"""The README's examples, run exactly as written: the library snippet, and the
command-line block in a fresh folder through bash."""

import os
import pathlib
import re
import subprocess
import sys

README = (pathlib.Path(__file__).parents[1] / "README.md").read_text()


def _block(after, lang=""):
    start = README.index(after)
    m = re.compile(r"```" + lang + r"\n(.*?)```", re.S).search(README, start)
    return m.group(1)


def test_the_library_snippet_runs(tmp_path):
    code = _block("## Library", "python")
    done = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "humidity: < 82.5 -> yes, < 95.5 -> no, >= 95.5 -> yes (11/14)" in done.stdout


def test_the_command_line_block_runs(tmp_path):
    script = "set -euo pipefail\n" + _block("## Command line")
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "prediction,P(yes),P(no)" in done.stdout and "accuracy: 78.00%" in done.stdout
    for made in ("model.json", "deps.png", "report/report.html", "new.csv"):
        assert (tmp_path / made).exists(), made


def test_the_family_snippet_runs(tmp_path):
    code = _block("## Library", "python") + "\n" + _block("### The semi-naive family", "python")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "humidity <- class, temperature" in done.stdout
    assert (tmp_path / "tan.png").read_bytes()[:4] == b"\x89PNG"


def test_the_probabilities_snippet_runs(tmp_path):
    code = _block("### Probabilities: scoring rules", "python")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "leave-one-out" and "p = 1 / (1 + exp(-(" in lines[1] and lines[2].startswith("[")
