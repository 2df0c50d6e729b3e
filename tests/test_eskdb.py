"""ESKDB: the ensemble is the average of its members fitted alone; member one on the order by
mutual information, the others on orders drawn in proportion to it (the drawing distribution
against the exact one); files and Dask give the in-memory ensemble; model files; the CLI."""

import itertools
import json

import numpy as np
import pytest

from seminaive import ESKDB, SelectiveKDB
from seminaive.bayesnet.kdb import sampled_order
from seminaive.data import load_file
from seminaive.datasets import load
from seminaive.persistence import model_from_dict, model_to_dict
from seminaive.scale import fit_file

from test_dask import client  # noqa: F401  (the module's LocalCluster)

SMALL = dict(n_estimators=4, k=2, hdp_iterations=40)


@pytest.fixture(scope="module")
def mixed_file(tmp_path_factory):
    """Pima's numbers with a nominal column and missing values, as a CSV file and as loaded from it."""
    d = load("keel:pima")
    frame = d.X.copy()
    rng = np.random.default_rng(0)
    frame["band"] = np.where(frame.iloc[:, 1] > 120, "high", "low")
    frame = frame.mask(rng.random(frame.shape) < 0.05)
    frame["class"] = np.asarray(d.y)
    # classes first met in sorted order, as Dask orders them: the sampler's draws follow the class codes,
    # so the paths are compared on the same codes (a relabelling is another draw of the same sampler)
    frame = frame.iloc[np.argsort(frame["class"] != sorted(set(frame["class"]))[0], kind="stable")]
    path = tmp_path_factory.mktemp("eskdb") / "pima.csv"
    frame.to_csv(path, index=False)
    return path, load_file(str(path))


def test_the_ensemble_is_the_average_of_its_members_fitted_alone(mixed_file):
    _, data = mixed_file
    model = ESKDB(**SMALL).fit(data)
    alone = [model._member(i).fit(data) for i in range(SMALL["n_estimators"])]
    assert [m.order for m in alone] == ["mi", "sampled", "sampled", "sampled"]
    assert len({m.random_state for m in alone}) == len(alone)
    average = np.mean([m.predict_proba(data.X) for m in alone], axis=0)
    np.testing.assert_allclose(model.predict_proba(data.X), average, rtol=0, atol=1e-15)
    assert not np.allclose(alone[0].predict_proba(data.X), alone[1].predict_proba(data.X))  # members differ
    assert {(m.estimation, m.hdp_tying) for m in alone} == {("hgs", "none")}  # the ensemble's default smoothing
    first = SelectiveKDB(k=2, estimation="hgs", hdp_tying="none", numeric="mdl_stochastic",
                         random_state=alone[0].random_state).fit(data)
    assert first.order_ == model.estimators_[0].order_  # member one: kDB's order by I(X; C)
    assert ESKDB(**SMALL, n_jobs=2).fit(data).predict_proba(data.X).tolist() == model.predict_proba(data.X).tolist()


def _exact_order_probabilities(mi):
    """P(order) of drawing without replacement in proportion to mi, by enumerating every order."""
    positive = [i for i in range(len(mi)) if mi[i] > 0]
    zero = [i for i in range(len(mi)) if not mi[i] > 0]
    out = {}
    for perm in itertools.permutations(positive):
        p, left = 1.0, sum(mi[i] for i in positive)
        for i in perm:
            p *= mi[i] / left
            left -= mi[i]
        out[tuple(perm) + tuple(zero)] = p
    return out


def test_orders_are_drawn_in_proportion_to_mutual_information():
    mi = np.array([0.05, 0.4, 0.0, 0.25, 0.1])
    exact = _exact_order_probabilities(mi)
    n = 20000
    rng = np.random.default_rng(1)
    seen = {}
    for _ in range(n):
        key = tuple(sampled_order(mi, rng))
        seen[key] = seen.get(key, 0) + 1
    assert set(seen) <= set(exact)  # the zero-information attribute always comes last
    for order, p in exact.items():
        sd = np.sqrt(p * (1 - p) / n)
        assert abs(seen.get(order, 0) / n - p) < 5 * sd + 1e-4, (order, seen.get(order, 0) / n, p)
    # the first attribute is the most informative one most often, but not always
    firsts = np.bincount([o[0] for o in seen for _ in range(seen[o])], minlength=5) / n
    np.testing.assert_allclose(firsts, mi / mi.sum(), atol=0.015)


def test_files_and_dask_give_the_in_memory_ensemble(mixed_file):
    path, data = mixed_file
    memory = ESKDB(**SMALL).fit(data)
    streamed = fit_file(ESKDB(**SMALL), str(path), chunksize=97)
    assert list(streamed.classes_) == list(memory.classes_)
    np.testing.assert_allclose(streamed.predict_proba(data.X), memory.predict_proba(data.X), rtol=0, atol=1e-12)
    for a, b in zip(memory.estimators_, streamed.estimators_):
        assert a.structure_ == b.structure_ and [r.to_dict() for r in a.readers_] == [r.to_dict() for r in b.readers_]


def test_dask_gives_the_in_memory_ensemble(mixed_file, client):  # noqa: F811
    dd = pytest.importorskip("dask.dataframe")
    from seminaive.scale.dask import fit_dask
    _, data = mixed_file
    frame = data.X.copy()
    frame["class"] = np.asarray(data.y)
    memory = ESKDB(**SMALL).fit(data)
    parts = dd.from_pandas(frame, npartitions=3)
    fitted = fit_dask(ESKDB(**SMALL), parts.drop(columns="class"), parts["class"])
    assert list(fitted.classes_) == list(memory.classes_)
    np.testing.assert_allclose(fitted.predict_proba(data.X), memory.predict_proba(data.X), rtol=0, atol=1e-12)


def test_model_files_and_the_printout(mixed_file):
    _, data = mixed_file
    model = ESKDB(**SMALL).fit(data)
    saved = json.loads(json.dumps(model_to_dict(model)))
    np.testing.assert_array_equal(model_from_dict(saved).predict_proba(data.X), model.predict_proba(data.X))
    bad = json.loads(json.dumps(saved))
    bad["state"]["members"] = bad["state"]["members"][:2]
    with pytest.raises(Exception, match=r"state.members: expected 4 \(n_estimators\), got 2"):
        model_from_dict(bad)
    bad = json.loads(json.dumps(saved))
    bad["state"]["members"][1]["structure"] = "x"
    with pytest.raises(Exception, match=r"state.members\[1\]\.structure"):
        model_from_dict(bad)
    text = model.to_text()
    assert text.startswith("ESKDB (4 selective kDBs, k <= 2") and "member 0 (mi order)" in text
    assert "member 3 (sampled order)" in text
    assert "instance 1:" in model.explain(data.X[:1], member=2)


def test_the_command_line_fits_and_compares(tmp_path, mixed_file):
    from seminaive.cli.main import main
    path, _ = mixed_file
    out = tmp_path / "m.json"
    assert main(["fit", str(path), "--model", "eskdb", "-m", str(out)]) == 0
    assert json.loads(out.read_text())["model"] == "ESKDB"
    assert main(["predict", "-m", str(out), str(path), "--format", "csv"]) == 0


def test_the_members_tying_follows_the_smoothing():
    assert ESKDB()._member(0).estimation == "hgs" and ESKDB()._member(1).hdp_tying == "none"
    assert ESKDB(estimation="hdp")._member(1).hdp_tying == "level"  # the paper's
    assert ESKDB(estimation="hdp", hdp_tying="parent")._member(2).hdp_tying == "parent"
    d = load("weather.nominal")
    model = ESKDB(n_estimators=2, k=1, estimation="hdp", hdp_iterations=20).fit(d)
    assert "hdp smoothing, 20 sweeps" in model.to_text()
    assert "hierarchical gradient smoothing" in ESKDB(n_estimators=2, k=1).fit(d).to_text()
    with pytest.raises(Exception, match="hdp_tying: expected one of"):
        ESKDB(hdp_tying="levels").fit(d)
