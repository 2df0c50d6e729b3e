"""Runs that share, lose or exhaust things (issue 22): compare under concurrency, interruption, a full disk
and planted links; limits refused before the work; wide files; the streamed readers' one-line errors."""

import errno
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from conftest import write
from seminaive import AnDE, NaiveBayes, load_file
from seminaive.cli.main import main
from seminaive.evaluation.experiment import Experiment, folder_lock, load_results, run_experiment
from seminaive.evaluation.resampling import Protocol
from seminaive.exceptions import ParameterError, SeminaiveError


def run(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def _experiment():
    from seminaive import OneR
    return Experiment({"nb": NaiveBayes(), "1r": OneR()}, ["iris", "weather.nominal"], Protocol(folds=3))


def _table(res):
    cols = ["dataset", "model", "split", "accuracy", "log_loss", "confusion"]
    return res[cols].sort_values(["dataset", "model", "split"]).reset_index(drop=True)


@pytest.fixture(scope="module")
def alone(tmp_path_factory):
    return _table(run_experiment(_experiment(), tmp_path_factory.mktemp("alone"), progress=None))


def test_a_second_compare_on_a_folder_in_use_is_refused(tmp_path, alone):
    folder = tmp_path / "out"
    folder.mkdir()
    with folder_lock(str(folder)):  # another run holds the folder
        with pytest.raises(SeminaiveError, match="in use by another seminaive run"):
            run_experiment(_experiment(), folder, progress=None)
        code = subprocess.run([sys.executable, "-m", "seminaive", "compare", "--datasets", "iris", "--models", "nb",
                               "--cv", "3", "--out", str(folder)], capture_output=True, text=True)
        assert code.returncode == 2 and "in use by another seminaive run" in code.stderr
        assert [line for line in code.stderr.splitlines() if "error" in line] == code.stderr.splitlines()[-1:]
    assert not (folder / "results.csv").exists()
    pd.testing.assert_frame_equal(_table(run_experiment(_experiment(), folder, progress=None)), alone)


def test_two_concurrent_compares_one_refuses_the_other_is_a_lone_run(tmp_path, alone):
    """Two compare processes started together on one folder: whichever takes the folder first runs; the
    other says the folder is in use (or, if it only came after the first had finished, resumes everything);
    the results are a lone run's, no split twice."""
    folder = tmp_path / "out"
    argv = [sys.executable, "-m", "seminaive", "compare", "--datasets", "iris,weather.nominal", "--models",
            "nb,1r", "--cv", "3", "--out", str(folder)]
    runs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    done = [(r.wait(timeout=300), r.communicate()[1]) for r in runs]
    codes = sorted(code for code, _ in done)
    assert codes in ([0, 2], [0, 0]), done
    for code, err in done:
        if code == 2:
            assert err.splitlines()[-1].endswith("in use by another seminaive run; wait for it to finish or "
                                                 "choose another folder (--out)")
    if codes == [0, 0]:
        assert any("10 resumed, 0 run" in err or "3 resumed, 0 run" in err for _, err in done)
    pd.testing.assert_frame_equal(_table(load_results(folder)), alone)


def test_a_torn_last_row_is_dropped_and_the_rest_kept(tmp_path, alone):
    folder = tmp_path / "out"
    run_experiment(_experiment(), folder, progress=None)
    path = folder / "results.csv"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-3]) + lines[-3][: len(lines[-3]) // 2])  # killed in the middle of a row
    with pytest.warns(UserWarning, match="its last row was cut short"):
        res = run_experiment(_experiment(), folder, progress=None)
    pd.testing.assert_frame_equal(_table(res), alone)
    assert len(path.read_text().splitlines()) == len(lines)


def test_a_full_disk_names_the_file_and_the_resume_keeps_every_good_row(tmp_path, monkeypatch, alone):
    import seminaive.evaluation.experiment as experiment
    folder = tmp_path / "out"
    real = experiment._run_splits
    written = {"rows": 0}

    def filling(exp, fh, *args):
        class Full:
            def __init__(self, fh):
                self.fh = fh

            def write(self, text):
                written["rows"] += 1
                if written["rows"] > 4:  # the disk fills in the middle of the fifth row
                    self.fh.write(text[: len(text) // 2])
                    self.fh.flush()
                    raise OSError(errno.ENOSPC, "No space left on device")
                return self.fh.write(text)

            def flush(self):
                self.fh.flush()
        return real(exp, Full(fh), *args)

    monkeypatch.setattr(experiment, "_run_splits", filling)
    with pytest.raises(OSError) as info:
        run_experiment(_experiment(), folder, progress=None)
    assert info.value.filename == str(folder / "results.csv") and info.value.errno == errno.ENOSPC
    assert not [p for p in os.listdir(folder) if p.startswith(".tmp-")]
    monkeypatch.setattr(experiment, "_run_splits", real)
    with pytest.warns(UserWarning, match="cut short"):
        res = run_experiment(_experiment(), folder, progress=None)
    pd.testing.assert_frame_equal(_table(res), alone)


def test_the_cli_names_the_file_on_a_full_disk(capsys, tmp_path, monkeypatch):
    import seminaive._atomic as atomic
    real = atomic.os.replace

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device", src)
    monkeypatch.setattr(atomic.os, "replace", full)
    code, out, err = run(capsys, "fit", "weather.nominal", "-m", tmp_path / "m.json")
    monkeypatch.setattr(atomic.os, "replace", real)
    assert code == 2 and err.strip() == f"seminaive: error: {tmp_path / 'm.json'}: No space left on device"
    assert os.listdir(tmp_path) == []  # the temporary file removed


def test_a_dangling_link_in_the_output_folder_is_not_followed(capsys, tmp_path):
    folder, outside = tmp_path / "out", tmp_path / "elsewhere.csv"
    folder.mkdir()
    os.symlink(outside, folder / "results.csv")
    code, out, err = run(capsys, "compare", "--datasets", "iris", "--models", "nb", "--cv", "3", "--out", folder)
    assert code == 2 and "results.csv: a symbolic link" in err.splitlines()[-1]
    assert [line for line in err.splitlines() if "error" in line] == err.splitlines()[-1:]
    assert not outside.exists()


def test_many_classes_fit_with_exact_moments():
    """50,000 classes on 100,000 rows: no one-hot matrix of rows x classes (it asked 18.6 GiB); the
    moments by class equal a direct computation."""
    rng = np.random.default_rng(0)
    n = 100_000
    y = rng.integers(0, 50_000, n)
    x = rng.normal(size=n)
    nb = NaiveBayes(var_smoothing=0, ddof=0).fit(pd.DataFrame({"x": x}), y)
    g = pd.DataFrame({"x": x, "y": y}).groupby("y")["x"]
    comp = nb.components_[0]
    np.testing.assert_allclose(comp.mean_, g.mean().to_numpy(), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(comp.var_, g.var(ddof=0).to_numpy(), rtol=1e-9, atol=1e-15)


def test_grouped_moments_equal_the_one_hot_ones():
    import seminaive.components._moments as moments
    rng = np.random.default_rng(1)
    for k in (3, 40, 400):
        X = rng.normal(5.0, 2.0, size=(3000, 3))
        X[rng.random(X.shape) < 0.1] = np.nan
        y, w = rng.integers(0, k, 3000), rng.integers(0, 3, 3000).astype(float)
        grouped = moments._grouped_moments(X, y, k, w)
        saved, moments._MANY = moments._MANY, 10**9
        try:
            direct = moments.class_moments(X, y, k, w)
        finally:
            moments._MANY = saved
        for a, b in zip(grouped, direct):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-9)


def test_limits_are_refused_before_the_work(monkeypatch):
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=100_000)})
    y = rng.integers(0, 50_000, 100_000)
    with pytest.raises(ParameterError, match=r"MDL's cut points of an attribute \(100,000 values x .* classes\) "
                                             r"needs about .* GiB, more than half this machine's memory"):
        NaiveBayes(numeric="mdl").fit(X, y)
    Xa = pd.DataFrame(rng.integers(0, 3, (400, 300)).astype(str), columns=[f"a{j}" for j in range(300)])
    with pytest.raises(ParameterError, match=r"AnDE\(n=2\) on 300 attributes \(44,850 super-parent sets.*use n=1"):
        AnDE(n=2).fit(Xa, rng.integers(0, 2, 400))


def test_a_200000_column_csv_reads(tmp_path):
    n = 200_000
    path = tmp_path / "wide.csv"
    rng = np.random.default_rng(0)
    rows = rng.integers(0, 3, (3, n))
    path.write_text(",".join(f"a{j}" for j in range(n)) + ",cls\n" + "".join(
        ",".join(map(str, r)) + f",{c}\n" for r, c in zip(rows, "pqp")))
    d = load_file(path)
    assert d.X.shape == (3, n) and d.X.iloc[:, 7].tolist() == rows[:, 7].tolist()


def test_the_streamed_search_refuses_too_many_folds_as_in_memory(capsys, tmp_path):
    path = write(tmp_path, "one.arff", "@relation t\n@attribute a {x,y}\n@attribute c {p,q}\n@data\nx,p\ny,?\n")
    memory = run(capsys, "search", path, "--cv", "2")
    streamed = run(capsys, "search", path, "--cv", "2", "--chunksize", "2")
    assert memory[0] == streamed[0] == 2
    assert memory[2].splitlines()[-1] == streamed[2].splitlines()[-1] == \
        "seminaive: error: cv: expected at most as many folds as instances (n_samples=1), got 2"


@pytest.mark.parametrize("name, text", [
    ("nonl.dat", "@relation t\n@attribute a {x,y}\n@attribute c {p,q}\n@inputs a\n@outputs c\n@data\nx,p\ny,q\nx,p"),
    ("unclosed.csv", 'a,b,c\n1,"x,p\n2,y,q\n3,x,p\n'),
    ("nonl.csv", "a,b,c\n1,x,p\n2,y,q\n3,x,p")])
def test_the_streamed_reader_answers_as_the_in_memory_one(capsys, tmp_path, name, text):
    path = write(tmp_path, name, text)
    memory = run(capsys, "fit", path)
    streamed = run(capsys, "fit", path, "--chunksize", "2")
    assert memory[0] == streamed[0] and "Traceback" not in memory[2] + streamed[2]
    if memory[0] == 0:
        assert memory[1] == streamed[1]
    else:
        assert len(streamed[2].strip().splitlines()[-1:]) == 1 and streamed[2].count("error") == 1


def test_a_killed_runs_temporary_files_go_with_the_next_run(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / ".tmp-abc123reliability.png").write_bytes(b"half a picture")  # what kill -9 left
    (folder / "notes.txt").write_text("the user's own file")
    run_experiment(_experiment(), folder, progress=None)
    assert not [p for p in os.listdir(folder) if p.startswith(".tmp-")]
    assert (folder / "notes.txt").read_text() == "the user's own file"


def test_an_unwritable_folder_is_named_by_the_file_asked_for(capsys, tmp_path, monkeypatch):
    import tempfile

    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / ".tmp-xyz"))
    monkeypatch.setattr(tempfile, "mkstemp", refused)
    code, out, err = run(capsys, "fit", "weather.nominal", "-m", tmp_path / "m.json")
    assert code == 2 and err.strip() == f"seminaive: error: {tmp_path / 'm.json'}: Permission denied"
