"""Write src/seminaive/_catalog.py from the registry (run after adding or renaming a model,
search, comparison name, discretizer or estimation; tests/test_imports.py fails until then)."""

import pathlib

from seminaive.registry import catalog_text

path = pathlib.Path(__file__).resolve().parents[1] / "src" / "seminaive" / "_catalog.py"
path.write_text(catalog_text(), encoding="utf-8")
print(f"wrote {path}")
