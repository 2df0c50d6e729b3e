"""Several fits over one source in one set of passes (:mod:`seminaive.learning.shared_passes`): each fit
gets what its passes alone give, in the same order; the passes are the most any fit makes; a failure,
a fit's or a pass's, is raised and stops the rest without a hang; ESKDB's members read together equal
the members fitted one after the other, bit for bit, and the ensemble fitted in memory."""

import threading

import numpy as np
import pandas as pd
import pytest

from seminaive import ESKDB
from seminaive.bayesnet import eskdb as eskdb_module
from seminaive.learning.data_source import DataSource, FileSource, MemorySource
from seminaive.learning.shared_passes import SharedPasses
from seminaive.persistence import model_to_dict

from conftest import mixed_frame


def _source(n=40, chunksize=7):
    X = pd.DataFrame({"x": np.arange(n, dtype=float), "z": np.array(["a", "b"], dtype=object)[np.arange(n) % 2]})
    return MemorySource(X, np.array(["u", "v", "w"], dtype=object)[np.arange(n) % 3], chunksize=chunksize)


def _rows_seen(chunk, scale):
    return [float(v) * scale for v in chunk[0]["x"]]  # in row order: a list, so the order of combining shows


def _joined(a, b):
    return a + b


def _job(passes, scale):
    """A fit of ``passes`` passes, each depending on the last (the rows' values times a scale)."""
    def run(source):
        out, s = [], scale
        for _ in range(passes):
            seen = source.map_reduce(_rows_seen, _joined, s)
            out.append(seen)
            s = seen[1] + 1  # the next pass asks for what this one found
        return out
    return run


def _run_with_timeout(fn, seconds=120):
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001
            box["error"] = e
    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the shared passes hung"
    return box


def test_each_fit_gets_its_own_passes_in_row_order_and_the_passes_are_the_most_one_makes():
    jobs = [_job(3, 1.0), _job(1, 2.0), _job(5, 0.5), _job(2, 3.0)]
    alone = [job(_source()) for job in jobs]
    source = _source()
    shared = SharedPasses(source)
    assert shared.run(jobs) == alone
    assert shared.passes == source.passes == 5  # the longest fit's; the others rode along
    assert alone[0][0][:3] == [0.0, 1.0, 2.0]


def test_a_pass_that_cuts_rows_runs_on_its_own_and_gets_its_rows():
    n = 40
    labels = np.arange(n) * 10

    def with_rows(source):
        return source.map_reduce_rows(lambda start, chunk, rows: rows.tolist(), _joined, labels)
    jobs = [with_rows, _job(1, 1.0), _job(1, 2.0)]
    source = _source(n)
    out = SharedPasses(source).run(jobs)
    assert out[0] == labels.tolist()
    assert out[1:] == [jobs[1](_source(n)), jobs[2](_source(n))]
    assert source.passes == 2  # the one with rows alone, the two others together


def _gathered(start, chunk, rows):
    return list(chunk[0]["x"])


_gathered.gathers_rows = True


@pytest.mark.parametrize("distributed", [False, True])
def test_on_a_cluster_each_pass_that_gathers_rows_runs_on_its_own(distributed):
    """A pass whose function brings rows to the driver (``gathers_rows``) is shared on this machine, and on
    a cluster runs once per fit (the driver receives one fit's rows at a time); every fit gets its rows."""
    def gather(source):
        return source.map_reduce_rows(_gathered, _joined)
    source = _source()
    source.distributed = distributed
    shared = SharedPasses(source)
    out = shared.run([gather, gather, gather, _job(1, 1.0), _job(1, 2.0)])
    assert out[:3] == [list(np.arange(40.0))] * 3 and out[3] == _job(1, 1.0)(_source())
    assert shared.passes == (4 if distributed else 1)  # three gatherings alone and the others' one, or one


def test_a_failing_fit_is_raised_and_stops_the_others():
    def failing(source):
        source.map_reduce(_rows_seen, _joined, 1.0)
        raise ValueError("member 2 failed")
    box = _run_with_timeout(lambda: SharedPasses(_source()).run([_job(4, 1.0), failing, _job(6, 1.0)]))
    assert isinstance(box.get("error"), ValueError) and str(box["error"]) == "member 2 failed"


def _breaks_on_row_14(chunk, scale):
    if chunk[0]["x"].iloc[0] == 14:
        raise RuntimeError("chunk at row 14 unreadable")
    return [1]


def test_a_failing_pass_is_raised_once_and_no_fit_hangs():
    def bad(source):
        return source.map_reduce(_breaks_on_row_14, _joined, 1.0)
    box = _run_with_timeout(lambda: SharedPasses(_source()).run([_job(2, 1.0), bad, _job(3, 1.0)]))
    assert isinstance(box.get("error"), RuntimeError) and "row 14" in str(box["error"])


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory):
    X, y = mixed_frame(n=400, seed=3)
    X["count"] = np.random.default_rng(1).integers(0, 5, len(X))  # a column of few values (integer codes "auto")
    path = tmp_path_factory.mktemp("shared") / "mixed.csv"
    X.assign(cls=y).to_csv(path, index=False)
    return path


def _counted(monkeypatch):
    passes = [0]
    inner = DataSource.map_reduce_rows

    def counted(self, *a, **k):
        passes[0] += 1
        return inner(self, *a, **k)
    monkeypatch.setattr(DataSource, "map_reduce_rows", counted)
    return passes


@pytest.mark.parametrize("options", [dict(k=2), dict(k=1, discriminative="parameter", penalty=0.5),
                                     dict(k=2, hybrid="gaussian", estimation="hdp", hdp_iterations=20),
                                     dict(k=3, selection_rows=120, hybrid="gaussian")],
                         ids=["default", "discriminative", "hybrid-hdp", "selection-sample"])
def test_eskdb_members_read_together_equal_members_fitted_one_after_the_other(csv_file, options, monkeypatch):
    passes = _counted(monkeypatch)
    fits = {}
    for size in (1, 2, 5):
        monkeypatch.setattr(eskdb_module, "_group_size", lambda first, size=size: size)
        passes[0] = 0
        model = ESKDB(n_estimators=6, **options)
        model._learn(FileSource(csv_file, chunksize=53, target="cls"))
        fits[size] = (model, passes[0])
    alone, n_alone = fits[1]
    for size in (2, 5):
        model, n = fits[size]
        assert model_to_dict(model) == model_to_dict(alone)  # every count, cut, weight and choice, bit for bit
        assert n < n_alone
    assert fits[5][1] < fits[2][1]
    frame = pd.read_csv(csv_file)
    memory = ESKDB(n_estimators=6, **options).fit(frame.drop(columns="cls"), frame["cls"])
    # discriminative weights: L-BFGS on gradients summed chunk by chunk (another grouping than in memory)
    # stops within its tolerance of the same optimum, not on the same bits
    tol = 1e-6 if options.get("discriminative") else 1e-12
    np.testing.assert_allclose(fits[5][0].predict_proba(frame.drop(columns="cls")),
                               memory.predict_proba(frame.drop(columns="cls")), rtol=0, atol=tol)


def test_the_members_read_together_are_as_many_as_a_quarter_of_memory_holds(monkeypatch):
    class First:
        _counted_bytes = 3 << 30  # the first member's selection held 3 GiB
    monkeypatch.setattr(eskdb_module, "machine_memory", lambda: 24 << 30)
    assert eskdb_module._group_size(First()) == 1  # one member's 30 GiB passes a quarter of 24 GiB: alone
    First._counted_bytes = 100 << 20
    assert eskdb_module._group_size(First()) == 6  # 1,000 MiB each in 6 GiB
    First._counted_bytes, First._sample_bytes = 0, 200 << 20  # a selection on 200 MiB of drawn rows, in memory
    assert eskdb_module._group_size(First()) == 15  # twice the sample each: 400 MiB in 6 GiB
    monkeypatch.setattr(eskdb_module, "machine_memory", lambda: None)
    assert eskdb_module._group_size(First()) == 1


def _interrupted(chunk, scale):
    raise KeyboardInterrupt


def test_an_interrupt_in_a_pass_stops_every_fit_and_is_raised():
    def stopping(source):
        return source.map_reduce(_interrupted, _joined, 1.0)
    box = _run_with_timeout(lambda: SharedPasses(_source()).run([_job(3, 1.0), stopping, _job(2, 1.0)]))
    assert isinstance(box.get("error"), KeyboardInterrupt)
