"""What a process compiles on first use (an empty compile cache): only the loops a model runs, and none
of numba's own error-message machinery (an array statement in a loop, such as a slice assignment,
compiles numba's str/repr/unicode helpers for its shape-mismatch message: more than a second of a first
ESKDB fit, before it was written as a loop)."""

import json
import os
import subprocess
import sys

SCRIPT = r"""
import json, sys
import numpy as np, pandas as pd
from numba.core import event

compiled = []

class Listener(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        compiled.append(f"{f.__module__}.{f.__qualname__}")

    def on_end(self, ev):
        pass

event.register("numba:compile", Listener())
from seminaive.bayesnet import AODE, ESKDB, KDB, TAN, SelectiveKDB

rng = np.random.default_rng(0)
n = 120
X = pd.DataFrame({f"a{j}": pd.Categorical(rng.choice(list("xyz"), n)) for j in range(5)})
X["num"] = rng.normal(size=n)
y = np.where(X["num"] + rng.normal(scale=0.5, size=n) > 0, "p", "q")
runs = {}
for name, model in [("aode", AODE()), ("kdb", KDB(k=2)), ("tan", TAN()), ("skdb", SelectiveKDB()),
                    ("eskdb", ESKDB(n_estimators=2, random_state=0))]:
    start = len(compiled)
    model.fit(X, y).predict_proba(X)
    runs[name] = compiled[start:]
print(json.dumps(runs))
"""

MESSAGE_MACHINERY = ("str", "repr", "unicode", "concat", "shape_context", "format")


def _first_compiles(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_first_fit_compiles_only_what_it_runs_and_no_message_machinery(tmp_path):
    runs = _first_compiles(tmp_path)
    everything = [name for names in runs.values() for name in names]
    ours = {name for name in everything if name.startswith("seminaive.")}
    assert {"seminaive.core.subset_counts._count_all", "seminaive.discretize.mdl._boundary_scores",
            "seminaive.estimation.hgs._minimize"} <= ours  # the listener sees our loops compile
    # AODE compiles its pair derivation, not AnDE's general one
    assert "seminaive.bayesnet.ande_counts._derive" in runs["aode"]
    assert "seminaive.bayesnet.ande_counts._derive_sets" not in everything
    # no loop pulls in numba's string formatting (an error message of an array statement)
    numba_own = {name for name in everything if not name.startswith("seminaive.")}
    assert not [h for h in numba_own if any(word in h.lower() for word in MESSAGE_MACHINERY)], sorted(numba_own)
