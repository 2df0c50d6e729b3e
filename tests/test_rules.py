"""1R and ZeroR against the slides' worked answers."""

import numpy as np
import pandas as pd

from seminaive import OneR, ZeroR


def test_one_r_weather_nominal_picks_outlook(weather):
    r = OneR().fit(weather)
    errors = {a.name: e["errors"] for a, e in zip(r.schema_.attributes, r.rules_)}
    assert errors == {"outlook": 4, "temperature": 5, "humidity": 4, "windy": 5}
    assert r.schema_.attributes[r.attribute_].name == "outlook"  # tie with humidity: the first
    assert r.to_text() == "outlook: sunny -> no, overcast -> yes, rainy -> yes (10/14)"
    assert (r.predict(weather.X) == np.where(weather.X["outlook"] == "sunny", "no", "yes")).all()


def test_one_r_weather_numeric_bucket_3(weather_numeric):
    """Slides: humidity is best (3 errors, 11/14). Temperature's last bucket (80-85) ties 2-2: Weka gives the
    tie to the first class (yes) and keeps one interval; the book's answer, a cut at 77.5 with no above it,
    is the tie given to the class met first in the bucket."""
    r = OneR(min_bucket=3).fit(weather_numeric)
    assert r.rules_[1]["cuts"] == [] and r.rule_text(1) == "temperature: not missing -> yes (9/14)"
    assert r.schema_.attributes[r.attribute_].name == "humidity"
    assert r.rules_[2]["cuts"] == [82.5, 95.5] and r.rules_[2]["errors"] == 3
    assert r.to_text() == "humidity: < 82.5 -> yes, < 95.5 -> no, >= 95.5 -> yes (11/14)"
    book = OneR(min_bucket=3, ties="first_met").fit(weather_numeric)
    assert book.rule_text(1) == "temperature: < 77.5 -> yes, >= 77.5 -> no (9/14)"
    assert book.to_text() == r.to_text()


def test_one_r_missing_is_its_own_value():
    X = pd.DataFrame({"a": ["x", None, None, "y", "x", None]})
    y = ["p", "q", "q", "p", "p", "q"]
    r = OneR().fit(X, y)
    assert r.to_text() == "a: x -> p, y -> p, missing -> q (6/6)"
    assert r.predict(pd.DataFrame({"a": [None]})).tolist() == ["q"]


def test_one_r_default_bucket_is_six(weather_numeric):
    r = OneR().fit(weather_numeric)
    assert r.min_bucket == 6
    assert all(r["errors"] >= 3 for r in r.rules_)


def test_one_r_unseen_branch_predicts_majority():
    """A declared value with no training instance: the majority class, with the class frequencies
    Laplace-smoothed ((2 + 1) / (3 + 2), (1 + 1) / (3 + 2))."""
    X = pd.DataFrame({"a": pd.Categorical(["x", "x", "y"], categories=["x", "y", "z"])})
    r = OneR().fit(X, ["p", "p", "q"])
    z = pd.DataFrame({"a": pd.Categorical(["z"], categories=["x", "y", "z"])})
    assert r.predict(z).tolist() == ["p"]
    np.testing.assert_allclose(r.predict_proba(z), [[0.6, 0.4]], rtol=1e-12)


def test_zero_r_is_the_majority(weather):
    z = ZeroR().fit(weather)
    assert set(z.predict(weather.X)) == {"yes"}
    assert z.predict_proba(weather.X[:1]).tolist() == [[10 / 16, 6 / 16]]
