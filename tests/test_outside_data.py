"""Data the project did not write, and hostile files: each case reproduced as a user met it
(issue 42), then the rule that fixed it at its cause."""

import io
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes, load_file
from seminaive.cli.main import main
from seminaive.discretize import interval_labels
from seminaive.exceptions import DataFormatError, ParameterError
from seminaive.scale import fit_file
from seminaive.search import BSEJ, BSJ

HERE = os.path.dirname(__file__)


def _xor(n=300, seed=0):
    """Years 2007-2009 and a letter, the class their XOR: equal-width cuts of the years round alike."""
    rng = np.random.default_rng(seed)
    year, g = rng.choice([2007, 2008, 2009], n), rng.choice(["a", "b"], n)
    return pd.DataFrame({"year": year, "g": g}), np.where((year == 2008) ^ (g == "a"), "p", "q")


def test_interval_labels_take_the_digits_that_tell_cuts_apart():
    labels = interval_labels([2007.2, 2007.4, 2008.0, 2008.2])
    assert labels == ["<= 2007.2", "(2007.2, 2007.4]", "(2007.4, 2008]", "(2008, 2008.2]", "> 2008.2"]
    close = interval_labels([1.000001, 1.000002])
    assert len(set(close)) == 3 and close[0] == "<= 1.000001"


@pytest.mark.parametrize("search", [BSEJ, BSJ])
def test_a_join_of_an_equal_width_year_fits_and_finds_the_xor(search):
    X, y = _xor()
    m = search().fit(X, y)
    assert (m.predict(X) == y).mean() == 1.0  # the join of year and g holds the XOR exactly
    nb = NaiveBayes(numeric="equal_width").fit(X, y)
    rows = [line.split("  ")[0].strip() for line in nb.to_text().splitlines() if line.startswith(("(", "<", ">"))]
    assert len(rows) == 10 and len(set(rows)) == 10


def test_the_search_command_on_the_xor_file(tmp_path, capsys):
    X, y = _xor()
    X.assign(cls=y).to_csv(tmp_path / "xor.csv", index=False)
    assert main(["search", str(tmp_path / "xor.csv"), "--model", "bsej"]) in (0, None)
    assert "year*g" in capsys.readouterr().out


MAGIC = {".svg": b"<?xml", ".pdf": b"%PDF", ".png": b"\x89PNG", ".eps": b"%!PS"}


@pytest.mark.parametrize("ext", sorted(MAGIC))
def test_a_picture_is_written_in_the_format_its_name_asks_for(tmp_path, ext):
    out = tmp_path / f"tan{ext}"
    main(["fit", "weather.nominal", "--model", "tan", "--plot", str(out)])
    assert out.read_bytes().startswith(MAGIC[ext])


def test_a_picture_format_matplotlib_cannot_write_is_refused_before_the_fit(tmp_path, capsys):
    out = tmp_path / "tan.xyz"
    code = main(["fit", "weather.nominal", "--model", "tan", "--plot", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and ".xyz" in err[0] and ".svg" in err[0]
    assert not out.exists()


def _penguin_like(n=120, seed=3):
    rng = np.random.default_rng(seed)
    species = rng.choice(["Adelie", "Gentoo", "Chinstrap"], n)
    shift = pd.Series(species).map({"Adelie": 0.0, "Gentoo": 7.5, "Chinstrap": 11.0}).to_numpy()
    d = pd.DataFrame({"island": rng.choice(["Biscoe", "Dream"], n),
                      "bill_length_mm": np.round(38.0 + shift + rng.normal(0, 2.5, n), 1),
                      "body_mass_g": rng.integers(3000, 6000, n),  # whole numbers: no comma anywhere
                      "flipper": np.round(rng.normal(200, 10, n), 2),
                      "species": species})
    d.loc[[4, 9], "bill_length_mm"] = np.nan
    return d


def test_a_write_csv2_file_reads_its_decimal_commas_as_numbers(tmp_path):
    d = _penguin_like()
    plain, csv2 = tmp_path / "plain.csv", tmp_path / "csv2.csv"
    d.to_csv(plain, index=False, na_rep="NA")
    d.to_csv(csv2, sep=";", decimal=",", index=False, na_rep="NA", quoting=2)  # as R's write.csv2: quoted text
    assert "38,4" in csv2.read_text() or "," in csv2.read_text().splitlines()[1]
    a, b = load_file(plain), load_file(csv2)
    assert [x.kind for x in b.schema.attributes] == [x.kind for x in a.schema.attributes]
    assert b.schema.attributes[1].kind == "numeric"
    pa_, pb = NaiveBayes().fit(a).predict_proba(a.X), NaiveBayes().fit(b).predict_proba(b.X)
    np.testing.assert_allclose(pb, pa_, rtol=0, atol=1e-12)
    streamed = fit_file(NaiveBayes(), csv2, chunksize=7)  # the streamed reader decides as the whole-file one
    np.testing.assert_allclose(streamed.predict_proba(a.X), pa_, rtol=0, atol=1e-12)
    as_text = load_file(csv2, decimal=".")  # said otherwise: the commas stay text
    assert as_text.schema.attributes[1].kind == "nominal"


def test_decimal_commas_are_not_guessed_in_a_comma_file_nor_where_text_stands(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("a;b;c\n1,5;x;p\n2,5;y,1;q\n3;z;p\n")
    d = load_file(p)
    assert d.schema.attributes[0].kind == "numeric" and d.X["a"].tolist() == [1.5, 2.5, 3.0]
    assert d.schema.attributes[1].values == ("x", "y,1", "z")  # text keeps its comma
    p.write_text("a;b;c\nx,5;1;p\n2,5;2;q\n")
    assert load_file(p).schema.attributes[0].kind == "nominal"
    with pytest.raises(ParameterError, match="decimal"):
        load_file(p, decimal="comma")
    with pytest.raises(ParameterError, match="another field separator"):
        load_file(p, sep=",", decimal=",")


def test_the_command_line_takes_decimal(tmp_path, capsys):
    p = tmp_path / "t.csv"
    p.write_text("a;c\n1,5;p\n2,5;q\n1,25;p\n2,75;q\n")
    main(["fit", str(p)])
    assert "numeric" in capsys.readouterr().out
    main(["fit", str(p), "--decimal", "."])
    assert "a (nominal" in capsys.readouterr().out


def _times(n=12):
    rng = np.random.default_rng(5)
    start = pd.Timestamp("2021-03-01")
    t = pd.Series(start + pd.to_timedelta(rng.integers(0, 10**9, n), unit="us")).astype("datetime64[us]")
    t[2] = pd.NaT
    return pd.DataFrame({
        "t_us": t,  # microseconds: a cast to milliseconds would lose data
        "t_tz": pd.Series(start + pd.to_timedelta(rng.integers(0, 10**6, n), unit="s")).dt.tz_localize("UTC"),
        "wait": pd.to_timedelta(rng.integers(0, 10**6, n), unit="ms"),
        "x": rng.normal(size=n),
        "cls": np.array(["p", "q"])[np.arange(n) % 2]})


@pytest.mark.parametrize("ext", [".parquet", ".feather"])
def test_microsecond_timestamps_read_as_the_dataframe_fits_them(tmp_path, ext):
    d = _times()
    p = tmp_path / f"t{ext}"
    (d.to_parquet if ext == ".parquet" else d.to_feather)(p)
    X = d.drop(columns="cls")
    m = NaiveBayes().fit(X, d["cls"])
    assert all(a.kind == "numeric" for a in m.schema_.attributes)
    f = load_file(p)
    us = d["t_us"].dropna().astype("int64").to_numpy()
    np.testing.assert_array_equal(f.X["t_us"].dropna().to_numpy(), us / 1000.0)  # milliseconds, fractions kept
    np.testing.assert_array_equal(f.X["wait"].to_numpy(), d["wait"].dt.total_seconds().to_numpy() * 1000.0)
    expect = m.predict_proba(X)
    np.testing.assert_allclose(NaiveBayes().fit(f).predict_proba(f.X), expect, rtol=0, atol=1e-12)
    # in chunks, moments of times 1.6e12 ms from their origin and 1e6 ms apart merge to ~1e-10 of rounding
    np.testing.assert_allclose(fit_file(NaiveBayes(), p, chunksize=5).predict_proba(X), expect, rtol=0, atol=1e-8)


@pytest.mark.parametrize("ext", [".parquet", ".feather", ".csv"])
def test_a_column_of_nulls_streamed_gives_the_in_memory_model(tmp_path, ext):
    d = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.5, 5.0, 6.5], "e": [None] * 6, "cls": list("pqpqpq")})
    p = tmp_path / f"n{ext}"
    {".parquet": d.to_parquet, ".feather": d.to_feather}.get(ext, lambda q: d.to_csv(q, index=False))(p)
    whole = NaiveBayes().fit(load_file(p))
    for size in (1, 2, 4):
        part = fit_file(NaiveBayes(), p, chunksize=size)
        assert part.schema_ == whole.schema_
        np.testing.assert_allclose(part.predict_proba(d[["a", "e"]]), whole.predict_proba(d[["a", "e"]]),
                                   rtol=0, atol=1e-12)


def test_a_datetime_column_of_a_dataframe_is_milliseconds():
    X = pd.DataFrame({"when": pd.to_datetime(["2020-01-01", "2020-01-02", None, "2020-01-04"]),
                      "x": [1.0, 2.0, 3.0, 4.0]})
    y = ["p", "q", "p", "q"]
    m = NaiveBayes().fit(X, y)
    as_ms = X.assign(when=[1577836800000.0, 1577923200000.0, np.nan, 1578096000000.0])
    np.testing.assert_allclose(m.predict_proba(X), NaiveBayes().fit(as_ms, y).predict_proba(as_ms), rtol=0,
                               atol=1e-12)


def test_corrupt_parquet_and_feather_files_never_crash_the_process(tmp_path):
    """A seeded corpus of damaged files (bytes changed, runs overwritten, cut short), each fitted in memory
    and streamed (in one pass, and in two) in a child process: a crash inside pyarrow (a segmentation
    fault) fails here with the file that caused it; every other outcome is a model or one library error,
    and the streamed fit gives the in-memory fit's model or its refusal."""
    script = os.path.join(HERE, "arrow_fuzz.py")
    r = subprocess.run([sys.executable, script, str(tmp_path), "120"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"exit {r.returncode}; last files: {r.stdout[-400:]} {r.stderr[-2000:]}"
    last = r.stdout.strip().splitlines()[-1]
    read, refused, other, agree, differ = (int(v) for v in last.split()[1::2])
    assert other == 0, [line for line in r.stdout.splitlines() if line.startswith("OTHER")][:5]
    assert differ == 0, [line for line in r.stdout.splitlines() if line.startswith("DIFFER")][:5]
    assert refused > 100 and read > 50 and read + refused == 3 * 120 * 2 * 2 and agree == 3 * 120 * 2


def test_predict_on_a_header_only_file_is_one_line(tmp_path, capsys):
    model, data = tmp_path / "m.json", tmp_path / "h.csv"
    main(["fit", "weather.nominal", "-m", str(model)])
    data.write_text("outlook,temperature,humidity,windy,play\n")
    capsys.readouterr()
    for extra in ([], ["--chunksize", "2", "-o", str(tmp_path / "p.csv")]):
        assert main(["predict", "-m", str(model), str(data), *extra]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "no data rows" in err[0] and "h.csv" in err[0]
    assert not (tmp_path / "p.csv").exists()


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli"])
def test_count_models_predict_files_and_name_their_features(tmp_path, capsys, kind):
    rng = np.random.default_rng(4)
    X = pd.DataFrame(rng.integers(0, 5, (30, 3)), columns=["w1", "w2", "w3"])
    y = rng.choice(["a", "b"], 30)
    X.assign(cls=y).to_csv(tmp_path / "c.csv", index=False)
    model = tmp_path / "m.json"
    main(["fit", str(tmp_path / "c.csv"), "--model", kind, "-m", str(model)])
    out = capsys.readouterr().out
    assert "w1" in out and "x0" not in out
    main(["predict", "-m", str(model), str(tmp_path / "c.csv"), "--proba", "--format", "csv"])
    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    from seminaive.models import make_model
    expect = make_model(kind).fit(X, y)
    np.testing.assert_allclose(got[[f"P({c})" for c in expect.classes_]].to_numpy(), expect.predict_proba(X),
                               atol=1e-4)
    (tmp_path / "m.csv").write_text("w1,w2,w3,cls\n1,?,2,a\n")
    assert main(["predict", "-m", str(model), str(tmp_path / "m.csv")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be missing" in err[0] and "'w2'" in err[0]


def test_contradictory_options_are_refused(capsys):
    cases = [["evaluate", "weather.nominal", "--cv", "2", "--holdout", "0.3"],
             ["evaluate", "weather.nominal", "--loo", "--cv", "3"],
             ["evaluate", "weather.nominal", "--loo", "--repeats", "3"],
             ["evaluate", "weather.nominal", "--test", "weather.nominal", "--cv", "3"],
             ["search", "weather.nominal", "--method", "bse", "--model", "bsej"]]
    for argv in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("seminaive: error:"), (argv, err)
    assert main(["search", "weather.nominal", "--method", "bse", "--quiet"]) in (0, None)
    assert "BSE" in capsys.readouterr().err


def test_models_lines_are_short():
    from seminaive.models import model_parameters_text
    text = model_parameters_text()
    assert max(map(len, text.splitlines())) <= 100 and "eskdb" in text and "n_estimators=20" in text


def test_compare_takes_a_class_column_per_file_and_the_shared_names(tmp_path, capsys):
    rng = np.random.default_rng(1)
    for k, col in enumerate(["species", "kind"]):
        y = rng.choice(["a", "b"], 60)
        pd.DataFrame({col: y, "x": rng.normal(size=60) + (y == "a"), "g": rng.choice(["u", "v"], 60)}) \
            .to_csv(tmp_path / f"s{k}.csv", index=False)
    out = tmp_path / "rep"
    code = main(["compare", f"{tmp_path / 's0.csv'}:species", f"{tmp_path / 's1.csv'}:kind", "--model", "nb,1r",
                 "--cv", "3", "--output", str(out)])
    assert code in (0, None)
    res = pd.read_csv(out / "results.csv")
    assert sorted(res["dataset"].unique()) == ["s0.csv", "s1.csv"] and len(res) == 2 * 2 * 3
    # a wrong class column is the class-column check's error, not a silent use of the last column
    assert main(["compare", f"{tmp_path / 's0.csv'}:nope", "--cv", "3", "--output", str(tmp_path / "r2")]) == 2
    assert "nope" in capsys.readouterr().err


def test_compare_refuses_a_used_folder_before_saying_results_go_there(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["compare", "weather.nominal", "--model", "nb", "--cv", "2", "--output", str(out)]) in (0, None)
    assert f"results go to {out}" in capsys.readouterr().err
    assert main(["compare", "weather.nominal", "--model", "1r", "--cv", "2", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert "results go to" not in err and "different experiment" in err


def test_compare_of_a_tiny_set_prints_no_numpy_warning(tmp_path, capsys):
    assert main(["compare", "weather.numeric", "--cv", "10", "--output", str(tmp_path / "r")]) in (0, None)
    assert "warning" not in capsys.readouterr().err


def test_links_are_neither_replaced_nor_followed(tmp_path, capsys):
    dangling = tmp_path / "m.json"
    dangling.symlink_to(tmp_path / "nowhere" / "x.json")
    assert main(["fit", "weather.nominal", "-m", str(dangling)]) == 2
    assert "symbolic link" in capsys.readouterr().err and dangling.is_symlink()
    folder = tmp_path / "rep"
    folder.mkdir()
    target = tmp_path / "mine.png"
    target.write_bytes(b"keep")
    (folder / "accuracy.png").symlink_to(target)
    assert main(["compare", "weather.nominal", "--cv", "2", "--output", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "symbolic link" in err and "accuracy.png" in err
    assert target.read_bytes() == b"keep" and not (folder / "results.csv").exists()  # refused before the work


def test_limits_are_refused_with_their_numbers():
    from seminaive import ESKDB, KDB, TAN
    rng = np.random.default_rng(0)
    n = 3000
    wide = pd.DataFrame({f"c{j}": pd.Categorical(rng.integers(0, 300, n).astype(str)) for j in range(6)})
    y = rng.choice(["p", "q"], n)
    with pytest.raises(ParameterError, match=r"KDB's 6 tables \([\d,]+ cells.*GiB, more than half"):
        KDB(k=5).fit(wide, y)
    TAN().fit(wide, y)  # one parent each: it fits
    with pytest.raises(ParameterError, match=r"ESKDB's 10,000,000,000 members .* fewer members"):
        ESKDB(n_estimators=10**10).fit(wide.iloc[:200, :3], y[:200])


def test_the_counting_primitive_refuses_what_memory_cannot_hold():
    from seminaive.core.subset_counts import count_flat
    cols = [np.zeros(3, dtype=np.int64)] * 3
    with pytest.raises(ParameterError, match=r"counting 3 attribute sets \([\d,]+ cells\).*more than half"):
        count_flat(cols, [10**6] * 3, np.zeros(3, dtype=np.int64), 2, [(0, 1), (0, 2), (1, 2)])


def test_a_line_too_long_is_refused_when_met(tmp_path, monkeypatch):
    import seminaive.data.tokens as tokens
    monkeypatch.setattr(tokens, "MAX_LINE", 1000)
    p = tmp_path / "t.csv"
    p.write_text("a,c\n1,p\n" + "x" * 5000 + ",q\n")
    with pytest.raises(DataFormatError, match=r"line 3: a line longer than 1,000 characters"):
        load_file(p)


def test_progress_is_shown_for_long_work_only():
    from seminaive import ESKDB
    from seminaive._progress import progress_to
    from seminaive.datasets import load
    out = io.StringIO()
    with progress_to(out, every=0.0):
        ESKDB(n_estimators=3).fit(load("weather.nominal"))
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("  ESKDB members: 3 of 3") and len(lines) == 3
    quiet = io.StringIO()
    with progress_to(quiet, every=60.0):
        ESKDB(n_estimators=3).fit(load("weather.nominal"))
    assert quiet.getvalue() == ""


def test_each_pass_over_a_file_shows_its_rows():
    """A model fitted in passes from a file shows each pass's rows read: the first pass without a
    total (not known yet), the later ones out of the first's rows; nothing when nobody asked."""
    from seminaive import KDB
    from seminaive._progress import progress_to
    from seminaive.datasets import dataset_path
    from seminaive.scale import fit_file
    out = io.StringIO()
    with progress_to(out, every=0.0):
        fit_file(KDB(k=1), dataset_path("weather.numeric"), chunksize=5)
    assert out.getvalue().splitlines() == [
        "  pass 1 over the data, rows: 5 (0 s)", "  pass 1 over the data, rows: 10 (0 s)",
        "  pass 1 over the data, rows: 14 (0 s)", "  pass 1 over the data, rows: 14 of 14 (0 s)",
        *[f"  pass {k} over the data, rows: {n} of 14 (0 s{', about 0 s left' if n < 14 else ''})"
          for k in (2, 3) for n in (5, 10, 14)]]
    quiet = io.StringIO()
    with progress_to(quiet, every=60.0):
        fit_file(KDB(k=1), dataset_path("weather.numeric"), chunksize=5)
    assert quiet.getvalue() == ""


def test_an_ensemble_picture_says_what_it_is():
    from seminaive import ESKDB
    from seminaive.datasets import load
    from seminaive.drawing import agreement, plot_structure
    m = ESKDB(n_estimators=6).fit(load("keel:vehicle"))
    s, arcs, used = agreement(m)
    half = 3
    for i, g in enumerate(s.groups):  # every arc drawn is held by at least half of the members
        assert used[g[0]] >= half and all(arcs[(p, g[0])] >= half for p in s.parents_of(i))
    held = sum(1 for member in m.estimators_ for i in range(len(member.structure_.groups))
               for _ in member.structure_.parents_of(i))
    assert sum(arcs.values()) == held
    fig = plot_structure(m)
    title = fig.axes[0].get_title(loc="left")
    assert "the average of 6 selective kDBs" in title and "at least" in title


WEKA = os.path.join(HERE, "data", "weka")


@pytest.mark.parametrize("name", ["weather.numeric", "vote", "soybean"])
def test_wekas_sparse_arff_reads_as_its_dense_file(name):
    """Files Weka's NonSparseToSparse wrote (scripts/reference/make_weka_sparse.py): the same data."""
    dense, sparse = load_file(os.path.join(WEKA, f"{name}.arff")), load_file(os.path.join(WEKA, f"sparse-{name}.arff"))
    assert sparse.schema == dense.schema
    pd.testing.assert_frame_equal(sparse.X, dense.X)
    assert sparse.y.astype(str).tolist() == dense.y.astype(str).tolist()
    streamed = fit_file(NaiveBayes(), os.path.join(WEKA, f"sparse-{name}.arff"), chunksize=50)
    np.testing.assert_allclose(streamed.predict_proba(dense.X), NaiveBayes().fit(dense).predict_proba(dense.X),
                               rtol=0, atol=1e-12)


def test_a_sparse_arff_of_counts_as_a_scipy_matrix(tmp_path):
    from seminaive import MultinomialNaiveBayes
    from seminaive.data.io import read_sparse_arff
    p = tmp_path / "c.arff"
    p.write_text("@relation c\n@attribute w1 numeric\n@attribute w2 numeric\n@attribute w3 numeric\n"
                 "@attribute cls {p,q}\n@data\n{0 3, 3 q}\n{1 2, 2 5}\n{0 1, 1 1, 3 q}\n0,4,0,p\n")
    X, y, names = read_sparse_arff(p)
    assert X.format == "csr" and X.nnz == 6 and names == ["w1", "w2", "w3"]
    assert X.toarray().tolist() == [[3, 0, 0], [0, 2, 5], [1, 1, 0], [0, 4, 0]] and y.tolist() == list("qpqp")
    d = load_file(p)  # the same rows, dense
    np.testing.assert_allclose(MultinomialNaiveBayes().fit(X, y).predict_proba(X),
                               MultinomialNaiveBayes().fit(d.X, d.y).predict_proba(d.X), rtol=0, atol=1e-12)
    (tmp_path / "n.arff").write_text("@relation c\n@attribute a {x,y}\n@attribute cls {p,q}\n@data\n{0 y}\n")
    with pytest.raises(DataFormatError, match="numeric attributes only; 'a'"):
        read_sparse_arff(tmp_path / "n.arff")


def test_arff_dates_in_wekas_formats(tmp_path):
    from seminaive.data.arff import java_date_format
    assert java_date_format("yyyy-MM-dd'T'HH:mm:ss.SSS") == "%Y-%m-%dT%H:%M:%S.%f"
    assert java_date_format("EEE, d MMM yyyy hh:mm a 'o''clock'") == "%a, %d %b %Y %I:%M %p o'clock"
    p = tmp_path / "d.arff"
    p.write_text('@relation d\n@attribute when date "dd/MM/yyyy HH:mm"\n@attribute iso date\n'
                 '@attribute cls {p,q}\n@data\n"01/02/2020 10:30",2020-02-01T10:30:00,p\n'
                 '?,1970-01-02T00:00:00,q\n{0 "02/02/2020 00:00", 2 q}\n')
    d = load_file(p)
    assert d.X["when"].tolist()[0] == d.X["iso"].tolist()[0] == 1580553000000.0  # 2020-02-01 10:30 UTC, in ms
    assert np.isnan(d.X["when"][1]) and d.X["iso"][1] == 86_400_000.0
    assert d.X["when"][2] == 1580601600000.0 and d.X["iso"][2] == 0.0  # a sparse row leaves 1970 out
    p.write_text('@relation d\n@attribute when date "dd/MM/yyyy"\n@attribute cls {p,q}\n@data\n31/02/2020,p\n')
    with pytest.raises(DataFormatError, match=r"line 5.*expected a date as '%d/%m/%Y'"):
        load_file(p)
    p.write_text('@relation d\n@attribute when date "yyyy QQ"\n@attribute cls {p,q}\n@data\n2020 1,p\n')
    with pytest.raises(DataFormatError, match="letter 'Q'"):
        load_file(p)


def test_the_command_line_shows_progress_when_asked(monkeypatch, capsys):
    import seminaive._progress as progress
    monkeypatch.setattr(progress, "EVERY", 0.0)
    monkeypatch.setenv("SEMINAIVE_PROGRESS", "always")
    assert main(["evaluate", "weather.nominal", "--model", "eskdb:n_estimators=2", "--cv", "3"]) in (0, None)
    err = capsys.readouterr().err
    assert "  folds: 3 of 3" in err and "  ESKDB members: 2 of 2" in err
    monkeypatch.setenv("SEMINAIVE_PROGRESS", "never")
    assert main(["evaluate", "weather.nominal", "--model", "eskdb:n_estimators=2", "--cv", "3"]) in (0, None)
    assert " of " not in capsys.readouterr().err


def test_compare_warms_each_model_once_before_timing(monkeypatch, tmp_path):
    import seminaive.evaluation.experiment as experiment
    warmed = []
    real = experiment._warm_up
    monkeypatch.setattr(experiment, "_warm_up", lambda model, X, y: (warmed.append(type(model).__name__),
                                                                     real(model, X, y)))
    assert main(["compare", "weather.nominal", "weather.numeric", "--model", "nb,1r", "--cv", "2",
                 "--output", str(tmp_path / "r")]) in (0, None)
    assert sorted(warmed) == sorted(["NaiveBayes", "OneR"])  # once a model, not once a data set
