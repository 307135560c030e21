"""The content model: a paper's lessons as frozen dataclasses.

The loader (``generator.content``) builds these from YAML, field by field, from
the type hints below: a field without a default is required, a key that is not a
field is an error. Docstrings under fields are the authoring reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal


@dataclass(frozen=True)
class MathKind:
    """Marks a text field that holds math, so the loader checks it (``Annotated[str, MARKDOWN]``)."""

    name: str
    description: str


MARKDOWN = MathKind("markdown", "Markdown with LaTeX math inside \\( … \\) and \\[ … \\]")
LATEX = MathKind("latex", "LaTeX math without delimiters")

Markdown = Annotated[str, MARKDOWN]
"""Text that may hold math: Markdown with \\( \\) and \\[ \\] LaTeX."""
Latex = Annotated[str, LATEX]
"""LaTeX math without delimiters (``d_k``, ``n \\times d``)."""

QuestionType = Literal["multiple_choice", "true_false", "numeric", "short_answer"]


@dataclass(frozen=True)
class Variable:
    """A symbol of an equation."""

    symbol: Latex
    """LaTeX for the symbol, without delimiters (``d_k``)."""
    shape: Latex
    """Shape as LaTeX (``n_q \\times d_k``) or ``scalar``."""
    meaning: Markdown
    """What it stands for, in words (may hold \\( \\) math)."""


@dataclass(frozen=True)
class Concept:
    """A term and its definition; becomes a Concept note."""

    id: str
    term: Markdown
    definition: Markdown
    source: str
    """Paper label such as ``S3.2.1``."""
    reverse: bool = False
    """Also ask definition → term."""


@dataclass(frozen=True)
class Equation:
    """An equation of the paper with its symbols."""

    id: str
    name: Markdown
    """What the equation is called (``Scaled dot-product attention``)."""
    label: str
    """Source label: ``S3.E1`` for numbered equations, the section for unnumbered ones."""
    latex: Latex
    """The equation as LaTeX, without delimiters."""
    variables: tuple[Variable, ...]
    deep_dive: Markdown = ""
    """Why the equation looks the way it does (Markdown with math)."""


@dataclass(frozen=True)
class WorkedExample:
    """A computation worked in full; its result is recomputed when content loads."""

    id: str
    title: Markdown
    source: str
    problem: str
    """Problem type whose ``solve`` recomputes it (``sdpa``)."""
    given: dict[str, Any]
    """Inputs, named as that problem type names its givens."""
    steps: tuple[Markdown, ...]
    """The explanation, one Markdown paragraph per step."""
    result: dict[str, Any]
    """Stated results, a subset of the problem type's answer keys."""
    tolerance: float = 1e-6
    """Largest absolute difference allowed between stated and recomputed results."""


@dataclass(frozen=True)
class Flashcard:
    """A question and answer card."""

    id: str
    front: Markdown
    back: Markdown
    """The answer: one idea, short enough to recall whole (at most 170 characters)."""
    source: str
    explanation: Markdown = ""
    """Why, or more detail; shown smaller under the back."""


@dataclass(frozen=True)
class Cloze:
    """A sentence or equation with parts blanked as ``{{c1::…}}``."""

    id: str
    text: Markdown
    source: str
    extra: Markdown = ""
    """Shown on the back under the text."""


@dataclass(frozen=True)
class Choice:
    """A wrong option of a multiple-choice question."""

    text: Markdown
    mistake: Markdown
    """The named mistake that leads to this option."""


@dataclass(frozen=True)
class Question:
    """A quiz question of one of four types."""

    id: str
    type: QuestionType
    prompt: Markdown
    source: str
    answer: Any
    """Option text (multiple choice), true/false, a number (numeric) or a model answer."""
    distractors: tuple[Choice, ...] = ()
    """Wrong options, multiple choice only."""
    tolerance: float | None = None
    """Absolute tolerance, numeric only."""
    unit: str = ""
    """Unit of a numeric answer, if any."""
    explanation: Markdown = ""
    """Why the answer is right, shown in keys and on the back of cards."""
    needs: tuple[str, ...] = ()
    """Values a student cannot work out by hand, as ``exp(x)`` or ``sqrt(x)``: a quiz
    without calculators prints them in a table under the question."""
    calculator: bool = False
    """Needs a calculator (sin, cos, powers): a quiz without calculators cannot hold it."""


@dataclass(frozen=True)
class Visual:
    """A figure drawn from the paper's math."""

    id: str
    kind: str
    """A visual kind registered in ``generator.visuals``."""
    caption: Markdown
    source: str
    params: dict[str, Any] | None = None
    """The kind's parameters; ``example: <worked example id>`` draws that example."""

    def resolved(self, examples: Mapping[str, WorkedExample]) -> Visual:
        """This visual with ``example`` replaced by the example's givens and problem type."""
        params = dict(self.params or {})
        example_id = params.pop("example", None)
        if example_id is not None:
            example = examples[example_id]
            params["given"] = example.given
            params["problem"] = example.problem
        return replace(self, params=params)


@dataclass(frozen=True)
class Resource:
    """Something to read or watch beside the lesson."""

    title: str
    url: str
    note: Markdown = ""


@dataclass(frozen=True)
class Lesson:
    """One lesson, in teaching order."""

    id: str
    """Equal to the file name without ``.yaml``."""
    title: Markdown
    sources: tuple[str, ...]
    """Sections and labels the lesson covers; the first names its tag."""
    text: Markdown
    """The lesson itself, Markdown with \\( \\) and \\[ \\] math."""
    concepts: tuple[Concept, ...] = ()
    equations: tuple[Equation, ...] = ()
    worked_examples: tuple[WorkedExample, ...] = ()
    flashcards: tuple[Flashcard, ...] = ()
    clozes: tuple[Cloze, ...] = ()
    questions: tuple[Question, ...] = ()
    visuals: tuple[Visual, ...] = ()
    resources: tuple[Resource, ...] = ()


@dataclass(frozen=True)
class Paper:
    """The paper and its lessons in teaching order (``content/paper.yaml``)."""

    id: str
    """Short name used as the root of tags (``aiayn``)."""
    title: str
    authors: tuple[str, ...]
    year: int
    arxiv: str
    lessons: tuple[str, ...]
    """Lesson ids in teaching order; each is ``content/lessons/<id>.yaml``."""
    resources: tuple[Resource, ...] = ()
    paper: Literal["a4", "letter"] | None = None
    """The project's paper size for printed documents; a recipe's ``paper`` and ``--paper`` override it."""


@dataclass(frozen=True)
class Content:
    """Everything loaded from ``content/``."""

    paper: Paper
    lessons: tuple[Lesson, ...]
    """In teaching order, as paper.yaml lists them."""
