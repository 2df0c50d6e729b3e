"""The file readers: CSV, ARFF, KEEL, filebase; and pandas/numpy input."""

import pathlib

import numpy as np
import pandas as pd
import pytest

from conftest import write

from seminaive import DataFormatError, NaiveBayes
from seminaive.data import infer_schema, load_file, read_arff, read_csv, read_filebase, read_keel
from seminaive.datasets import dataset_path


def test_csv_header_types_and_missing_tokens(tmp_path):
    p = write(tmp_path, "d.csv", "a,b,c,cls\nx,1.5,?,yes\ny,NA,2,no\n,NaN,<null>,yes\nx,3,4,no\n")
    d = read_csv(p)
    kinds = [a.kind for a in d.schema.attributes]
    assert kinds == ["nominal", "numeric", "numeric"]
    assert d.X["a"].isna().tolist() == [False, False, True, False]
    assert d.X["b"].isna().sum() == 2 and d.X["c"].isna().sum() == 2
    assert d.schema.attributes[0].values == ("x", "y")  # order of first appearance
    assert d.schema.target.name == "cls"


def test_csv_without_header_and_target_by_index(tmp_path):
    p = write(tmp_path, "d.csv", "yes,1,a\nno,2,b\nyes,3,a\n")
    d = read_csv(p, header=False, target=0)
    assert d.schema.target.name == "x1" and list(d.classes) == ["no", "yes"]  # undeclared classes: sorted
    assert d.schema.names == ("x2", "x3")
    d2 = read_csv(p, header=False, nominal=["x2"])
    assert d2.schema.attributes[1].values == ("1", "2", "3")
    assert list(read_csv(p, header=False).schema.names) == ["x1", "x2"]


def test_csv_target_by_name_and_override(tmp_path):
    p = write(tmp_path, "d.csv", "k,v,w\n1,a,5\n2,b,6\n")
    d = read_csv(p, target="v", nominal=["k"], numeric=[])
    assert d.schema.target.name == "v" and d.schema.attributes[0].is_nominal


def test_arff_declared_values_survive(tmp_path):
    d = read_arff(dataset_path("weather.nominal"))
    assert d.schema.attributes[0].values == ("sunny", "overcast", "rainy")
    assert d.name == "weather.symbolic" and d.n_samples == 14
    p = write(tmp_path, "t.arff", "% c\n@RELATION t\n@ATTRIBUTE 'a b' {'x y',z,w}\n@attribute n REAL\n"
                                  "@attribute c {p,q}\n@data\n'x y',1.5,p\nz,?,q\n")
    d = read_arff(p)
    assert d.schema.names == ("a b", "n")
    assert d.schema.attributes[0].values == ("x y", "z", "w")
    nb = NaiveBayes().fit(d)
    assert nb.schema_.attributes[0].values == ("x y", "z", "w")  # w declared, never seen


def test_keel_header_and_headerless(tmp_path):
    p = write(tmp_path, "k.dat", "@relation r\n@attribute x real [0.0, 9.0]\n@attribute k {a, b}\n"
                                 "@attribute z integer [1, 3]\n@inputs x, z\n@outputs k\n@data\n"
                                 "1.0, a, 1\n2.5, b, <null>\n")
    d = read_keel(p)
    assert d.schema.target.name == "k" and d.schema.names == ("x", "z")
    assert d.X["z"].isna().tolist() == [False, True]
    q = write(tmp_path, "h.dat", "1.0,2,a\n3.0,4,b\n5.0,6,a\n")
    d = read_keel(q)
    assert d.schema.target.name == "class" and d.schema.numeric_indices == (0, 1)
    assert load_file(q).n_samples == 3


def test_filebase(tmp_path):
    for ext, text in {"des": "0,1\n0,1,2\nn,y\n", "dat": "0,2,y\n1,1,n\n1,0,y\n",
                      "tst": "0,0,y\n", "cls": "1,2\n"}.items():
        write(tmp_path, f"fb.{ext}", text)
    fb = read_filebase(tmp_path / "fb")
    assert fb.schema.attributes[1].values == ("0", "1", "2")
    assert fb.learn.n_samples == 3 and fb.test.n_samples == 1 and fb.classify.y is None
    assert load_file(tmp_path / "fb.dat").schema.target.values == ("n", "y")


def test_pandas_dtypes_and_numpy():
    df = pd.DataFrame({"o": np.array(["a", "b", "a"], dtype=object), "c": pd.Categorical(["u", "v", "u"]),
                       "b": [True, False, True], "n": [1.0, 2.0, 3.5], "i": [1, 2, 3],
                       "s": pd.array(["p", "q", None], dtype="string")})
    s = infer_schema(df)
    assert [a.kind for a in s.attributes] == ["nominal"] * 3 + ["numeric"] * 2 + ["nominal"]
    assert s.attributes[2].values == (False, True)
    assert infer_schema(df, nominal=["i"]).attributes[4].values == (1, 2, 3)
    nb = NaiveBayes().fit(df, ["y", "n", "y"])
    assert nb.predict_proba(df).shape == (3, 2)
    assert [a.kind for a in infer_schema(np.zeros((2, 3))).attributes] == ["numeric"] * 3
    assert all(a.is_nominal for a in infer_schema(np.zeros((2, 3), int), nominal="all").attributes)
    mixed = infer_schema(np.array([["a", 1.0], ["b", 2.0]], dtype=object))
    assert [a.kind for a in mixed.attributes] == ["nominal", "numeric"]


def test_column_matching_by_name():
    df = pd.DataFrame({"a": ["x", "y", "x", "y"], "b": [1.0, 2.0, 1.5, 2.5]})
    nb = NaiveBayes().fit(df, [0, 1, 0, 1])
    np.testing.assert_allclose(nb.predict_proba(df[["b", "a"]]), nb.predict_proba(df))


def test_files_are_never_changed(tmp_path):
    p = write(tmp_path, "d.csv", "a,b\nx,1\ny,2\n")
    before = p.read_bytes(), p.stat().st_mtime_ns
    NaiveBayes().fit(read_csv(p))
    assert (p.read_bytes(), p.stat().st_mtime_ns) == before


@pytest.mark.parametrize("sep", [";", "\t", "|", ","])
def test_the_separator_is_found_or_given(tmp_path, sep):
    from seminaive.scale import fit_file
    text = sep.join(["a", "n", "cls"]) + "\n" + "\n".join(sep.join(r) for r in
                                                           [["x", "1,5" if sep == ";" else "1.5", "p"],
                                                            ["y", "2", "q"], ["x", "3", "p"]]) + "\n"
    path = tmp_path / "d.csv"
    path.write_text(text)
    d = read_csv(path)
    assert list(d.X.columns) == ["a", "n"] and list(d.classes) == ["p", "q"]
    assert read_csv(path, sep=sep).schema == d.schema
    m = fit_file(__import__("seminaive").NaiveBayes(), path, chunksize=2)
    assert m.schema_.attributes == d.schema.attributes


def test_a_file_that_parses_to_one_column_suggests_sep(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a:n:cls\nx:1:p\ny:2:q\n")
    with pytest.raises(DataFormatError, match="parses to one column.*give it \\(--sep\\)"):
        read_csv(path)
    assert list(read_csv(path, sep=":").X.columns) == ["a", "n"]


@pytest.mark.parametrize("ext", [".gz", ".bz2", ".xz", ".zip"])
def test_compressed_files_read_in_memory_and_streamed(tmp_path, ext):
    import bz2
    import gzip
    import lzma
    import zipfile
    from seminaive import NaiveBayes
    from seminaive.data import load_file
    from seminaive.datasets import dataset_path
    from seminaive.scale import fit_file
    for name in ("weather.numeric.arff", "ihealth.csv"):
        plain = pathlib.Path(dataset_path("iris")).parent / name
        packed = tmp_path / (name + ext)
        data = plain.read_bytes()
        if ext == ".zip":
            with zipfile.ZipFile(packed, "w") as z:
                z.writestr(name, data)
        else:
            packed.write_bytes({".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}[ext](data))
        want = load_file(plain)
        got = load_file(packed)
        assert got.schema == want.schema and got.X.equals(want.X)
        m = fit_file(NaiveBayes(), packed, chunksize=5)
        np.testing.assert_allclose(m.predict_proba(want.X), NaiveBayes().fit(want).predict_proba(want.X), rtol=1e-12)


def test_nul_bytes_are_refused(tmp_path):
    path = tmp_path / "d.csv"
    path.write_bytes(b"a,cls\nx,p\ny\x00,q\n")
    with pytest.raises(DataFormatError, match="line 3.*a NUL byte|a NUL byte"):
        read_csv(path)
