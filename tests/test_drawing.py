"""Structure pictures: one node per group (joined attributes together), the class
arcs, the parent arcs, left-out attributes greyed; on the command line too."""

import subprocess
import sys

import numpy as np
import pytest
from matplotlib.patches import FancyArrowPatch

from seminaive import KDB, NaiveBayes, SeminaiveError
from seminaive.datasets import dataset_path, load
from seminaive.search import BSE, BSEJ, Structure
from seminaive.drawing import plot_structure


def arcs(fig):
    patches = [p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)]
    blue = sum(1 for p in patches if p.get_edgecolor()[2] > 0.5)  # parent arcs are blue, class arcs brown
    return len(patches) - blue, blue


def test_nodes_and_arcs_follow_the_structure():
    d = load("weather.nominal")
    m = KDB(k=2).fit(d)
    fig = plot_structure(m, class_name="play")
    labels = [t.get_text() for t in fig.axes[0].texts]
    assert labels == ["play"] + list(d.X.columns)
    n_parents = sum(len(m.structure_.parents_of(i)) for i in range(4))
    assert arcs(fig) == (4, n_parents) and n_parents == 5


def test_joined_and_left_out_attributes():
    d = load("weather.nominal")
    m = NaiveBayes().fit(d)
    m.structure_ = Structure(((0, 2), (1,)), 4)  # outlook*humidity joined, windy left out
    fig = plot_structure(m)
    texts = {t.get_text(): t for t in fig.axes[0].texts}
    assert "outlook*humidity" in texts and "windy" in texts
    assert texts["windy"].get_color() == "#999999" and texts["temperature"].get_color() == "black"
    assert arcs(fig) == (2, 0)  # the class points at the two used nodes only
    assert "left out" in fig.axes[0].get_title()


def test_naive_bayes_is_a_star_and_a_search_draws_its_result(tmp_path):
    d = load("weather.nominal")
    assert arcs(plot_structure(NaiveBayes().fit(d))) == (4, 0)
    s = BSE(tol=-np.inf, min_attributes=2).fit(d)
    path = plot_structure(s, tmp_path / "s.png")
    assert open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(SeminaiveError, match="the file exists"):
        plot_structure(s, tmp_path / "s.png")


def test_command_line_plot(tmp_path):
    out = tmp_path / "tan.png"
    run = [sys.executable, "-m", "seminaive", "fit", str(dataset_path("iris")), "--model", "tan", "--plot", str(out)]
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "petal_width <- class, petal_length" in done.stdout
    assert out.read_bytes()[:4] == b"\x89PNG"
    again = subprocess.run(run, capture_output=True, text=True)
    assert again.returncode == 2 and "exists" in again.stderr and "Traceback" not in again.stderr


def _crossings(fig):
    """The labels whose boxes an arrow passes through (not its own two ends): each arrow's drawn path
    sampled in display coordinates against every other box."""
    fig.canvas.draw()
    ax, renderer = fig.axes[0], fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_bbox_patch().get_window_extent(renderer)) for t in ax.texts if t.get_bbox_patch()]
    out = []
    for p in (p for p in ax.patches if isinstance(p, FancyArrowPatch)):
        points = p.get_transform().transform(p.get_path().interpolated(40).vertices)
        for name, box in boxes:
            if any(box.expanded(1.6, 2.5).contains(*end) for end in (points[0], points[-1])):
                continue  # the arrow's own source or target
            if any(box.expanded(0.9, 0.8).contains(x, y) for x, y in points):
                out.append(name)
    return out


@pytest.mark.parametrize("data", ["weather.nominal", "keel:wine", "keel:vehicle"])
@pytest.mark.parametrize("make", [NaiveBayes, lambda: KDB(k=2), lambda: BSEJ(cv=3)], ids=["nb", "kdb2", "bsej"])
def test_no_arrow_crosses_a_node_s_box(data, make):
    """BSEJ's structure of 15 attributes (and Naive Bayes's of 13 or more) drew the class's arcs to the
    lower rows through the boxes of the rows above."""
    import matplotlib.pyplot as plt
    fig = plot_structure(make().fit(load(data)))
    try:
        assert _crossings(fig) == []
    finally:
        plt.close(fig)  # (figures left open warn, as errors here, after twenty)
