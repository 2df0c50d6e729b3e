"""The wrapper-search meta-estimator: one scoring step, a recorded history,
an ordinary fitted Naive Bayes at the end."""

import sys
import time

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

from ..registry import SavedModel
from ..core.capabilities import Capabilities, LearnsFromSource
from .priors_only import _PriorsOnly
from .streamed import search_source
from ..core.folds import make_folds
from .._scale import column_scales
from .._words import plural
from .._progress import step
from .._target import prediction_input
from ..data.dataset import declared_labels
from ..learning.sources import open_source
from .._validation import ValidatedParams, check_cv_or_none, check_prior_dict, check_priors
from ..components.gaussian import VAR_SMOOTHING_RULES, value_range, variance_floor
from ..data.encoding import encode
from ..dependence import conditional_mutual_information
from ..discretize import DISCRETIZERS, apply_cuts, interval_labels
from ..estimation import PRIOR_KEYS, check_estimation, class_log_prior, make_estimator
from ..exceptions import require_fitted
from ..naive_bayes import NaiveBayes
from .._state import brief, checked_records, field, numbers
from ..components.checked import checked_cuts
from ..persistence import model_from_dict, model_to_dict
from ..scoring import check_scoring
from ..learning.engine import BaseAttribute, Engine
from ..learning.greedy import climb
from ..learning.held_out import _moments
from .layout import numeric_layout
from ..discretize.few_values import CODES
from ..core.structure import Structure
from ..core.counting import count_classes

__all__ = ["SearchNaiveBayes"]


class SearchNaiveBayes(LearnsFromSource, ValidatedParams, SavedModel, ClassifierMixin, BaseEstimator):
    """Base of BSE, BSJ, BSEJ and FSSJ: subclasses give ``_start(d)`` (the
    initial groups) and ``_candidates(groups, d)`` (the changes to try).

    Parameters
    ----------
    scoring : {"accuracy", "balanced_accuracy", "log_loss", "brier", "rmse"}, default "accuracy"
        The rule a candidate is judged by (:mod:`seminaive.scoring`): accuracy
        (Pazzani's choice), the mean per-class accuracy, or a proper scoring
        rule of the out-of-sample probabilities (lower is better for these).
    cv : None, int or list of (train, test), default None
        None: leave-one-out on the training data (deterministic); a number of
        folds (stratified, shuffled with ``random_state``) or the folds themselves
        for k-fold cross-validation.
    tol : float, default 0
        A change is kept only if it improves the score by more than ``tol``.
    alpha, priors, ddof, var_smoothing, var_smoothing_rule, estimation, prior : as NaiveBayes
        (every candidate is scored with the model's own estimator)
        (the variance floor is fixed from the training data for the search).
    numeric : {"gaussian", "discretize"}, default "gaussian"
        A numeric attribute that is not joined stays Gaussian, or is discretized.
    discretizer : {"equal_width", "equal_frequency", "mdl", "1r"}, default "equal_width"
        How numeric attributes are cut before joining (the BSEJ project uses equal width).
    integer_codes : {"numbers", "auto", "values", "column"}, default "numbers"
        A numeric column of at most 64 distinct values read by its values (alone and joined)
        where its own exact leave-one-out prefers that to its Gaussian or intervals ("auto"), or
        always ("values"), as :class:`~seminaive.NaiveBayes`'s; a streamed search (files, Dask) reads
        the values met in one more pass and chooses alike.
    n_bins : int, default 10
    max_values : int, default 10000
        Joins whose Cartesian product has more values are not considered.
    candidate_pairs : int or None
        Consider joining only the pairs of attributes with the highest
        conditional mutual information given the class (this many pairs).
    min_attributes : int, default 0
        Never delete below this many attributes.
    random_state : int, default 0
    verbose : bool
        Print each step (the searches can be long).

    Ties between candidates go to the first generated: deletions before joins,
    each in attribute order. The search stops when no candidate improves the
    score by more than ``tol`` or none is left.

    Examples
    --------
    >>> from seminaive.search import BSE, SearchNaiveBayes
    >>> issubclass(BSE, SearchNaiveBayes)
    True
    """

    _param_rules = {
        "scoring": check_scoring, "cv": check_cv_or_none, "tol": dict(kind="number"),
        "alpha": dict(kind="number", low=0), "priors": check_priors, "ddof": dict(kind="int", low=0, high=1),
        "var_smoothing": dict(kind="number", low=0, allow_none=True),
        "var_smoothing_rule": dict(options=VAR_SMOOTHING_RULES),
        "estimation": check_estimation, "prior": check_prior_dict,
        "numeric": dict(options=("gaussian", "discretize")), "discretizer": dict(options=tuple(DISCRETIZERS)),
        "integer_codes": dict(options=CODES),
        "n_bins": dict(kind="int", low=1), "max_values": dict(kind="int", low=1),
        "candidate_pairs": dict(kind="int", low=1, allow_none=True), "min_attributes": dict(kind="int", low=0),
        "verbose": dict(kind="bool"), "random_state": dict(kind="int", low=0)}

    def _capabilities(self):
        """Leave-one-out posteriors from the engine at the final structure when the search scores by
        leave-one-out (cv None); a search reads files and Dask partitions through its engine."""
        return Capabilities(leave_one_out=self.cv is None, search=True)

    def _learn(self, source, started=None):
        """The search on a source through the one search loop (:meth:`_run`): on the data in memory by an engine
        on its encoded columns, else over its chunks (:func:`.streamed.search_source`); ``started``: the fit's start."""
        if not source.in_memory:
            return search_source(self, source)
        t0 = time.perf_counter() if started is None else started
        engine, codes, xs, ycodes = self._engine(source)
        t1 = time.perf_counter()
        names, k = list(self.schema_.names), len(self.classes_)
        self._allowed = self._allowed_pairs(engine.attributes, ycodes, k)
        groups = self._run(engine, names)
        self.search_seconds_, self.setup_seconds_ = time.perf_counter() - t1, t1 - t0
        if groups:  # the final Naive Bayes on the structured columns, the classes as the search has them
            labels = declared_labels(pd.Series(pd.Categorical.from_codes(ycodes, pd.Index(self.classes_))))
            self.model_ = self._final_model(self.structure_.column_names(names)).fit(self._frame(codes, xs), labels)
        else:  # nothing beat the class priors alone
            self.model_ = _PriorsOnly(self.classes_, class_log_prior(count_classes(ycodes, k), self.priors))
        return self

    def _loo_log_proba(self, X, y):
        """Each training row's log-posteriors from the engine at the final structure, without the row."""
        engine = self.build_engine(X, y)[0]
        return engine.log_proba(list(self.structure_.groups))

    def __init__(self, scoring="accuracy", cv=None, tol=0.0, alpha=1.0, priors="laplace", ddof=1, var_smoothing=None,
                 var_smoothing_rule="range", estimation="frequency", prior=None, numeric="gaussian",
                 discretizer="equal_width", n_bins=10, max_values=10000,
                 candidate_pairs=None, min_attributes=0, random_state=0, verbose=False, integer_codes="numbers"):
        self.integer_codes = integer_codes
        self.scoring = scoring
        self.cv = cv
        self.tol = tol
        self.alpha = alpha
        self.priors = priors
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.var_smoothing_rule = var_smoothing_rule
        self.estimation = estimation
        self.prior = prior
        self.numeric = numeric
        self.discretizer = discretizer
        self.n_bins = n_bins
        self.max_values = max_values
        self.candidate_pairs = candidate_pairs
        self.min_attributes = min_attributes
        self.random_state = random_state
        self.verbose = verbose

    # -------------------------------------------------------------- checking
    def _check_fitted(self):
        require_fitted(self, "model_")

    # ------------------------------------------------------------- preparing
    def _prepare(self, X, table=None):
        """Encoded codes (numeric ones discretized with the learned cuts) and floats."""
        table = encode(X, self.schema_) if table is None else table
        codes, xs, nom, num = [], [], 0, 0
        for j, a in enumerate(self.schema_.attributes):
            if a.is_nominal:
                codes.append(np.asarray(table.codes[:, nom], dtype=np.int64))
                xs.append(None)
                nom += 1
            else:
                x = table.numeric[:, num]
                codes.append(apply_cuts(x, self.cuts_[j]).astype(np.int64))
                xs.append(x)
                num += 1
        return codes, xs

    def _splits(self, y):
        return None if self.cv is None else make_folds(self.classes_[y], self.cv, self.random_state)

    def build_engine(self, X, y):
        """Learn the schema and cut points from ``X``, ``y`` and return the scoring engine with the
        encoded columns: ``(engine, codes, xs, y_codes)``."""
        return self._engine(open_source(self, X, y))

    def _engine(self, source):  # build_engine from the data in memory opened as a source (its encoded table)
        table, ycodes, _ = source.chunk
        source.settle(self)
        cuts, coded = numeric_layout(self, source.schema, table, ycodes)
        self._set_layout(source.schema, source.classes, cuts, coded)
        k, names = len(self.classes_), list(self.schema_.names)
        codes, xs = self._prepare(None, table)
        gauss = [j for j in range(len(names)) if self._numeric_alone[j]]
        # the Gaussian component's units (values over a power of two), variance floors and estimators
        scales = {j: float(column_scales(xs[j][:, None])[0]) for j in gauss}
        scaled = {j: xs[j] / scales[j] for j in gauss}
        stats = [{**_stats(scaled[j], ycodes, k), "scale": np.array([scales[j]])} for j in gauss]
        floors = dict(zip(gauss, variance_floor(stats, self.var_smoothing, self.var_smoothing_rule)))
        attrs = [BaseAttribute(names[j], codes[j], len(self._values[j]), scaled.get(j), floors.get(j, 0.0),
                               scales.get(j, 1.0), self._estimator(names[j]))
                 for j in range(len(names))]
        engine = Engine(attrs, ycodes, k, self._estimator(None), self.priors, self._splits(ycodes), self.numeric,
                        scoring=self.scoring)
        return engine, codes, xs, ycodes

    def fit(self, X, y=None):
        """Search the structure on ``X``, ``y``; then fit the final Naive Bayes."""
        started = time.perf_counter()
        return self._learn(open_source(self, X, y), started)

    def _set_layout(self, schema, classes, cuts, coded=()):
        """What the search learns before it searches, from memory or a file's first pass: the schema, the classes,
        each numeric attribute's cuts for joins, the value labels, which numeric ones stay Gaussian alone."""
        self.schema_, self.classes_, self.cuts_ = schema, classes, cuts
        self._values = [list(map(str, a.values)) if a.is_nominal else interval_labels(cuts[j])
                        for j, a in enumerate(schema.attributes)]
        self._numeric_alone = [(not a.is_nominal) and self.numeric == "gaussian" and j not in coded
                               for j, a in enumerate(schema.attributes)]

    def _run(self, engine, names):
        """The search through the one greedy loop (:func:`~seminaive.learning.greedy.climb`), over any engine
        (in memory, or streamed over file chunks): the history, structure and groups."""
        d = len(names)
        groups = self._start(d)
        score = engine.score_many(groups, [])[0]
        self.history_ = [{"step": 0, "operator": "start", "attributes": Structure(tuple(groups), d).describe(names),
                          "score": score, "candidates": 0}]
        self._say(self.history_[-1])

        def took(candidate, score, n):
            op, remove, add = candidate
            what = ", ".join("*".join(names[j] for j in g) for g in (remove if op == "delete" else add))
            self.history_.append({"step": len(self.history_), "operator": op, "attributes": what,
                                  "score": score, "candidates": n})
            self._say(self.history_[-1])
            step("search steps", len(self.history_) - 1, None)

        groups, _ = climb(engine, groups, lambda gs: self._candidates(gs, d, engine), self.scoring, self.tol,
                          on_step=took)
        step("search steps", len(self.history_) - 1, len(self.history_) - 1)
        self.n_candidates_ = engine.n_evaluated
        self.structure_ = Structure(tuple(groups), d)
        self.n_attributes_used_ = self.structure_.n_used
        return groups

    def _estimator(self, name):
        """The estimator of one attribute (None: of the joined attributes), as the final model's."""
        return make_estimator(self.estimation, self.alpha, self.ddof, self.prior, name)

    def _final_model(self, columns=()):
        """The Naive Bayes the search ends with, with the search's estimation options (a prior
        given for an attribute goes with it while it is a column of its own: ``columns``)."""
        prior = None if self.prior is None else {k: v for k, v in self.prior.items()
                                                 if k in PRIOR_KEYS or k in columns}
        return NaiveBayes(alpha=self.alpha, priors=self.priors, ddof=self.ddof, var_smoothing=self.var_smoothing,
                          var_smoothing_rule=self.var_smoothing_rule, estimation=self.estimation, prior=prior)

    def _allowed_pairs(self, attrs, y, k):
        if self.candidate_pairs is None:
            return None
        d = len(attrs)
        scores = [(conditional_mutual_information(attrs[a].codes, attrs[b].codes, y), a, b)
                  for a in range(d) for b in range(a + 1, d)]
        scores.sort(key=lambda t: (-t[0], t[1], t[2]))
        return {(a, b) for _, a, b in scores[:self.candidate_pairs]}

    def _joinable(self, g, h, engine):
        if engine.group_values(g + h) > self.max_values:
            return False
        if self._allowed is None:
            return True
        return any((min(a, b), max(a, b)) in self._allowed for a in g for b in h)

    def _say(self, h):
        if self.verbose:
            print(f"  step {h['step']}: {h['operator']} {h['attributes']} -> score {h['score']:.4f}"
                  + (f" ({h['candidates']} candidates)" if h["candidates"] else ""), file=sys.stderr, flush=True)

    def _frame(self, codes, xs):
        return self.structure_.frame(list(self.schema_.names), codes, self._values, self._numeric_alone, xs)

    # ------------------------------------------------------------ predicting
    def _structured(self, X):
        self._check_fitted()
        return self._frame(*self._prepare(prediction_input(self, X)))

    def predict(self, X):
        frame = self._structured(X)  # (checks that the search is fitted, before model_ is read)
        return self.model_.predict(frame)

    def predict_proba(self, X):
        frame = self._structured(X)
        return self.model_.predict_proba(frame)

    def predict_log_proba(self, X):
        frame = self._structured(X)
        return self.model_.predict_log_proba(frame)

    def to_text(self, tables=False):
        """The search's steps and the final structure, then a summary of the final model (its priors and
        one line per attribute), or with ``tables`` its whole printout (a joined attribute: a row per joint value)."""
        self._check_fitted()
        names = list(self.schema_.names)
        how = "leave-one-out" if self.cv is None else "cross-validated"
        lines = [f"{type(self).__name__} ({how} {self.scoring.replace('_', ' ')} on the training data)"]
        for h in self.history_:
            lines.append(f"  step {h['step']}: {h['operator']:<8} {h['attributes']:<40} score {h['score']:.4f}")
        lines.append(f"final structure: {self.structure_.describe(names)}")
        lines.append(f"candidates evaluated: {self.n_candidates_}")
        if isinstance(self.model_, NaiveBayes):
            lines += ["", self.model_.to_text() if tables else _summary(self.model_)]
        return "\n".join(lines)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def _get_state(self):
        final = None if isinstance(self.model_, _PriorsOnly) else model_to_dict(self.model_)
        return {"structure": self.structure_.to_dict(), "history": self.history_,
                "cuts": {str(k): v.tolist() for k, v in self.cuts_.items()}, "values": self._values,
                "numeric_alone": self._numeric_alone, "n_candidates": self.n_candidates_,
                "log_prior": (self.model_.class_log_prior_.tolist() if final is None else None), "model": final}

    def _set_state(self, state):
        d, k = len(self.schema_), len(self.classes_)
        st = field(state, "structure", dict)
        groups = field(st, "groups", list, "state.structure")
        if st.get("n_attributes") != d or not all(isinstance(g, list) and g and all(
                isinstance(j, int) and 0 <= j < d for j in g) for g in groups):
            raise ValueError(f"state.structure: expected groups of attribute indices below {d}")
        try:
            self.structure_ = Structure.from_dict(st)
        except (KeyError, TypeError, ValueError, IndexError):
            raise ValueError("state.structure: expected groups and parents of the attributes") from None
        self.history_ = checked_records(state, "history", {"step": "int", "operator": "text", "attributes": "text",
                                                           "score": "number", "candidates": "int"})
        cuts = field(state, "cuts", dict)
        numeric = set(self.schema_.numeric_indices)
        if set(cuts) != {str(j) for j in numeric}:
            raise ValueError(f"state.cuts: expected the cut points of the numeric attributes "
                             f"{sorted(numeric)}, got keys {sorted(cuts)[:10]}")
        self.cuts_ = {j: checked_cuts(cuts[str(j)], f"state.cuts[{j}]") for j in sorted(numeric)}
        self._values = field(state, "values", list)
        self._numeric_alone = field(state, "numeric_alone", list)
        if len(self._values) != d or len(self._numeric_alone) != d:
            raise ValueError(f"state.values, state.numeric_alone: expected one per attribute ({d})")
        for j, (a, vals, alone) in enumerate(zip(self.schema_.attributes, self._values, self._numeric_alone)):
            want = a.n_values if a.is_nominal else self.cuts_[j].size + 1
            if not isinstance(vals, list) or len(vals) != want or not all(isinstance(v, str) for v in vals) \
                    or len({str(v) for v in vals}) != want:
                raise ValueError(f"state.values[{j}]: expected {want} distinct values of attribute {a.name!r}")
            if not isinstance(alone, bool) or (alone and a.is_nominal):
                raise ValueError(f"state.numeric_alone[{j}]: expected true or false (false for a nominal attribute)")
        n = state.get("n_candidates")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"state.n_candidates: expected a whole number >= 0, got {brief(n)}")
        self.n_candidates_ = n
        self.n_attributes_used_ = self.structure_.n_used
        if state["model"] is not None:
            self.model_ = model_from_dict(field(state, "model", dict), source="state.model")
            if list(map(str, self.model_.classes_)) != list(map(str, self.classes_)):
                raise ValueError("state.classes: expected the final model's classes (state.model.state.classes)")
            if list(self.model_.schema_.names) != self.structure_.column_names(list(self.schema_.names)):
                raise ValueError("state.model: its attributes are not the structure's")
            if state.get("log_prior") is not None:
                raise ValueError("state.log_prior: expected null beside a final model")
        else:
            self.model_ = _PriorsOnly(self.classes_, numbers(state.get("log_prior"), "state.log_prior", (k,)))


def _stats(x, y, k):
    w, mean, m2 = _moments(x, y, k)
    low, high = value_range(x[:, None])
    return {"weight": w, "mean": mean, "m2": m2, "low": low, "high": high}


def _summary(model):
    """The final Naive Bayes in brief: priors and one line per attribute."""
    prior = np.exp(model.class_log_prior_)
    lines = [f"final model: Naive Bayes, {plural(len(model.schema_), 'attribute')}, "
             f"{plural(len(model.classes_), 'class')}, "
             f"{plural(model.class_count_.sum(), 'training instance')} (to_text(tables=True), or --tables on the "
             f"command line, prints its tables)",
             "  class priors: " + ", ".join(f"{c}={p:.4f}" for c, p in zip(model.classes_, prior))]
    for comp in model.components_:
        a = model.schema_.attributes[comp.attribute]
        kind = f"nominal, {a.n_values} values" if a.is_nominal else comp.kind
        lines.append(f"  {a.name}: {kind}")
    return "\n".join(lines)
