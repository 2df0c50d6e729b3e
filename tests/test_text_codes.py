"""The one-pass reader's text codes (Arrow strings looked up among the raw texts met) against the
dictionary route (pyarrow's dictionary encoding, :func:`text_values`), batch after batch."""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from seminaive.data.arrow_csv import text_values
from seminaive.data.text_codes import TextCodes
from seminaive.data.value_index import ValueIndex, gather

RAW = ["a", " a", "a ", "b", "?", "", "NA", "nan", "ü", " ü", "c", "long value here", "x" * 40, "1", "1.0"]


@pytest.mark.parametrize("seed", range(30))
def test_text_codes_are_the_dictionary_routes(seed):
    rng = np.random.default_rng(seed)
    ours, theirs = ValueIndex(), ValueIndex()
    texts = TextCodes(ours)
    for _ in range(4):  # batches: values met before, new ones, sliced arrays, empty ones
        n = int(rng.integers(0, 40))
        arr = pa.array([RAW[i] for i in rng.integers(0, int(rng.integers(1, len(RAW) + 1)), n)], type=pa.string())
        if n > 4:
            arr = arr.slice(int(rng.integers(1, 3)))
        got = texts.codes(arr)
        d = pc.dictionary_encode(arr)
        values, entry, _ = text_values(d)
        want = gather(theirs.grow(values), entry)[d.indices.to_numpy(zero_copy_only=False)] if len(arr) else []
        assert got.tolist() == list(np.asarray(want).tolist())
        assert ours.values == theirs.values


def test_a_null_is_missing_and_codes_are_whole_numbers():
    index = ValueIndex()
    got = TextCodes(index).codes(pa.array(["q", None, " q", "r"]))
    assert got.tolist() == [0, -1, 0, 1] and got.dtype == np.int64 and index.values == ["q", "r"]
