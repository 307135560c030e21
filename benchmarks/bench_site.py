"""The study site: its size, and how soon each page is interactive in headless Chromium.

Run from the repository root (not part of the test suite; needs Debian's chromium and
the test extra's playwright):

    python benchmarks/bench_site.py

Builds the shipped site recipe (``decks/aiayn-site.yaml``) into a temporary folder,
reports its size (the budget is 8 MB) and, for every page opened from ``file://`` at
360 px, the time from navigation until the first frame after the page's script has
run (parsed, every control wired, laid out and painted): the median of 5 loads and
the slowest. The target is 300 ms
per lesson page. A one-line HTML page's time, loaded the same way in the same
run, is printed as the reference (machines of this kind differ up to 3×).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from generator.commands.build import build_recipe  # noqa: E402
from generator.project import open_project  # noqa: E402
from generator.project.kinds import BuildOptions  # noqa: E402

BUDGET_BYTES = 8 * 1024 * 1024
TARGET_MS = 300.0
LOADS = 5
_WATCH = (
    "document.addEventListener('DOMContentLoaded', () => requestAnimationFrame(() =>"
    " setTimeout(() => { window.pdInteractive = performance.now(); })));"
)
"""Run before the page's own scripts: notes the first frame after they ran (parsed, scripted,
laid out, painted), in ms since navigation started, inside the page (no driver latency)."""


def _interactive_ms(page, url: str) -> float:
    page.goto(url)
    page.wait_for_function("window.pdInteractive !== undefined")
    return float(page.evaluate("window.pdInteractive"))


def main() -> int:
    project = open_project(ROOT)
    with tempfile.TemporaryDirectory() as folder_name:
        out = Path(folder_name)
        start = time.perf_counter()
        build_recipe(project, project.recipes["aiayn-site"], out, BuildOptions(seed=1))
        built = time.perf_counter() - start
        site = out / "aiayn-site"
        files = [p for p in site.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        print(
            f"site: {len(files)} files, {size / 1e6:.2f} MB ({size / BUDGET_BYTES:.0%} of the 8 MB budget),"
            f" built in {built:.2f} s (figures cached: {'yes' if built < 10 else 'no'})"
        )
        for kind, pattern in (("pages", "*.html"), ("figures", "figures/*"), ("assets", "assets/*")):
            print(f"  {kind}: {sum(p.stat().st_size for p in site.glob(pattern)) / 1e6:.2f} MB")
        reference = out / "reference.html"
        reference.write_text("<!doctype html><title>x</title><p>x</p>")
        sizes = {p.name: p.stat().st_size for p in site.glob("*.html")}
        times: dict[str, list[float]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 360, "height": 780})
            page.add_init_script(_WATCH)
            names = ["reference.html"] + sorted(p.name for p in site.glob("*.html"))
            for _ in range(LOADS):
                for name in names:
                    path = reference if name == "reference.html" else site / name
                    times.setdefault(name, []).append(_interactive_ms(page, path.as_uri()))
            browser.close()
    print(
        "interactive at 360 px in headless Chromium (ms to the first frame after the script ran,"
        f" median of {LOADS} loads / slowest):"
    )
    worst = 0.0
    for name, values in times.items():
        size_kb = sizes.get(name, 0) / 1e3
        median = statistics.median(values)
        if name not in ("reference.html", "index.html"):
            worst = max(worst, median)
        print(f"  {name:42s} {median:7.1f} {max(values):7.1f}   {size_kb:6.0f} kB")
    print(
        f"slowest lesson page: {worst:.1f} ms median (target {TARGET_MS:.0f} ms;"
        f" {worst / statistics.median(times['reference.html']):.1f}x the one-line page)"
    )
    ok = size <= BUDGET_BYTES and worst <= TARGET_MS
    print("target met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
