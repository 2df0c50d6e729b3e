"""The differential test of the readers: generated CSV, ARFF and KEEL files
(:mod:`reader_fuzz`: quotes, embedded line breaks, odd white space and control
characters, blank lines, comments, missing markers, late type changes), each
read in memory and streamed in chunks of 1, 2 and 7 rows, give the same model
and the same predictions row for row, or the same one-line error."""

import warnings

import numpy as np
import pandas as pd
import pytest

from reader_fuzz import generate
from seminaive import NaiveBayes
from seminaive.data import load_file
from seminaive.data.arrow_csv import arrow_reads
from seminaive.data.file_plan import plan_file
from seminaive.data.io import load_for_model
from seminaive.exceptions import SeminaiveError
from seminaive.scale import fit_file, predict_file

EXTENSION = {"csv": ".csv", "arff": ".arff", "keel": ".dat"}
SEEDS = range(60)


def _outcome(call):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", call()
    except SeminaiveError as e:
        message = str(e)
        assert "\n" not in message.strip(), message  # one line
        return "error", message


def _file(tmp_path, fmt, seed, plain=False):
    text, options = generate(seed, fmt, plain)
    path = tmp_path / f"f{seed}{EXTENSION[fmt]}"
    path.write_text(text, encoding="utf-8", newline="")
    return path, options


def _in_memory(path, options):
    d, _ = load_file(path, **options).labelled()
    return NaiveBayes().fit(d), d


@pytest.mark.parametrize("fmt", sorted(EXTENSION))
def test_in_memory_and_streamed_fits_agree_on_generated_files(tmp_path, fmt):
    seen = {"ok": 0, "error": 0}
    for seed in SEEDS:
        path, options = _file(tmp_path, fmt, seed)
        kind, memory = _outcome(lambda: _in_memory(path, options))
        seen[kind] += 1
        for chunksize in (1, 2, 7):
            kind2, streamed = _outcome(lambda: fit_file(NaiveBayes(), path, chunksize=chunksize, **options))
            where = f"{fmt} seed {seed}, chunks of {chunksize}: {memory!r} / {streamed!r}"
            assert kind2 == kind, where
            if kind == "error":
                assert streamed == memory, where
                continue
            model, d = memory
            assert streamed.schema_ == model.schema_, where
            assert list(streamed.classes_) == list(model.classes_), where
            np.testing.assert_allclose(streamed.predict_proba(d.X), model.predict_proba(d.X), rtol=1e-9,
                                       atol=1e-12, err_msg=where)
    assert min(seen.values()) >= 5, seen  # the generator makes both readable and broken files


@pytest.mark.parametrize("fmt", sorted(EXTENSION))
def test_in_memory_and_streamed_predictions_agree_row_for_row(tmp_path, fmt):
    """A model fitted on one generated file predicts the others: every row the
    in-memory reader reads is predicted, in the same order, by the chunked
    prediction (rows of only separators included), or both fail alike."""
    compared = 0
    model = None
    for seed in SEEDS:
        path, options = _file(tmp_path, fmt, seed)
        kind, fitted = _outcome(lambda: _in_memory(path, options))
        if model is None:
            if kind == "ok" and len(fitted[0].schema_.attributes) >= 1:
                model = fitted[0]
            continue
        kind, memory = _outcome(lambda: load_for_model(path, model.schema_, with_class=True))
        for chunksize in (1, 2, 7):
            out = tmp_path / f"p{seed}-{chunksize}.csv"
            kind2, streamed = _outcome(lambda: predict_file(model, path, out, chunksize, proba=True))
            where = f"{fmt} seed {seed}, chunks of {chunksize}: {kind} {kind2} {streamed!r}"
            if kind == "error" or kind2 == "error":
                assert kind == kind2 and memory == streamed, where
                continue
            X, actual = memory
            assert streamed == len(X), where
            got = pd.read_csv(out).iloc[:, -len(model.classes_):].to_numpy(float)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = model.predict_proba(X)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15, err_msg=where)
            compared += 1
    assert compared >= 10


@pytest.fixture(params=["kept", "read again"])
def second_pass(request, monkeypatch):
    """pyarrow's second pass over a small file reads the first pass's batches; over a large one, the file
    again: both against the tokenizer."""
    if request.param == "read again":
        monkeypatch.setattr("seminaive.data.file_plan._KEEP_BYTES", -1)
    return request.param


@pytest.mark.parametrize("fmt", sorted(EXTENSION))
def test_pyarrow_reads_a_file_as_the_tokenizer_does(tmp_path, fmt, second_pass):
    """Files without quotes or comments among their rows are read by pyarrow; read by the tokenizer alone
    they give the same dataset (values, kinds, value order, missing values) or the same error."""
    served = 0
    for seed in SEEDS:
        path, options = _file(tmp_path, fmt, 1000 + seed, plain=True)
        kind, plan = _outcome(lambda: plan_file(path))
        if kind == "error" or not arrow_reads(plan):
            continue
        served += 1
        kind, fast = _outcome(lambda: plan.load(**options))
        kind2, slow = _outcome(lambda: list(plan.encoded_by_tokens(None, **options)))
        where = f"{fmt} seed {1000 + seed}: {fast!r} / {slow!r}"
        assert kind == kind2, where
        if kind == "error":
            assert fast == slow, where
            continue
        slow = slow[0]
        assert fast.schema == slow.schema, where
        pd.testing.assert_frame_equal(fast.X, slow.X, obj=where)
        pd.testing.assert_series_equal(fast.y, slow.y, obj=where)
    assert served >= 20


@pytest.mark.parametrize("seed", range(4))
def test_pyarrow_reads_quoted_csv_as_the_tokenizer_does(tmp_path, seed, second_pass):
    """Well-formed quoted CSV (values holding the separator, line breaks, doubled quotes, padding, missing
    markers; every quoting pandas writes) is read by pyarrow, with the tokenizer's result; with a space before
    an opening quote it is left to the tokenizer (whichever reads it, the result is the tokenizer's)."""
    import csv
    served = 0
    for k in range(40):
        rng = np.random.default_rng(100 * seed + k)
        n = int(rng.integers(3, 30))
        words = ["a", "b c", "d,e", 'q"x', "line\nbreak", "cr\rx", "", "?", "NA", " pad ", "1.5", "x\x0cy"]
        frame = pd.DataFrame({"w": rng.choice(words, n), "v": np.round(rng.normal(size=n), 3).astype(str),
                              "cls": rng.choice(["p", "q"], n)})
        frame.loc[rng.random(n) < 0.2, "v"] = rng.choice(["?", "", "1_000", "abc"])
        path = tmp_path / f"q{k}.csv"
        sep = str(rng.choice([",", ";", "\t"]))
        frame.to_csv(path, sep=sep, index=False,
                     quoting=int(rng.choice([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC])),
                     lineterminator=str(rng.choice(["\n", "\r\n"])))
        if rng.random() < 0.3:  # a space before an opening quote: Python's csv skips it, pyarrow keeps it
            path.write_bytes(path.read_bytes().replace((sep + '"').encode(), (sep + ' "').encode()))
        kind, plan = _outcome(lambda: plan_file(path))
        if kind == "error":
            continue
        served += arrow_reads(plan)
        kind, fast = _outcome(lambda: plan.load())
        kind2, slow = _outcome(lambda: list(plan.encoded_by_tokens(None)))
        assert kind == kind2 and (kind == "ok" or fast == slow), (k, fast, slow)
        if kind == "ok":
            assert fast.schema == slow[0].schema
            pd.testing.assert_frame_equal(fast.X, slow[0].X)
            pd.testing.assert_series_equal(fast.y, slow[0].y)
    assert served >= 15


def test_a_column_found_not_numeric_in_a_later_batch_keeps_no_rows_of_the_abandoned_read(tmp_path, monkeypatch):
    """A small file read in several batches whose column turns out not to be numeric in a late batch:
    the first pass starts over with the column as text, and the batches kept for the second pass are
    those of the read that succeeded (no row twice)."""
    monkeypatch.setattr("seminaive.data.file_plan.block_size", lambda path, rows: 1 << 16)  # batches of 64 kB
    rng = np.random.default_rng(5)
    n = 20_000
    frame = pd.DataFrame({"v": np.round(rng.normal(size=n), 6).astype(str), "w": np.round(rng.normal(size=n), 6),
                          "cls": rng.choice(["p", "q"], n)})
    frame.loc[n - 3, "v"] = "abc"
    path = tmp_path / "late.csv"
    frame.to_csv(path, index=False)
    assert path.stat().st_size > 4 << 16  # the bad value lies beyond the first batches
    d = plan_file(path).load()
    assert len(d.X) == n and not d.schema.attributes[1].is_nominal and d.schema.attributes[0].is_nominal
    np.testing.assert_array_equal(d.X["w"].to_numpy(), frame["w"].to_numpy())
    assert d.X["v"].astype(str).tolist() == frame["v"].tolist()


def test_a_compressed_file_is_read_twice_not_kept(tmp_path, monkeypatch):
    """A compressed file's size on disk does not bound its batches: its second pass reads the file
    again (a plain file of the same rows hands its first pass's batches over), the same dataset."""
    import gzip
    import seminaive.data.file_plan as fp
    rng = np.random.default_rng(8)
    frame = pd.DataFrame({"v": np.round(rng.normal(size=300), 3), "w": rng.choice(["a", "b"], 300),
                          "cls": rng.choice(["p", "q"], 300)})
    plain, packed = tmp_path / "d.csv", tmp_path / "d.csv.gz"
    frame.to_csv(plain, index=False)
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    handed = []
    real = fp.arrow_columns
    monkeypatch.setattr(fp, "arrow_columns",
                        lambda *a, **k: handed.append(k.get("batches") is not None) or real(*a, **k))
    a, b = plan_file(plain).load(), plan_file(packed).load()
    assert handed == [True, False]
    assert a.schema == b.schema
    pd.testing.assert_frame_equal(a.X, b.X)
