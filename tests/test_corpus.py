"""Hostile input, generated (tests/corpus.py): every malformed data or model
file is answered with exit 0, or exit 2 and one line naming the file; no
traceback, no hang."""

import json
import subprocess
import sys

import pytest

from corpus import GOOD_CSV, make


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("corpus")
    train = folder / "train.csv"
    train.write_text(GOOD_CSV)
    model = folder / "good-model.json"
    subprocess.run([sys.executable, "-m", "seminaive", "fit", str(train), "-m", str(model)], check=True,
                   capture_output=True)
    return make(folder, str(model))


RUNNER = """
import contextlib, io, json, signal, sys
from seminaive.cli.main import main

def hung(*_):
    raise TimeoutError("hung")

signal.signal(signal.SIGALRM, hung)
out = []
for argv in json.loads(sys.stdin.read()):
    err, got = io.StringIO(), io.StringIO()
    signal.alarm(20)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(got):
            code = main(argv)
    except BaseException as e:
        code = "traceback: " + type(e).__name__ + ": " + str(e)[:200]
    signal.alarm(0)
    out.append([code, err.getvalue(), got.getvalue()[:200000]])
print(json.dumps(out))
"""


def test_every_malformed_file_gets_one_line_or_a_result(corpus):
    runs = [(name, argv) for name, argvs in corpus for argv in argvs]
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps([a for _, a in runs]), capture_output=True,
                          text=True, timeout=600)
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(results) == len(runs) > 150
    problems = []
    for (name, argv), (code, err, out) in zip(runs, results):
        lines = [line for line in err.splitlines() if line.startswith("seminaive: error")]
        if code == 0:  # a file that loads must give a sane result, not merely no error
            why = _insane(argv, out)
            if why:
                problems.append(f"{name} {argv[0]}: exit 0 but {why}")
            continue
        if code != 2 or len(lines) != 1 or "Traceback" in err:
            problems.append(f"{name} {argv[0]}: {code} {err.strip()[:300]}")
    assert not problems, "\n".join(problems)


def _insane(argv, out):
    """Why the output of a run that exited 0 is not a sane result (None if it is): predictions with
    probabilities that are finite, sum to 1 over one column per class and name a class; a printout or
    an evaluation that says something."""
    import csv
    import io
    import math
    if argv[0] == "predict":
        rows = list(csv.reader(io.StringIO(out)))
        if len(rows) < 2:
            return "no predictions"
        head = rows[0]
        classes = [h[2:-1] for h in head if h.startswith("P(") and h.endswith(")")]
        if not classes or len(set(classes)) != len(classes):
            return f"the probability columns are {head}"
        at = head.index("prediction")
        for r in rows[1:]:
            p = [float(v) for v in r[len(head) - len(classes):]]
            if not all(math.isfinite(v) and 0 <= v <= 1 for v in p) or abs(sum(p) - 1) > 1e-9:
                return f"probabilities {p}"
            if r[at] not in classes:
                return f"the prediction {r[at]!r} is not among the classes {classes}"
        return None
    if argv[0] == "evaluate":
        return None if "mean accuracy over" in out and "nan" not in out.lower() else f"evaluate printed {out[:200]!r}"
    return None if out.strip() and "nan" not in out.split() else f"{argv[0]} printed {out[:200]!r}"
