"""Writing a generated page of the documentation (only when its text changed, so Sphinx rebuilds
only what changed)."""

import os

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_generated(name, lines):
    """Write ``lines`` as ``docs/generated/NAME``."""
    os.makedirs(os.path.join(HERE, "generated"), exist_ok=True)
    path = os.path.join(HERE, "generated", name)
    text = "\n".join(lines) + "\n"
    if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    return path
