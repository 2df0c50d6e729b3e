"""Naive Bayes for nominal, numeric and mixed attributes in one model."""

import copy

import numpy as np

from ._target import encode_target, fit_input, unwrap
from ._validation import check_bandwidth, check_prior_dict, check_prior_names, check_priors
from .base import BaseNaiveBayes, TabularInput
from .core.capabilities import Capabilities, capabilities
from .learning.chunk_fit import naive_bayes_passes
from .learning.sources import open_chunk, open_source
from .learning.leave_one_out import naive_bayes_loo
from .components import VAR_SMOOTHING_RULES, count_components
from .components.categorical_block import CategoricalBlock
from .components.gaussian_block import GaussianBlock
from .components.held_block import HeldBlock, count_blocks
from .components.make import make_components
from .components.checked import checked_components
from .data.encoding import as_columns, encode, refuse_infinite
from .data.int_block import block_counts, block_width
from .data.schema import Schema, resolve_columns
from .estimation import PRIOR_KEYS, check_estimation, class_log_prior, make_estimator
from .exceptions import ParameterError
from ._names import NUMERIC_MODELS as _NUMERIC_MODELS
from .discretize.few_values import CODES
from ._state import field as _field, numbers as _numbers
from .registry import register, register_variant
from .report import format_explanation, format_model
from .core.counting import count_classes

__all__ = ["NaiveBayes", "NUMERIC_MODELS"]

NUMERIC_MODELS = _NUMERIC_MODELS  # Gaussian, kernel and the discretizers (a test holds them equal)


@register
class NaiveBayes(HeldBlock, TabularInput, BaseNaiveBayes):
    """Naive Bayes over nominal (categorical) and numeric (Gaussian) attributes.

    Parameters
    ----------
    alpha : float, default 1
        Smoothing of nominal attributes: P(v | c) = (count + alpha) / (n_c + alpha * m)
        where ``n_c`` counts the class's instances whose value is present and ``m``
        the attribute's values. 1 is the Laplace correction; 0 is maximum likelihood.
    priors : {"laplace", "mle", "uniform", "m-estimate"} or array-like, default "laplace"
        Class priors: (n_c + 1) / (N + K) as in the J implementation, n_c / N,
        1 / K, or given probabilities in the order of ``classes_``.
    ddof : {0, 1}, default 1
        Gaussian variance divisor n - ddof; 1 (the sample variance) as in the
        documents' worked examples, 0 as in scikit-learn's GaussianNB.
    var_smoothing : float or None, default None
        Added to every Gaussian variance as a fraction of a spread (see
        ``var_smoothing_rule``), so that an attribute that is constant within
        a class does not give an infinite density; None: the rule's own
        fraction (1e-6 of the squared range, 1e-9 for the other rules). 0 adds
        nothing: a class whose values are all equal is then a point mass
        (probability 0 away from its value, 1 at it).
    var_smoothing_rule : {"range", "attribute", "largest"}, default "range"
        "range": a fraction of the square of the attribute's range (largest
        less smallest training value), so that predictions do not change when
        any attribute's units do, while nearly constant attributes (digits'
        border pixels) get a floor of their resolution rather than of their
        tiny variance (:func:`~seminaive.components.variance_floor`; the range
        adds over chunks and merges, held as learned from all the data in
        leave-one-out). "attribute": a fraction of the attribute's own variance over all
        classes, so that predictions do not change when any attribute's units
        do (an attribute with one value everywhere: of that value squared, or
        ``var_smoothing`` itself when it is 0). "largest": of the largest
        variance among the numeric attributes, scikit-learn's GaussianNB rule
        (one attribute's units then reach the others' models).
    nominal : None, "all" or list of column names or indices
        Columns to treat as nominal. By default object, string, category and
        bool columns are nominal and numeric ones Gaussian.
    numeric : {"gaussian", "kernel", "equal_width", "equal_frequency", "mdl", "1r"}, default "gaussian"
        How numeric attributes are modelled: a normal distribution per class, a
        Gaussian kernel density per class, or a categorical distribution over
        intervals learned from the training data (equal width or equal frequency
        with ``n_bins``, Fayyad-Irani MDL, or 1R's with ``min_bucket``).
    integer_codes : {"numbers", "auto", "values", "column"}, default "numbers"
        How a numeric column of at most 64 distinct values (a code, a count, a rating) is
        read: as ``numeric`` says; "auto": one interval per value (a categorical over its values)
        where that column's exact leave-one-out log-likelihood of the class beats its Gaussian's, or
        its discretizer's intervals' (:mod:`seminaive.learning.readings`; "column" is "auto" here);
        "values": so always. The choice needs every row first, so such a model learns in passes
        (``partial_fit``'s later chunks add counts to the first chunk's reading). The default keeps
        Weka's and R's models.
    n_bins : int, default 10
        Intervals of the equal-width and equal-frequency discretizations.
    min_bucket : int, default 6
        Minimum majority-class count per interval of 1R's discretization.
    bandwidth : {"silverman", "scott"} or float, default "silverman"
        The kernel density's bandwidth rule (see :class:`~seminaive.components.Kernel`).
    estimation : {"frequency", "map", "predictive", "m-estimate"}, default "frequency"
        How statistics become parameters (:mod:`seminaive.estimation`):
        relative frequencies and moments; Bayesian estimation with a
        Dirichlet(alpha) prior on nominal probabilities and a Normal-Gamma prior
        on each Gaussian's mean and precision, by its MAP estimate or its
        Student-t posterior predictive; or the m-estimate for nominal
        attributes with m = ``alpha``.
    prior : dict, optional
        Normal-Gamma prior parameters (mu0, k0, a0, b0) for every Gaussian
        attribute, and/or ``{attribute name: {...}}`` for single ones; unset
        ones default to empirical Bayes from the pooled training data.

    Attributes
    ----------
    classes_ : ndarray
        The class labels (declared classes of a categorical ``y``, in order).
    schema_ : Schema
        The attributes with their kinds and nominal value lists.
    class_count_ : ndarray of shape (n_classes,)
        Weighted instances per class.
    class_log_prior_ : ndarray of shape (n_classes,)
    components_ : list
        One distribution per attribute (Categorical or Gaussian).
    stats_ : list of dict
        The sufficient statistics of each component, from which parameters are estimated.

    Notes
    -----
    Missing values are skipped when counting and contribute nothing at prediction.
    A nominal value outside the training value list is treated as missing (with an
    ``UnseenValueWarning``). With ``alpha=0`` an instance impossible under every
    class gets the class priors as its posterior. Gaussian classes with at most
    ``ddof`` present values take the attribute's pooled variance.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> weather = load("weather.nominal")
    >>> nb = NaiveBayes(alpha=0, priors="mle").fit(weather)  # classes in the file's order: yes, no
    >>> day = [["sunny", "cool", "high", "TRUE"]]
    >>> nb.predict_proba(day).round(3).tolist()
    [[0.205, 0.795]]
    """

    _param_rules = {
        "alpha": dict(kind="number", low=0), "priors": check_priors, "ddof": dict(kind="int", low=0, high=1),
        "var_smoothing": dict(kind="number", low=0, allow_none=True),
        "var_smoothing_rule": dict(options=VAR_SMOOTHING_RULES),
        "numeric": dict(options=NUMERIC_MODELS), "n_bins": dict(kind="int", low=1),
        "min_bucket": dict(kind="int", low=1), "bandwidth": check_bandwidth, "estimation": check_estimation,
        "prior": check_prior_dict, "integer_codes": dict(options=CODES)}

    def __init__(self, *, alpha=1.0, priors="laplace", ddof=1, var_smoothing=None, var_smoothing_rule="range",
                 nominal=None, numeric="gaussian", n_bins=10, min_bucket=6, bandwidth="silverman",
                 estimation="frequency", prior=None, integer_codes="numbers"):
        self.integer_codes = integer_codes
        self.alpha = alpha
        self.priors = priors
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.var_smoothing_rule = var_smoothing_rule
        self.nominal = nominal
        self.numeric = numeric
        self.n_bins = n_bins
        self.min_bucket = min_bucket
        self.bandwidth = bandwidth
        self.estimation = estimation
        self.prior = prior

    def fit(self, X, y=None, sample_weight=None):
        """Count the sufficient statistics of ``X`` and ``y`` and estimate the model.

        Parameters
        ----------
        X : DataFrame, array-like or Dataset
            The attributes (a Dataset brings its class when ``y`` is None).
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Instance weights; a weight of k counts like k copies of the instance.
        """
        if sample_weight is None and self._step is None and self.nominal is not None:  # maybe an integer block
            X, y = fit_input(self, X, y)
            codes, classes = encode_target(y, as_columns(X)[2])
            if self._fit_int_block(X, codes, len(classes)):  # counted from the block in one pass, no table
                self.classes_, self.class_count_ = classes, count_classes(codes, len(classes))
                self._estimate()
                return self
        # Gaussian moments show an infinite value (they come out non-finite): checked only then
        return self._learn(open_source(self, X, y, sample_weight, check_finite=not self._grows()))

    _step = None  # what a subclass adds after the counts: a step over the same rows (``_step(source)``)

    def _add(self, source, first, finite_checked=True):
        """Add the statistics of a source of one chunk and estimate: the data of ``fit``, or each chunk of
        ``partial_fit``. Gaussians add as blocks (moments merged); the first chunk of intervals or
        kernels runs the passes of a fit from chunks over it (:func:`naive_bayes_passes`: the cut
        points, then the counts); a later chunk adds its counts."""
        table, codes, weight = source.chunk
        k = len(self.classes_)
        counts = count_classes(codes, k, weight)
        if self._grows():  # the nominal attributes as one block, the Gaussian ones as another
            held = count_blocks(self.schema_, table, codes, k, weight)
            if not finite_checked and not all(b.finite() for b in held[0] if isinstance(b, GaussianBlock)):
                refuse_infinite(table, self.schema_)  # moments show an infinite value: named only then
            self._accumulate_held(held, counts)
        elif first:
            return naive_bayes_passes(self, source)
        else:
            self._accumulate(count_components(self.components_, table, codes, k, weight), counts)
        self._estimate()
        return self

    def _fit_int_block(self, X, codes, k):
        """Schema and counts of an all-nominal small-integer array in one pass (False, doing nothing, if not)."""
        width = block_width(X, k) if self.nominal is not None else None
        if width is None:
            return False
        names = as_columns(X)[0]
        if len(resolve_columns(self.nominal, names)) != len(names):
            return False
        counts = block_counts(X, width, codes, k)
        present = counts.sum(axis=1) > 0
        self.schema_ = Schema.of_int_block(names, present)
        rows, cols = np.nonzero(present)  # each column's present values, at their codes 0 .. m - 1
        n_values = present.sum(axis=1)
        compact = np.zeros((len(names), k, int(n_values.max())))
        compact[rows, :, (np.cumsum(present, axis=1) - 1)[rows, cols]] = counts[rows, :, cols]
        d = np.arange(len(names))
        self._hold([CategoricalBlock(d, d, n_values, compact)], [], [])
        return True

    def _make_components(self, cuts=None):
        return make_components(self.schema_, self.numeric, self.bandwidth, cuts)

    def _learn(self, source):
        """Fit on a source: the data in memory as one chunk (then a subclass's step over the same rows), else
        in passes (cut points, then counts) where it discretizes or reads values, or chunk by chunk."""
        if source.in_memory:
            self._forget()
            source.settle(self)
            self._add(source, True, finite_checked=not self._grows())
            return self if self._step is None else self._step(source)
        if not capabilities(self).passes:
            return super()._learn(source)
        return self._check_params() or naive_bayes_passes(source.settle(self), source)

    def _capabilities(self):
        """Leave-one-out from its statistics; with a discretizer, fitted from chunks in passes (the cut
        points learned from every row, as in memory); with Gaussians, fitted in one pass over a file."""
        return Capabilities(leave_one_out=True, passes=not self._grows() and self.numeric != "kernel",
                            grows=self._grows())

    def _grows(self):
        """Whether it learns in one pass, chunk by chunk (Gaussians, no column read by its values)."""
        return self.numeric == "gaussian" and self.integer_codes == "numbers"

    def partial_fit(self, X, y=None, classes=None, sample_weight=None):
        """Add a chunk of data to the statistics and re-estimate.

        The first call fixes the schema and the classes: ``classes`` must list
        every class (unless ``y`` is a categorical declaring them), and nominal
        values come from the first chunk's declarations (pandas categoricals,
        a Dataset) or, failing those, from what it shows; a later chunk with an
        undeclared value is an error. Gaussian and kernel numeric attributes
        accumulate exactly: any sequence of chunks gives the same model as one
        fit on their union. A discretizer learns its cut points from the first
        chunk and keeps them (so make that chunk representative).

        Examples
        --------
        >>> from seminaive.datasets import load
        >>> d = load("weather.nominal")
        >>> nb = NaiveBayes()
        >>> for s in (slice(0, 7), slice(7, 14)):
        ...     _ = nb.partial_fit(d.X[s], d.y[s])
        >>> bool(np.allclose(nb.predict_proba(d.X), NaiveBayes().fit(d.X, d.y).predict_proba(d.X)))
        True
        """
        first = not self._has_stats()
        return self._add(open_chunk(self, X, y, classes, sample_weight, first), first)

    def merge(self, other):
        """A new model fitted on the union of the two models' data: the
        statistics add (Gaussian moments by Chan's parallel update), and the
        parameters are estimated afresh from them.

        Both models must have the same parameters, schema and classes.
        """
        self._check_mergeable(other)
        if other.schema_ != self.schema_:
            raise ParameterError("merge: the models must share the schema (attributes and values)")
        theirs = other.__dict__.get("_held")  # read as it is: merging makes no lists of ``other``
        if theirs is None or not self.holds_block():  # Gaussian blocks: the schema decides the components
            if any(c.to_dict() != o.to_dict() for c, o in zip(self.components_, other.components_)):
                raise ParameterError("merge: the models' components differ (for example their cut points)")
        out = copy.deepcopy(self)
        if theirs is not None:
            out._accumulate_held(theirs, other.class_count_)
        else:
            out._accumulate(other.stats_, other.class_count_)
        out._estimate()
        return out

    def _estimator(self, name):
        """The estimator of one attribute (priors may be given per attribute)."""
        return make_estimator(self.estimation, self.alpha, self.ddof, self.prior, name)

    def _estimate(self):
        """Map the statistics to parameters (no pass over the data)."""
        check_prior_names(self.prior, self.schema_.names, PRIOR_KEYS)
        self.class_log_prior_ = class_log_prior(self.class_count_, self.priors)
        own = isinstance(self.prior, dict) and any(isinstance(v, dict) for v in self.prior.values())
        self._estimate_attributes(None if own else self._estimator(None))  # one for all, unless a prior per attribute

    def _loo_log_proba(self, X, y):
        return naive_bayes_loo(self, X, y)

    def _joint_log_likelihood(self, X):
        return self._table_jll(self._encode(X))

    def _table_jll(self, table):
        jll = np.empty((table.n_samples, len(self.classes_)))
        jll[:] = self.class_log_prior_
        with np.errstate(invalid="ignore"):  # +inf (a point mass) and -inf (probability 0) sum to NaN: impossible
            held = self.__dict__.get("_held")  # read once: the blocks, or (made meanwhile) the lists
            if held is not None:
                return self._add_held(held, table, jll)
            for kind in dict.fromkeys(map(type, self.components_)):
                kind.add_log_likelihood_many([c for c in self.components_ if type(c) is kind], table, jll)
        return jll

    def attribute_log_likelihoods(self, X):
        """log P(x_j | c) of every instance and attribute, shape (n, n_attributes, n_classes).

        Missing (and unseen) values give 0. Together with ``class_log_prior_``
        these sum to the joint log-likelihood.
        """
        self._check_fitted()
        return self._terms(self._encode(X))

    def unseen_counts(self, X):
        """How many values of each nominal attribute in ``X`` are outside the
        training value lists (they are treated as missing), as a dict."""
        self._check_fitted()
        X, _ = unwrap(X)
        table = encode(X, self.schema_)
        names = [self.schema_.attributes[i].name for i in self.schema_.nominal_indices]
        return {n: int(k) for n, k in zip(names, table.unseen)}

    def _smoothing_label(self, kind):
        """How the printout labels an attribute's estimate ("nominal" or "gaussian")."""
        if kind == "nominal":
            return f"alpha={self.alpha:g}" if self.estimation != "m-estimate" else f"m-estimate, m={self.alpha:g}"
        return f"ddof={self.ddof}" if self.estimation in ("frequency", "m-estimate") else f"{self.estimation}"

    def to_text(self, precision=4, tables=None):
        """The readable model: class priors and per attribute its table of
        P(value | class) or its mean and standard deviation per class (``tables``:
        None, every table up to 100 attributes and the first 100 beyond; True,
        every table)."""
        return format_model(self, precision, tables)

    def explain(self, X, precision=3):
        """Per-instance explanation: each attribute's contribution to the log-odds."""
        return format_explanation(self, X, precision)

    def _get_state(self):
        return {"class_count": self.class_count_.tolist(),
                "components": [c.to_dict() for c in self.components_], "stats": self.stats_}

    def _set_state(self, state):
        k = len(self.classes_)
        self.class_count_ = _numbers(state["class_count"], "state.class_count", (k,), low=0)
        comps = _field(state, "components", list)
        stats = _field(state, "stats", list)
        if len(comps) != len(self.schema_) or len(stats) != len(comps):
            raise ValueError(f"state.components, state.stats: expected one per attribute ({len(self.schema_)}), "
                             f"got {len(comps)} and {len(stats)}")
        self._hold_lists(*checked_components(comps, stats, self.schema_, k))  # predicts as the fitted model
        try:
            self._estimate()
        except ValueError as e:  # statistics that give no parameters (an overflowing range, say)
            raise ValueError(f"state.stats: {e}") from None


register_variant("model", "nb", "Naive Bayes (nominal, Gaussian or discretized/kernel numeric attributes)",
                 lambda **o: NaiveBayes(**{k: v for k, v in o.items() if k in NaiveBayes().get_params()}))
for _name, _text, _kw in (("nb", "Naive Bayes, Gaussian numeric attributes", {}),
                          ("nb-kernel", "Naive Bayes, kernel densities", {"numeric": "kernel"}),
                          ("nb-ew", "Naive Bayes, 10 equal-width intervals", {"numeric": "equal_width"}),
                          ("nb-ef", "Naive Bayes, 10 equal-frequency intervals", {"numeric": "equal_frequency"}),
                          ("nb-mdl", "Naive Bayes, MDL intervals", {"numeric": "mdl"}),
                          ("nb-map", "Naive Bayes, Normal-Gamma MAP estimates", {"estimation": "map"}),
                          ("nb-predictive", "Naive Bayes, Normal-Gamma posterior predictive",
                           {"estimation": "predictive"})):
    register_variant("compare", _name, _text, lambda kw=_kw: NaiveBayes(**kw))
