"""CSV files streamed through pyarrow give the models the in-memory reader gives."""

import bz2
import glob
import gzip
import os

import numpy as np
import pytest

from seminaive import DataFormatError, NaiveBayes
from seminaive.data import load_file
from seminaive.scale import fit_file
from seminaive.data.arrow_csv import arrow_summaries

HERE = os.path.dirname(__file__)
REPO_CSV = sorted(glob.glob(os.path.join(HERE, "data", "**", "*.csv"), recursive=True)
                  + glob.glob(os.path.join(HERE, "..", "src", "seminaive", "datasets", "data", "*.csv")))


def assert_same_model(streamed, memory):
    assert streamed.schema_ == memory.schema_
    assert list(streamed.classes_) == list(memory.classes_)
    np.testing.assert_array_equal(streamed.class_count_, memory.class_count_)
    for a, b, c in zip(streamed.stats_, memory.stats_, streamed.components_):
        if c.kind == "categorical":
            np.testing.assert_array_equal(a["counts"], b["counts"])
        else:
            np.testing.assert_array_equal(a["weight"], b["weight"])
            np.testing.assert_allclose(a["mean"] * a["scale"], b["mean"] * b["scale"], rtol=1e-12, atol=1e-300)
            np.testing.assert_allclose(a["m2"] * a["scale"] ** 2, b["m2"] * b["scale"] ** 2, rtol=1e-9, atol=1e-300)


def check_file(path, chunksize=7, **kw):
    try:
        d = load_file(path, **kw)
    except DataFormatError as e:  # a class column refused (numeric): the streamed reader refuses it alike
        assert "the class column" in str(e)
        with pytest.raises(DataFormatError) as streamed_error:
            fit_file(NaiveBayes(), path, chunksize=chunksize, **kw)
        assert str(streamed_error.value) == str(e)
        return None
    memory = NaiveBayes().fit(d.labelled()[0])
    streamed = fit_file(NaiveBayes(), path, chunksize=chunksize, **kw)
    assert_same_model(streamed, memory)
    return streamed


@pytest.mark.parametrize("path", REPO_CSV, ids=os.path.basename)
def test_every_csv_file_of_the_repository(path):
    check_file(path)


TRICKY = {
    "spaces_and_tokens.csv": "a,b,c,cls\n1.5, x ,NA,yes\n 3,? ,2,no\n4 ,y,<null>,no\n,x,N/A,yes\n",
    "quotes.csv": 'a,b,cls\n1,"x,1",yes\n2,"y ""q""",no\n\n3,"x,1",no\n',
    "numpy_numbers.csv": "a,b,cls\n1_000,x,yes\n2,y,no\n+3.5,x,no\n1e3,y,yes\n-7,x,no\n",
    "mixed.csv": "a,b,cls\n1,x,yes\n2,3,no\nz,4,no\n",
    "missing_class.csv": "a,b,cls\n1,x,yes\n2,y,?\n3,x,no\n",
    "semicolons.csv": "a;b;cls\n1,5;x;yes\n2;y;no\n3;x;no\n",
    "bom.csv": "\ufeffa,b,cls\n1,x,yes\n2,y,no\n",
    "all_missing.csv": "a,b,cls\n?,x,yes\n,y,no\nNA,x,no\n",
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_tricky_files(tmp_path, name):
    p = tmp_path / name
    p.write_text(TRICKY[name], encoding="utf-8")
    check_file(p, chunksize=2)


def test_types_settled_over_the_whole_file(tmp_path):
    """A column of numbers with one word far past the first batch is nominal, with
    its values in order of first appearance; numbers pyarrow rejects stay numbers."""
    rng = np.random.default_rng(0)
    n = 120_000
    a = np.round(rng.normal(size=n), 3).astype(str)
    a[100_000] = "word"
    b = np.where(rng.random(n) < 0.5, "1_0", "2")
    cls = np.where(rng.random(n) < 0.5, "yes", "no")
    lines = ["a,b,cls"] + [f"{x},{y},{c}" for x, y, c in zip(a, b, cls)]
    p = tmp_path / "late.csv"
    p.write_text("\n".join(lines) + "\n")
    m = check_file(p, chunksize=5000)
    assert m.schema_.attributes[0].kind == "nominal" and m.schema_.attributes[0].values[0] == a[0]
    assert m.schema_.attributes[1].kind == "numeric"
    summaries, floats = arrow_summaries(str(p), ["a", "b", "cls"], True, ",", {2}, block_size=1 << 16)
    assert floats == set() and summaries[0].values[:3] == list(dict.fromkeys(a))[:3]


@pytest.mark.parametrize("opener,suffix", [(gzip.open, ".gz"), (bz2.open, ".bz2")])
def test_compressed_files(tmp_path, opener, suffix):
    p = tmp_path / f"w.csv{suffix}"
    with opener(p, "wt") as fh:
        fh.write("a,b,cls\n1.5,x,yes\n2.5,y,no\n3,x,no\n")
    check_file(p, chunksize=2)


@pytest.mark.parametrize("text,where", [
    ("a,b,cls\n1,x,yes\n2,y\n", "line 3"),
    ("a,b,cls\n1,x,yes\n2,y,no,extra\n", "line 3"),
])
def test_malformed_rows_name_the_line(tmp_path, text, where):
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(DataFormatError, match=where):
        fit_file(NaiveBayes(), p, chunksize=1)


def test_predictions_equal_in_memory_ones(tmp_path):
    """Predicting a file streamed through pyarrow; a numeric column whose late
    values pyarrow rejects (" ?" with a space, "1_0") makes it start again as text."""
    rng = np.random.default_rng(1)
    n = 60_000
    a = np.round(rng.normal(size=n), 2).astype(object)
    a[50_000], a[50_001] = " ?", "1_0"
    b = rng.choice(["x", "y", "z"], n).astype(object)
    b[7] = "never-seen"
    cls = rng.choice(["yes", "no"], n)
    train = tmp_path / "train.csv"
    train.write_text("a,b,cls\n" + "".join(f"{x},{y},{c}\n" for x, y, c in zip(a[:500], b[:500], cls[:500]))
                     .replace("never-seen", "x"))
    test = tmp_path / "test.csv"
    test.write_text("a,b,cls\n" + "".join(f"{x},{y},{c}\n" for x, y, c in zip(a, b, cls)))
    from seminaive.scale import predict_file
    model = NaiveBayes().fit(load_file(train))
    out = tmp_path / "out.csv"
    with pytest.warns(UserWarning, match="'b' 1"):
        rows = predict_file(model, test, out, chunksize=5000, proba=True)
    assert rows == n
    import pandas as pd
    got = pd.read_csv(out)
    with pytest.warns(UserWarning):
        want = model.predict_proba(load_file(test).X)
    np.testing.assert_allclose(got[[f"P({c})" for c in model.classes_]].to_numpy(), want, rtol=1e-12)
    assert got["prediction"].tolist() == list(model.classes_[want.argmax(axis=1)])
    assert got["actual"].tolist() == cls.tolist()  # a labelled file's class comes first


@pytest.mark.parametrize("seed", range(20))
def test_the_file_scan_finds_what_the_whole_text_holds(tmp_path, seed):
    """The block scan (blocks far smaller than its 4 KiB seam, and larger) against searching the
    whole text after the offset at once, for plain bytes and a regex, a match anywhere, across seams
    included."""
    import re
    import numpy as np
    from seminaive.data.arrow_csv import _scan
    rng = np.random.default_rng(seed)
    text = bytes(rng.choice(list(b"ab,\n "), int(rng.integers(0, 20000))).tolist())
    if seed % 3:
        at = int(rng.integers(0, len(text) + 1))
        text = text[:at] + (b'"' if seed % 2 else b'x"y') + text[at:]
    path = tmp_path / "f.csv"
    path.write_bytes(text)
    offset = int(rng.integers(0, 50))
    checks = {"quote": b'"', "inner": re.compile(rb'[^,\r\n"]"[^,\r\n"]'), "none": b"\x00"}
    want = {name for name, rx in checks.items()
            if (rx in text[offset:] if isinstance(rx, bytes) else rx.search(text[offset:]))}
    for block in (7, 4096, 1 << 24):
        assert _scan(str(path), offset, checks, block) == want
