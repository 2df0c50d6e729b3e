"""Selective kDB (Martinez, Webb, Chen and Zaidi, JMLR 2016): a kDB whose
number of attributes and k are chosen by exact leave-one-out cross-validation."""

import numpy as np

from .._validation import check_cv_or_none, discretizer_names
from .._words import plural
from ..learning.cuts import VALUES
from ..learning.engine import Given
from ..registry import register, register_variant
from ..scoring import check_scoring, gain
from ..core.structure import Structure
from .held_out import HeldOutEngine
from .kdb import KDB
from ..exceptions import ParameterError
from .._state import checked_records, field, index
from .hybrid import (HYBRIDS, children_from_engine, children_from_state, children_state, swap_normal,
                     without_children)

__all__ = ["SelectiveKDB"]


@register
class SelectiveKDB(HeldOutEngine, KDB):
    """kDB with its attributes and k chosen by leave-one-out cross-validation.

    Attributes are ordered by I(X; C) and each takes up to ``k`` parents as in
    :class:`KDB`. The candidate models are nested: the first s attributes of the
    order (s = 0 .. d), each with the first k' <= k of its parents (those of
    largest I(X_i; X_j | C)). Every candidate's leave-one-out score comes from
    one set of counts: each instance's own counts are taken out of its cells
    (the estimators' leave-one-out forms), so no model is refitted; the
    candidate of best score is kept (ties: fewer attributes, then smaller k').
    Numeric attributes are cut into intervals from all the training data first.

    Parameters
    ----------
    k : int, default 2
        The most parents an attribute may take besides the class.
    scoring : {"rmse", "log_loss", "brier", "accuracy", "balanced_accuracy"}, default "rmse"
        What the selection optimizes (:mod:`seminaive.scoring`; RMSE of the
        probabilities is SKDB's).
    cv : None, int or list of (train, test), default None
        None: leave-one-out; k >= 2: k-fold cross-validation, each fold's losses from
        the counts of the other folds (stratified random folds, ``random_state`` the seed,
        as :func:`seminaive.core.folds.stratified_folds` makes them), or the given folds,
        whose test parts partition the rows (data in memory only).
    random_state : int, default 0
        The seed of the folds, of ``order="sampled"`` and as :class:`~seminaive.bayesnet.TAN`'s.
    order : {"mi", "sampled"}, default "mi"
        As :class:`~seminaive.bayesnet.KDB`.
    numeric : str or list of str, default "mdl_fallback"
        As :class:`~seminaive.bayesnet.TAN`, or several discretizers: the selection runs under each
        one's intervals and keeps the one whose chosen candidate scores best by leave-one-out (its
        name in ``numeric_``, every one's best score in ``numeric_scores_``).
    integer_codes : {"auto", "numbers", "values", "column"}, default "auto"
        How a numeric column of at most 64 distinct values (a code, a count, a rating) is
        read: "auto" offers the selection a second candidate, in which each such column whose own
        exact leave-one-out prefers one interval per value is so read
        (:mod:`seminaive.discretize.few_values`), and keeps the one whose chosen structure scores
        better by the engine's leave-one-out (``numeric_`` ends in "+values" where that one won);
        "numbers": the discretizer's cuts always; "values": one interval per value always; "column":
        each column's own leave-one-out alone (no second selection).
    arc_score : {"cmi", "bayes"}, default "cmi"
        As :class:`~seminaive.bayesnet.KDB`, but conditional mutual information by default: on the
        benchmark's halves (``benchmarks/bench_defaults.py``, 10-fold) the Bayes score lost 0.51
        points on the tuning half and gained 0.33 on the checking half, so the halves did not agree.
    hybrid : {None, "gaussian"}, default None
        "gaussian": after the selection, a numeric attribute's table is swapped for a normal density
        in each class, or in each class and value of its first parent (shrunk toward the class's),
        where that improves the leave-one-out score (:mod:`.hybrid`; its intervals still serve as a
        parent), or added for one the selection left out; those attributes in ``gaussian_``, their
        forms in ``normal_children_`` (with discriminative weights, weighted as tables whose cells
        are the parents' values).
    selection_rows : int or None, default 1_000_000
        The most rows the selection scores its candidates on: with more rows (and ``cv=None``), the
        candidates' counts and leave-one-out scores come from the rows whose position in the data,
        hashed with ``random_state``, falls below ``selection_rows`` / rows (the same rows in memory
        and from any source: :mod:`~seminaive.bayesnet.selection_sample`), and the chosen structure's
        tables are then counted from every row. A candidate table of k parents is counted in every
        configuration met, so at k = 5 a selection on 1M rows of 20 attributes takes about 12 s and
        2 GB; on every row of 100M it would take 100 times that. A sample's counts may choose a smaller
        k' than every row's (``benchmarks/bench_selection_rows.py``: 4 against 5 on 10M rows of a network
        of five parents, 0.26 points of accuracy, the same log loss). None: every row.
    alpha, priors, n_bins, min_bucket, estimation, hdp_iterations, hdp_tying, discriminative, penalty
        As :class:`~seminaive.bayesnet.TAN` (with ``estimation="hdp"`` or ``"hgs"`` the candidates are scored
        with Lidstone's leave-one-out estimates, as the paper selects on counts, and the chosen
        structure's tables are then smoothed).

    Attributes
    ----------
    history_ : list of dict
        Every candidate: ``attributes`` (s), ``k`` (k') and its ``score``.
    n_attributes_, k_ : int
        The chosen s and k'.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> m = SelectiveKDB(k=1, scoring="accuracy").fit(load("weather.nominal"))
    >>> len(m.history_), m.n_attributes_ <= 4
    (10, True)
    """

    _selects = True
    _param_rules = {"scoring": check_scoring, "cv": check_cv_or_none, "random_state": dict(kind="int", low=0),
                              "hybrid": dict(options=HYBRIDS, allow_none=True),
                              "selection_rows": dict(kind="int", low=1, allow_none=True)}

    def __init__(self, *, k=2, scoring="rmse", cv=None, random_state=0, order="mi", arc_score="cmi", alpha=1.0, priors="laplace",
                 nominal=None, numeric="mdl_fallback",
                 integer_codes="auto", n_bins=10, min_bucket=6, estimation="frequency",
                 hdp_iterations=1000, hdp_tying="level", discriminative=None, penalty="auto", hybrid=None,
                 selection_rows=1_000_000):
        super().__init__(k=k, order=order, arc_score=arc_score, alpha=alpha, priors=priors, nominal=nominal, numeric=numeric,
                         integer_codes=integer_codes,
                         n_bins=n_bins, min_bucket=min_bucket, estimation=estimation, hdp_iterations=hdp_iterations,
                         hdp_tying=hdp_tying, random_state=random_state,
                         discriminative=discriminative, penalty=penalty)
        self.scoring = scoring
        self.cv = cv
        self.hybrid = hybrid
        self.selection_rows = selection_rows

    def _select(self, stats, engine):
        """kDB's order and parents from the pair statistics; every nested candidate (the first s
        attributes of the order, each with its first k' parents) scored through the engine, one
        path of growing models per k'; the best kept (ties: fewer attributes, then smaller k'),
        with its tables' counts."""
        self._full_parents, self.order_ = self._kdb_parents(stats)
        paths = [[Given((i,), tuple(self._full_parents[i][:kk])) for i in self.order_] for kk in range(self.k + 1)]
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = engine.score_paths(paths)
        self.history_ = [{"attributes": s, "k": kk, "score": float(scores[kk][s])}
                         for kk in range(self.k + 1) for s in range(len(self.order_) + 1)]
        best = min(self.history_, key=lambda h: (-gain(h["score"], self.scoring), h["attributes"], h["k"]))
        self.n_attributes_, self.k_ = best["attributes"], best["k"]
        chosen = sorted(range(self.n_attributes_), key=lambda pos: self.order_[pos])
        d = len(self.readers_)
        self.structure_ = Structure(tuple((self.order_[pos],) for pos in chosen), d,
                                    tuple(self._full_parents[self.order_[pos]][:self.k_] for pos in chosen))
        self.gaussian_, self.hybrid_history_, self.normal_children_, self.normal_stats_ = [], [], [], []
        terms = [paths[self.k_][pos] for pos in chosen]
        if self.hybrid:
            numeric = [i for i in range(d) if engine.attributes[i].gaussian]
            first = {i: self._full_parents[i][0] for i in numeric if self._full_parents[i]}
            normal, self.hybrid_history_ = swap_normal(engine, terms, numeric, first, self.scoring)
            terms = without_children(terms, normal)
            self.structure_ = Structure(tuple(g.child for g in terms), d, tuple(g.parents for g in terms))
            self.gaussian_ = sorted(normal)
            self.normal_children_, self.normal_stats_ = children_from_engine(engine, normal, self.readers_)
        self._make_tables()
        self._set_counts({"stats_": [{"counts": engine.dense_counts(g).sum(axis=0)} for g in terms]})
        self.class_count_ = engine.class_counts.sum(axis=0)

    # ----------------------------------------------------- the normal children
    def _children(self):
        """Each normal child with its statistics (none before a fit)."""
        return list(zip(getattr(self, "normal_children_", ()), getattr(self, "normal_stats_", ())))

    def _estimate_children(self):
        for c, st in self._children():
            c.estimate(st, self._count_estimator())

    def _estimate(self, estimator=None):
        super()._estimate(estimator)
        self._estimate_children()

    def _other_terms(self, table):
        """The normal children's log-densities, ``{attribute: (n, K)}`` (:mod:`.hybrid`)."""
        return {c.attribute: c.log_likelihood(table) for c in getattr(self, "normal_children_", ())}

    def _other_loo(self, table, y):
        est = self._count_estimator()
        return sum((c.loo_log_likelihood(st, table, y, est) for c, st in self._children()), 0.0)

    def _count(self, table, y, k, weight, columns=None):
        counts = super()._count(table, y, k, weight, columns)
        if getattr(self, "normal_children_", None):
            counts["normal_stats_"] = [c.count(table, y, k, weight) for c in self.normal_children_]
        return counts

    def _counts_added(self, a, b):
        """As the family's, the normal children's moments merged by their own rule (Chan's update)."""
        a, b = dict(a), dict(b)
        moments = a.pop("normal_stats_", None), b.pop("normal_stats_", None)
        out = super()._counts_added(a, b)
        if moments[0] is not None:
            out["normal_stats_"] = [c.merge(x, z) for c, x, z in zip(self.normal_children_, *moments)]
        return out

    def merge(self, other):
        """As :meth:`~seminaive.bayesnet.BayesNetClassifier.merge`, the normal children's moments merged too."""
        form = lambda m: [(c.attribute, [p.to_dict() for p in c.parents], c.m)  # noqa: E731
                          for c in getattr(m, "normal_children_", ())]
        if form(other) != form(self):
            raise ParameterError("merge: the models' normal children (hybrid) differ, so their statistics do not "
                                 "add; fit on the union, or fit_file / fit_dask for data in parts (exact)")
        out = super().merge(other)
        if self.normal_children_:
            out.normal_stats_ = [c.merge(a, b) for c, a, b in zip(self.normal_children_, self.normal_stats_,
                                                                    other.normal_stats_)]
            out._estimate()
        return out

    def _selection_gain(self):
        """The chosen candidate's leave-one-out score as a gain (larger is better)."""
        return max(gain(h["score"], self.scoring) for h in self.history_)

    # ------------------------------------------------------------ model files
    def _get_state(self):
        state = super()._get_state()
        state["selection"] = {"order": [int(i) for i in self.order_], "attributes": int(self.n_attributes_),
                              "k": int(self.k_), "history": self.history_, "numeric": self.numeric_}
        if self.hybrid:
            state["selection"]["hybrid_history"] = self.hybrid_history_
            state["normal_children"] = children_state(self.normal_children_, self.normal_stats_)
        return state

    def _set_other_state(self, state):
        """The normal children and their statistics (:mod:`.hybrid`), estimated."""
        self.normal_children_, self.normal_stats_ = [], []
        if self.hybrid:
            self.normal_children_, self.normal_stats_ = children_from_state(state.get("normal_children"), self.schema_,
                                                                            len(self.classes_), self.readers_)
        self.gaussian_ = sorted(c.attribute for c in self.normal_children_)
        self._estimate_children()  # the tables are estimated already

    def _set_state(self, state):
        super()._set_state(state)
        sel = field(state, "selection", dict)
        d = len(self.schema_)
        order = field(sel, "order", list, "state.selection")
        order = [index(v, f"state.selection.order[{i}]", d) for i, v in enumerate(order)]
        if sorted(order) != list(range(d)):
            raise ValueError(f"state.selection.order: expected every attribute index from 0 to {d - 1} once")
        s = index(sel.get("attributes"), "state.selection.attributes", d + 1)
        kk = index(sel.get("k"), "state.selection.k", self.k + 1)
        self.hybrid_history_ = []
        if self.hybrid:
            self.hybrid_history_ = checked_records(sel, "hybrid_history", {"attribute": "int", "parent": "int",
                                                                           "m": "number", "score": "number"},
                                                   "state.selection")
        if sorted(g[0] for g in self.structure_.groups) != sorted(a for a in order[:s] if a not in self.gaussian_):
            raise ValueError("state.selection.attributes: expected the first attributes of the order to be "
                             "the structure's (its tables' and its normal children's)")
        history = checked_records(sel, "history", {"attributes": "int", "k": "int", "score": "number"},
                                  "state.selection")
        for i, h in enumerate(history):
            index(h["attributes"], f"state.selection.history[{i}].attributes", d + 1)
            index(h["k"], f"state.selection.history[{i}].k", self.k + 1)
        self.order_, self.n_attributes_, self.k_, self.history_ = order, s, kk, history
        names = discretizer_names(self.numeric)
        self.numeric_ = sel.get("numeric", names[0])  # files written before the choice: the one discretizer
        if self.numeric_ not in [*names, *(n + VALUES for n in names)]:
            raise ValueError(f"state.selection.numeric: expected one of {', '.join(map(repr, names))} (numeric), "
                             f"got {self.numeric_!r}")

    def _structure_text(self, names):
        """The tables' structure, then each normal child: "attribute ~ normal | class, parent (m=...)"."""
        lines = [super()._structure_text(names)]
        for c in getattr(self, "normal_children_", ()):
            given = "".join(f", {names[p.attribute]}" for p in c.parents)
            lines.append(f"{names[c.attribute]} ~ normal | class{given}" + (f" (m={c.m:g})" if c.parents else ""))
        return "\n".join(lines)

    def _describe(self):
        how = "leave-one-out" if self.cv is None else ("given folds" if isinstance(self.cv, (list, tuple))
                                                       else f"{self.cv}-fold")
        return f"k={self.k}, chosen by {how} {self.scoring}: {plural(self.n_attributes_, 'attribute')}, k'={self.k_}"


register_variant("model", "skdb", "selective kDB: attributes and k chosen by leave-one-out RMSE",
                 lambda **o: SelectiveKDB(**{k: v for k, v in o.items() if k in ("alpha", "priors", "scoring")}))
register_variant("compare", "skdb", "selective kDB (k <= 2, leave-one-out RMSE)", lambda: SelectiveKDB())
