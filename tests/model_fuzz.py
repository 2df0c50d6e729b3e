"""Mutations of real model files, field by field (issue 22): every leaf of every kind of saved model
replaced by wrong types, NaN, infinities, out-of-range numbers, empty and oversized values, and every
list shortened and lengthened. ``python tests/model_fuzz.py`` prints a summary of what each mutation
gives; the tests run the same cases in-process."""

import json
import math
import re

import numpy as np

BIG = "x" * 2_000_000  # an oversized string
NUMBER_MUTATIONS = (("nan", float("nan")), ("inf", float("inf")), ("-inf", float("-inf")), ("negative", -1),
                    ("zero", 0), ("huge", 1e308), ("tiny", 5e-324), ("index", 99), ("text", "nope"), ("bool", True),
                    ("false", False), ("null", None), ("list", [1, 2]), ("dict", {"a": 1}), ("whole-huge", 10**100))
STRING_MUTATIONS = (("empty", ""), ("other", "zz"), ("big", BIG), ("number", 3.5), ("null", None), ("list", ["a"]),
                    ("dict", {}), ("bool", True))
# a label list's entry made another entry of it: the same label twice is never a model's classes or values
LABEL_LISTS = ("classes", "values")
# what no field may hold: a model file holding one of these must not load (true/false where a number stood)
NEVER = {"nan", "text", "big", "dict", "list", "bool", "false"}


def _leaves(d, path=()):
    """(path, value) of every leaf and every list, at most the first two items of a long list of numbers."""
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(d, list):
        yield path, d
        numbers = d and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in d)
        for i, v in enumerate(d[:2] if numbers else d[:6]):
            yield from _leaves(v, path + (i,))
    else:
        yield path, d


def _set(d, path, value):
    for p in path[:-1]:
        d = d[p]
    d[path[-1]] = value


def _copy(d):
    return json.loads(json.dumps(d))


def _keys(d, path=()):
    """The path of every key of every object (a field that can be left out)."""
    if isinstance(d, dict):
        for k, v in d.items():
            yield path + (k,)
            yield from _keys(v, path + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d[:6]):
            yield from _keys(v, path + (i,))


def mutations(good):
    """(label, path, document) of every mutation of one good model document: each leaf changed,
    each field removed."""
    for path in _keys(good):
        if len(path) < 2 or path[0] not in ("params", "state"):
            continue
        doc = _copy(good)
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        del parent[path[-1]]
        yield "removed", ".".join(str(p) for p in path), doc
    for path, value in _leaves(good):
        if not path or path[0] not in ("params", "state"):
            continue
        where = ".".join(str(p) for p in path)
        if isinstance(value, list):
            cases = [("empty-list", [])]
            if value:
                cases += [("shorter", value[:-1]), ("longer", value + value[-1:])]
        elif isinstance(value, bool):
            cases = [("text", "nope"), ("number", 2), ("null", None)]
        elif isinstance(value, (int, float)):
            cases = list(NUMBER_MUTATIONS)
        elif isinstance(value, str):
            cases = list(STRING_MUTATIONS)
        elif value is None:  # (a list may be what an optional field holds: nominal=[1])
            cases = [("text", "nope"), ("nan", float("nan")), ("some-list", [1])]
        else:
            cases = []
        if isinstance(value, str) and isinstance(path[-1], int) and path[-1] > 0:
            cases.append(("duplicate", _get(good, ".".join(str(p) for p in path[:-1]))[0]))
        for label, new in cases:
            doc = _copy(good)
            _set(doc, path, new)
            yield label, where, doc


def check_loaded(model, X):
    """Why a model that loaded is not sane on the probe ``X`` (None if it is)."""
    from seminaive.exceptions import SeminaiveError
    try:
        p = model.predict_proba(X)
        labels = model.predict(X)
        model.to_text()
    except SeminaiveError as e:  # one clear line (data that do not fit the model as the file describes it)
        return None if "\n" not in str(e) and len(str(e)) <= 300 else f"an error of {len(str(e))} characters"
    except Exception as e:  # noqa: BLE001 - any other failure after a load is the defect the fuzzer looks for
        return f"{type(e).__name__}: {str(e)[:200]}"
    k = len(model.classes_)
    if not isinstance(p, np.ndarray) or p.dtype.kind != "f":
        return f"probabilities of type {type(p).__name__} {getattr(p, 'dtype', '')}"
    if p.shape != (len(X), k):
        return f"probabilities of shape {p.shape} for {k} classes"
    if not np.isfinite(p).all() or (p < 0).any() or not np.allclose(p.sum(axis=1), 1.0, atol=1e-9):
        return "probabilities not finite, negative or not summing to 1"
    if not set(np.asarray(labels).tolist()) <= set(np.asarray(model.classes_).tolist()):
        return "a prediction outside the classes"
    top = p.max(axis=1)
    chosen = p[np.arange(len(X)), [list(model.classes_).index(v) for v in labels]]
    if (chosen < top - 1e-12).any():
        return "predictions that are not the most probable classes"
    return None


def run(docs, X, load):
    """Every mutation through ``load`` (a document -> model function): the problems found."""
    from seminaive.exceptions import SeminaiveError
    problems = []
    for kind, good in docs.items():
        reference = load(good).predict_proba(X)
        for label, where, doc in mutations(good):
            try:
                model = load(doc)
            except SeminaiveError as e:
                text = str(e)
                if "\n" in text or len(text) > 300:
                    problems.append(f"{kind} {where} {label}: an error of {len(text)} characters")
                elif not re.search(r"\b(params|state)[.\[]?", text):  # the field it found wrong (or at odds)
                    problems.append(f"{kind} {where} {label}: the error names no field: {text[:160]}")
                continue
            except Exception as e:  # noqa: BLE001
                problems.append(f"{kind} {where} {label}: traceback {type(e).__name__}: {str(e)[:160]}")
                continue
            in_numbers = label == "null" and where.rsplit(".", 1)[-1].isdigit() and \
                isinstance(_get(good, where), (int, float)) and not isinstance(_get(good, where), bool)
            twice = label == "duplicate" and where.split(".")[-2] in LABEL_LISTS
            if (label in NEVER and not (label == "list" and isinstance(_get(good, where), list))) or in_numbers or twice:
                problems.append(f"{kind} {where} {label}: loaded a value no field may hold")  # (null among numbers)
                continue
            why = check_loaded(model, X)
            if why:
                problems.append(f"{kind} {where} {label}: loaded, then {why}")
            elif label == "removed" and not np.allclose(model.predict_proba(X), reference, rtol=0, atol=1e-12):
                problems.append(f"{kind} {where} removed: loaded with other probabilities (a default stood in)")
    return problems


def _get(d, where):
    for p in where.split("."):
        d = d[int(p)] if isinstance(d, list) else d[p]
    return d


def is_nan(v):
    return isinstance(v, float) and math.isnan(v)
