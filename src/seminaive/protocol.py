"""The model protocol: what a model of the package provides and what the package calls, in one
public place, so that a model defined outside the package needs no underscore module.

A model is a :class:`BaseNaiveBayes` (scikit-learn's ``fit``/``predict`` conventions: the
constructor only stores its arguments, learned state ends in ``_``) that provides:

``_joint_log_likelihood(X)``
    log P(c) + log P(x | c) of every row, an (n_samples, n_classes) array. ``predict``,
    ``predict_proba``, ``predict_log_proba`` and ``predict_with_proba`` come from it, written once
    in the base, with the one rule for rows impossible under some or all classes.
``fit(X, y, sample_weight=None)``
    opened by :func:`open_source` (or, for a model that counts chunk by chunk, :func:`chunk_table`
    in ``partial_fit``): the input checked, the schema by the one kind rule, the table encoded, the
    classes in the one order.
``_learn(source)``
    the one hook through which a model learns from a source: the data in memory (one chunk,
    :func:`open_source`), a file's chunks, Parquet, Dask partitions. ``source.settle(model)`` gives it
    the schema and the classes; a pass is ``map_reduce(source, fn, combine)``. The default folds the
    chunks in by ``partial_fit``; a model without ``partial_fit`` that does not override it is
    refused by every chunked route in one line.
``capabilities`` / ``_capabilities()``
    what it can do beyond fitting (:class:`Capabilities`: exact leave-one-out, passes, search).
``_loo_log_proba(X, y)``
    where ``capabilities.leave_one_out``: each training row's log-posteriors without the row, from
    the model's own statistics (calibration uses it).
``_get_state()`` / ``_set_state(state)``
    the JSON-ready learned state of a model file (the schema, classes and parameters are saved
    around it); ``_set_state`` checks what it reads and raises ``ValueError`` naming the field.
``_param_rules``
    each parameter's declaration (``dict(kind="int", low=1)``, ``dict(options=(...))`` or a
    function), checked by one walker at the start of ``fit``; messages name the parameter.
``_check_fitted()``
    raise ``NotFittedError`` naming the model before anything reads learned state (the base checks
    ``classes_``; a wrapper checks what it holds). Model files, the report and ``merge`` call it.
``to_text()``, ``merge(other)``, ``partial_fit(X, y, classes=None)``
    optional: the printout ``show`` gives, the union of two fits, chunk-by-chunk learning; a Naive
    Bayes's printout labels each estimate by ``_smoothing_label(kind)`` (``"nominal"`` or
    ``"gaussian"``), which a subclass that estimates otherwise overrides.

A model of the semi-naive family (a :class:`~seminaive.bayesnet.base.BayesNetClassifier`) learns by
the family's passes (:func:`~seminaive.bayesnet.streamed.fit_passes`: cut points, structure, counts,
estimates), which call its hooks: ``_parents_from(stats)`` each attribute's parents from the pairs'
statistics (TAN's tree, kDB's parents; declare ``_fixed_structure = True`` where the structure does
not depend on the data, as AnDE); ``_set_parents(parents)`` and ``_make_tables()`` its conditional
tables; ``_count(table, y, k, weight)`` and ``_set_counts(counts)`` the tables' counts of a chunk and
their sum; ``_estimator()`` the estimator its ``estimation`` names; ``_selects`` and ``_weighting``
declare a held-out selection among candidate structures and how discriminative weights are kept. A
new family model is TAN's size: a ``_parents_from`` and its registration.

:func:`register` makes a model known to the command line, ``compare`` and model files. A new
estimation is a ``register_variant("estimation", ...)`` line (Naive Bayes, the searches) or a
:func:`~seminaive.estimation.family.declare` line (the family's tables); a new typed columnar file
format is a :func:`declare_format` line (its extensions, its Arrow schema and record batches).

Examples
--------
>>> import numpy as np
>>> from seminaive.components import count_components
>>> from seminaive.components.make import make_components
>>> from seminaive.estimation import Frequency, class_log_prior
>>> from seminaive.core.counting import count_classes
>>> class TinyBayes(BaseNaiveBayes):
...     def fit(self, X, y=None, sample_weight=None):
...         return self._learn(open_source(self, X, y, sample_weight))
...     def _learn(self, source):
...         source.settle(self)
...         self.components_ = make_components(self.schema_, "gaussian")
...         k = len(self.classes_)
...         def count(chunk):
...             return count_components(self.components_, chunk.table, chunk.y, k), count_classes(chunk.y, k)
...         stats, counts = map_reduce(source, count, None)
...         self.class_log_prior_ = class_log_prior(counts, "laplace")
...         for c, s in zip(self.components_, stats):
...             c.estimate(s, Frequency(alpha=1.0))
...         return self
...     def _joint_log_likelihood(self, X):
...         table = self._encode(X)
...         return self.class_log_prior_ + sum(c.log_likelihood(table) for c in self.components_)
>>> from seminaive.datasets import load
>>> from seminaive import NaiveBayes
>>> d = load("weather.nominal")
>>> bool(np.allclose(TinyBayes().fit(d).predict_proba(d.X), NaiveBayes().fit(d).predict_proba(d.X)))
True
"""

from ._target import chunk_table, encode_target, fit_input
from .base import BaseNaiveBayes
from .bayesnet.base import BayesNetClassifier
from .core.capabilities import Capabilities, LearnsFromSource, capabilities
from .data.formats import FileFormat, declare_format
from .estimation.family import TableEstimation, declare as declare_table_estimation
from .learning.sources import map_reduce, open_source
from .registry import register, register_variant

__all__ = ["BaseNaiveBayes", "BayesNetClassifier", "Capabilities", "LearnsFromSource", "capabilities", "open_source", "map_reduce",
           "chunk_table", "encode_target", "fit_input", "register", "register_variant", "FileFormat", "declare_format",
           "TableEstimation", "declare_table_estimation"]
