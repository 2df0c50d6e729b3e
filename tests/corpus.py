"""A generated corpus of malformed data and model files, each with the command
lines to run on it. ``python tests/corpus.py DIR`` writes it to DIR; the tests
generate it in a temporary folder."""

import json
import pathlib
import sys

GOOD_ARFF = "@relation t\n@attribute a {x,y}\n@attribute n numeric\n@attribute c {p,q}\n@data\nx,1,p\ny,2,q\nx,1.5,p\n"
GOOD_CSV = "a,n,c\nx,1,p\ny,2,q\nx,1.5,p\n"

DATA = {
    # name: file contents (str, or bytes)
    "keel-comments-only.dat": "% nothing but a comment\n% and another\n",
    "arff-bare-attribute.arff": "@relation t\n@attribute\n@attribute c {p,q}\n@data\np\n",
    "keel-bare-attribute.dat": "@relation t\n@attribute\n@attribute c {p,q}\n@inputs\n@outputs c\n@data\np\n",
    "arff-no-data.arff": "@relation t\n@attribute a {x,y}\n@attribute c {p,q}\n",
    "arff-undeclared-value.arff": GOOD_ARFF.replace("y,2,q", "z,2,q"),
    "arff-unclosed-list.arff": "@relation t\n@attribute a {x,y\n@attribute c {p,q}\n@data\nx,p\n",
    "arff-unclosed-quote.arff": "@relation t\n@attribute a {x,y}\n@attribute c {p,q}\n@data\n'x,p\n",
    "arff-short-row.arff": GOOD_ARFF + "x,1\n",
    "arff-text-in-numeric.arff": GOOD_ARFF + "x,abc,p\n",
    "arff-sparse.arff": "@relation t\n@attribute a numeric\n@attribute c {p,q}\n@data\n{0 1, 1 p}\n",
    "arff-many-quotes.arff": "@relation t\n@attribute a string\n@attribute c {p,q}\n@data\n'" + "x'" * 40000 + ",p\n",
    "csv-empty.csv": "",
    "csv-header-only.csv": "a,b,c\n",
    "csv-blank-lines.csv": "\n\n\n",
    "csv-ragged.csv": GOOD_CSV + "x,1\n",
    "csv-duplicate-names.csv": "a,a,c\nx,1,p\ny,2,q\n",
    "csv-one-column.csv": "c\np\nq\n",
    "csv-invalid-utf8.csv": b"a,n,c\nx,1,p\n\xff\xfe,2,q\n",
    "csv-nul-bytes.csv": "a,n,c\nx,1,p\ny\x00,2,q\n",
    "csv-infinite.csv": "a,n,c\nx,inf,p\ny,2,q\n",
    "csv-huge-number.csv": "a,n,c\nx,1e400,p\ny,2,q\n",
    "csv-one-class.csv": "a,n,c\nx,1,p\ny,2,p\n",
    "csv-all-missing-class.csv": "a,n,c\nx,1,?\ny,2,?\n",
    "csv-unclosed-quote.csv": 'a,n,c\n"x,1,p\ny,2,q\n',
    "csv-many-quotes.csv": "a,c\n" + '"' + 'x""' * 40000 + '",p\ny,q\n',
    "filebase-missing-des.dat": "0,1\n1,0\n",
    "keel-undeclared-input.dat": "@relation t\n@attribute a {x,y}\n@attribute c {p,q}\n@inputs a, zz\n@outputs c\n@data\nx,p\n",
    # R's write.csv2: ';' between fields, decimal commas, quoted text, NA
    "csv2-decimal-commas.csv": '"island";"bill";"mass";"species"\n"Dream";39,1;3750;"Adelie"\n'
                               '"Biscoe";NA;5400;"Gentoo"\n"Dream";46,5;3500;"Chinstrap"\n"Biscoe";47,6;5550;"Gentoo"\n',
    "arff-sparse-bad-index.arff": "@relation t\n@attribute a numeric\n@attribute c {p,q}\n@data\n{5 1, 1 p}\n",
    "arff-sparse-unclosed.arff": "@relation t\n@attribute a numeric\n@attribute c {p,q}\n@data\n{0 1, 1 p\n",
    "arff-date-format.arff": '@relation t\n@attribute d date "dd.MM.yyyy"\n@attribute c {p,q}\n@data\n01.02.2020,p\n'
                             '03.04.2021,q\n',
    "arff-date-wrong.arff": '@relation t\n@attribute d date "dd.MM.yyyy"\n@attribute c {p,q}\n@data\n2020-02-01,p\n',
    # issue 64: a date format giving a field twice, an infinite number among many, other encodings, row names
    "arff-date-field-twice.arff": '@relation t\n@attribute d date "yy-MM-yydd"\n@attribute c {p,q}\n@data\n'
                                  '20-01-2001,p\n',
    "csv-infinite-later.csv": GOOD_CSV + "y,-inf,q\n",
    "csv-latin-1.csv": "a,n,c\nx,1,p\ncaf\u00e9,2,q\n".encode("latin-1"),
    "csv-utf-16.csv": GOOD_CSV.encode("utf-16"),
    "csv-row-names.csv": '"","a","n","c"\n"1","x",1,"p"\n"2","y",2,"q"\n"3","x",1.5,"p"\n',
    "csv-stray-word.csv": "a,n,c\n" + "".join(f"x,{i}.5,p\n" for i in range(8)) + "y,oops,q\n",
    "arff-string-attribute.arff": "@relation t\n@attribute s string\n@attribute c {p,q}\n@data\n'a',p\n'b',q\n",
}



def arrow_files():
    """Parquet and Arrow IPC files that parse but cannot be read as data (made with pyarrow), and
    files that only look like them."""
    import io
    import pyarrow as pa
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    def parquet(table):
        sink = io.BytesIO()
        pq.write_table(table, sink)
        return sink.getvalue()

    good = pa.table({"a": ["x", "y", "x"], "n": [1.0, 2.0, 1.5], "c": ["p", "q", "p"]})
    sink = io.BytesIO()
    feather.write_feather(good, sink)
    return {
        "parquet-garbage.parquet": b"PAR1" + b"\x00" * 40 + b"PAR1",
        "parquet-truncated.parquet": parquet(good)[:-30],
        "parquet-list-column.parquet": parquet(pa.table({"a": [[1, 2], [3]], "c": ["p", "q"]})),
        "parquet-one-column.parquet": parquet(pa.table({"c": ["p", "q"]})),
        "parquet-measured-class.parquet": parquet(pa.table({"a": ["x", "y", "z"], "c": [1.5, 2.25, 3.125]})),
        "parquet-no-rows.parquet": parquet(good.slice(0, 0)),
        "parquet-null-class.parquet": parquet(pa.table({"a": ["x", "y"], "c": pa.nulls(2, pa.string())})),
        "parquet-infinite.parquet": parquet(pa.table({"n": [1.0, float("inf")], "c": ["p", "q"]})),
        "arrow-garbage.feather": b"ARROW1\x00\x00" + b"\xff" * 30 + b"ARROW1",
        "arrow-truncated.arrow": sink.getvalue()[:-40],
        # valid files of unusual types: microsecond times, a column of nulls only, durations, dates
        "parquet-microseconds.parquet": parquet(pa.table({
            "t": pa.array([1_600_000_000_000_001, None, 1_600_000_500_000_123], pa.timestamp("us")),
            "c": ["p", "q", "p"]})),
        "parquet-null-column.parquet": parquet(pa.table({"n": [1.0, 2.0, 3.0], "e": pa.nulls(3), "c": ["p", "q", "p"]})),
        "parquet-dates-durations.parquet": parquet(pa.table({
            "d": pa.array([18000, 18001, None], pa.date32()), "w": pa.array([5, None, 7], pa.duration("ns")),
            "c": ["p", "q", "p"]})),
        "arrow-interval.feather": _feather(pa.table({"i": pa.array([pa.scalar((1, 2, 3), pa.month_day_nano_interval())
                                                                    .as_py()] * 2, pa.month_day_nano_interval()),
                                                      "c": ["p", "q"]})),
    }


def _feather(table):
    import io
    import pyarrow.feather as feather
    sink = io.BytesIO()
    feather.write_feather(table, sink)
    return sink.getvalue()


GOOD_MODEL = None  # filled by make(): a real model file, then broken in several ways

MODELS = {
    "model-not-json.json": "this is not json",
    "model-invalid-utf8.json": b'{"format": "seminaive-model", "version": 1, "model": "\xff"}',
    "model-deep.json": "[" * 200000 + "]" * 200000,
    "model-big-int.json": '{"format": "seminaive-model", "version": ' + "9" * 100001 + "}",
    "model-wrong-format.json": '{"format": "other"}',
    "model-unknown-model.json": '{"format": "seminaive-model", "version": 1, "model": "Nope", "params": {}, "state": {}}',
}


def broken_models(good):
    """Variants of a real model file's JSON with one field wrong each."""
    out = {}

    def variant(name, change):
        d = json.loads(json.dumps(good))
        change(d)
        out[name] = json.dumps(d)

    variant("model-stats-wrong-type.json", lambda d: d["state"].__setitem__("stats", "nope"))
    variant("model-classes-empty.json", lambda d: d["state"].__setitem__("classes", []))
    variant("model-column-out-of-range.json", lambda d: d["state"]["components"][0].__setitem__("column", 99))
    variant("model-counts-wrong-shape.json", lambda d: d["state"]["stats"][0].__setitem__("counts", [[1.0]]))
    variant("model-nan-class-count.json", lambda d: d["state"].__setitem__("class_count", ["NaN", 1.0]))
    variant("model-negative-class-count.json", lambda d: d["state"].__setitem__("class_count", [-3.0, 1.0]))
    variant("model-unknown-kind.json", lambda d: d["state"]["schema"]["attributes"][0].__setitem__("kind", "weird"))
    variant("model-params-wrong.json", lambda d: d["params"].__setitem__("alpha", -1))
    variant("model-missing-state.json", lambda d: d.pop("state"))
    variant("model-component-kind.json", lambda d: d["state"]["components"][0].__setitem__("kind", "nope"))
    variant("model-classes-twice.json", lambda d: d["state"].__setitem__("classes", [d["state"]["classes"][0]] * 2))
    variant("model-true-value.json",
            lambda d: d["state"]["schema"]["attributes"][0]["values"].__setitem__(0, True))
    return out


def every_field_broken(good, prefix):
    """Each top-level state field of a real model file replaced by a string, then by a NaN."""
    out = {}
    for key in good.get("state", {}):
        for label, bad in (("text", "nope"), ("nan", float("nan"))):
            d = json.loads(json.dumps(good))
            d["state"][key] = bad
            out[f"{prefix}-{key}-{label}.json"] = json.dumps(d)
    return out


def other_models(folder):
    """Real model files of the other kinds (1R, ZeroR, searches, the constrained model, TAN, selective kDB,
    A2DE, WANBIA, a calibrated Naive Bayes), made with the CLI."""
    from seminaive.cli.main import main
    import contextlib
    import io
    made = {}
    train = str(pathlib.Path(folder) / "good.csv")
    for name, argv in (("one-r", ["fit", train, "--model", "1r"]), ("zero-r", ["fit", train, "--model", "zeror"]),
                       ("bse", ["search", train, "--method", "bse", "--quiet"]),
                       ("cnb", ["fit", train, "--min-rate", "minority=1.0"]),
                       ("tan", ["fit", train, "--model", "tan"]), ("skdb", ["fit", train, "--model", "skdb"]),
                       ("kdb2", ["fit", train, "--model", "kdb:k=2"]), ("aode", ["fit", train, "--model", "aode"]),
                       ("bsej", ["fit", train, "--model", "bsej"]),
                       ("sigmoid", ["fit", train, "--model", "nb-sigmoid"]),
                       ("a2de", ["fit", train, "--model", "a2de"]), ("wanbia", ["fit", train, "--model", "wanbia"]),
                       ("calibrated", ["fit", train, "--calibration", "isotonic"]),
                       ("bse-log-loss", ["search", train, "--method", "bse", "--scoring", "log_loss", "--quiet"])):
        path = pathlib.Path(folder) / f"good-{name}.json"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(argv + ["-m", str(path), "--force"])
        made[name] = json.loads(path.read_text())
    return made


def make(folder, good_model):
    """Write the corpus into ``folder``; return [(file name, [argv, ...])]."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "good.csv").write_text(GOOD_CSV)
    cases = []
    for name, text in {**DATA, **arrow_files()}.items():
        (folder / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        p = str(folder / name)
        cases.append((name, [["fit", p], ["show", p], ["fit", p, "--chunksize", "2"], ["fit", p, "--model", "skdb"],
                             ["evaluate", p, "--cv", "2"], ["search", p, "--method", "bse", "--quiet"],
                             ["predict", "--model-file", good_model, p, "--proba", "--format", "csv"]]))
    models = {**MODELS, **broken_models(json.loads(pathlib.Path(good_model).read_text()))}
    for kind, good in other_models(folder).items():
        models.update(every_field_broken(good, f"model-{kind}"))
    for name, text in models.items():
        (folder / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        p = str(folder / name)
        cases.append((name, [["show", p], ["predict", "--model-file", p, str(folder / "good.csv"), "--proba",
                                           "--format", "csv"]]))
    return cases


if __name__ == "__main__":  # pragma: no cover
    from seminaive.cli.main import main
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    (out / "train.csv").write_text(GOOD_CSV)
    main(["fit", str(out / "train.csv"), "-m", str(out / "good-model.json"), "--force"])
    for name, runs in make(out, str(out / "good-model.json")):
        print(name, len(runs))
