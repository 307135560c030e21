"""A user's error crosses a process whole: a process pool pickles what it sends back."""

from __future__ import annotations

import pickle

import pytest

from generator.errors import ContentError, Finding, InputError, PaperdeckError, UsageError
from generator.latex import LatexError
from generator.visuals import VisualError

FINDINGS = [
    Finding("content/b.yaml", 7, "questions[2].answer", "missing"),
    Finding("content/a.yaml", 3, "lessons[0].id", "duplicate"),
]
ERRORS = [
    ContentError(FINDINGS),
    InputError(FINDINGS),
    UsageError("unknown paper size"),
    LatexError("unknown command \\foo", "\\foo"),
    VisualError(["d_model: must be positive", "steps: must be at least 1"]),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda error: type(error).__name__)
def test_an_error_is_unpickled_as_it_was(error: PaperdeckError) -> None:
    again = pickle.loads(pickle.dumps(error))
    seen = (type(again), str(again), again.args, vars(again))
    assert seen == (type(error), str(error), error.args, vars(error))
