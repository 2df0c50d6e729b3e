"""Every data option of the command line means the same with and without
--chunksize: fit prints the same model, search takes the same steps, predict
writes the same predictions, on files that need --sep, --target, --no-header,
--nominal and --input-format (and hold missing markers)."""

import io

import numpy as np
import pandas as pd
import pytest

from seminaive.cli.main import main

CASES = {  # name -> (how the file is written, the options it needs)
    "sep": (dict(sep=";"), ["--sep", ";"]),
    "target-first": (dict(first="cls"), ["--target", "cls"]),
    "no-header": (dict(header=False), ["--no-header"]),
    "nominal": (dict(), ["--nominal", "code"]),
    "format": (dict(suffix=".dat"), ["--input-format", "csv"]),
}


def _file(tmp_path, seed, sep=",", first=None, header=True, suffix=".csv"):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 60))
    y = rng.choice(["p", "q", "r"], n, p=[0.5, 0.3, 0.2])
    frame = pd.DataFrame({"code": np.where(rng.random(n) < 0.7, (y == "p") * 2 + 1, rng.integers(1, 4, n)),
                          "v": rng.choice(["s", "t", "u", "?"], n), "x": np.round(rng.normal(size=n) + (y == "q"), 2),
                          "cls": y})
    frame.loc[rng.random(n) < 0.1, "x"] = np.nan
    if first:
        frame = frame[[first] + [c for c in frame.columns if c != first]]
    path = tmp_path / f"d{seed}{suffix}"
    frame.to_csv(path, sep=sep, header=header, index=False, na_rep="?")
    return path


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("case", sorted(CASES))
def test_fit_search_and_predict_agree_with_and_without_chunks(capsys, tmp_path, case, seed):
    how, options = CASES[case]
    path = _file(tmp_path, seed, **how)
    if case == "no-header":
        options = options + ["--target", "3"]
    chunks = ["--chunksize", "5"]
    code, memory, err = run(capsys, "fit", path, *options, "-m", tmp_path / "a.json")
    assert code == 0, err
    code, streamed, err = run(capsys, "fit", path, *options, *chunks, "-m", tmp_path / "b.json")
    assert code == 0 and streamed == memory, err
    code, memory, err = run(capsys, "search", path, *options, "--model", "bsej", "--quiet")
    assert code == 0, err
    code, streamed, err = run(capsys, "search", path, *options, "--model", "bsej", "--quiet", *chunks)
    assert code == 0 and streamed == memory, err
    code, memory, err_m = run(capsys, "predict", "-m", tmp_path / "a.json", path, *options, "--format", "csv",
                              "--proba")
    assert code == 0, err_m
    code, _, err_s = run(capsys, "predict", "-m", tmp_path / "a.json", path, *options, "--proba", *chunks,
                         "-o", tmp_path / "p.csv")
    assert code == 0, err_s
    want = pd.read_csv(io.StringIO(memory), keep_default_na=False)
    got = pd.read_csv(tmp_path / "p.csv", keep_default_na=False)
    assert list(got.columns) == list(want.columns)
    assert got.iloc[:, :2].astype(str).values.tolist() == want.iloc[:, :2].astype(str).values.tolist()
    np.testing.assert_allclose(got.iloc[:, 2:].to_numpy(float), want.iloc[:, 2:].to_numpy(float), rtol=1e-12)
    accuracy = [line for line in err_m.splitlines() if line.startswith("accuracy:")]
    assert accuracy and accuracy == [line for line in err_s.splitlines() if line.startswith("accuracy:")]
