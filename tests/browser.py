"""The browser the tests show pages in: Debian's ``chromium-headless-shell``.

It is Chromium's own headless build, the same Blink, V8 and fonts as the desktop browser, without
the desktop browser's windowing and compositor, which a test never sees: the site's tests run in
about 60 % of the time they take in ``chromium --headless``, the card tests with a third less CPU.
Both Playwright (the study site) and Selenium's ``chromedriver`` (Anki's reviewer) drive it;
``make test`` installs it (``.ci/system-packages``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

BINARY = Path("/usr/lib/chromium/chromium-headless-shell")
"""Debian's headless shell itself. ``/usr/bin/chromium-headless-shell`` is a script that runs it
as a child, not in its place: chromedriver, ending the browser it started, ended the script, and
each reviewer's browser (six processes, about 150 MB) lived on after the tests."""
CHROMIUM = str(BINARY) if BINARY.exists() else shutil.which("chromium-headless-shell") or str(BINARY)
"""Chromium's headless shell: the executable every browser test launches."""


def chromium() -> str:
    """``CHROMIUM``, which a test that opens a browser needs: a failed assertion says what to install."""
    assert Path(CHROMIUM).exists(), "needs Debian's chromium-headless-shell (make test installs it)"
    return CHROMIUM
