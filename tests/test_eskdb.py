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
    assert "hdp smoothing: 20 sweeps, level tying, seed 0" in model.to_text()
    assert "hierarchical gradient smoothing: none tying" in ESKDB(n_estimators=2, k=1).fit(d).to_text()
    with pytest.raises(Exception, match="hdp_tying: expected one of"):
        ESKDB(hdp_tying="levels").fit(d)


def test_the_paper_preset_is_the_published_ensemble_and_its_members_take_it():
    """ESKDB.preset("paper"): the authors' settings reach every member (HDP tables of 1000 sweeps
    tied per level, m-estimated class prior); overrides win; an unknown preset is one clear line."""
    m = ESKDB.preset("paper", n_estimators=3, hdp_iterations=30)
    assert (m.k, m.estimation, m.hdp_tying, m.priors, m.numeric, m.scoring) == \
        (5, "hdp", "level", "m-estimate", "mdl_stochastic", "rmse")
    assert ESKDB.preset("paper").hdp_iterations == 1000 and ESKDB.preset("paper").n_estimators == 20
    d = load("weather.nominal")
    m.fit(d)
    counts = m.estimators_[0].class_count_
    want = np.log((counts + 1.0 / counts.size) / (counts.sum() + 1.0))  # (n_c + 1/K) / (N + 1)
    for member in m.estimators_:
        assert member.estimation == "hdp" and member.hdp_tying == "level" and member.hdp_iterations == 30
        np.testing.assert_allclose(member.class_log_prior_, want)
    assert ESKDB.preset("discriminative").get_params()["discriminative"] == "parameter"
    accurate = ESKDB.preset("accurate").get_params()
    assert (accurate["k"], accurate["discriminative"], accurate["hybrid"]) == (2, "parameter", "gaussian")
    with pytest.raises(Exception, match="preset: expected one of 'paper', 'discriminative', 'accurate', got 'papers'"):
        ESKDB.preset("papers")


def test_the_m_estimate_prior_left_out_equals_refits():
    """priors="m-estimate": the leave-one-out priors equal the prior of a refit without each row."""
    from seminaive.estimation import class_log_prior, loo_class_log_prior
    y = np.array([0, 0, 1, 2, 2, 2])
    counts = np.bincount(y, minlength=3).astype(float)
    loo = loo_class_log_prior(counts, y, "m-estimate")
    for i in range(y.size):
        rest = np.bincount(np.delete(y, i), minlength=3).astype(float)
        np.testing.assert_allclose(loo[i], class_log_prior(rest, "m-estimate"))
    assert not np.allclose(loo, loo_class_log_prior(counts, y, "laplace"))


@pytest.mark.parametrize("arc_score", ["cmi", "bayes"])
def test_members_sharing_the_nominal_pairs_equal_members_fitted_alone(arc_score, monkeypatch):
    """The pairs of nominal attributes and the numeric values by class are counted once for the
    ensemble (and the pairs' information values worked out once); every member still equals the
    selective kDB fitted alone, and the shared statistics are what each member would have counted."""
    from seminaive.bayesnet import eskdb as module
    from seminaive.bayesnet.statistics import pair_statistics
    from seminaive.bayesnet.streamed import shared_counts
    from seminaive.learning.cuts import value_triples
    from seminaive.learning.sources import OneTable
    from seminaive._target import fit_table
    d = load("keel:crx")  # nominal and numeric attributes, missing values
    calls = []
    real = module.shared_counts
    monkeypatch.setattr(module, "shared_counts", lambda *a: calls.append(a) or real(*a))
    m = ESKDB(n_estimators=4, k=2, arc_score=arc_score).fit(d.X, d.y)
    assert len(calls) == 1
    for e in m.estimators_:
        alone = SelectiveKDB(**e.get_params()).fit(d.X, d.y)
        assert alone.structure_ == e.structure_
        np.testing.assert_array_equal(alone.predict_proba(d.X), e.predict_proba(d.X))
    _, schema, table, y, classes, _ = fit_table(ESKDB(), d.X, d.y, None, None)
    shared = shared_counts(OneTable(table, y, None), schema, classes, arc_score)
    triples = value_triples(OneTable(table, y, None).chunk, schema, classes)
    assert sorted(shared["triples"]) == sorted(triples) == list(schema.numeric_indices)
    for j, (x, yy, w) in triples.items():
        np.testing.assert_array_equal(shared["triples"][j][0], x)
        np.testing.assert_array_equal(shared["triples"][j][1], yy)
    nominal = schema.nominal_indices
    direct = pair_statistics([table.codes[:, schema.nominal_indices.index(i)] for i in nominal],
                             [schema.attributes[i].n_values for i in nominal], y, len(classes))["pairs"]
    assert set(shared["pairs"]) == {(nominal[a], nominal[b]) for a, b in direct}
    for (a, b), n in direct.items():
        np.testing.assert_array_equal(shared["pairs"][(nominal[a], nominal[b])], n)
    assert len(shared["cmi" if arc_score == "cmi" else "bayes"]) == len(direct)
