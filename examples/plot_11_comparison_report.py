"""
A comparison with a report
==========================

``run_experiment`` fits every model on the same folds of every data set (a model that searches
does so inside each training part) and ``write_report`` writes the Markdown and HTML report with
significance marks, plots and the raw results. Here three models on four small data sets.
"""

import tempfile

import matplotlib.pyplot as plt

from seminaive import TAN, NaiveBayes, OneR
from seminaive.evaluation.resampling import Protocol
from seminaive.evaluation.experiment import Experiment, run_experiment
from seminaive.evaluation.report_files import write_report

folder = tempfile.mkdtemp()
experiment = Experiment({"nb": NaiveBayes(), "tan": TAN(), "1r": OneR()},
                        ["iris", "keel:pima", "keel:heart", "keel:wine"], Protocol("kfold", folds=5))
results = run_experiment(experiment, folder, progress=None)
report = write_report(results, folder, experiment.protocol.describe(), baseline="nb")
print(open(report).read().split("## Across")[0])

# %%
# The mean accuracy of each model on each data set, from the per-split results.
means = results.groupby(["dataset", "model"], sort=False)["accuracy"].mean().unstack()[["nb", "tan", "1r"]]
ax = (100 * means).plot.bar(figsize=(7, 3.5), rot=0)
ax.set_ylabel("accuracy (%)")
ax.set_ylim(0, 100)
ax.set_title("5-fold cross-validation, same folds for every model")
plt.tight_layout()
