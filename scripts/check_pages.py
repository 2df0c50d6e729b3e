"""Open HTML pages in a real headless Chromium and check them: the page loads, every image it
references loads, and the browser reports no console error, failed request or page error; a
screenshot of each page is written. Used by the report test (tests/test_report_browser.py) and
by ``make docs`` on the built site:

    python scripts/check_pages.py docs/_build/html [--screenshots docs/_build/screenshots]

Needs the ``playwright`` package and a Chromium (Debian's ``chromium`` at ``/usr/bin/chromium``,
or ``$CHROMIUM``); :func:`find_chromium` says which, or None.
"""

import os
import shutil

__all__ = ["find_chromium", "check_pages"]

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def find_chromium():
    """The path of a Chromium executable, or None."""
    for path in (os.environ.get("CHROMIUM"), shutil.which("chromium"), shutil.which("chromium-browser"),
                 "/usr/bin/chromium"):
        if path and os.path.exists(path):
            return path
    return None


def check_pages(urls, screenshot_dir=None, width=1280, height=900):
    """For each URL: ``{"url", "title", "images": [(src, loaded)], "problems": [...], "screenshot"}``.
    A problem is a console error, a page error, a failed request or an image that did not load."""
    from playwright.sync_api import sync_playwright
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=ARGS)
        try:
            for url in urls:
                page = browser.new_page(viewport={"width": width, "height": height})
                problems = []
                page.on("console", lambda m, pr=problems: pr.append(f"console {m.type}: {m.text}")
                        if m.type == "error" else None)
                page.on("pageerror", lambda e, pr=problems: pr.append(f"page error: {e}"))
                page.on("requestfailed", lambda r, pr=problems: pr.append(f"request failed: {r.url}"))
                page.goto(url, wait_until="load")
                images = page.evaluate("Array.from(document.images).map(i => [i.getAttribute('src'), "
                                       "i.complete && i.naturalWidth > 0])")
                problems += [f"image not loaded: {src}" for src, ok in images if not ok]
                shot = None
                if screenshot_dir:
                    os.makedirs(screenshot_dir, exist_ok=True)
                    parts = url.rstrip("/").split("/")
                    name = "-".join(parts[-2:]).replace(".html", "")
                    shot = os.path.join(screenshot_dir, f"{name}.png")
                    page.screenshot(path=shot, full_page=True)
                out.append({"url": url, "title": page.title(), "images": images, "problems": problems,
                            "screenshot": shot})
                page.close()
        finally:
            browser.close()
    return out


def main():
    import argparse
    import pathlib
    import sys
    ap = argparse.ArgumentParser(description="check every HTML page of a built site in headless Chromium")
    ap.add_argument("site")
    ap.add_argument("--screenshots", default=None)
    args = ap.parse_args()
    if find_chromium() is None:
        sys.exit("check_pages: no Chromium found (apt-get install chromium, or set CHROMIUM)")
    root = pathlib.Path(args.site).resolve()
    pages = sorted(p for p in root.rglob("*.html") if "_sources" not in p.parts and "_static" not in p.parts)
    results = check_pages([p.as_uri() for p in pages], args.screenshots)
    bad = [(r["url"], p) for r in results for p in r["problems"]]
    for url, problem in bad:
        print(f"{url}: {problem}", file=sys.stderr)
    n_images = sum(len(r["images"]) for r in results)
    print(f"checked {len(results)} pages and {n_images} images in headless Chromium: "
          f"{'no problems' if not bad else f'{len(bad)} problems'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
