"""The 23 data sets of ``bench_rival.py`` split into a tuning half and a checking half, and the rule
by which a default changes: a candidate replaces the incumbent only when both halves agree.

The split is fixed and owes nothing to any result: the sets in order of their number of rows
(ties by name), alternately to the tuning half (1st, 3rd, ...) and the checking half, so that
both halves hold small and large sets alike. Settings are explored on the tuning half; the
checking half only confirms. Used by ``bench_rival.py`` and ``bench_defaults.py`` (with their
runner over the sets, :func:`run_sets`).
"""

import multiprocessing
import sys

import numpy as np
import pandas as pd

TUNING = ("iris", "keel:sonar", "keel:heart", "keel:bupa", "keel:monk-2", "keel:wdbc", "keel:australian",
          "keel:vehicle", "keel:german", "keel:chess", "keel:satimage", "keel:letter")
CHECKING = ("keel:wine", "keel:housevotes", "keel:breast", "keel:ionosphere", "keel:led7digit", "keel:crx",
            "keel:pima", "keel:tic-tac-toe", "keel:splice", "keel:mushroom", "keel:magic")


def half_of(name):
    """"tuning", "checking", or "other" for a set outside the suite."""
    return "tuning" if name in TUNING else "checking" if name in CHECKING else "other"


def half_means(acc, ll):
    """Per model (columns of ``acc``/``ll``, sets as rows): mean accuracy and log loss on each half
    present, as {half: (acc Series, ll Series)}."""
    out = {}
    for half in ("tuning", "checking", "other"):
        rows = [s for s in acc.index if half_of(s) == half]
        if rows:
            out[half] = (acc.loc[rows].mean(), ll.loc[rows].mean())
    return out


def verdict(acc, ll, candidate, incumbent, tol=0.05):
    """Whether ``candidate`` should replace ``incumbent``, by the halves: on each half its mean
    accuracy must not fall by more than ``tol`` points and its mean log loss must not rise, and on
    each half it must be better in one of them. Returns (bool, one line with both halves' figures)."""
    parts, agree = [], True
    for half, (a, l) in half_means(acc, ll).items():
        if half == "other":
            continue
        da, dl = a[candidate] - a[incumbent], l[candidate] - l[incumbent]
        better = (da > tol or dl < -1e-4) and da >= -tol and dl <= 1e-4
        agree &= bool(better)
        parts.append(f"{half}: accuracy {a[candidate]:.2f} vs {a[incumbent]:.2f} ({da:+.2f}), "
                     f"log loss {l[candidate]:.4f} vs {l[incumbent]:.4f} ({dl:+.4f})")
    return agree, f"{candidate} over {incumbent}: " + "; ".join(parts) + \
        (" -> both halves agree" if agree else " -> the halves do not agree: keep the incumbent")


def half_lines(acc, ll, models=None):
    """Text lines: each model's mean accuracy and log loss on the tuning and checking halves."""
    means = half_means(acc, ll)
    lines = ["| model | " + " | ".join(f"{h} acc | {h} log loss" for h in means) + " |",
             "|---" * (1 + 2 * len(means)) + "|"]
    for m in models or acc.columns:
        if np.isnan(acc[m]).all():
            continue
        lines.append(f"| {m} | " + " | ".join(f"{a[m]:.2f} | {l[m]:.4f}" for a, l in means.values()) + " |")
    return lines


def run_sets(run, jobs, processes):
    """``run(job)`` (a data set's per-fold results) for every job, on ``processes`` spawned processes,
    each set's end reported as it comes; the results concatenated."""
    parts = []
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        for i, res in enumerate(pool.imap_unordered(run, jobs), 1):
            parts.append(res)
            print(f"[{i}/{len(jobs)}] {res['dataset'].iloc[0]} done", file=sys.stderr, flush=True)
        pool.close()  # let the workers finish their last messages before the pool is torn down
        pool.join()
    return pd.concat(parts, ignore_index=True)
