"""The comparison report opened in a real headless Chromium: it loads, every image it references
loads, the browser reports no error; a screenshot is kept under build/screenshots/."""

import importlib.util
import pathlib

import pytest

from seminaive.cli.main import main

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_pages", ROOT / "scripts" / "check_pages.py")
check_pages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_pages)


def _browser_missing():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    if check_pages.find_chromium() is None:
        return "no Chromium on this machine (apt-get install chromium, or set CHROMIUM)"
    return None


def test_report_html_renders_in_headless_chromium(tmp_path, capsys):
    why = _browser_missing()
    if why:
        print(f"skipped: {why}")
        pytest.skip(why)
    out = tmp_path / "report"
    assert main(["compare", "--datasets", "iris,weather.nominal", "--models", "nb,nb-sigmoid,1r", "--cv", "3",
                 "--out", str(out)]) == 0
    shots = ROOT / "build" / "screenshots"
    (result,) = check_pages.check_pages([(out / "report.html").as_uri()], str(shots))
    assert result["title"] == "seminaive comparison"
    assert {src for src, _ in result["images"]} == {"accuracy.png", "cpu_time.png", "reliability.png"}
    assert result["problems"] == []
    assert pathlib.Path(result["screenshot"]).read_bytes()[:4] == b"\x89PNG"


def test_a_broken_image_is_seen(tmp_path):
    """The check can fail: a page with a missing image and a script error is reported."""
    why = _browser_missing()
    if why:
        pytest.skip(why)
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><html><head><title>bad</title></head><body><img src='missing.png'>"
                    "<script>undefined_function()</script></body></html>")
    (result,) = check_pages.check_pages([page.as_uri()])
    text = " ".join(result["problems"])
    assert "image not loaded: missing.png" in text and "undefined_function" in text
