"""A data set in memory: the schema and the encoded columns, with the class."""

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .kinds import infer_schema
from .schema import NOMINAL, Attribute, Schema, resolve_target

__all__ = ["Dataset", "class_values", "split_class", "concatenated", "declared_labels", "class_labels"]

_DECLARED = "seminaive.declared_classes"


def declared_labels(y):
    """Class labels (a categorical Series) whose categories are the classes in a declared order
    (a file's, or a fitted model's), which ``fit`` and ``partial_fit`` keep instead of sorting.

    Examples
    --------
    >>> declared_labels(pd.Series(pd.Categorical(["p"], ["q", "p"]))).attrs
    {'seminaive.declared_classes': True}
    """
    y.attrs[_DECLARED] = True
    return y


def is_declared(y):
    """Whether class labels carry a declared order (:func:`declared_labels`)."""
    return bool(y.attrs.get(_DECLARED)) and isinstance(y.dtype, pd.CategoricalDtype)


def class_labels(y):
    """Class labels as a categorical with every class declared by the one rule of class order:
    a declared order (a file header's, a fitted model's) holds, any other classes are sorted
    (:func:`class_values`), whatever route the labels came by.

    Examples
    --------
    >>> class_labels(pd.Series(["q", "p", "q"])).cat.categories.tolist()
    ['p', 'q']
    """
    if is_declared(y):
        return y
    return declared_labels(pd.Series(pd.Categorical(np.asarray(y, dtype=object), categories=pd.Index(class_values(y), dtype=object)),
                                     name=y.name))


@dataclass
class Dataset:
    """Attributes and class of a data set, as loaded from a file or built from a table.

    Nominal attributes are pandas categoricals whose categories are the declared
    value list (so values declared but never seen survive), numeric attributes
    are float64 with NaN for missing. Every estimator of seminaive accepts
    ``dataset.X`` directly, or the dataset itself.

    Attributes
    ----------
    X : DataFrame
        The attributes.
    y : Series or None
        The class (categorical), or None for unlabelled data.
    schema : Schema
        Attributes and class attribute, with nominal value lists.
    name : str
        A short name (the file's stem).
    source : str or None
        The file it came from.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> d.n_samples, d.n_attributes, d.schema.target.values
    (14, 4, ('yes', 'no'))
    """

    X: pd.DataFrame
    y: pd.Series
    schema: Schema
    name: str = "data"
    source: str = None

    @property
    def n_samples(self):
        return len(self.X)

    @property
    def n_attributes(self):
        return self.X.shape[1]

    @property
    def classes(self):
        return self.schema.target.values if self.schema.target is not None else ()

    def labelled(self):
        """Return the instances whose class is known, and how many were dropped."""
        if self.y is None:
            return self, 0
        keep = self.y.notna().to_numpy()
        dropped = int((~keep).sum())
        if not dropped:
            return self, 0
        return replace(self, X=self.X[keep].reset_index(drop=True),
                       y=self.y[keep].reset_index(drop=True)), dropped

    def summary(self):
        """A one-paragraph description: size, attribute kinds, class distribution."""
        nom = len(self.schema.nominal_indices)
        lines = [f"{self.name}: {_count(self.n_samples, 'instance')}, {_count(self.n_attributes, 'attribute')} "
                 f"({nom} nominal, {self.n_attributes - nom} numeric)"]
        miss = int(self.X.isna().to_numpy().sum())
        if miss:
            lines.append(f"  missing values: {miss}")
        if self.y is not None:
            counts = self.y.value_counts(sort=False)
            lines.append("  class " + self.schema.target.name + ": " +
                         ", ".join(f"{k} {int(v)}" for k, v in counts.items()))
        return "\n".join(lines)

    @classmethod
    def from_frame(cls, frame, target=-1, name="data", nominal=None):
        """Build a dataset from a DataFrame holding attributes and class.

        Examples
        --------
        >>> df = pd.DataFrame({"a": ["x", "y", "x"], "b": [1.0, 2.0, 3.0], "c": ["p", "q", "p"]})
        >>> Dataset.from_frame(df, target="c").schema.target.values
        ('p', 'q')
        """
        names = [str(c) for c in frame.columns]
        frame = frame.copy()
        frame.columns = names
        tidx = resolve_target(target, names)
        y = frame.pop(names[tidx])
        schema = infer_schema(frame, nominal=nominal)
        X = pd.DataFrame({a.name: (pd.Categorical(frame[a.name], categories=pd.Index(a.values, dtype=object))
                                   if a.is_nominal else frame[a.name].astype(np.float64))
                          for a in schema.attributes}, columns=list(schema.names))
        classes = class_values(y)
        y = pd.Series(pd.Categorical(y, categories=pd.Index(classes, dtype=object)), name=names[tidx])
        return cls(X, y, Schema(schema.attributes, Attribute(names[tidx], NOMINAL, tuple(classes))), name=name)




def split_class(frame, attrs, target, name, source):
    """A Dataset of a frame of every column of a file (``attrs``, their attributes in its order),
    the column at position ``target`` as the class (None: unlabelled)."""
    if target is None:
        return Dataset(frame, None, Schema(tuple(attrs)), name=name, source=source)
    y = frame.pop(frame.columns[target])
    schema = Schema(tuple(a for j, a in enumerate(attrs) if j != target), attrs[target])
    return Dataset(frame, y, schema, name=name, source=source)


def concatenated(parts):
    """One Dataset of parts with one schema, their rows in order."""
    if len(parts) == 1:
        return parts[0]
    y = None if parts[0].y is None else pd.concat([d.y for d in parts], ignore_index=True)
    return replace(parts[0], X=pd.concat([d.X for d in parts], ignore_index=True), y=y)


def class_values(y):
    """The classes of a class column that no file header declares: a categorical's categories
    (those without instances too) or its present values, sorted where they compare (else in order
    of first appearance), as ``fit(X, y)`` has them whatever route the column came by.

    Examples
    --------
    >>> class_values(pd.Series(["q", None, "p", "q"])), class_values(pd.Series(pd.Categorical(["p"], ["q", "r", "p"])))
    (['p', 'q'], ['p', 'q', 'r'])
    """
    present = y.cat.categories if isinstance(y.dtype, pd.CategoricalDtype) else pd.unique(y.dropna())
    try:
        return sorted(present)
    except TypeError:
        return list(present)


def _count(n, noun):
    """``1 instance``, ``2 instances``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
