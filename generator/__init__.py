"""paperdeck: turn a research paper into Anki decks, printable quizzes and practice."""

from importlib import resources

__version__ = "0.1.0"

SHARED_SCRIPTS = ("answers.js", "today.js")
"""The ES5 scripts in ``generator/`` that the cards and the study site both run: the answer rule
and the day's problem."""


def shared_script(name: str) -> str:
    """The text of one of ``SHARED_SCRIPTS``."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
