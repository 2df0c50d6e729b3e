"""Generate the bundled J filebases ``led`` and ``wave`` (Vector 16:2).

Each has 200 learning (.dat), 200 test (.tst) and 200 unlabelled (.cls)
instances, as the article's test files did, drawn with fixed seeds so the
files are reproducible:

    python scripts/make_filebases.py [--force]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from seminaive.data import write_filebase  # noqa: E402
from seminaive.datasets import make_led, make_wave  # noqa: E402
from seminaive.datasets.registry import DATA_DIR  # noqa: E402


def rows(d, labelled=True):
    codes = d.X.apply(lambda c: c.cat.codes).to_numpy()
    if not labelled:
        return codes.tolist()
    return [r + [c] for r, c in zip(codes.tolist(), d.y.cat.codes.tolist())]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--force", action="store_true", help="replace existing files")
    args = ap.parse_args()
    for name, make in (("led", lambda s: make_led(200, noise=0.1, random_state=s)),
                       ("wave", lambda s: make_wave(200, random_state=s))):
        learn, test, cls = make(1), make(2), make(3)
        write_filebase(os.path.join(DATA_DIR, name), learn.schema, rows(learn), rows(test),
                       rows(cls, labelled=False), overwrite=args.force)
        print(f"wrote {os.path.join(DATA_DIR, name)}.des/.dat/.tst/.cls")


if __name__ == "__main__":
    main()
