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
    err = io.StringIO()
    signal.alarm(20)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(argv)
    except BaseException as e:
        code = "traceback: " + type(e).__name__ + ": " + str(e)[:200]
    signal.alarm(0)
    out.append([code, err.getvalue()])
print(json.dumps(out))
"""


def test_every_malformed_file_gets_one_line_or_a_result(corpus):
    runs = [(name, argv) for name, argvs in corpus for argv in argvs]
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps([a for _, a in runs]), capture_output=True,
                          text=True, timeout=600)
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(results) == len(runs) > 150
    problems = []
    for (name, argv), (code, err) in zip(runs, results):
        lines = [line for line in err.splitlines() if line.startswith("seminaive: error")]
        if code == 0:
            continue
        if code != 2 or len(lines) != 1 or "Traceback" in err:
            problems.append(f"{name} {argv[0]}: {code} {err.strip()[:300]}")
    assert not problems, "\n".join(problems)
