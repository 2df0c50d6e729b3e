"""A model's components and statistics held as blocks (its nominal attributes in one, its
Gaussian ones in another) plus any other components, made one per attribute only when
something asks for them."""

import threading

import numpy as np

from .base import estimate_components
from .categorical import Categorical
from .categorical_block import CategoricalBlock
from .gaussian import Gaussian, variance_floor
from .gaussian_block import GaussianBlock
from .stacked_stats import StatsRows

__all__ = ["HeldBlock", "count_blocks"]

_MAKING = threading.Lock()  # one thread at a time makes a model's lists from its blocks


def count_blocks(schema, table, y, n_classes, weight=None):
    """The statistics of a Naive Bayes of categorical and Gaussian attributes as blocks: the
    nominal attributes of ``schema`` as one :class:`CategoricalBlock` (or, when weights make
    their counts fractional, as per-attribute components and statistics), the numeric ones as
    one :class:`GaussianBlock`. Returns ``(blocks, components, statistics)`` for
    :meth:`HeldBlock._hold`.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> from seminaive.data import encode, infer_schema
    >>> d = load("weather.numeric")
    >>> schema = infer_schema(d.X)
    >>> blocks, comps, stats = count_blocks(schema, encode(d.X, schema), d.y.cat.codes.to_numpy(), 2)
    >>> [(type(b).__name__, b.attributes.tolist()) for b in blocks], comps
    ([('CategoricalBlock', [0, 3]), ('GaussianBlock', [1, 2])], [])
    """
    nominal, numeric = list(schema.nominal_indices), list(schema.numeric_indices)
    blocks, comps, stats = [], [], []
    if nominal:
        cat = CategoricalBlock.count(nominal, range(len(nominal)), schema.nominal_widths, table.codes, y, n_classes,
                                     weight)
        if cat.whole():
            blocks.append(cat)
        else:  # fractional counts: summed over padded rows they could differ in the last bit
            comps, stats = _components(cat), [{"counts": st["counts"].copy()} for st in cat.rows()]
    if numeric:
        blocks.append(GaussianBlock.count(numeric, range(len(numeric)), table, y, n_classes, weight))
    return blocks, comps, stats


class HeldBlock:
    """Mixin of a model of one component per attribute: ``components_`` and ``stats_`` may be
    held as blocks (:meth:`_hold`): a :class:`~seminaive.components.gaussian_block.GaussianBlock`
    of Gaussian attributes, a :class:`~seminaive.components.categorical_block.CategoricalBlock`
    of nominal ones, plus lists of any others, so that a fit and a prediction take no Python
    step per attribute of a block. Reading either attribute makes the per-attribute lists, which
    from then on are the model's statistics (the blocks are let go: a change made to the lists
    is never hidden behind them). Both forms give the same numbers, to the last bit.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> nb = NaiveBayes().fit(load("iris"))
    >>> nb.holds_block()
    True
    >>> p = nb.predict_proba(load("iris").X)
    >>> len(nb.components_), nb.holds_block()  # made on demand: the same model
    (4, False)
    >>> bool((nb.predict_proba(load("iris").X) == p).all())
    True
    """

    def holds_block(self):
        """Whether attributes are held as blocks (no per-attribute lists made yet)."""
        return "_held" in self.__dict__

    def _hold(self, blocks, comps, stats):
        """Hold ``blocks`` and the other attributes' components and statistics (lists, attribute
        order), as one value read at once (a prediction in one thread while another makes the
        lists reads the blocks or the lists, never half of each)."""
        self._forget()
        self.__dict__["_held"] = ([b for b in blocks if len(b)], comps, stats)

    def _hold_lists(self, comps, stats):
        """Hold per-attribute components and statistics (a loaded model's, in attribute order) as
        blocks where they make them: the Gaussians as one, the categoricals (whole counts) as
        another; any other component as it is."""
        gauss = [i for i, c in enumerate(comps) if type(c) is Gaussian]
        cats = [i for i, c in enumerate(comps) if type(c) is Categorical]
        blocks, keep = [], set(range(len(comps))) - set(gauss) - set(cats)
        if cats:
            m = [comps[i].n_values for i in cats]
            counts = np.zeros((len(cats), len(self.classes_), max(m)))
            for j, (i, width) in enumerate(zip(cats, m)):
                counts[j, :, :width] = stats[i]["counts"]
            block = CategoricalBlock([comps[i].attribute for i in cats], [comps[i].column for i in cats], m, counts)
            if block.whole():
                blocks.append(block)
            else:
                keep |= set(cats)
        if gauss:
            blocks.append(GaussianBlock.of_rows([comps[i].attribute for i in gauss], [comps[i].column for i in gauss],
                                                [stats[i] for i in gauss]))
        if not blocks:
            self.components_, self.stats_ = comps, stats
            return
        keep = sorted(keep)
        self._hold(blocks, [comps[i] for i in keep], [stats[i] for i in keep])

    def _forget(self):
        for key in ("_held", "_components", "_stats"):
            self.__dict__.pop(key, None)

    def _release(self):
        """Make the per-attribute lists from the blocks, then let the blocks go."""
        if "_held" not in self.__dict__:
            return
        with _MAKING:
            d = self.__dict__
            if "_held" not in d:  # made meanwhile by another thread
                return
            d["_components"], d["_stats"] = _lists(d["_held"])
            del d["_held"]

    def _has_stats(self):
        """Whether statistics are held, as blocks or as lists (reading ``stats_`` would make the lists)."""
        return self.holds_block() or "_stats" in self.__dict__

    def _accumulate_held(self, held, class_count):
        """Add a chunk's statistics as :func:`count_blocks` gives them (``held``) and its class counts to
        the model's, block by block where both are blocks of the same attributes (a first chunk's become
        them); else as lists (:meth:`_accumulate`): what ``partial_fit`` and ``merge`` do."""
        mine = self.__dict__.get("_held")
        if not self._has_stats():
            self._hold(*held)
            self.class_count_ = class_count
        elif mine is not None and _same_form(mine, held):
            blocks = [a.merge(b) for a, b in zip(mine[0], held[0])]
            stats = [type(c).merge(a, b) for c, a, b in zip(mine[1], mine[2], held[2])]
            self.__dict__["_held"] = (blocks, mine[1], stats)
            self.class_count_ = self.class_count_ + class_count
        else:
            self._accumulate(_lists(held)[1], class_count)

    def _listed(self, key):
        self._release()
        try:
            return self.__dict__[key]
        except KeyError:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {key[1:] + '_'!r}") from None

    def _put(self, key, value):
        self._release()
        self.__dict__[key] = value

    components_ = property(lambda self: self._listed("_components"), lambda self, v: self._put("_components", v),
                           doc="One distribution per attribute (made from the block on first reading).")
    stats_ = property(lambda self: self._listed("_stats"), lambda self, v: self._put("_stats", v),
                      doc="The sufficient statistics of each component (made from the block on first reading).")

    def _estimate_attributes(self, shared):
        """Estimate every attribute with the estimator ``shared``, or, when it is None, with each
        one's own (``self._estimator(name)``): each block in one computation (a nominal block where
        the estimator smooths each class's counts by themselves, else the lists), the Gaussians
        sharing an estimator together, each other kind of component in one batch. The model gives
        ``schema_``, ``var_smoothing`` and ``var_smoothing_rule``."""
        names, rule = self.schema_.names, (self.var_smoothing, self.var_smoothing_rule)
        held = self.__dict__.get("_held")
        if held is not None and shared is not None:
            blocks, comps, stats = held
            if all(b.estimate(shared) for b in blocks if isinstance(b, CategoricalBlock)):
                for b in blocks:
                    if isinstance(b, GaussianBlock):
                        b.estimate(shared, variance_floor(b, *rule), np.asarray(names, dtype=object)[b.attributes])
                return estimate_components(comps, stats, shared, names)
        comps, stats = self.components_, self.stats_
        gauss = [i for i, c in enumerate(comps) if isinstance(c, Gaussian)]
        rows = StatsRows(stats[i] for i in gauss)  # moments stacked once, for the floors and the estimates
        floors = variance_floor(rows, *rule)
        parts = [(shared, gauss, floors)]  # the Gaussians sharing an estimator, estimated together
        if shared is None:
            groups = {}
            for i, f in zip(gauss, floors):
                e = self._estimator(names[comps[i].attribute])
                groups.setdefault(id(e), (e, []))[1].append((i, f))
            parts = [(e, [i for i, _ in m], [f for _, f in m]) for e, m in groups.values()]
        for e, idx, fl in parts:
            Gaussian.estimate_many([comps[i] for i in idx], rows if idx is gauss else [stats[i] for i in idx], e, fl,
                                   [names[comps[i].attribute] for i in idx])
        others = [i for i, c in enumerate(comps) if not isinstance(c, Gaussian)]
        if shared is not None:  # one estimator for all: each kind of component estimated in one batch
            return estimate_components([comps[i] for i in others], [stats[i] for i in others], shared, names)
        for i in others:
            comps[i].estimate(stats[i], self._estimator(names[comps[i].attribute]), name=names[comps[i].attribute])

    def _terms(self, table):
        """log P(x_j | c) of every row and attribute, (n, d, K), from the blocks where they are held;
        0 where a value is missing."""
        out = np.zeros((table.n_samples, len(self.schema_), len(self.classes_)))
        held = self.__dict__.get("_held")  # read once (see _hold)
        with np.errstate(invalid="ignore"):
            if held is not None:
                for block in held[0]:
                    out[:, block.attributes] = block.log_likelihoods(table)
            for c in held[1] if held is not None else self.components_:
                out[:, c.attribute] = c.log_likelihood(table)
        return out

    def _add_held(self, held, table, out):
        """Add every attribute's log-likelihood to ``out`` (n, K) from the ``held`` blocks and other
        components, each kind in the order of its first attribute, as the lists' path adds them."""
        blocks, comps, _ = held
        kinds = {}
        for c in comps:
            kinds.setdefault(type(c), []).append(c)
        steps = [(part[0].attribute, lambda kind=kind, part=part: kind.add_log_likelihood_many(part, table, out))
                 for kind, part in kinds.items()]
        steps += [(int(b.attributes[0]), lambda b=b: b.add_log_likelihood(table, out)) for b in blocks]
        for _, step in sorted(steps, key=lambda s: s[0]):
            step()
        return out

    def __setstate__(self, state):
        state = dict(state)  # pickled before the block existed: the lists were plain attributes
        for old, new in (("components_", "_components"), ("stats_", "_stats")):
            if old in state:
                state[new] = state.pop(old)
        super().__setstate__(state)


def _lists(held):
    """The components and statistics ``held`` (blocks and lists) stands for, one per attribute, in
    attribute order."""
    blocks, comps, stats = held
    comps, stats = list(comps), list(stats)
    for block in blocks:
        comps += _components(block)
        stats += block.rows()
    order = np.argsort([c.attribute for c in comps], kind="stable").tolist()
    return [comps[i] for i in order], [stats[i] for i in order]


def _same_form(a, b):
    """Whether two held forms have blocks of the same kinds over the same attributes, and the same
    other components."""
    return (len(a[0]) == len(b[0]) and all(type(x) is type(y) and np.array_equal(x.attributes, y.attributes)
                                           for x, y in zip(a[0], b[0]))
            and [c.to_dict() for c in a[1]] == [c.to_dict() for c in b[1]])


def _components(block):
    """The per-attribute components a block stands for, given its parameters if it has them."""
    pairs = zip(block.attributes.tolist(), block.columns.tolist())
    if isinstance(block, GaussianBlock):
        comps = [Gaussian(a, c) for a, c in pairs]
        estimated = hasattr(block, "params")
    else:
        comps = [Categorical(a, c, m) for (a, c), m in zip(pairs, block.n_values.tolist())]
        estimated = hasattr(block, "tables")
    if estimated:
        block.install(comps)
    return comps
