"""A CSV file fitted in one pass (value lists and classes growing as the rows come) gives the
model of the two-pass reading (kinds and value lists settled first), on generated files whose
columns change their minds late: classes and values first met in later batches, numbers then a
word, numbers pyarrow refuses but numpy reads, columns missing until late or throughout."""

import io
import re

import numpy as np
import pytest

from seminaive import DataFormatError, NaiveBayes
from seminaive.learning.data_source import DataSource, FileSource
from seminaive.data.one_pass_csv import OnePassCsv
from seminaive.scale import fit_file

from test_arrow_csv import assert_same_model


def two_pass(path, chunksize, nominal=None):
    """The chunk-by-chunk fit of the two-pass reading (what fit_file did before one pass)."""
    return DataSource.partial_fits(FileSource(path, chunksize, nominal=nominal), NaiveBayes())


def write(path, columns):
    names = list(columns)
    rows = zip(*(columns[n] for n in names))
    path.write_text(",".join(names) + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))


def generated(rng, n):
    """Columns with late surprises at random places (some beyond the first pyarrow block)."""
    late = lambda: int(rng.integers(n // 3, n))  # noqa: E731
    y = rng.integers(0, 3, n)
    num = np.round(rng.normal(y, 1.0, n), int(rng.integers(1, 6))).astype(object)
    num[rng.random(n) < 0.05] = rng.choice(["?", "", "NA", " ? ", "nan"])
    word = np.round(rng.normal(size=n), 2).astype(object)
    if rng.random() < 0.8:
        word[late()] = rng.choice(["abc", "1.5.2", "x"])
    under = rng.integers(0, 50, n).astype(object)
    if rng.random() < 0.7:
        under[late()] = "1_000"
        if rng.random() < 0.5:
            under[late()] = "word"
    empty = np.array(["?"] * n, dtype=object)
    start = np.full(n, "NA", dtype=object)
    k = late()
    start[k:] = rng.integers(0, 9, n - k)
    letters = np.array(list("abcdefghij"))
    nom = letters[np.minimum(rng.geometric(0.35, n) - 1, 9)].astype(object)
    nom[late()] = "rare"
    cls = np.array(["p", "q", "r"], dtype=object)[y]
    cls[late()] = "late-class"
    cls[rng.random(n) < 0.02] = "?"
    return {"num": num, "word": word, "under": under, "empty": empty, "start": start, "nom": nom, "cls": cls}


@pytest.mark.parametrize("seed", range(12))
def test_one_pass_is_the_two_pass_model(tmp_path, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4000, 9000))
    path = tmp_path / f"g{seed}.csv"
    write(path, generated(rng, n))
    chunksize = int(rng.integers(50, 3000))
    one, two = fit_file(NaiveBayes(), path, chunksize=chunksize), two_pass(path, chunksize)
    assert_same_model(one, two)
    X = two_pass(path, n + 1).schema_  # noqa: F841 - the same schema whatever the chunks
    assert one.schema_ == X
    kinds = {a.name: a.kind for a in one.schema_.attributes}
    assert kinds["empty"] == "numeric" and one.schema_.attributes[3].values == ()  # no value: numeric, as pandas reads it
    assert kinds["start"] == "numeric" and kinds["nom"] == "nominal"
    assert "late-class" in list(one.classes_)


def test_forced_nominal_numbers_are_sorted_and_the_class_too(tmp_path):
    rng = np.random.default_rng(5)
    n = 6000
    write(tmp_path / "f.csv", {"a": rng.integers(0, 12, n), "b": np.round(rng.normal(size=n), 2),
                               "cls": rng.choice([10, 9, 2], n)})
    for chunksize in (100, 7000):
        one = fit_file(NaiveBayes(), tmp_path / "f.csv", chunksize=chunksize, nominal=["a", "cls"])
        assert_same_model(one, two_pass(tmp_path / "f.csv", chunksize, nominal=["a", "cls"]))
        assert one.schema_.attributes[0].values == tuple(str(v) for v in range(12))
        assert list(one.classes_) == ["2", "9", "10"]


def test_every_path_of_a_column_that_turns_nominal(tmp_path, monkeypatch):
    """A word past the first batch (a restart gathers the column's earlier counts), and after numbers
    pyarrow refused (the column read as text: its earlier rows read again alone)."""
    n = 20_000
    rng = np.random.default_rng(3)
    restart = np.round(rng.normal(size=n), 1).astype(object)
    restart[15_000] = "word"
    again = rng.integers(0, 5, n).astype(object)
    again[9_000], again[17_000] = "1_0", "text"
    write(tmp_path / "t.csv", {"restart": restart, "again": again, "cls": rng.choice(["u", "v"], n)})
    calls = []
    read_again = OnePassCsv._read_again
    monkeypatch.setattr(OnePassCsv, "_read_again", lambda self, j: calls.append(j) or read_again(self, j))
    one = fit_file(NaiveBayes(), tmp_path / "t.csv", chunksize=1000)
    assert calls == [1]
    assert_same_model(one, two_pass(tmp_path / "t.csv", 1000))
    assert [a.kind for a in one.schema_.attributes] == ["nominal", "nominal"]
    assert one.schema_.attributes[1].values[:5] == tuple(dict.fromkeys(map(str, again)))[:5]


def same_error(path, chunksize, match):
    """The one-pass fit's error, the two-pass reading's to the letter."""
    with pytest.raises(DataFormatError, match=match) as one:
        fit_file(NaiveBayes(), path, chunksize=chunksize)
    with pytest.raises(DataFormatError) as two:
        two_pass(path, chunksize)
    assert str(one.value) == str(two.value)


def test_errors_are_those_of_the_two_pass_reading(tmp_path):
    lines = "".join(f"{i % 7},{'x' if i % 3 else 'y'},c{i % 2}\n" for i in range(5000))
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,cls\n" + lines + "1,2\n" + lines)
    same_error(bad, 100, "line 5002")
    numeric_class = tmp_path / "measure.csv"
    write(numeric_class, {"a": list("xy") * 100, "cls": np.round(np.linspace(0, 1, 200), 3)})
    same_error(numeric_class, 30, "the class column 'cls' holds numbers")
    unlabelled = tmp_path / "none.csv"
    unlabelled.write_text("a,cls\n1,?\n2,?\n")
    with pytest.raises(DataFormatError, match="no labelled data rows"):
        fit_file(NaiveBayes(), unlabelled)


def test_progress_counts_the_rows(tmp_path):
    write(tmp_path / "p.csv", {"a": np.arange(250) % 4, "cls": ["s", "t"] * 125})
    out = io.StringIO()
    fit_file(NaiveBayes(), tmp_path / "p.csv", chunksize=100, progress=out)
    # every chunk's rows as it is read, then the end (the one progress mechanism: seminaive._progress)
    assert re.findall(r"rows: ([\d,]+)", out.getvalue()) == ["100", "200", "250", "250"]
    assert out.getvalue().splitlines()[-1].strip().startswith("rows: 250 of 250")


def late_frame(n, seed):
    """Typed columns whose values first appear late: a categorical with unused categories, strings,
    booleans with nulls, floats, integer classes one of which is first met late, missing classes."""
    import pandas as pd
    from test_arrow_files import typed_frame
    rng = np.random.default_rng(seed)
    frame = typed_frame(n, seed)
    size = np.array(frame["size"].astype(object).to_numpy(), dtype=object)
    size[rng.integers(n // 2, n)] = "late-size"
    frame["size"] = size
    frame["cls"] = pd.array(np.where(frame["cls"] == "high", 3, 7), dtype="Int64")
    frame.loc[int(rng.integers(n // 2, n)), "cls"] = 11
    frame.loc[rng.random(n) < 0.03, "cls"] = None
    return frame


@pytest.mark.parametrize("kind", ["parquet", "feather"])
@pytest.mark.parametrize("seed", range(4))
def test_one_pass_over_typed_files_is_the_two_pass_model(tmp_path, kind, seed):
    from test_arrow_files import pandas_of, write as write_typed
    frame = late_frame(900, seed)
    path = write_typed(frame, tmp_path / f"d.{kind}", kind, group=[64, 100, 333, None][seed])
    chunksize = [41, 64, 500, 1000][seed]
    nominal = [None, ["count"], None, ["count", "cls"]][seed]
    one = fit_file(NaiveBayes(), path, chunksize=chunksize, nominal=nominal)
    assert_same_model(one, two_pass(path, chunksize, nominal=nominal))
    whole = pandas_of(path)
    whole = whole[whole["cls"].notna()]
    memory = NaiveBayes(nominal=nominal and ["count"]).fit(whole.drop(columns="cls"), whole["cls"])
    assert one.schema_ == memory.schema_ and list(one.classes_) == list(memory.classes_) == [3, 7, 11]
    X = whole.drop(columns="cls")
    np.testing.assert_allclose(one.predict_proba(X), memory.predict_proba(X), rtol=1e-10)
    assert "late-size" in one.schema_.attributes[1].values
    assert one.schema_.attributes[0].values == ("red", "green", "blue", "violet")  # with its unused category


def test_a_column_turning_nominal_after_rows_without_a_class(tmp_path):
    """The first rows have no class (nothing counted yet) when a column turns nominal past them."""
    rows = [f"{i % 5},{i % 3},?" for i in range(6000)] + ["word,1,p"] + [f"{i % 5},{i % 3},{'pq'[i % 2]}"
                                                                         for i in range(3000)]
    path = tmp_path / "late.csv"
    path.write_text("a,b,cls\n" + "\n".join(rows) + "\n")
    one = fit_file(NaiveBayes(), path, chunksize=500)
    assert_same_model(one, two_pass(path, 500))
    assert one.schema_.attributes[0].values == ("0", "1", "2", "3", "4", "word")
