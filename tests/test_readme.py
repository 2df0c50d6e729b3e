"""The README's examples, run exactly as written: the library snippet, and the
command-line block in a fresh folder through bash."""

import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()


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


def _layout():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Layout\n\n```\n", 1)[1].split("```", 1)[0]
    block = block.split("\ndocs/", 1)[0]  # the package's lines (the rest are the repository's folders)
    return re.findall(r"(?<![\w.])([A-Za-z_]\w*(?:/|\.py))(?=[\s,;:)]|$)", block)


def test_the_layout_names_every_part_of_the_package_and_nothing_else():
    """The README's Layout is held to the package: every name it gives under src/seminaive/ is there,
    and every package and module of the package is named."""
    package = ROOT / "src" / "seminaive"
    parts = {p.name + "/" for p in package.iterdir() if p.is_dir() and (p / "__init__.py").exists()} | \
        {p.name for p in package.glob("*.py") if p.name != "__init__.py" and p.name != "__main__.py"}
    named = set(_layout())
    tops = {"src/", "seminaive/", "docs/", "examples/", "scripts/", "tests/", "benchmarks/"}
    inner = {n for n in named if "/" not in n[:-1]} - tops
    missing_here = sorted(n for n in inner if n.endswith("/") and n not in parts
                          or n.endswith(".py") and n not in parts and not list(package.rglob(n))
                          and not (ROOT / "tests" / n).exists())
    assert not missing_here, f"the Layout names what the package does not hold: {missing_here}"
    unnamed = sorted(parts - named)
    assert not unnamed, f"the Layout does not name {unnamed}"
