"""The errors paperdeck reports to its users.

Everything a user can cause (bad content, a bad recipe, a bad option) raises a
subclass of `PaperdeckError`; the command line turns it into a clean message and
exit code 2. Programming errors stay ordinary exceptions.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a user's input, located as precisely as we can."""

    path: str
    """File the mistake is in (as the user would type it), or '' for an option."""
    line: int
    """1-based line number, or 0 when unknown."""
    field: str
    """Dotted path of the field, such as ``equations[0].label``."""
    message: str
    """What is wrong, in one line."""

    def __str__(self) -> str:
        where = self.path
        if self.line:
            where += f":{self.line}"
        parts = [p for p in (where, self.field, self.message) if p]
        return ": ".join(parts)


class PaperdeckError(Exception):
    """Root of the errors a user can cause; the CLI exits with code 2."""

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as it is, attributes and all (a worker process sends it back so), not rebuilt
        by calling the class with its text: a subclass's ``__init__`` takes its findings."""
        return _unpickled, (type(self), self.args), self.__dict__


def _unpickled(cls: type[PaperdeckError], args: tuple[object, ...]) -> PaperdeckError:
    """An error of ``cls`` with ``args``, made without its ``__init__``; pickle restores its attributes."""
    return cls.__new__(cls, *args)


class ContentError(PaperdeckError):
    """Content or recipe files are invalid; carries every problem found."""

    def __init__(self, problems: list[Finding]):
        self.problems = sorted(problems, key=lambda p: (p.path, p.line, p.field))
        super().__init__("\n".join(str(p) for p in self.problems))


class InputError(PaperdeckError):
    """A file given to a command (a quiz key, a class's responses) cannot be used;
    carries every problem found, in the order of the file (line, then column)."""

    def __init__(self, problems: list[Finding]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(PaperdeckError):
    """A command-line option or argument is invalid."""


class ProblemInputError(PaperdeckError):
    """The givens of a problem (from content or options) are unusable."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class OutputError(PaperdeckError, OSError):
    """What a command writes cannot be written (a read-only folder, a full disk, a file in the way).

    Also an ``OSError``, so a write that may fail (a cache) still skips it as before."""


@contextmanager
def about(what: str) -> Iterator[None]:
    """Name what was being built in any error raised inside (``while building …``), as
    mkdocs names the page it was building; the command line prints it under the message."""
    try:
        yield
    except Exception as error:
        error.add_note(f"while {what}")
        raise


class ItemError(PaperdeckError):
    """A user's error met while an output was made of one item: one line naming the item and
    where it is written, then the error (``content/lessons/03-sdpa.yaml:14: visual 'sdpa-heatmap':
    visual image: …``)."""


@contextmanager
def naming(place: str, item: str) -> Iterator[None]:
    """Name the item an output is being made of in any error raised inside, once, where the
    items are walked (as mkdocs' ``_populate_page`` names its page). A user's error becomes an
    ``ItemError`` of one line, ``place: item: message``; an ``ItemError`` from an inner walk is
    left as it is, and any other exception keeps its traceback with a note naming the item."""
    try:
        yield
    except ItemError:
        raise
    except PaperdeckError as error:
        message = "; ".join(line for line in str(error).splitlines() if line)
        named = ItemError(": ".join(part for part in (place, item, message) if part))
        for note in getattr(error, "__notes__", ()):
            named.add_note(note)
        raise named from error
    except Exception as error:
        error.add_note(f"while making {item}" + (f" ({place})" if place else ""))
        raise


def report(error: BaseException) -> list[str]:
    """The lines a user reads for ``error``: its message, then what was being built."""
    return [*str(error).splitlines(), *getattr(error, "__notes__", ())]
