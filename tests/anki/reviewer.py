"""Anki's own reviewer page in headless Chromium, to show cards as a learner sees them.

The page loads what Anki desktop's reviewer loads (``aqt``'s ``reviewer.js``,
its MathJax configuration and MathJax itself, taken from the ``aqt`` wheel of the
installed Anki version) and shows a card with ``_showQuestion`` and
``_showAnswer``, as Anki does: scripts run, then MathJax typesets, then Anki calls its
``onShownHook``, where a script added at the side's end tells the test it is shown. ``Date`` is
replaced so a test can set the day. A phone (AnkiDroid, AnkiMobile) loads a
fresh page for the answer side: ``reload`` does that.

Needs Chromium's headless shell and its driver (Debian's ``chromium-headless-shell`` and
``chromium-driver``, which ``make test`` installs: ``tests/browser.py``) and Selenium; the
``aqt`` wheel is downloaded from PyPI once into ``.venv/anki-web`` (only its web files are
used, not Qt). ``make test`` downloads it while it installs the test tools
(``python -m tests.anki.reviewer``), so that the first card test does not.
"""

from __future__ import annotations

import hashlib
import http.server
import importlib.metadata
import shutil
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from ..browser import chromium

ROOT = Path(__file__).resolve().parents[2]

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<script>
(function () {  // a settable clock: window.__pdNow (ms), or the real time when null
  var Real = Date;
  window.__pdNow = null;
  function now() { return window.__pdNow === null ? Real.now() : window.__pdNow; }
  function FakeDate() {
    if (!(this instanceof FakeDate)) { return new Real(now()).toString(); }
    if (arguments.length === 0) { return new Real(now()); }
    var args = [null].concat(Array.prototype.slice.call(arguments));
    return new (Function.prototype.bind.apply(Real, args))();
  }
  FakeDate.prototype = Real.prototype;
  FakeDate.now = now; FakeDate.UTC = Real.UTC; FakeDate.parse = Real.parse;
  window.Date = FakeDate;
  window.bridgeCommand = function () {};  // Anki's webview bridge: nothing to answer here
})();
</script>
<link rel="stylesheet" href="/_anki/css/reviewer.css">
<script src="/_anki/js/mathjax.js"></script>
<script src="/_anki/js/vendor/mathjax/tex-chtml-full.js"></script>
<script src="/_anki/js/reviewer.js"></script>
<script>
window.pdHtml = {};  // each side's HTML by its hash, sent to the page once (Reviewer.show)
window.pdShow = function (side, key, bodyclass, now, done) {
  var html = window.pdHtml[key];
  window.__pdStart = performance.now();
  if (now !== null) { window.__pdNow = now; }
  // Anki empties its onShownHook before each side, then runs the side's scripts: a script the
  // side ends with hooks in, as a card's template or an add-on does. Anki calls the hook once
  // the side is in, its scripts ran and MathJax typeset it.
  window.pdShown = function () { done(window.pdState()); };
  html += "<script>onShownHook.push(window.pdShown)<\\/script>";
  if (side === "question") { _showQuestion(html, "", bodyclass); } else { _showAnswer(html, bodyclass); }
};
window.pdState = function () {  // what the shown card says (Reviewer.show)
  var card = document.querySelector('#qa .pd');
  var seed = card && card.querySelector('[data-pd="Seed"]');
  var box = card && card.querySelector('.pd-check');
  var verdict = card && card.querySelector('.pd-verdict');
  var hit = card && card.querySelector('.pd-mistake.pd-hit');
  return {variant: card && card.getAttribute('data-variant'), seed: seed && seed.textContent,
          expected: box && box.getAttribute('data-expected'),
          verdict: verdict && !verdict.hidden ? verdict.className : null,
          verdictText: verdict ? verdict.textContent : null,
          hit: hit ? hit.getAttribute('data-mistake') : null,
          math: document.querySelectorAll('#qa mjx-container').length,
          rawMath: /\\\\[(\\[]/.test(card ? card.innerText : ''),
          ms: performance.now() - window.__pdStart};
};
</script>
</head><body class="card"><div id="qa"></div></body></html>
"""


def anki_web_files() -> Path:
    """``_aqt/data/web`` of the aqt wheel matching the installed Anki, downloaded once."""
    version = importlib.metadata.version("anki")
    cache = ROOT / ".venv" / "anki-web" / version
    web = cache / "_aqt" / "data" / "web"
    if not (web / "js" / "reviewer.js").exists():
        wheels = cache / "wheel"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                "--dest",
                str(wheels),
                f"aqt=={version}",
            ],
            check=True,
        )
        (wheel,) = wheels.glob("aqt-*.whl")
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(cache, [n for n in archive.namelist() if n.startswith("_aqt/data/web/")])
    return web


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0]
        if path.startswith("/_anki/"):
            return str(self.server.web / path.removeprefix("/_anki/"))  # type: ignore[attr-defined]
        return str(self.server.folder / path.lstrip("/"))  # type: ignore[attr-defined]


class Reviewer:
    """One headless Chromium window showing Anki's reviewer page at ``width`` px."""

    def __init__(self, folder: Path, width: int = 360, height: int = 780):
        binary = chromium()
        assert shutil.which("chromedriver"), "needs Debian's chromium-driver (make test installs it)"
        (folder / "reviewer.html").write_text(PAGE, encoding="utf-8")
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.server.web = anki_web_files()  # type: ignore[attr-defined]
        self.server.folder = folder  # type: ignore[attr-defined]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        options = webdriver.ChromeOptions()
        for argument in (
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={width},{height}",
        ):
            options.add_argument(argument)
        options.binary_location = binary
        self.driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        self.browser = _browsers(self.driver.service.process.pid)
        """The browser's main process (and any script that started it), which ``close`` checks end."""
        # A desktop window is at least 500 px wide: emulate the phone's screen instead.
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        self.driver.set_script_timeout(60)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/reviewer.html"
        self.sent: set[str] = set()
        """The hashes of the card sides this page holds (``show``)."""
        self.reload()

    def reload(self, clear_storage: bool = False) -> None:
        """A fresh page, as a phone shows the answer side; optionally without session storage."""
        if clear_storage:
            self.driver.execute_script("window.sessionStorage.clear()")
        self.driver.get(self.url)
        self.sent.clear()

    def show(self, side: str, html: str, night: bool = False, day: int | None = None) -> dict[str, Any]:
        """Show a card side (``question`` or ``answer``), on the day of ``day`` (epoch ms; None: the
        page's clock as it is, the real time on a fresh page); what it then says: its problem
        (variant, seed), the key, the verdict, how much math MathJax typeset, whether any TeX
        is left raw, and how long the side took to show (``ms``).

        One call to the page sets the day, shows the side and reads it: a call took about 7 ms of
        CPU (Python, chromedriver and Chromium), three calls before. The page is sent a side's HTML
        once and keeps it by its hash: a problem card's side is about 180 KB (its note's problems),
        and sending it again for each of a test's 30 days took about a fifth of the time of showing
        it (32 ms of 165 ms a show, measured from Python)."""
        bodyclass = "card card1" + (" nightMode night_mode" if night else "")
        key = hashlib.sha256(html.encode()).hexdigest()
        if key not in self.sent:
            self.driver.execute_script("window.pdHtml[arguments[0]] = arguments[1]", key, html)
            self.sent.add(key)
        return dict(
            self.driver.execute_async_script(
                "window.pdShow(arguments[0], arguments[1], arguments[2], arguments[3], arguments[4])",
                side,
                key,
                bodyclass,
                day,
            )
        )

    def run(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def type_answer(self, text: str) -> None:
        self.run(
            "var i = document.querySelector('.pd-check input'); i.value = arguments[0];"
            "i.dispatchEvent(new Event('input'));",
            text,
        )

    def overflow(self) -> list[str]:
        """Elements whose right edge passes the window, outside boxes that scroll themselves."""
        return self.run("""
            var width = document.documentElement.clientWidth, out = [];
            var all = document.querySelectorAll('#qa *');
            for (var i = 0; i < all.length; i++) {
              var el = all[i], r = el.getBoundingClientRect();
              if (r.width === 0 || r.right <= width + 0.5) { continue; }
              var p = el.parentElement, scrolls = false;
              while (p && p.id !== 'qa') {
                var s = getComputedStyle(p);
                if ((s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden')
                    && p.getBoundingClientRect().right <= width + 0.5) { scrolls = true; break; }
                p = p.parentElement;
              }
              var parentRight = el.parentElement.getBoundingClientRect().right;
              if (!scrolls && parentRight <= width + 0.5) {  // the outermost element that sticks out
                out.push(el.tagName.toLowerCase() + '.' + el.className + ' right=' + Math.round(r.right));
              }
            }
            return out;""")

    def screenshot(self, path: Path) -> None:
        self.driver.save_screenshot(str(path))

    def close(self) -> None:
        """Quit the browser, and check that it ended (a browser left running would hold its memory
        until the machine restarts)."""
        self.driver.quit()
        self.server.shutdown()
        for _ in range(100):
            left = [pid for pid in self.browser if Path(f"/proc/{pid}").exists()]
            if not left:
                return
            time.sleep(0.1)
        raise AssertionError(f"the reviewer's browser (process {left}) outlived chromedriver")


def _browsers(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs, but Chromium's helpers (``--type=``: zygotes,
    renderers, which end on their own a second or two after the browser): Linux's /proc."""
    parent, helper = {}, set()
    for folder in Path("/proc").glob("[0-9]*"):
        try:
            parent[int(folder.name)] = int((folder / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if b"--type=" in (folder / "cmdline").read_bytes():
                helper.add(int(folder.name))
        except OSError:  # it ended meanwhile
            continue
    found, level = [], [pid]
    while level:
        level = [child for child, of in parent.items() if of in level]
        found += level
    return [process for process in found if process not in helper]


if __name__ == "__main__":
    print(anki_web_files())
