"""A model defined only here, on the core (components, counting, estimation,
the registry), works everywhere a model of the package does, with no edit
elsewhere: the command line (fit, show, predict), compare, save and load,
files in chunks and Dask partitions."""

import copy
import json
import sys

import numpy as np
import pytest

import dask.dataframe as dd

from seminaive import load_model, save_model
from seminaive.cli.main import main
from seminaive.components import count_components, variance_floor
from seminaive.components.checked import checked_components
from seminaive.components.make import make_components
from seminaive.data import load_file
from seminaive.datasets import dataset_path, load
from seminaive.estimation import Frequency, class_log_prior
from seminaive import NaiveBayes, TAN
from seminaive.protocol import (BaseNaiveBayes, BayesNetClassifier, FileFormat, TableEstimation, chunk_table, declare_format,
                                declare_table_estimation, encode_target, fit_input, register, register_variant)
from seminaive.registry import catalog_text
from seminaive.scale import fit_file
from seminaive.scale.dask import fit_dask

from test_dask import client  # noqa: F401  (the module's LocalCluster)


@register
class AddTwoBayes(BaseNaiveBayes):
    """Naive Bayes with add-two smoothing and Gaussian numeric attributes (a toy defined in a test)."""

    _param_rules = {"alpha": dict(kind="number", low=0)}

    def __init__(self, alpha=2.0):
        self.alpha = alpha

    def fit(self, X, y=None):
        X, y = fit_input(self, X, y)
        for name in ("stats_", "classes_"):
            self.__dict__.pop(name, None)
        classes = encode_target(y, len(X))[1] if not getattr(y, "attrs", {}) else None
        return self.partial_fit(X, y, classes=classes)

    def partial_fit(self, X, y=None, classes=None):
        first = not hasattr(self, "stats_")
        _, _, table, codes, _, _ = chunk_table(self, X, y, classes, first=first)  # the opening every model shares
        if first:
            self.components_ = make_components(self.schema_, "gaussian")
        k = len(self.classes_)
        stats = count_components(self.components_, table, codes, k)
        counts = np.bincount(codes, minlength=k).astype(np.float64)
        self._accumulate(stats, counts)
        self._estimate()
        return self

    def merge(self, other):
        out = copy.deepcopy(self)
        out._accumulate(other.stats_, other.class_count_)
        out._estimate()
        return out

    def _estimate(self):
        self.class_log_prior_ = class_log_prior(self.class_count_, "laplace")
        gauss = [i for i, c in enumerate(self.components_) if c.kind == "gaussian"]
        floors = dict(zip(gauss, variance_floor([self.stats_[i] for i in gauss], None, "range")))
        for i, (c, s) in enumerate(zip(self.components_, self.stats_)):
            c.estimate(s, Frequency(alpha=self.alpha), floor=floors.get(i, 0.0))

    def _joint_log_likelihood(self, X):
        table = self._encode(X)
        return self.class_log_prior_ + sum(c.log_likelihood(table) for c in self.components_)

    def to_text(self):
        return f"AddTwoBayes: {len(self.schema_)} attributes, {len(self.classes_)} classes, alpha={self.alpha:g}"

    def _get_state(self):
        return {"class_count": self.class_count_.tolist(), "components": [c.to_dict() for c in self.components_],
                "stats": self.stats_}

    def _set_state(self, state):
        self.class_count_ = np.asarray(state["class_count"], dtype=np.float64)
        self.components_, self.stats_ = checked_components(state["components"], state["stats"], self.schema_,
                                                           len(self.classes_))
        self._estimate()


register_variant("model", "addtwo", "Naive Bayes with add-two smoothing (a test's toy)", lambda **o: AddTwoBayes())
register_variant("compare", "addtwo", "Naive Bayes with add-two smoothing", AddTwoBayes)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_toy_is_a_naive_bayes_with_add_two_smoothing():
    """Its posteriors, by hand: Laplace class priors times (n(v, c) + 2) / (n_c + 2 m) per attribute."""
    d = load("weather.nominal")
    m = AddTwoBayes().fit(d)
    row = d.X.iloc[0]
    want = []
    for c in m.classes_:
        rows = d.X[d.y == c]
        p = (len(rows) + 1) / (len(d.X) + len(m.classes_))
        for col in d.X.columns:
            values = d.X[col].cat.categories
            p *= ((rows[col] == row[col]).sum() + 2) / (len(rows) + 2 * len(values))
        want.append(p)
    np.testing.assert_allclose(m.predict_proba(d.X.iloc[:1])[0], np.array(want) / sum(want), rtol=1e-12)


def test_the_command_line_fits_shows_and_predicts_with_it(capsys, tmp_path):
    f = tmp_path / "toy.json"
    code, out, err = run(capsys, "fit", dataset_path("iris"), "--model", "addtwo", "-m", f)
    assert code == 0 and "AddTwoBayes: 4 attributes, 3 classes" in out, err
    assert json.loads(f.read_text())["model"] == "AddTwoBayes"
    code, out, err = run(capsys, "show", f)
    assert code == 0 and "AddTwoBayes" in out
    code, out, err = run(capsys, "predict", "-m", f, dataset_path("iris"), "--format", "csv")
    d = load("iris")
    assert code == 0 and out.splitlines()[1:] == [f"{a},{p}" for a, p in
                                                  zip(d.y, AddTwoBayes().fit(d).predict(d.X))]


def test_compare_runs_it(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "--datasets", "iris,weather.nominal", "--models", "addtwo,nb", "--cv",
                         "3", "--out", tmp_path / "cmp")
    assert code == 0 and "addtwo" in out, err
    assert (tmp_path / "cmp" / "report.md").exists()


def test_save_and_load(tmp_path):
    d = load("iris")
    m = AddTwoBayes().fit(d)
    save_model(m, tmp_path / "m.json")
    back = load_model(tmp_path / "m.json")
    np.testing.assert_array_equal(back.predict_proba(d.X), m.predict_proba(d.X))


@pytest.mark.parametrize("name", ["iris", "weather.nominal"])
def test_a_file_in_chunks_and_dask_partitions_give_the_in_memory_model(client, name):  # noqa: F811
    path = dataset_path(name)
    d = load_file(path)
    memory = AddTwoBayes().fit(d)
    streamed = fit_file(AddTwoBayes(), path, chunksize=7)
    ddf = dd.from_pandas(d.X.assign(cls=d.y), npartitions=3)
    # a pandas categorical declares no order: the file's declared classes are given as classes
    distributed = fit_dask(AddTwoBayes(), ddf.drop(columns="cls"), ddf["cls"], classes=list(d.y.cat.categories))
    for m in (streamed, distributed):
        assert list(m.classes_) == list(memory.classes_) and m.schema_ == memory.schema_
        np.testing.assert_allclose(m.predict_proba(d.X), memory.predict_proba(d.X), rtol=1e-12, atol=1e-15)


def test_the_catalog_leaves_out_names_registered_outside_the_package():
    assert "addtwo" not in catalog_text()


def test_an_outside_model_imports_no_private_module():
    """The toy is written on the public protocol: no ``seminaive._name`` module and no ``_name`` import
    from a module of the package (a name read inside the toy, such as ``self._accumulate``, is its own)."""
    import ast
    import pathlib
    tree = ast.parse(pathlib.Path(__file__).read_text(encoding="utf-8"))
    private = [(node.module, a.name) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               and (node.module or "").startswith("seminaive")
               for a in node.names if a.name.startswith("_") or any(p.startswith("_") for p in node.module.split("."))]
    assert private == []


class Perks(Frequency):
    """A new estimation, defined here alone: Perks' prior, a pseudo-count of 1/m for each of an
    attribute's m values (one in all), whatever the number of values."""

    def categorical(self, counts, n_values=None):
        counts = np.asarray(counts, dtype=np.float64)
        m = counts.shape[1] if n_values is None else np.asarray(n_values, dtype=np.float64)
        return np.log(counts + 1.0 / m) - np.log(counts.sum(axis=1, keepdims=True) + 1.0)


register_variant("estimation", "perks", "Perks' prior: 1/m per value",
                 lambda alpha, ddof, prior, name: Perks(ddof=ddof))
declare_table_estimation("perks", "Perks' prior: 1/m per value",
        TableEstimation(make=lambda model: Perks(), describe=lambda model: "Perks' prior (1/m per value)", rank=99))


def test_a_new_estimation_defined_outside_serves_naive_bayes(tmp_path):
    """Naive Bayes with the registered estimation: its posteriors by hand, P(v | c) = (n(v, c) + 1/m) /
    (n_c + 1), which no Lidstone alpha gives when the attributes' numbers of values differ."""
    d = load("weather.nominal")
    m = NaiveBayes(estimation="perks").fit(d)
    want = []
    for i in range(len(d.X)):
        row, p = d.X.iloc[i], []
        for c in m.classes_:
            rows = d.X[d.y == c]
            q = (len(rows) + 1) / (len(d.X) + len(m.classes_))
            for col in d.X.columns:
                k = len(d.X[col].cat.categories)
                q *= ((rows[col] == row[col]).sum() + 1 / k) / (len(rows) + 1)
            p.append(q)
        want.append(np.array(p) / sum(p))
    np.testing.assert_allclose(m.predict_proba(d.X), np.array(want), rtol=1e-12)
    with pytest.raises(Exception, match="estimation: expected one of"):
        NaiveBayes(estimation="perkss").fit(d)
    save_model(m, tmp_path / "perks.json")  # its model file names the estimation, read back through the registry
    np.testing.assert_array_equal(load_model(tmp_path / "perks.json").predict_proba(d.X), m.predict_proba(d.X))


def test_a_new_table_estimation_defined_outside_serves_the_family(tmp_path):
    """TAN with the declared estimation: its posteriors by hand over its structure, each table's
    (class, parent value) row smoothed by 1/m per value, P(v | c, u) = (n(v, u, c) + 1/m) / (n(u, c) + 1);
    the printout names the estimation."""
    d = load("weather.nominal")
    m = TAN(estimation="perks").fit(d)
    X, y, cols = d.X, np.asarray(d.y, dtype=object), list(d.X.columns)
    want = []
    for i in range(len(X)):
        p = []
        for c in m.classes_:
            in_c = y == c
            q = (in_c.sum() + 1) / (len(X) + len(m.classes_))
            for j, col in enumerate(cols):
                k = len(X[col].cat.categories)
                same = in_c.copy()
                for u in m.structure_.parents_of(j):
                    same &= (X[cols[u]] == X[cols[u]].iloc[i]).to_numpy()
                q *= ((X[col][same] == X[col].iloc[i]).sum() + 1 / k) / (same.sum() + 1)
            p.append(q)
        want.append(np.array(p) / sum(p))
    assert any(m.structure_.parents_of(j) for j in range(len(cols)))  # a tree: some attribute has a parent
    np.testing.assert_allclose(m.predict_proba(X), np.array(want), rtol=1e-12)
    assert "Perks' prior" in m.to_text()
    save_model(m, tmp_path / "tan.json")
    np.testing.assert_array_equal(load_model(tmp_path / "tan.json").predict_proba(X), m.predict_proba(X))


def _json_lines(path):
    import pyarrow.json
    return pyarrow.json.read_json(path)


# a new file format, defined here alone: JSON lines, a typed table read by pyarrow
declare_format(FileFormat("jsonl", (".jsonl",), 70, schema=lambda path: _json_lines(path).schema,
                          batches=lambda plan, columns, size: _json_lines(plan.path).select(columns).to_batches(size)),
               "JSON lines (one object per line)")


def test_a_new_file_format_defined_outside_reads_fits_and_streams(tmp_path, capsys):
    """A JSON-lines file, known by its extension alone, loads as the same data as its CSV copy, and a fit
    from it in chunks and from the command line equals the fit in memory."""
    d = load("iris")
    frame = d.X.assign(cls=d.y.astype(str))
    frame.to_json(tmp_path / "iris.jsonl", orient="records", lines=True)
    frame.to_csv(tmp_path / "iris.csv", index=False)
    got, want = load_file(tmp_path / "iris.jsonl"), load_file(tmp_path / "iris.csv")
    assert got.schema == want.schema and list(got.y) == list(want.y)
    np.testing.assert_array_equal(got.X.to_numpy(dtype=float), want.X.to_numpy(dtype=float))
    memory = NaiveBayes(numeric="mdl").fit(want)
    streamed = fit_file(NaiveBayes(numeric="mdl"), tmp_path / "iris.jsonl", chunksize=40)
    np.testing.assert_allclose(streamed.predict_proba(d.X), memory.predict_proba(d.X), rtol=1e-12)
    code, out, err = run(capsys, "fit", tmp_path / "iris.jsonl", "--model", "tan", "-m", tmp_path / "t.json")
    assert code == 0, err
    np.testing.assert_allclose(load_model(tmp_path / "t.json").predict_proba(d.X),
                               TAN().fit(want).predict_proba(d.X), rtol=1e-12)


@register
class ChainBayes(BayesNetClassifier):
    """A new model of the family, defined here alone: each attribute's parent is the one before it."""

    def _parents_from(self, stats):
        return [()] + [(j - 1,) for j in range(1, len(self.schema_))]


register_variant("model", "chain", "each attribute given the class and the attribute before it",
                 lambda **o: ChainBayes())


def test_a_new_family_model_defined_outside_fits_saves_and_streams(tmp_path, capsys):
    """The chain's posteriors by hand (Laplace class prior, P(x_j | c, x_j-1) = (n + 1) / (n_parent + m_j)),
    its model file, its fit from a file's chunks and from the command line."""
    d = load("weather.nominal")
    m = ChainBayes().fit(d)
    X, y, cols = d.X, np.asarray(d.y, dtype=object), list(d.X.columns)
    want = []
    for i in range(len(X)):
        p = []
        for c in m.classes_:
            same_c = y == c
            q = (same_c.sum() + 1) / (len(X) + len(m.classes_))
            for j, col in enumerate(cols):
                given = same_c & ((X[cols[j - 1]] == X[cols[j - 1]].iloc[i]).to_numpy() if j else True)
                q *= ((X[col][given] == X[col].iloc[i]).sum() + 1) / (given.sum() + len(X[col].cat.categories))
            p.append(q)
        want.append(np.array(p) / sum(p))
    np.testing.assert_allclose(m.predict_proba(X), np.array(want), rtol=1e-12)
    save_model(m, tmp_path / "chain.json")
    np.testing.assert_array_equal(load_model(tmp_path / "chain.json").predict_proba(X), m.predict_proba(X))
    path = dataset_path("weather.nominal")
    np.testing.assert_allclose(fit_file(ChainBayes(), path, chunksize=4).predict_proba(X), m.predict_proba(X),
                               rtol=1e-12)
    code, out, err = run(capsys, "fit", path, "--model", "chain", "-m", tmp_path / "c.json")
    assert code == 0, err
    np.testing.assert_allclose(load_model(tmp_path / "c.json").predict_proba(X), m.predict_proba(X), rtol=1e-12)


def test_a_family_model_added_as_one_file_of_the_package_registers_itself(tmp_path):
    """Inside the package, a new family model is its own module in ``seminaive/bayesnet/``: the registry
    imports every module of its provider packages, so nothing else lists it (the catalog that ``--help``
    reads is regenerated from the registry by ``scripts/write_catalog.py``). The module here is placed
    on the package's path for the test."""
    import seminaive.bayesnet as family
    from seminaive import registry
    from seminaive.models import make_model
    (tmp_path / "reverse_chain.py").write_text(
        "from ..protocol import BayesNetClassifier, register, register_variant\n\n\n"
        "@register\nclass ReverseChainBayes(BayesNetClassifier):\n"
        "    def _parents_from(self, stats):\n"
        "        d = len(self.schema_)\n"
        "        return [(j + 1,) for j in range(d - 1)] + [()]\n\n\n"
        "register_variant('model', 'reverse-chain', 'each attribute given the one after it', ReverseChainBayes)\n",
        encoding="utf-8")
    family.__path__.append(str(tmp_path))
    try:
        registry._load()
        m = make_model("reverse-chain").fit(load("weather.nominal"))
        assert type(m).__name__ == "ReverseChainBayes" and registry.model_class("ReverseChainBayes") is type(m)
        assert m.structure_.parents[0] == (1,) and m.structure_.parents[-1] == ()
    finally:
        family.__path__.remove(str(tmp_path))
        sys.modules.pop("seminaive.bayesnet.reverse_chain", None)
        registry._CLASSES.pop("ReverseChainBayes", None)  # the registry as the other tests know it
        registry._VARIANTS["model"].pop("reverse-chain", None)
        registry._ORIGIN.pop(("model", "reverse-chain"), None)
