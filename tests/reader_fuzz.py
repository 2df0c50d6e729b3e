"""Generated data files for the differential tests of the readers: small CSV,
ARFF and KEEL files with quotes, embedded line breaks, odd white space and
control characters, blank lines, comments, every missing marker and late
type changes. Each file is made from a seed, so a failure names its file.
"""

import numpy as np

MISSING = ["?", "", "NA", "NaN", "N/A", "<null>", "nan"]
ODD = ["\x0c", "\x85", "\u2028", "\x1c", "\x1d", "\x1e", "\x0b", "\u00a0"]
WORDS = ["x", "y", "low", "high", "a b", "p-q", "1a", "true", "é", "r_1"]


def _number(rng):
    kind = rng.integers(6)
    if kind == 0:
        return str(int(rng.integers(-5, 50)))
    if kind == 1:
        return f"{rng.normal() * 10:.3f}"
    if kind == 2:
        return f"{rng.normal():.2e}"
    if kind == 3:
        return f"{int(rng.integers(1, 9))}_000"
    if kind == 4:
        return f"{rng.random():.4f}".lstrip("0")
    return str(int(rng.integers(0, 3)))


def _word(rng, odd):
    w = str(rng.choice(WORDS))
    if odd and rng.random() < 0.3:
        k = int(rng.integers(len(w) + 1))
        w = w[:k] + str(rng.choice(ODD)) + w[k:]
    return w


def _decorate(rng, value, sep, quote, odd):
    """A field's text: as it is, padded with spaces or tabs, or quoted (maybe holding the separator or a
    line break)."""
    r = rng.random()
    if r < 0.12 and quote:
        inner = value
        if odd and rng.random() < 0.3:
            inner = value + str(rng.choice([sep, "\n", "\r", ", "]))
        return f"{quote}{inner}{quote}"
    if r < 0.2 and quote:
        return f"{str(rng.choice([' ', '  ', chr(9)]))}{quote}{value}{quote}"
    if r < 0.35:
        return f"{str(rng.choice([' ', '  ', chr(9)]))}{value}{str(rng.choice(['', ' ', chr(9)]))}"
    return value


def generate(seed, fmt, plain=False):
    """``(text, options)``: a file's content (str) and the reading options to pass (``nominal``).
    ``plain``: no quotes and no comments among the rows (files pyarrow reads)."""
    rng = np.random.default_rng(seed)
    odd = rng.random() < 0.5
    n_attr = int(rng.integers(1, 4))
    n_rows = int(rng.integers(3, 14))
    kinds = [str(rng.choice(["nominal", "numeric"])) for _ in range(n_attr)]
    names = [f"a{j}" for j in range(n_attr)] + ["class"]
    classes = ["p", "q", "r"][:int(rng.integers(2, 4))]
    rows = []
    for i in range(n_rows):
        row = []
        for kind in kinds:
            if rng.random() < 0.12:
                row.append(str(rng.choice(MISSING)))
            elif kind == "numeric":
                row.append(_number(rng))
            else:
                row.append(_word(rng, odd))
        row.append(str(rng.choice(classes)) if rng.random() > 0.08 else str(rng.choice(["?", ""])))
        rows.append(row)
    if rng.random() < 0.2:  # a late type change: text in the last row of a column of numbers
        j = int(rng.integers(n_attr))
        rows[-1][j] = "late"
    if fmt == "csv":
        sep = str(rng.choice([",", ",", ";", "\t"]))
        quote = '"'
    else:
        sep, quote = ",", "'" if rng.random() < 0.8 else '"'
    lines = []
    for row in rows:
        fields = [_decorate(rng, v, sep, None if plain else quote if v not in MISSING or rng.random() < 0.1
                            else None, odd) for v in row]
        lines.append(sep.join(fields))
    for _ in range(int(rng.integers(0, 3))):  # blank lines, lines of spaces, a row of separators
        k = int(rng.integers(1, len(lines) + 1))
        lines.insert(k, str(rng.choice(["", "  ", sep * n_attr, "\t"])))
    options = {}
    if fmt == "csv":
        head = ["" for _ in range(int(rng.integers(0, 3)))] if rng.random() < 0.3 else []
        text = "\n".join(head + [sep.join(names)] + lines)
        if rng.random() < 0.3 and any(k == "numeric" for k in kinds):
            options["nominal"] = [names[kinds.index("numeric")]]
    else:
        header = [f"@relation r{seed}"]
        if rng.random() < 0.4:
            header.insert(0, "% a comment")
        for name, kind, j in zip(names, kinds + ["class"], range(n_attr + 1)):
            if kind == "numeric":
                spec = "numeric" if fmt == "arff" else "real"
            else:
                values = sorted({r[j] for r in rows if r[j] not in MISSING and r[j] != "late"}) or ["x"]
                if kind == "class":
                    values = classes
                spec = "{" + ",".join(_quoted(v) for v in values) + "}"
            header.append(f"@attribute {name} {spec}")
        if fmt == "keel":
            header.append("@inputs " + ", ".join(names[:-1]))
            header.append("@outputs class")
        header.append("@data")
        if fmt == "arff" and rng.random() < 0.3 and not plain:
            k = int(rng.integers(len(lines) + 1))
            lines.insert(k, "% a comment among the rows")
        text = "\n".join(header + lines)
    if rng.random() < 0.5:
        text += "\n"
    if rng.random() < 0.15:
        text = text.replace("\n", "\r\n")
    return text, options


def _quoted(value):
    plain = all(ch.isalnum() or ch in "-_." for ch in value)
    return value if plain else "'" + value.replace("'", "\\'") + "'"
