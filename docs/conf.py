"""Sphinx configuration of seminaive's documentation (``make docs``)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

import seminaive  # noqa: E402
import api_listing  # noqa: E402
import reproduce  # noqa: E402

# the generated pages are written before Sphinx looks for its sources (autosummary scans them)
api_listing.generate()
reproduce.generate()

project = "seminaive"
author = "the seminaive developers"
copyright = "2026, the seminaive developers"
release = version = seminaive.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax served from the site itself: formulas render offline
    "sphinx.ext.intersphinx",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

exclude_patterns = ["_build", "generated/*.py", "generated/reproducing_tables.rst", "**.ipynb_checkpoints", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "auto_examples/*.json", "auto_examples/*.md5"]
templates_path = ["_templates"]
autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
intersphinx_mapping = {"python": ("https://docs.python.org/3", None)} if os.environ.get("DOCS_ONLINE") else {}

sphinx_gallery_conf = {
    "examples_dirs": os.path.join(HERE, "..", "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "abort_on_example_error": True,
    "show_memory": False,
    "write_computation_times": False,  # those pages load jQuery and DataTables from CDNs
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "reference_url": {"seminaive": None},
}

html_theme = "pydata_sphinx_theme"
html_title = "seminaive"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "navbar_end": ["navbar-icon-links"],
    "icon_links": [],
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_static_path = []
html_context = {"default_mode": "light"}
html_show_sourcelink = False
suppress_warnings = ["config.cache"]
