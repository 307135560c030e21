"""The teacher's secret: every quiz form's seed derives from it.

Students have the same tool as the teacher, so a seed printed on a form, or one
that could be worked out from what it prints, would hand them the key through
``paperdeck problems``. Form seeds are therefore an HMAC of this secret
(``quiz.form_seed``). It is made on first use as ``.paperdeck-secret`` in the
project folder (readable by its owner only), kept out of version control
(``.gitignore``), and should be backed up: without it the same ``--seed`` no
longer makes the same forms.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

from ..errors import UsageError

FILE_NAME = ".paperdeck-secret"
ENVIRONMENT = "PAPERDECK_SECRET"
"""An environment variable that, when set, is the secret instead of the file (CI, shared machines)."""


def load_secret(folder: Path, say: Callable[[str], None]) -> bytes:
    """The secret kept in ``folder``, made there on first use (``say`` tells the user)."""
    from_environment = os.environ.get(ENVIRONMENT, "").strip()
    if from_environment:
        return from_environment.encode("utf-8")
    path = folder / FILE_NAME
    if os.path.lexists(path) and not path.is_file():
        raise UsageError(f"{path} is not a file; it should hold your secret (move it away to make a new one)")
    if path.is_file():
        text = path.read_text(encoding="utf-8").strip()
        if len(text) < 32:
            raise UsageError(f"{path}: the secret is too short (delete the file to make a new one)")
        return text.encode("utf-8")
    text = secrets.token_hex(32)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        raise UsageError(f"cannot make the secret {path}: {error.strerror}") from None
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text + "\n")
    say(f"created {path}: the secret your quiz seeds derive from; keep it, and keep it out of git")
    return text.encode("utf-8")
