"""Text reports of models: printouts, explanations and aligned tables.

The command line prints what these functions return; it formats nothing itself.
"""

import csv
import io
import json

import numpy as np

from ._names import OUTPUT_FORMATS
from ._target import unwrap
from ._words import plural
from .data.encoding import as_columns, select_columns

__all__ = ["format_table", "format_model", "format_explanation", "format_predictions",
           "format_mapping", "format_value", "format_frame", "FORMATS"]


def format_table(header, rows, align=None):
    """Align ``rows`` under ``header`` (first column left, the rest right).

    Examples
    --------
    >>> print(format_table(["v", "p"], [["a", "0.5"], ["bb", "1"]]))
    v     p
    a   0.5
    bb    1
    """
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[j]) for r in cells) for j in range(len(header))]
    align = align or ["<"] + [">"] * (len(header) - 1)
    return "\n".join("  ".join(f"{c:{a}{w}}" for c, a, w in zip(r, align, widths)).rstrip()
                     for r in cells)


def _fmt(x, precision):
    return f"{x:.{precision}f}"


def _fmt_number(x, precision):
    """A mean, standard deviation or bandwidth: fixed-point at everyday magnitudes,
    scientific far from them (1e308 is not printed as 309 digits).

    Examples
    --------
    >>> _fmt_number(73.0, 4), _fmt_number(1.1333e308, 4), _fmt_number(2.5e-9, 4)
    ('73.0000', '1.1333e+308', '2.5000e-09')
    """
    return f"{x:.{precision}f}" if x == 0 or 1e-3 <= abs(x) < 1e9 else f"{x:.{precision}e}"


SHOWN = 100  # a Naive Bayes of more attributes shows this many tables unless every table is asked for


def format_model(model, precision=4, tables=None):
    """The printout of a fitted NaiveBayes: priors, then one table per attribute
    (P(value | class) with the raw counts, or mean / standard deviation / n);
    ``tables`` None: every table up to :data:`SHOWN` attributes, else the first
    :data:`SHOWN` and a line saying how many are left out (a model of 10,000
    attributes would print 120,000 lines); True: every table."""
    model._check_fitted()
    classes = [str(c) for c in model.classes_]
    n = model.class_count_.sum()
    prior = np.exp(model.class_log_prior_)
    out = [f"Naive Bayes: {plural(len(model.schema_), 'attribute')}, {plural(len(classes), 'class')}, "
           f"{plural(n, 'training instance')}", "",
           f"Class priors ({model.priors if isinstance(model.priors, str) else 'given'})",
           format_table(["class", "P(class)", "count"],
                        [[c, _fmt(p, precision), f"{k:g}"] for c, p, k in
                         zip(classes, prior, model.class_count_)])]
    shown = len(model.components_) if tables or len(model.components_) <= SHOWN else SHOWN
    for comp, stats in zip(model.components_[:shown], model.stats_[:shown]):
        attr = model.schema_.attributes[comp.attribute]
        out.append("")
        out.extend(_component_lines(model, comp, stats, attr, classes, precision))
    if shown < len(model.components_):
        out += ["", f"... and {len(model.components_) - shown:,} more attributes (to_text(tables=True), or the "
                    f"command line's --tables, prints every table)"]
    return "\n".join(out)


def _component_lines(model, comp, stats, attr, classes, precision):
    """The printout of one attribute's distribution, by the component's kind."""
    if comp.kind in ("categorical", "discretized"):
        if comp.kind == "categorical":
            head = f"{attr.name} (nominal, {model._smoothing_label('nominal')})"
            values = [str(v) for v in attr.values]
        else:
            head = (f"{attr.name} (numeric, {model.numeric.replace('_', ' ')} intervals: "
                    f"{comp.n_values}, {model._smoothing_label('nominal')})")
            values = comp.labels
        probs = np.exp(comp.log_table_[:-1])
        rows = [[v] + [f"{_fmt(probs[i, k], precision)} ({stats['counts'][k, i]:g})"
                       for k in range(len(classes))] for i, v in enumerate(values)]
        return [head + ": P(value | class) and count", format_table(["value"] + classes, rows)]
    if comp.kind == "kernel":
        n = np.bincount(stats["y"].astype(int), weights=stats["w"], minlength=len(classes))
        rows = [["bandwidth"] + [_fmt_number(h, precision) for h in comp.h_], ["n"] + [f"{v:g}" for v in n]]
        return [f"{attr.name} (numeric, Gaussian kernel density, bandwidth {model.bandwidth})",
                format_table([""] + classes, rows)]
    rows = [["mean"] + [_fmt_number(m, precision) for m in comp.mean_],
            ["std dev"] + [_fmt_number(v, precision) for v in comp.sd_],
            ["n"] + [f"{w:g}" for w in stats["weight"]]]
    return [f"{attr.name} (numeric, Gaussian, {model._smoothing_label('gaussian')})",
            format_table([""] + classes, rows)]


def format_explanation(model, X, precision=3):
    """For each instance: the predicted class, its probability, and how each
    attribute moves the log-odds of the predicted class against the runner-up
    (log P(x_j | predicted) - log P(x_j | runner-up)); the terms and the prior
    sum to the log-odds. Missing or unseen values contribute 0."""
    X, _ = unwrap(X)
    X = select_columns(X, model.schema_)  # a DataFrame's columns by name, in the model's order
    parts = model.attribute_log_likelihoods(X)
    _, get, _, _ = as_columns(X)
    columns = [get(j) for j in range(parts.shape[1])]  # once, not per instance
    names = [a.name for a in model.schema_.attributes]
    logp = model.predict_log_proba(X)
    classes = [str(c) for c in model.classes_]
    out = []
    for i in range(parts.shape[0]):
        order = np.argsort(-logp[i], kind="stable")
        best, second = order[0], (order[1] if len(order) > 1 else order[0])
        odds = logp[i, best] - logp[i, second]
        out.append(f"instance {i + 1}: {classes[best]} (P = {np.exp(logp[i, best]):.{precision}f})"
                   + (f", log-odds {classes[best]} vs {classes[second]} = {odds:+.{precision}f}"
                      if best != second else ""))
        rows = [["prior", f"{model.class_log_prior_[best] - model.class_log_prior_[second]:+.{precision}f}"]]
        for j in range(parts.shape[1]):
            col = columns[j]
            rows.append([f"{names[j]} = {col.iloc[i] if hasattr(col, 'iloc') else col[i]}",
                         f"{parts[i, j, best] - parts[i, j, second]:+.{precision}f}"])
        out.append("  " + format_table(["term", "contribution"], rows).replace("\n", "\n  "))
    return "\n".join(out)


FORMATS = OUTPUT_FORMATS


def _py(v):
    return v.item() if hasattr(v, "item") else v


def prediction_header(classes, proba, labelled):
    """The columns of a predictions listing: ``actual`` for a labelled file, ``prediction``, P(class)..."""
    return (["actual"] if labelled else []) + ["prediction"] + ([f"P({c})" for c in classes] if proba else [])


def unknown_classes(actual, classes):
    """{label: rows} of the known classes of a labelled file that are none of the model's ``classes``
    (compared as text): such rows can only be counted wrong.

    >>> unknown_classes(["a", None, "c", "c"], ["a", "b"])
    {'c': 2}
    """
    known = {str(c) for c in classes}
    out = {}
    for a in actual:
        if a is not None and str(a) not in known:
            out[str(a)] = out.get(str(a), 0) + 1
    return out


def known_correct(actual, labels):
    """How many rows of a labelled file have a known class (``actual`` not None), and how many of
    those the predicted ``labels`` get right (compared as text, as the file holds them).

    >>> known_correct(["a", None, "b"], ["a", "a", "a"])
    (2, 1)
    """
    pairs = [(a, v) for a, v in zip(actual, labels) if a is not None]
    return len(pairs), sum(str(a) == str(v) for a, v in pairs)


def format_predictions(labels, proba=None, classes=None, fmt="text", actual=None):
    """Predicted classes (and optionally class probabilities), one instance a line;
    with ``actual`` (the true classes, None where missing) those first.

    Examples
    --------
    >>> print(format_predictions(["a", "b"], [[0.9, 0.1], [0.2, 0.8]], ["a", "b"], "csv"))
    prediction,P(a),P(b)
    a,0.9,0.1
    b,0.2,0.8
    >>> print(format_predictions(["a", "b"], None, ["a", "b"], "text", actual=["a", "a"]))
    actual  prediction
    a                a
    a                b
    """
    labels = [_py(v) for v in labels]
    truth = None if actual is None else [None if a is None else _py(a) for a in actual]
    if fmt == "json":
        rows = [({} if truth is None else {"actual": truth[i]}) | {"prediction": v} for i, v in enumerate(labels)]
        if proba is not None:
            for r, row in zip(rows, proba):
                r["proba"] = {str(c): float(p) for c, p in zip(classes, row)}
        return json.dumps(rows, indent=1)
    head = prediction_header(classes, proba is not None, truth is not None)
    cells = [([] if truth is None else ["" if truth[i] is None else truth[i]]) + [v] for i, v in enumerate(labels)]
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(head)
        for i, row in enumerate(cells):
            w.writerow(row + ([repr(float(p)) for p in proba[i]] if proba is not None else []))
        return buf.getvalue().rstrip("\n")
    if proba is None and truth is None:
        return "\n".join(str(v) for v in labels)
    return format_table(head, [row + ([f"{p:.4f}" for p in proba[i]] if proba is not None else [])
                               for i, row in enumerate(cells)])


def format_mapping(mapping, fmt="text", key="class", value="probability", precision=4):
    """A two-column listing (for example class priors) as text, CSV or JSON."""
    if fmt == "json":
        return json.dumps({str(k): _py(v) for k, v in mapping.items()}, indent=1)
    if fmt == "csv":
        return "\n".join([f"{key},{value}"] + [f"{k},{_py(v)!r}" for k, v in mapping.items()])
    return format_table([key, value], [[k, f"{v:.{precision}f}" if isinstance(v, float) else v]
                                       for k, v in mapping.items()])


def format_frame(frame, fmt="text"):
    """A DataFrame as an aligned text table, CSV or JSON records."""
    if fmt == "csv":
        return frame.to_csv(index=False).rstrip("\n")
    if fmt == "json":
        return json.dumps(frame.to_dict(orient="records"), indent=1, default=str)
    return format_table(list(frame.columns), frame.astype(str).values.tolist())


def format_value(name, value, fmt="text", unit=""):
    """One named figure as text, CSV or JSON."""
    if fmt == "json":
        return json.dumps({name: value})
    if fmt == "csv":
        return f"{name}\n{value!r}"
    return f"{name}: {value:.2f}{unit}" if isinstance(value, float) else f"{name}: {value}{unit}"
