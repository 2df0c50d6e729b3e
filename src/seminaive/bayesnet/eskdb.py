"""Ensembles of selective kDB (Zhang, Petitjean and Buntine, "Bayesian network
classifiers using ensembles and smoothing", Knowledge and Information Systems 2020).

Each member is a :class:`~seminaive.bayesnet.SelectiveKDB` on the same rows:
the first orders its attributes by I(X; C), the others draw their orders in
proportion to it (``order="sampled"``); each cuts numeric attributes by the
stochastic MDL discretization, selects its attributes and k by leave-one-out
RMSE and smooths its tables along their parents (by hierarchical gradient
smoothing by default, the paper's hierarchical Dirichlet process as an option),
all seeded by its own seed; the ensemble averages the members' posteriors. The members are
fitted alone in memory (in parallel with ``n_jobs``); from chunks (files, Parquet, Dask, DuckDB,
Spark) the members after the first read their passes together, as many at a time as memory
holds, each getting what its own pass would have given, so the ensemble is exactly the
average of members fitted by themselves wherever the data are. With more rows than
``selection_rows`` each member scores its candidates on its own drawn rows (gathered in the
shared passes, scored in memory one member at a time) and counts its tables from every row.
"""

import copy
import functools

import numpy as np
from scipy.special import logsumexp

from .._memory import check_memory, machine_memory
from .._progress import step
from .._seeds import SEED_LIMIT, derived_seed
from .._words import plural
from .._state import field, numbers
from .._validation import ParameterError, discretizer_names
from ..base import BaseNaiveBayes, TabularInput
from ..core.capabilities import Capabilities
from ..registry import register, register_variant
from ..scoring import check_scoring
from ..estimation.hdp import TYINGS
from .base import BayesNetClassifier
from ..estimation.family import table_estimations
from .skdb import SelectiveKDB
from .hybrid import HYBRIDS
from .statistics import ARC_SCORES
from .streamed import shared_counts
from ..learning.cuts import VALUES
from ..learning.shared_passes import SharedPasses
from ..learning.sources import FitFromSource

__all__ = ["ESKDB", "PRESETS"]

PRESETS = {
    # the authors' published runs (Zhang, Petitjean and Buntine 2020; their code's command line
    # "-S ESKDB -K 5 -I 1000 -L 2 -E 20" with MDL intervals): 20 members, k <= 5, selection by
    # leave-one-out RMSE, stochastic MDL cuts, HDP tables with 1000 Gibbs sweeps and one
    # concentration per level, class prior m-estimated (m = 1)
    "paper": dict(n_estimators=20, k=5, scoring="rmse", numeric="mdl_stochastic", estimation="hdp",
                  hdp_iterations=1000, hdp_tying="level", priors="m-estimate", arc_score="cmi",
                  discriminative=None),
    # k <= 2 with discriminative weights per cell (benchmarks/bench_rival.py, 10-fold: 88.21%,
    # log loss 0.280, in 6.5x the forest's fit time)
    "discriminative": dict(k=2, discriminative="parameter"),
    # the most accurate ensemble measured: the discriminative one with normal children (88.41%, log
    # loss 0.277, both halves better than "discriminative", in 2.6x its fit time)
    "accurate": dict(k=2, discriminative="parameter", hybrid="gaussian"),
}


def _fit_member(member, source, shared=None):
    """A member fitted from ``source`` by the family's one fit (the nominal pairs' statistics from
    ``shared``, counted once for all the members), its discriminative weights too."""
    return member._learn(source, shared=shared)


def _group_size(first):
    """How many members read each pass together: as many as a quarter of the machine's memory holds
    at ten times the statistics the first member's selection counted across passes (measured at 6 to 10
    times: the statistics, a chunk's part of them, the counting threads' copies, the scores' arrays), and
    twice the rows it drew where it selected on a sample (the sample and its gathering's copy); at least one."""
    total = machine_memory()
    each = max(10 * getattr(first, "_counted_bytes", 0) + 2 * getattr(first, "_sample_bytes", 0), 1 << 20)
    return max(1, int(total / 4 // each)) if total else 1


def _in_groups(members, source, shared, size):
    """The members fitted from ``source`` ``size`` at a time, each group's passes read together
    (:class:`~seminaive.learning.shared_passes.SharedPasses`); yields them in order."""
    for start in range(0, len(members), size):
        group = members[start:start + size]
        yield from SharedPasses(source).run([functools.partial(_fit_member, m, shared=shared) for m in group])


_MEMBER_PARAMETERS = frozenset(SelectiveKDB._get_param_names())  # the ensemble's parameters its members take


@register
class ESKDB(FitFromSource, TabularInput, BaseNaiveBayes):
    """An ensemble of selective kDBs on sampled attribute orders, stochastic intervals and
    hierarchically smoothed tables, whose posteriors are averaged (see the module's notes).

    Parameters
    ----------
    n_estimators : int, default 20
        The members.
    k : int, default 5
        The most parents a member's attribute may take besides the class (each member
        chooses its own k' <= k and its attributes).
    scoring : str, default "rmse"
        What each member's selection optimizes (:class:`~seminaive.bayesnet.SelectiveKDB`).
    numeric : str or list of str, default "mdl_stochastic"
        How each member cuts numeric attributes (a drawn discretizer takes the member's seed); with
        several, each member runs its selection under each and keeps the discretizer whose chosen
        candidate scores best by leave-one-out (:class:`~seminaive.bayesnet.SelectiveKDB`).
    integer_codes : {"auto", "numbers", "values", "column"}, default "auto"
        How a numeric column of at most 64 distinct values is read by each member
        (:class:`~seminaive.bayesnet.SelectiveKDB`): "auto" offers its selection the columns whose own
        leave-one-out prefers one interval per value, kept where the chosen structure scores better;
        the first member's selection decides, and the others read each column by its own leave-one-out
        where it kept them ("column"), by its numbers where it did not (one selection, not two, each).
    estimation : {"hgs", "hdp", "hls", "frequency", "m-estimate"}, default "hgs"
        The members' tables (:class:`~seminaive.bayesnet.TAN`): hierarchical gradient smoothing
        (:class:`~seminaive.estimation.HGS`), or the paper's hierarchical Dirichlet process. Over
        the 23 sets of ``benchmarks/bench_rival.py`` (10-fold) the two gave the same accuracy
        (87.71% and 87.59%) and log loss (0.2955 and 0.2957), and HGS fitted in 44% less time
        (letter: 21.6 s per fold against 45.4 s).
    hdp_iterations : int, default 100
        With ``estimation="hdp"``: Gibbs sweeps per table (fewer than a single model's 1000: the
        members' average smooths the sampler's noise; 100 and 500 sweeps gave the same accuracy
        and log loss to 0.002 on german, heart, led7digit, vehicle, sonar and iris, 5-fold).
    hdp_tying : {"auto", "level", "single", "parent", "none"}, default "auto"
        Which nodes of a table's hierarchy share a concentration (``"hdp"`` and ``"hgs"``), as
        :class:`~seminaive.bayesnet.KDB`'s; ``"auto"``: ``"none"`` for HGS (untied, as measured above)
        and ``"level"`` for the HDP (the paper's). (None, which model files of earlier versions hold,
        means ``"auto"``.)
    random_state : int, default 0
        The ensemble's seed; member i takes a seed drawn from it.
    n_jobs : int or None, default None
        Members fitted in parallel (joblib; None: one at a time).
    hybrid : {None, "gaussian"}, default None
        The members' Gaussian children (:class:`SelectiveKDB`): each member swaps a numeric
        attribute's table for a normal density per class where its leave-one-out score improves.
    selection_rows : int or None, default 1_000_000
        The most rows each member's selection scores on (:class:`~seminaive.bayesnet.SelectiveKDB`;
        each member its own rows, drawn by its seed), its tables counted from every row.
    alpha, priors, nominal, n_bins, min_bucket, discriminative, penalty
        As :class:`~seminaive.bayesnet.TAN` (alpha: the selection's leave-one-out estimates).
    arc_score : {"cmi", "bayes"}, default "cmi"
        What chooses the members' parents (:class:`~seminaive.bayesnet.KDB`). The Bayes score gave
        the same accuracy on the benchmark's halves (87.03% against 87.02% tuning, 88.39% against
        88.46% checking, 10-fold) with a log loss lower by 0.002-0.003: not a change both halves
        agree on, so the default stays.

    Attributes
    ----------
    estimators_ : list of SelectiveKDB
        The fitted members (member 0 on the order by mutual information).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = ESKDB(n_estimators=3, k=2, hdp_iterations=50).fit(d)
    >>> [e.order for e in m.estimators_]
    ['mi', 'sampled', 'sampled']
    >>> bool(np.allclose(m.predict_proba(d.X), np.mean([e.predict_proba(d.X) for e in m.estimators_], axis=0)))
    True
    """

    capabilities = Capabilities(passes=True)  # fit_file and fit_dask fit every member in passes
    _param_rules = {**BayesNetClassifier._param_rules,  # the members' own parameters
                              "n_estimators": dict(kind="int", low=1), "k": dict(kind="int", low=0),
                              "scoring": check_scoring, "hdp_tying": dict(options=TYINGS + ("auto",), allow_none=True),
                              "n_jobs": dict(kind="int", allow_none=True),
                              "arc_score": dict(options=ARC_SCORES),
                              "hybrid": dict(options=HYBRIDS, allow_none=True),
                              "selection_rows": dict(kind="int", low=1, allow_none=True)}  # and the family's discriminative, penalty

    def __init__(self, *, n_estimators=20, k=5, scoring="rmse", numeric="mdl_stochastic", estimation="hgs",
                 hdp_iterations=100, hdp_tying="auto", random_state=0, n_jobs=None, alpha=1.0, priors="laplace",
                 nominal=None, n_bins=10, min_bucket=6, discriminative=None, penalty="auto", arc_score="cmi",
                 hybrid=None, integer_codes="auto", selection_rows=1_000_000):
        self.selection_rows = selection_rows
        self.integer_codes = integer_codes
        self.arc_score = arc_score
        self.hybrid = hybrid
        self.discriminative = discriminative
        self.penalty = penalty
        self.n_estimators = n_estimators
        self.k = k
        self.scoring = scoring
        self.numeric = numeric
        self.estimation = estimation
        self.hdp_iterations = hdp_iterations
        self.hdp_tying = hdp_tying
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.alpha = alpha
        self.priors = priors
        self.nominal = nominal
        self.n_bins = n_bins
        self.min_bucket = min_bucket

    @classmethod
    def preset(cls, name, **params):
        """An unfitted ESKDB with the parameters of a named preset (:data:`PRESETS`), then ``params``.

        ``"paper"``: the published ensemble (the authors' settings: 20 members, k <= 5, RMSE
        selection, stochastic MDL intervals, HDP tables with 1000 sweeps tied per level, m-estimated
        class prior); ``"discriminative"``: k <= 2 with discriminative weights per cell;
        ``"accurate"``: those weights and normal children (``hybrid="gaussian"``), the most accurate
        measured, at 2.6 times the discriminative one's fit time.

        Examples
        --------
        >>> m = ESKDB.preset("paper", n_jobs=2)
        >>> m.estimation, m.hdp_iterations, m.hdp_tying, m.priors, m.n_jobs
        ('hdp', 1000, 'level', 'm-estimate', 2)
        """
        if name not in PRESETS:
            raise ParameterError(f"preset: expected one of {', '.join(map(repr, PRESETS))}, got {name!r}")
        return cls(**{**PRESETS[name], **params})

    def _member(self, i, penalty=None, codes=None):
        """Member i, unfitted: its seed drawn from the ensemble's, its order by I(X; C) for the first;
        discriminative as the ensemble, with ``penalty`` after the first (None: generative); reading
        integer codes as ``codes`` says (None: as the ensemble)."""
        seed = derived_seed(self.random_state, i) % SEED_LIMIT
        weights = dict(discriminative=self.discriminative, penalty=self.penalty) if i == 0 else \
            dict(discriminative=self.discriminative if penalty is not None else None,
                 penalty=penalty if penalty is not None else "auto")
        own = {k: v for k, v in self.get_params(deep=False).items() if k in _MEMBER_PARAMETERS}  # as the ensemble
        return SelectiveKDB(**{**own, **weights, "random_state": seed, "order": "mi" if i == 0 else "sampled",
                               "hdp_tying": self._tying(),
                               "integer_codes": self.integer_codes if codes is None else codes})

    def _tying(self):
        """The members' tying: as given, else (``"auto"``) each smoothing's own for an ensemble (see ``hdp_tying``)."""
        if self.hdp_tying not in (None, "auto"):
            return self.hdp_tying
        return "none" if self.estimation == "hgs" else "level"

    def _check_size(self, first):
        """Refuse, after the first member, an ensemble whose members cannot be held: each member's
        tables about as large as the first's (measured), times ``n_estimators``."""
        size = max(sum(np.asarray(c).nbytes for st in first.stats_ for c in st.values()), 1 << 12)
        check_memory(3 * size * self.n_estimators, f"ESKDB's {self.n_estimators:,} members (about {size / 1024:,.0f} "
                                                    f"KB of tables each, as the first)", "fewer members (n_estimators)")

    def _learn(self, source):
        """Every member fitted from ``source`` (the first alone, to bound the memory the rest need;
        the rest on ``n_jobs`` processes in memory, and from chunks in shared passes: each pass read
        once for as many members as memory holds, :func:`_in_groups`), in order; what every member
        counts alike (the pairs of nominal attributes, the numeric values by class their cuts are learned
        from) counted once for all of them (one pass) and shared."""
        from joblib import Parallel, delayed
        self._check_params()
        source.settle(self)
        shared = shared_counts(source, self.schema_, self.classes_, self.arc_score) if self.n_estimators > 1 else None
        first = _fit_member(self._member(0), source, shared)
        self._check_size(first)
        if self.discriminative:  # the rest take the penalty the first chose (none: no weights)
            self.penalty_ = first.penalty_
        step("ESKDB members", 1, self.n_estimators)
        self.estimators_ = [first]
        codes = None  # the first's selection confirmed the columns' own choice, or not: the rest follow it
        if self.integer_codes == "auto":
            codes = "column" if first.numeric_.endswith(VALUES) else "numbers"
        members = [self._member(i, getattr(self, "penalty_", None), codes) for i in range(1, self.n_estimators)]
        if source.in_memory:
            rest = Parallel(n_jobs=self.n_jobs, return_as="generator")(
                delayed(_fit_member)(m, source, shared) for m in members)
        else:
            rest = _in_groups(members, source, shared, _group_size(first))
        for member in rest:
            self.estimators_.append(member)
            step("ESKDB members", len(self.estimators_), self.n_estimators)
        return self

    def _joint_log_likelihood(self, X):
        """log of the members' averaged posteriors, combined in log space (a normalized joint:
        predict_proba gives the average): a posterior too small for a float in every member stays a
        finite logarithm, and a class every member rules out is -inf (the base's one rule decides)."""
        self._check_fitted()
        logs = np.stack([m.predict_log_proba(X) for m in self.estimators_])
        return logsumexp(logs, axis=0) - np.log(len(self.estimators_))

    @property
    def class_log_prior_(self):
        """log of the members' averaged class priors (what a row every member rules out takes)."""
        return logsumexp(np.stack([m.class_log_prior_ for m in self.estimators_]), axis=0) - np.log(
            len(self.estimators_))

    def explain(self, X, member=0, precision=3):
        """A member's explanation (:meth:`SelectiveKDB.explain`): each attribute's share of that
        member's log-odds; the average of posteriors has no such decomposition."""
        self._check_fitted()
        return self.estimators_[member].explain(X, precision)

    # ------------------------------------------------------------ model files
    def _get_state(self):
        state = {"members": [m._get_state() for m in self.estimators_]}
        if self.discriminative:  # the penalty the first member chose, which the others took (null: no weights)
            state["penalty"] = self.penalty_
        return state

    def _set_state(self, state):
        states = field(state, "members", list)
        if len(states) != self.n_estimators:
            raise ValueError(f"state.members: expected {self.n_estimators} (n_estimators), got {len(states)}")
        if self.discriminative:  # the members after the first are weighted as they were fitted: with its penalty
            if "penalty" not in state:
                raise ValueError("state.penalty: expected the members' penalty, or null where none was kept")
            penalty = state["penalty"]
            if penalty is not None:
                penalty = float(numbers(penalty, "state.penalty", (), low=0))
            self.penalty_ = penalty
        self.estimators_ = []
        for i, st in enumerate(states):
            m = self._member(i, getattr(self, "penalty_", None))
            m.classes_, m.schema_, m.n_features_in_ = self.classes_, self.schema_, self.n_features_in_
            if hasattr(self, "feature_names_in_"):
                m.feature_names_in_ = self.feature_names_in_
            if not isinstance(st, dict):
                raise ValueError(f"state.members[{i}]: expected an object (a member's state)")
            try:
                m._set_state(st)
            except ValueError as e:
                raise ValueError(f"state.members[{i}].{str(e).removeprefix('state.')}") from None
            self.estimators_.append(m)

    # --------------------------------------------------------------- printing
    def to_text(self, precision=4):
        """The ensemble, then each member's choice: attributes, k', its first attributes in order."""
        self._check_fitted()
        names = list(self.schema_.names)
        shown = copy.copy(self)  # the ensemble's options with the tying its members take
        shown.hdp_tying = self._tying()
        smoothing = table_estimations()[self.estimation].describe(shown)
        numeric = " or ".join(discretizer_names(self.numeric))
        lines = [f"ESKDB ({self.n_estimators} selective kDBs, k <= {self.k}, {numeric} intervals, {smoothing}; "
                 f"posteriors averaged)", ""]
        for i, m in enumerate(self.estimators_):
            head = ", ".join(names[j] for j in m.order_[:m.n_attributes_][:6])
            more = " ..." if m.n_attributes_ > 6 else ""
            chose = "" if len(discretizer_names(self.numeric)) == 1 else f", {m.numeric_} intervals"
            normal = f"; normal: {', '.join(names[j] for j in m.gaussian_)}" if self.hybrid and m.gaussian_ else ""
            lines.append(f"member {i} ({m.order} order): {plural(m.n_attributes_, 'attribute')}, k'={m.k_}{chose}: "
                         f"{head}{more}"
                         f"{normal}")
        prior = np.mean([np.exp(m.class_log_prior_) for m in self.estimators_], axis=0)
        lines += ["", "class priors: " + ", ".join(f"{c}={p:.{precision}f}" for c, p in zip(self.classes_, prior))]
        return "\n".join(lines)


register_variant("model", "eskdb", "ensemble of selective kDBs (sampled orders, stochastic MDL, smoothed tables)",
                 lambda **o: ESKDB(**{k: v for k, v in o.items() if k in ("alpha", "priors", "scoring")}))
register_variant("compare", "eskdb", "ensemble of 20 selective kDBs (k <= 5, HGS tables)", lambda: ESKDB())
register_variant("model", "eskdb-paper", "ESKDB with the published settings (HDP tables, 1000 sweeps)",
                 lambda **o: ESKDB.preset("paper", **{k: v for k, v in o.items() if k in ("alpha", "scoring")}))
register_variant("compare", "eskdb-paper", "ESKDB with the published settings (HDP tables, 1000 sweeps)",
                 lambda: ESKDB.preset("paper"))
register_variant("model", "eskdb-hybrid", "ESKDB whose members take Gaussian children where leave-one-out does",
                 lambda **o: ESKDB(hybrid="gaussian", **{k: v for k, v in o.items() if k in ("alpha", "priors", "scoring")}))
register_variant("compare", "eskdb-hybrid", "ESKDB with Gaussian children chosen by the members' leave-one-out",
                 lambda: ESKDB(hybrid="gaussian"))
register_variant("model", "eskdb-accurate", "ESKDB k <= 2 with discriminative weights and normal children",
                 lambda **o: ESKDB.preset("accurate", **{k: v for k, v in o.items() if k in ("alpha", "priors", "scoring")}))
register_variant("compare", "eskdb-accurate", "ESKDB k <= 2 with discriminative weights and normal children",
                 lambda: ESKDB.preset("accurate"))
