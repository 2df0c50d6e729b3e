"""
Structure pictures: BSEJ and TAN on the same data
=================================================

Two ways past the independence assumption on KEEL's breast cancer data: BSEJ joins dependent
attributes into one and deletes useless ones; TAN keeps every attribute and gives each but the
root one parent, along a tree of the strongest arcs (by default Weka's greedy tree of Bayes-score gains;
``arc_score="cmi"``: the maximum spanning tree of I(Xi; Xj | C)).
"""

from seminaive import TAN
from seminaive.datasets import load
from seminaive.search import BSEJ
from seminaive.drawing import plot_structure

breast = load("keel:breast")
bsej = BSEJ().fit(breast)
print(bsej.structure_.describe(list(breast.X.columns)))
plot_structure(bsej, title="BSEJ on breast", class_name="Class")

# %%
tan = TAN().fit(breast)
print(tan.structure_.to_text(list(breast.X.columns)))
plot_structure(tan, title="TAN on breast", class_name="Class")
