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
ONE = ["a", "b", "?", "c", "1", " "]  # texts of one byte: a batch of these alone takes the short route
TWO = [" a", "a ", "ü", "NA", "v0", "10", "??", "b "]  # of two bytes ("ü" is two in UTF-8)


@pytest.mark.parametrize("seed", range(30))
def test_text_codes_are_the_dictionary_routes(seed):
    rng = np.random.default_rng(seed)
    ours, theirs = ValueIndex(), ValueIndex()
    texts = TextCodes(ours)
    for _ in range(6):  # batches: values met before, new ones, sliced arrays, empty ones, one width alone
        n = int(rng.integers(0, 40))
        pool = [RAW, ONE, TWO][int(rng.integers(0, 3))]
        arr = pa.array([pool[i] for i in rng.integers(0, int(rng.integers(1, len(pool) + 1)), n)], type=pa.string())
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
    assert got.tolist() == [0, -1, 0, 1] and got.dtype.kind == "i" and index.values == ["q", "r"]


def test_short_texts_take_the_table_route_and_agree_with_the_hashing_route():
    """Batches of one width are coded by their bytes; the same texts, mixed with longer ones, by
    hashing: the codes agree whichever route met a text first."""
    index = ValueIndex()
    texts = TextCodes(index)
    assert texts.codes(pa.array(["v1", "v0", "? ", "v1"])).tolist() == [0, 1, -1, 0]
    assert set(texts.short) == {2}
    assert texts.codes(pa.array(["v0", "long", "v2", "v1 "])).tolist() == [1, 2, 3, 0]  # hashed
    assert texts.codes(pa.array(["v2", "v1", "v0"])).tolist() == [3, 0, 1]  # "v2" first met by hashing
    assert texts.codes(pa.array(["x", "?", "x"]).slice(1)).tolist() == [-1, 4]
    assert set(texts.short) == {1, 2} and index.values == ["v1", "v0", "long", "v2", "x"]
