"""A seeded corpus of damaged Parquet and Feather files, each read in memory and streamed.

``python tests/arrow_fuzz.py DIR N [SEED]`` writes N damaged copies of each of three good files
(Parquet, compressed and uncompressed Feather) into DIR and fits Naive Bayes on every one in memory and
streamed in chunks (Gaussian, one pass; equal-width intervals, two passes); it prints each file before
reading it (so a crash of the process names the file) and at the end ``read R refused E other O agree A
differ D``: fits, library errors (one line each), anything else, and the pairs (memory, streamed) that
gave the same model or the same refusal, or not."""

import os
import sys
import traceback
import warnings

import numpy as np
import pandas as pd


def good_frame(rng, n=60):
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.choice(["x", "yy", "zzz"], n),
                      "c": pd.Categorical(rng.choice(["u", "v"], n)), "i": rng.integers(0, 5, n),
                      "t": pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.integers(0, 10**9, n), unit="us"),
                      "cls": rng.choice(["p", "q"], n)})
    X.loc[3, "a"] = np.nan
    X.loc[4, "b"] = None
    return X


def damaged(raw, rng):
    """A copy of ``raw`` with bytes changed, a run overwritten, or cut short."""
    b = bytearray(raw)
    how = rng.integers(0, 3)
    if how == 0:
        for _ in range(rng.integers(1, 8)):
            b[rng.integers(0, len(b))] = rng.integers(0, 256)
    elif how == 1:
        b = b[:rng.integers(1, len(b))]
    else:
        i = rng.integers(0, len(b) - 8)
        b[i:i + 4] = rng.integers(0, 256, 4, dtype=np.uint8).tobytes()
    return bytes(b)


def corpus(folder, n, seed=0):
    rng = np.random.default_rng(seed)
    X = good_frame(rng)
    writers = {"base.parquet": lambda p: X.to_parquet(p), "base.feather": lambda p: X.to_feather(p),
               "plain.feather": lambda p: X.to_feather(p, compression="uncompressed")}
    files = []
    for name, write in writers.items():
        good = os.path.join(folder, name)
        write(good)
        raw = open(good, "rb").read()
        stem, ext = os.path.splitext(name)
        for k in range(n):
            path = os.path.join(folder, f"{stem}-{k}{ext}")
            with open(path, "wb") as fh:
                fh.write(damaged(raw, rng))
            files.append(path)
    return files


def main(folder, n, seed=0):
    warnings.simplefilter("ignore")
    from seminaive import NaiveBayes, load_file
    from seminaive.exceptions import SeminaiveError
    from seminaive.scale import fit_file
    counts = {"read": 0, "refused": 0, "other": 0, "agree": 0, "differ": 0}
    pairs = {"gaussian": (lambda p: NaiveBayes().fit(load_file(p)), lambda p: fit_file(NaiveBayes(), p, chunksize=7)),
             "intervals": (lambda p: NaiveBayes(numeric="equal_width").fit(load_file(p)),
                           lambda p: fit_file(NaiveBayes(numeric="equal_width"), p, chunksize=7))}
    for path in corpus(folder, n, seed):
        for kind, ways in pairs.items():  # in memory, then streamed: the same model or the same refusal
            outcome = []
            for way, read in zip(("memory", "streamed"), ways):
                print(path, kind, way, flush=True)
                try:
                    outcome.append(read(path))
                    counts["read"] += 1
                except SeminaiveError as e:
                    assert "\n" not in str(e).strip() and path in str(e), str(e)
                    outcome.append("refused")
                    counts["refused"] += 1
                except Exception:
                    outcome.append("other")
                    counts["other"] += 1
                    print("OTHER", path, way, traceback.format_exc().splitlines()[-1], flush=True)
            a, b = outcome
            if isinstance(a, str) or isinstance(b, str):
                same = a == b
            else:
                X = load_file(path).X
                # (1e-8: the time column, 1.6e12 ms from its origin and 1e6 ms wide, merges its chunks' moments
                # to ~4e-10 of rounding in the probabilities; without it they agree to 1e-15)
                same = a.schema_ == b.schema_ and list(a.classes_) == list(b.classes_) and bool(
                    np.allclose(a.predict_proba(X), b.predict_proba(X), rtol=0, atol=1e-8))
            counts["agree" if same else "differ"] += 1
            if not same:
                print("DIFFER", path, kind, flush=True)
    print(" ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
