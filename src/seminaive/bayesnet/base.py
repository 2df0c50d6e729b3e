"""The shared fit of the semi-naive family: every attribute a conditional table.

A model of the family gives each attribute parents besides the class; its
joint log-likelihood is log P(c) plus, per attribute, log P(x_i | c, parents),
each a :class:`~seminaive.components.ConditionalTable` counted by the same
bincount machinery as Naive Bayes. Numeric attributes are discretized inside
``fit`` (MDL by default, equal-frequency where MDL finds no cut; any of
:mod:`seminaive.discretize` by ``numeric``),
from the training data only, so cross-validation stays honest; their
intervals then serve as values. A subclass learns the parents
(:meth:`_parents_from`); AnDE, which averages many structures, overrides the
counting and the joint log-likelihood too.
"""

from dataclasses import replace

import numpy as np

from .._names import DISCRETIZER_NAMES
from ..core.capabilities import Capabilities, capabilities
from .._target import class_codes, unwrap
from .._validation import check_discretizers, check_param, check_priors
from ..base import BaseNaiveBayes, TabularInput
from ..components import ConditionalTable, Discretized, checked_tables
from ..components.checked import checked_component
from ..discretize.few_values import CODES
from ..data.encoding import encode
from ..estimation import Frequency, class_log_prior, loo_class_log_prior
from ..estimation.family import table_estimations
from ..estimation.hdp import TYINGS, SavedTables
from ..core.structure import Structure
from .._state import checked_counts, field, numbers, plain_counts
from ..scoring import log_posteriors
from ..report import format_explanation
from ..exceptions import ChunkWarning, ParameterError
from .streamed import fit_passes
from ..learning.sources import FitFromSource, add_counts, open_chunk
from ..core.counting import count_classes
from .discriminative import DISCRIMINATIVE, LOG_LINEAR, check_penalty, discriminate, load_weights

__all__ = ["BayesNetClassifier", "DISCRETIZER_NAMES", "ChunkWarning"]

# the estimations of conditional tables (no Normal-Gamma), each declared where it is defined
ESTIMATION_NAMES = tuple(table_estimations())  # the package's own (an estimation declared outside joins later)


def check_table_estimation(name, value):
    """``value`` must name an estimation of the family's tables declared so far (the package's, or one
    declared outside it: :func:`seminaive.estimation.family.declare`)."""
    check_param(name, value, options=tuple(table_estimations()))


class BayesNetClassifier(FitFromSource, TabularInput, BaseNaiveBayes):
    """Base of TAN, kDB and AnDE (see the module's notes); not used directly.

    Examples
    --------
    >>> from seminaive import TAN
    >>> from seminaive.bayesnet import BayesNetClassifier
    >>> issubclass(TAN, BayesNetClassifier)
    True
    """

    capabilities = Capabilities(passes=True)  # fit_file and fit_dask fit it in passes over chunks (bayesnet.streamed)
    _fixed_structure = False  # its structure does not depend on the data (AnDE)
    _selects = False  # it chooses among candidate structures by their held-out scores (selective kDB)
    _weighting = LOG_LINEAR  # how its discriminative weights are fitted, folded in and kept

    _param_rules = {
        "alpha": dict(kind="number", low=0), "priors": check_priors, "numeric": lambda n, v: check_discretizers(n, v, DISCRETIZER_NAMES),
        "estimation": check_table_estimation, "integer_codes": dict(options=CODES),
        "n_bins": dict(kind="int", low=1), "min_bucket": dict(kind="int", low=1),
        "hdp_iterations": dict(kind="int", low=1), "hdp_tying": dict(options=TYINGS),
        "random_state": dict(kind="int", low=0), "discriminative": dict(options=DISCRIMINATIVE, allow_none=True),
        "penalty": check_penalty}

    def __init__(self, *, alpha=1.0, priors="laplace", nominal=None, numeric="mdl_fallback",
                 integer_codes="numbers", n_bins=10,
                 min_bucket=6, estimation="frequency", hdp_iterations=1000, hdp_tying="level", random_state=0,
                 discriminative=None, penalty="auto"):
        self.discriminative = discriminative
        self.penalty = penalty
        self.alpha = alpha
        self.estimation = estimation
        self.hdp_iterations = hdp_iterations
        self.hdp_tying = hdp_tying
        self.random_state = random_state
        self.nominal = nominal
        self.priors = priors
        self.numeric = numeric
        self.integer_codes = integer_codes
        self.n_bins = n_bins
        self.min_bucket = min_bucket

    def _capabilities(self):
        """As its class declares them; a table smoothed along its parents (HDP, HGS) has no leave-one-out form."""
        caps = type(self).capabilities
        if self.discriminative:  # weights fitted on every row at once, in passes from chunks
            return Capabilities(passes=caps.passes)
        return replace(caps, leave_one_out=False) if self._estimation().hierarchical else caps

    # ---------------------------------------------------------------- fitting
    def _learn(self, source, shared=None):
        """The family's one fit from ``source`` (in memory, a file's chunks, Dask partitions): the
        passes (:func:`~.streamed.fit_passes`; the nominal pairs' statistics from ``shared`` where an
        ensemble counted them once), then the discriminative weights, if any, on the same rows."""
        self._check_params()
        if not source.in_memory:
            if not capabilities(self).passes:
                raise ParameterError(f"{type(self).__name__}: its selection needs every row at once; fit it in "
                                     f"memory (TAN, KDB, AnDE and AODE fit from chunks)")
            if self.get_params(deep=False).get("cv") is not None:
                raise ParameterError("cv: a selection from chunks is by leave-one-out (cv=None); k-fold selection "
                                     "needs the rows in memory")
        fit_passes(source.settle(self), source, shared)
        if self.discriminative:
            discriminate(self, source)
        return self

    def _set_parents(self, parents):
        d = len(parents)
        self.structure_ = Structure(tuple((i,) for i in range(d)), d, tuple(tuple(p) for p in parents))
        self._make_tables()

    def _make_tables(self):
        """The tables of the structure (from ``readers_`` and ``structure_``)."""
        r, s = self.readers_, self.structure_
        self.tables_ = checked_tables([ConditionalTable(g[0], r[g[0]], [r[p] for p in s.parents_of(i)])
                                       for i, g in enumerate(s.groups)], len(self.classes_), type(self).__name__)

    def _count_shapes(self):
        """The shape of every count array, by name (nested as the counts are)."""
        k = len(self.classes_)
        return {"stats_": [(k, t.n_configs + 1, t.n_values) for t in self.tables_]}

    # ------------------------------------------------------------ model files
    def _get_state(self):
        state = {"class_count": self.class_count_.tolist(), "readers": [r.to_dict() for r in self.readers_],
                 "structure": self.structure_.to_dict(),
                 "counts": {name: plain_counts(c) for name, c in self._file_counts().items()}}
        if self._estimation().hierarchical:  # the smoothed tables, so that loading does not smooth again
            state[f"{self.estimation}_tables"] = [t.log_table_.tolist() for t in self._all_tables()]
        if self.discriminative:
            state["weights"] = None if self.weights_ is None else self._weighting.state(self.weights_)
        return state

    def _file_counts(self):
        """The counts as a model file holds them (:meth:`_count_shapes`), by name."""
        return {name: getattr(self, name) for name in self._count_names()}

    def _all_tables(self):
        """Every conditional table, in the order :meth:`_estimate` estimates them."""
        return list(self.tables_)

    def _set_state(self, state):
        k, d = len(self.classes_), len(self.schema_)
        self.class_count_ = numbers(state.get("class_count"), "state.class_count", (k,), low=0)
        readers = field(state, "readers", list)
        if len(readers) != d:
            raise ValueError(f"state.readers: expected one per attribute ({d}), got {len(readers)}")
        self.readers_ = []
        for i, (a, rd) in enumerate(zip(self.schema_.attributes, readers)):
            block = self.schema_.nominal_indices if a.is_nominal else self.schema_.numeric_indices
            self.readers_.append(checked_component(rd, f"state.readers[{i}]", i, block.index(i),
                                                   a.n_values if a.is_nominal else None,
                                                   ("categorical",) if a.is_nominal else ("discretized",)))
        st = field(state, "structure", dict)
        try:
            self.structure_ = Structure.from_dict(st)
            groups = self.structure_.groups
            ok = self.structure_.n_attributes == d and all(len(g) == 1 and 0 <= g[0] < d for g in groups) and all(
                0 <= p < d and p != g[0] for i, g in enumerate(groups) for p in self.structure_.parents_of(i))
        except (KeyError, TypeError, ValueError, IndexError):
            ok = False
        if not ok:
            raise ValueError("state.structure: expected the groups and parents of every attribute")
        self._make_tables()
        counts = field(state, "counts", dict)
        shapes = self._count_shapes()
        self._set_counts({name: checked_counts(counts.get(name), shapes[name], f"state.counts.{name}")
                          for name in self._count_names()})
        if self._estimation().hierarchical:  # the file's smoothed tables, handed to the tables in order
            key = f"{self.estimation}_tables"
            saved = SavedTables(field(state, key, list), f"state.{key}")
            self._estimate(saved)
            saved.check_used()
        else:
            self._estimate()
        self._set_other_state(state)
        if self.discriminative:
            load_weights(self, state)

    def _set_other_state(self, state):  # what a subclass keeps beside the tables (before the weights on it)
        pass

    def _count(self, table, y, k, weight, columns=None):
        """The statistics of a table under the fitted structure, by name (from ``columns``, every
        reader's codes of ``table``, when the caller has them)."""
        columns = [r.codes(table) for r in self.readers_] if columns is None else columns  # each read once
        return {"stats_": [t.count_columns(columns, y, k, weight) for t in self.tables_]}

    def _count_names(self):
        return ("stats_",)

    def _set_counts(self, counts):
        for name, value in counts.items():
            setattr(self, name, value)

    def _added(self, counts):
        """The model's statistics plus ``counts`` (of the same structure)."""
        return self._counts_added({name: getattr(self, name) for name in counts}, counts)

    def _counts_added(self, a, b):
        """Two parts' statistics together, by name (of the model's structure)."""
        return {name: add_counts(a[name], b[name]) for name in a}

    @property
    def partial_fit(self):
        """:meth:`_partial_fit`, except with discriminative weights (fitted on every row at once: then
        not offered, so that ``hasattr(model, "partial_fit")`` is False, as scikit-learn's tools ask)."""
        if self.discriminative:
            raise AttributeError("partial_fit: not offered with discriminative weights (fitted on every row at "
                                 "once); fit on all the rows")
        return self._partial_fit

    def _partial_fit(self, X, y=None, classes=None, sample_weight=None):
        """Add a chunk to the counts. The first call fixes the schema, the classes
        (``classes`` must list them, unless ``y`` is a categorical declaring
        them), the intervals of numeric attributes and the structure, all from
        that chunk, and a :class:`ChunkWarning` says which; later chunks add counts
        (for AnDE on nominal data, whose structure does not depend on the data, any
        sequence of chunks equals one fit on their union when the values are
        declared up front).
        """
        first = not hasattr(self, "stats_")
        source = open_chunk(self, X, y, classes, sample_weight, first)
        if first:  # the first chunk fitted as the data in memory are
            self._warn_first_chunk()
            return fit_passes(self, source)
        table, ycodes, weight = source.chunk
        k = len(self.classes_)
        self._set_counts(self._added(self._count(table, ycodes, k, weight)))
        self.class_count_ = self.class_count_ + count_classes(ycodes, k, weight)
        self._estimate()
        return self

    def _warn_first_chunk(self):
        """Say what a first ``partial_fit`` chunk fixes for good, so that no difference from one fit is silent."""
        import warnings
        fixed = [] if self._fixed_structure else ["the structure"]
        numeric = [a.name for a in self.schema_.attributes if not a.is_nominal]
        if numeric:
            fixed.append("the intervals of " + ", ".join(map(repr, numeric[:5])) + (" ..." if len(numeric) > 5 else ""))
        if fixed:
            warnings.warn(f"partial_fit: {' and '.join(fixed)} are learned from this first chunk alone, so the model "
                          f"can differ from one fit on all the data; fit_file or fit_dask learn them from every "
                          f"chunk (exact)", ChunkWarning, stacklevel=3)

    def _parents_from(self, stats):  # pragma: no cover - abstract
        """Each attribute's parents, from :func:`~.statistics.pair_statistics` counts."""
        raise NotImplementedError

    def _estimation(self):
        """The :class:`~seminaive.estimation.family.TableEstimation` that ``estimation`` names."""
        return table_estimations()[self.estimation]

    def _estimator(self):
        """How every table's counts become probabilities: the estimation ``estimation`` names, from
        the model's options (:mod:`seminaive.estimation.family`: Lidstone's (count + alpha) / (n +
        alpha m), the m-estimate, HDP, HGS, HLS)."""
        return self._estimation().make(self)

    def _count_estimator(self):
        """The estimator of the held-out scores (leave-one-out, k-fold): the model's own, except that
        a hierarchical estimator, which has no held-out form, scores with Lidstone's."""
        return Frequency(alpha=self.alpha) if self._estimation().hierarchical else self._estimator()

    def _estimate(self, estimator=None):
        """Every table's estimate, by ``estimator`` (default: the model's own, :meth:`_estimator`)."""
        self.class_log_prior_ = class_log_prior(self.class_count_, self.priors)
        est = self._estimator() if estimator is None else estimator
        for t, s in zip(self.tables_, self.stats_):
            t.estimate(s, est)

    # ------------------------------------------------------------- predicting
    def _joint_log_likelihood(self, X):
        return self._tables_sum(self._encode(X))

    def _tables_sum(self, table):
        """log P(c) plus every table's log-likelihood, (n, K), for an encoded table."""
        jll = np.empty((table.n_samples, len(self.classes_)))
        jll[:] = self.class_log_prior_
        columns = {}
        for t in self.tables_:  # each attribute's codes read (its intervals found) once for all its tables
            t.columns(table, columns)
        with np.errstate(invalid="ignore"):
            for t in self.tables_:
                jll += t.log_likelihood_columns(columns, table.n_samples)
        for part in self._other_terms(table).values():
            jll += part
        return jll

    def _other_terms(self, table):  # terms beside the tables, {attribute: (n, K)} (selective kDB's normal children)
        return {}

    def _other_loo(self, table, y):  # their leave-one-out sum, (n, K)
        return 0.0

    def _loo_log_proba(self, X, y):
        """Leave-one-out log-posteriors (n, K) of the training rows ``X``, ``y`` (unweighted):
        each row's own counts out of the class counts and of every table's cells, the structure
        and the intervals held as learned from all the rows."""
        if self._estimation().hierarchical:
            raise ParameterError(f"estimation: {self.estimation!r} has no leave-one-out posteriors (its tables are "
                                 f"smoothed together); "
                                 "calibrate with cv=k folds")
        X, y = unwrap(X, y)
        table = encode(X, self.schema_)
        ycodes = class_codes(y, self.classes_)
        est = self._estimator()
        with np.errstate(divide="ignore", invalid="ignore"):
            prior = loo_class_log_prior(self.class_count_, ycodes, self.priors)
            S = prior.copy()
            for t, st in zip(self.tables_, self.stats_):
                S += t.loo_log_likelihood(st, table, ycodes, est)
            S += self._other_loo(table, ycodes)
        return log_posteriors(S, prior)

    def attribute_log_likelihoods(self, X):
        """log P(x_i | c, parents) of every instance and attribute, shape (n, n_attributes,
        n_classes); with ``class_log_prior_`` they sum to the joint log-likelihood (missing
        or unseen values and left-out attributes give 0)."""
        self._check_fitted()
        table = self._encode(X)
        out = np.zeros((table.n_samples, len(self.schema_), len(self.classes_)))
        with np.errstate(invalid="ignore"):
            for t in self.tables_:
                out[:, t.attribute] = t.log_likelihood(table)
        for a, part in self._other_terms(table).items():
            out[:, a] = part
        return out

    def explain(self, X, precision=3):
        """Per instance: the predicted class and each attribute's share of its log-odds
        against the runner-up (its term given its parents)."""
        return format_explanation(self, X, precision)

    # ---------------------------------------------------------------- merging
    def merge(self, other):
        """A new model fitted on the union of both models' data, for two models
        with the same parameters, schema, intervals and structure: the counts add."""
        import copy
        if self.discriminative:
            raise ParameterError("merge: discriminative weights do not add; fit one model on the union of the data")
        self._check_mergeable(other)
        if other.schema_ != self.schema_ or other.structure_ != self.structure_ or \
                [r.to_dict() for r in other.readers_] != [r.to_dict() for r in self.readers_]:
            what = ("schema" if other.schema_ != self.schema_ else "structure" if other.structure_ != self.structure_
                    else "intervals of the numeric attributes (each model cut them from its own data)")
            raise ParameterError(f"merge: the models' {what} differ, so their counts do not add; fit on the union, "
                                 f"or fit_file / fit_dask for data in parts (exact)")
        out = copy.deepcopy(self)
        out._set_counts(self._added({name: getattr(other, name) for name in self._count_names()}))
        out.class_count_ = self.class_count_ + other.class_count_
        out._estimate()
        return out

    # --------------------------------------------------------------- printing
    def to_text(self, precision=4):
        """The structure ("attribute <- class, parents"), the intervals of the
        numeric attributes and the class priors."""
        self._check_fitted()
        names = list(self.schema_.names)
        lines = [f"{type(self).__name__} ({self._describe()}; {self._smoothing_text()})", "",
                 self._structure_text(names)]
        cut = [(names[r.attribute], r.labels) for r in self.readers_ if isinstance(r, Discretized)]
        if cut:
            lines += ["", f"numeric attributes in intervals ({getattr(self, 'numeric_', self.numeric)}):"]
            lines += [f"  {n}: {', '.join(labels)}" for n, labels in cut]
        prior = np.exp(self.class_log_prior_)
        lines += ["", "class priors: " + ", ".join(f"{c}={p:.{precision}f}" for c, p in zip(self.classes_, prior))]
        return "\n".join(lines)

    def _describe(self):
        return "structure learned from the data"

    def _smoothing_text(self):  # how the printout names the tables' estimates
        return self._estimation().describe(self)

    def _structure_text(self, names):
        """Each attribute and its parents: "attribute <- class, parents"."""
        return self.structure_.to_text(names)
