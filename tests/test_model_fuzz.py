"""The model-file fuzzer (issue 22): every field of every kind of saved model replaced by wrong types, NaN,
infinities, out-of-range numbers, empty and oversized values, lists shortened and lengthened. Each load
fails with one line (at most 300 characters) naming a field, or gives sane predictions (finite
probabilities summing to 1, one column per class, labels among the classes); a value no field may hold
(NaN, a wrong type, an oversized text) never loads; nothing raises anything else (tests/model_fuzz.py)."""

import copy
import json
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from conftest import mixed_frame
from model_fuzz import check_loaded, mutations, run
from seminaive.models import make_model
from seminaive.persistence import model_from_dict, model_to_dict

# every kind of model a file can hold: each model class, each estimation that keeps state of its own, each calibrator
KINDS = ["nb", "nb-kernel", "nb-mdl", "nb-map", "1r", "zeror", "bse", "bsj", "bsej", "fssj", "cnb:0.8", "offset:0.8",
         "tan", "kdb2", "kdb:k=2:estimation=hdp", "kdb:k=2:estimation=hgs",
         "kdb:k=2:numeric=resolution:estimation=hgs", "skdb", "aode", "a2de",
         "eskdb:n_estimators=2", "kdb:k=1:discriminative=parameter:penalty=1.0", "aode:discriminative=table:penalty=0.5",
         "aode:discriminative=parameter:penalty=0.5", "eskdb:n_estimators=2:discriminative=parameter:penalty=1.0",
         "skdb:k=1:hybrid=gaussian", "eskdb-accurate:n_estimators=2", "wanbia", "nb-isotonic", "nb-sigmoid", "nb-temperature", "multinomial", "bernoulli"]
COUNT_KINDS = ("multinomial", "bernoulli")


@pytest.fixture(scope="module")
def data():
    return mixed_frame(60, seed=1, missing=0.1)


def counts_like(X):
    """Count features for the event models, as many rows as ``X``."""
    rng = np.random.default_rng(2)
    return pd.DataFrame(rng.integers(0, 4, (len(X), 3)), columns=["w1", "w2", "w3"])


@pytest.mark.parametrize("kind", KINDS)
def test_every_field_of_every_model_kind(kind, data):
    X, y = data
    if kind in COUNT_KINDS:
        X = counts_like(X)
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


def test_the_fuzzer_sees_predictions_at_odds_with_probabilities(data):
    """A ZeroR whose majority is not its most probable class (an edited file) is caught."""
    X, y = data
    m = make_model("zeror").fit(X, y)
    odd = copy.deepcopy(m)
    odd.majority_ = (m.majority_ + 1) % len(m.classes_)
    assert check_loaded(m, X) is None
    assert check_loaded(odd, X) == "predictions that are not the most probable classes"


def test_the_fuzzer_sees_a_default_standing_in_for_a_removed_field(data):
    """A loader that fills a removed parameter with its default (MAP estimation lost) is caught."""
    X, y = data
    good = model_to_dict(make_model("nb-map").fit(X, y))

    def lenient(doc):
        if "estimation" not in doc["params"]:
            return make_model("nb").fit(X, y)
        return model_from_dict(doc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        problems = run({"nb-map": good}, X, lenient)
    assert problems == ["nb-map params.estimation removed: loaded with other probabilities (a default stood in)"]


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
    counts = tmp_path / "counts.csv"
    counts_like(X).assign(cls=y).to_csv(counts, index=False)
    for kind in ("nb", "bsej", "tan", "skdb", "nb-isotonic", "wanbia", "multinomial", "zeror"):
        good = model_to_dict(make_model(kind).fit(counts_like(X) if kind in COUNT_KINDS else X, y))
        data_file = counts if kind in COUNT_KINDS else train
        for n, (label, where, doc) in enumerate(mutations(good)):
            if n % 7:
                continue
            path = tmp_path / f"{kind}-{n}.json"
            path.write_text(json.dumps(doc))
            runs += [["show", str(path)], ["predict", "-m", str(path), str(data_file), "--proba"]]
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(runs), capture_output=True, text=True,
                          timeout=600)
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(results) == len(runs) > 200
    bad = [(argv, code, err[:200]) for argv, (code, err) in zip(runs, results)
           if code not in (0, 2) or (code == 2 and (len(err.strip().splitlines()) != 1 or len(err) > 400))]
    assert not bad, bad[:10]
