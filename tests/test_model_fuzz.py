"""The model-file fuzzer (issue 22): every field of every kind of saved model replaced by wrong types, NaN,
infinities, out-of-range numbers, empty and oversized values, lists shortened and lengthened. Each load
fails with one line (at most 300 characters) naming a field, or gives sane predictions (finite
probabilities summing to 1, one column per class, labels among the classes); a value no field may hold
(NaN, a wrong type, an oversized text) never loads; nothing raises anything else (tests/model_fuzz.py)."""

import json
import subprocess
import sys
import warnings

import pytest

from conftest import mixed_frame
from model_fuzz import mutations, run
from seminaive.models import make_model
from seminaive.persistence import model_from_dict, model_to_dict

KINDS = ["nb", "nb-kernel", "nb-mdl", "1r", "zeror", "bse", "bsej", "cnb:0.8", "offset:0.8", "tan", "kdb2", "skdb",
         "aode", "a2de", "wanbia", "nb-isotonic", "nb-sigmoid", "nb-temperature"]


@pytest.fixture(scope="module")
def data():
    return mixed_frame(60, seed=1, missing=0.1)


@pytest.mark.parametrize("kind", KINDS)
def test_every_field_of_every_model_kind(kind, data):
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        good = model_to_dict(make_model(kind).fit(X, y))
        assert sum(1 for _ in mutations(good)) > 40
        problems = run({kind: good}, X, model_from_dict)
    assert not problems, "\n".join(problems[:40])


def test_the_fuzzer_sees_a_wrong_answer(data):
    """A loader that accepts anything is caught: the fuzzer is not a test that cannot fail."""
    X, y = data
    good = model_to_dict(make_model("nb").fit(X, y))
    fitted = make_model("nb").fit(X, y)
    assert run({"nb": good}, X, lambda doc: fitted)  # every mutation "loads": values no field may hold


RUNNER = """
import contextlib, io, json, sys
from seminaive.cli.main import main
out = []
for argv in json.loads(sys.stdin.read()):
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(argv)
    except BaseException as e:
        code = "traceback: " + type(e).__name__
    out.append([code, err.getvalue()])
print(json.dumps(out))
"""


def test_mutated_files_on_the_command_line(tmp_path, data):
    """A sample of the mutations through show and predict: exit 0, or exit 2 with one line of at most 300
    characters (the file's name and the field), never a traceback."""
    X, y = data
    train = tmp_path / "train.csv"
    X.assign(cls=y).to_csv(train, index=False)
    runs = []
    for kind in ("nb", "bsej", "tan", "skdb", "nb-isotonic", "wanbia"):
        good = model_to_dict(make_model(kind).fit(X, y))
        for n, (label, where, doc) in enumerate(mutations(good)):
            if n % 7:
                continue
            path = tmp_path / f"{kind}-{n}.json"
            path.write_text(json.dumps(doc))
            runs += [["show", str(path)], ["predict", "-m", str(path), str(train), "--proba"]]
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(runs), capture_output=True, text=True,
                          timeout=600)
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(results) == len(runs) > 200
    bad = [(argv, code, err[:200]) for argv, (code, err) in zip(runs, results)
           if code not in (0, 2) or (code == 2 and (len(err.strip().splitlines()) != 1 or len(err) > 400))]
    assert not bad, bad[:10]
