"""The content model: a paper's lessons as frozen dataclasses.

The loader (``generator.content``) builds these from YAML, field by field, from
the type hints below: a field without a default is required, a key that is not a
field is an error. Docstrings under fields are the authoring reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from ..values import Precision


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

    @property
    def scalar(self) -> bool:
        """Whether its shape is the word ``scalar``, which every output writes as a word, not as math."""
        return self.shape.strip() == "scalar"


@dataclass(frozen=True)
class Concept:
    """A term and its definition; becomes a Concept note."""

    id: str
    """Unique across the whole content: lowercase words joined by hyphens (``sdpa-why-scale``).
    Never change it once published: Anki knows the note by it."""
    term: Markdown
    """The term, as the paper names it (may hold \\( \\) math)."""
    definition: Markdown
    """What it means, in a sentence or two (Markdown with math)."""
    source: str
    """Where the paper says it: a label such as ``S3.2.1``."""
    reverse: bool = False
    """Also ask definition → term (then the definition must not contain the term)."""
    draft: bool = False
    """Written by ``paperdeck import`` for you to review: ``check`` lists it and ``build``
    leaves it out (``build --drafts`` keeps it); delete the line once it is right."""
    cells: tuple[str, ...] = ()
    """Table cells the item states, each as ``row words / column words`` of the table it cites
    (``Transformer (big) / EN-DE``; another table: ``S6.T3 big / BLEU``): with a source index,
    ``check`` finds a table's values only in the cells the item names (docs/grounding.md)."""
    also: tuple[str, ...] = ()
    """Other labels the item states facts from (``S5.2``), beside its ``source``: with a source
    index, ``check`` grounds its numbers and quotes there too (docs/grounding.md)."""


@dataclass(frozen=True)
class Equation:
    """An equation of the paper with its symbols."""

    id: str
    """Unique across the whole content: lowercase words joined by hyphens (``sdpa-why-scale``).
    Never change it once published: Anki knows the note by it."""
    name: Markdown
    """What the equation is called (``Scaled dot-product attention``)."""
    label: str
    """Source label: ``S3.E1`` for numbered equations, the section for unnumbered ones."""
    latex: Latex
    """The equation as LaTeX, without delimiters."""
    variables: tuple[Variable, ...]
    """Its symbols, at least one, each with shape and meaning."""
    deep_dive: Markdown = ""
    """Why the equation looks the way it does (Markdown with math)."""
    derived: tuple[Latex, ...] = ()
    """Arithmetic behind a number the item states but does not work out (``320 = 10 \\times 32``):
    with a source index, ``check`` recomputes it and grounds the result (docs/grounding.md)."""
    draft: bool = False
    """Written by ``paperdeck import`` for you to review: ``check`` lists it and ``build``
    leaves it out (``build --drafts`` keeps it); delete the line once it is right."""


@dataclass(frozen=True)
class WorkedExample:
    """A computation worked in full; its result is recomputed when content loads."""

    id: str
    """Unique across the whole content: lowercase words joined by hyphens (``sdpa-why-scale``).
    Never change it once published: Anki knows the note by it."""
    title: Markdown
    """What is computed (``Attention of one query over two keys``)."""
    source: str
    """Where the paper says it: a label such as ``S3.2.1`` (section), ``S3.E1`` (equation),
    ``S4.T1`` (table), ``S3.F1`` (figure) or ``SA`` (appendix)."""
    problem: str
    """Problem type whose ``solve`` recomputes it (``sdpa``): a built-in type or one in
    the project's ``problems/`` folder."""
    given: dict[str, Any]
    """Inputs, named as that problem type names its givens (see the problem types below)."""
    steps: tuple[Markdown, ...]
    """The explanation, one Markdown paragraph per step."""
    result: dict[str, Any]
    """Stated results, named as the problem type names its answers (any of them);
    each is recomputed from ``given`` when content loads."""
    tolerance: float = 1e-6
    """Largest absolute difference allowed between stated and recomputed results."""
    task: Markdown = ""
    """The question the example answers, as its card states it (Markdown with math).
    Empty: the card asks it as the problem type's prompt does for these givens, which
    names that type's computation (``layer-norm`` asks for a layer normalisation)."""
    precision: Precision | None = None
    """The digits the ``task`` asks for, ``{decimals: 3}`` or ``{figures: 3}``, as the task says
    in words: the card shows the result to them (else in full)."""
    derived: tuple[Latex, ...] = ()
    """Arithmetic behind a number the item states but does not work out (``320 = 10 \\times 32``):
    with a source index, ``check`` recomputes it and grounds the result (docs/grounding.md)."""
    draft: bool = False
    """Written by ``paperdeck import`` for you to review: ``check`` lists it and ``build``
    leaves it out (``build --drafts`` keeps it); delete the line once it is right."""


@dataclass(frozen=True)
class Flashcard:
    """A question and answer card."""

    id: str
    """Unique across the whole content: lowercase words joined by hyphens (``sdpa-why-scale``).
    Never change it once published: Anki knows the note by it."""
    front: Markdown
    """The question: one question, Markdown with math."""
    back: Markdown
    """The answer: one idea, short enough to recall whole (``check`` warns above 170
    characters of plain text)."""
    source: str
    """Where the paper says it: a label such as ``S3.2.1`` (section), ``S3.E1`` (equation),
    ``S4.T1`` (table), ``S3.F1`` (figure) or ``SA`` (appendix)."""
    explanation: Markdown = ""
    """Why, or more detail; shown smaller under the back."""
    draft: bool = False
    """Written by ``paperdeck import`` for you to review: ``check`` lists it and ``build``
    leaves it out (``build --drafts`` keeps it); delete the line once it is right."""
    cells: tuple[str, ...] = ()
    """Table cells the item states, each as ``row words / column words`` of the table it cites
    (``Transformer (big) / EN-DE``; another table: ``S6.T3 big / BLEU``): with a source index,
    ``check`` finds a table's values only in the cells the item names (docs/grounding.md)."""
    given: tuple[float, ...] = ()
    """Numbers the item invents as an exercise's input (not the paper's): ``check`` does not look
    for them in the paper (docs/grounding.md)."""
    also: tuple[str, ...] = ()
    """Other labels the item states facts from (``S5.2``), beside its ``source``: with a source
    index, ``check`` grounds its numbers and quotes there too (docs/grounding.md)."""
    derived: tuple[Latex, ...] = ()
    """Arithmetic behind a number the item states but does not work out (``320 = 10 \\times 32``):
    with a source index, ``check`` recomputes it and grounds the result (docs/grounding.md)."""


@dataclass(frozen=True)
class Cloze:
    """A sentence or equation with parts blanked as ``{{c1::…}}``."""

    id: str
    """Unique across the whole content: lowercase words joined by hyphens (``sdpa-why-scale``).
    Never change it once published: Anki knows the note by it."""
    text: Markdown
    """The text with parts hidden as ``{{c1::…}}`` (``{{c2::…}}`` for a second card);
    inside math end a hidden part that ends in ``}`` with a space: ``{{c1::\\sqrt{d_k} }}``."""
    source: str
    """Where the paper says it: a label such as ``S3.2.1`` (section), ``S3.E1`` (equation),
    ``S4.T1`` (table), ``S3.F1`` (figure) or ``SA`` (appendix)."""
    extra: Markdown = ""
    """Shown on the back under the text."""
    draft: bool = False
    """Written by ``paperdeck import`` for you to review: ``check`` lists it and ``build``
    leaves it out (``build --drafts`` keeps it); delete the line once it is right."""
    cells: tuple[str, ...] = ()
    """Table cells the item states, each as ``row words / column words`` of the table it cites
    (``Transformer (big) / EN-DE``; another table: ``S6.T3 big / BLEU``): with a source index,
    ``check`` finds a table's values only in the cells the item names (docs/grounding.md)."""
    given: tuple[float, ...] = ()
    """Numbers the item invents as an exercise's input (not the paper's): ``check`` does not look
    for them in the paper (docs/grounding.md)."""
    also: tuple[str, ...] = ()
    """Other labels the item states facts from (``S5.2``), beside its ``source``: with a source
    index, ``check`` grounds its numbers and quotes there too (docs/grounding.md)."""
    derived: tuple[Latex, ...] = ()
    """Arithmetic behind a number the item states but does not work out (``320 = 10 \\times 32``):
    with a source index, ``check`` recomputes it and grounds the result (docs/grounding.md)."""


@dataclass(frozen=True)
class Choice:
    """A wrong option of a multiple-choice question."""

    text: Markdown
    """The wrong option as shown (Markdown with math)."""
    mistake: Markdown
    """The named mistake that leads to this option."""


@dataclass(frozen=True)
class Question:
    """A quiz question of one of four types."""

    id: str
    """Unique across the whole content: lowercase words joined by hyphens (``sdpa-why-scale``).
    Never change it once published: Anki knows the note by it."""
    type: QuestionType
    """``multiple_choice``, ``true_false``, ``numeric`` or ``short_answer``."""
    prompt: Markdown
    """The question as asked (Markdown with math)."""
    source: str
    """Where the paper says it: a label such as ``S3.2.1`` (section), ``S3.E1`` (equation),
    ``S4.T1`` (table), ``S3.F1`` (figure) or ``SA`` (appendix)."""
    answer: Any
    """Option text (multiple choice), true/false, a number (numeric) or a model answer."""
    distractors: tuple[Choice, ...] = ()
    """Wrong options, multiple choice only: at least two, each naming its mistake."""
    tolerance: float | None = None
    """Largest absolute difference accepted, numeric only (required there; 0 for exact)."""
    precision: Precision | None = None
    """The digits a numeric answer is given to, ``{decimals: 4}`` or ``{figures: 3}`` (required
    with a tolerance above 0): the prompt says it in words ("Give 4 decimals"), the tolerance
    lies between half a unit and one unit of its last place, keys print the answer to it and
    an answer sheet's digit grid has its places."""
    unit: Markdown = ""
    """Unit of a numeric answer, if any (Markdown with math: ``\\(\\mathrm{s}^{-1}\\)``)."""
    explanation: Markdown = ""
    """Why the answer is right, shown in keys and on the back of cards."""
    needs: tuple[str, ...] = ()
    """Values a student cannot work out by hand, as ``exp(x)`` or ``sqrt(x)``: a quiz
    without calculators prints them in a table under the question."""
    calculator: bool = False
    """Needs a calculator (sin, cos, powers): a quiz without calculators cannot hold it."""
    figure: str = ""
    """The id of a visual (in any lesson) the question is about, shown with the question wherever
    it is: under its prompt on the Anki card, the site, the printed form, its worked key and a
    student's feedback (with the visual's caption, which is also its alt text), and in the LMS exports."""
    draft: bool = False
    """Written by ``paperdeck import`` for you to review: ``check`` lists it and ``build``
    leaves it out (``build --drafts`` keeps it); delete the line once it is right."""
    cells: tuple[str, ...] = ()
    """Table cells the item states, each as ``row words / column words`` of the table it cites
    (``Transformer (big) / EN-DE``; another table: ``S6.T3 big / BLEU``): with a source index,
    ``check`` finds a table's values only in the cells the item names (docs/grounding.md)."""
    given: tuple[float, ...] = ()
    """Numbers the item invents as an exercise's input (not the paper's): ``check`` does not look
    for them in the paper (docs/grounding.md)."""
    also: tuple[str, ...] = ()
    """Other labels the item states facts from (``S5.2``), beside its ``source``: with a source
    index, ``check`` grounds its numbers and quotes there too (docs/grounding.md)."""
    derived: tuple[Latex, ...] = ()
    """Arithmetic behind a number the item states but does not work out (``320 = 10 \\times 32``):
    with a source index, ``check`` recomputes it and grounds the result (docs/grounding.md)."""


@dataclass(frozen=True)
class Visual:
    """A figure drawn from the paper's math."""

    id: str
    """Unique across the whole content: lowercase words joined by hyphens (``sdpa-why-scale``).
    Never change it once published: Anki knows the note by it."""
    kind: str
    """A visual kind (``paperdeck list`` and the visual kinds below show them)."""
    caption: Markdown
    """Shown under the figure (Markdown with math)."""
    source: str
    """Where the paper says it: a label such as ``S3.2.1`` (section), ``S3.E1`` (equation),
    ``S4.T1`` (table), ``S3.F1`` (figure) or ``SA`` (appendix)."""
    params: dict[str, Any] | None = None
    """The kind's parameters; ``example: <worked example id>`` draws that example."""
    label_cards: bool = False
    """Also make a label-the-part card for each labelled part (diagram kinds only: the
    paper's figures ``transformer-architecture`` and ``attention-blocks``)."""
    draft: bool = False
    """Written by ``paperdeck import`` for you to review: ``check`` lists it and ``build``
    leaves it out (``build --drafts`` keeps it); delete the line once it is right."""

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
    """What it is called."""
    url: str
    """Where it is: an ``http://`` or ``https://`` address (no other scheme becomes a link)."""
    note: Markdown = ""
    """Why to read or watch it."""


@dataclass(frozen=True)
class Lesson:
    """One lesson, in teaching order."""

    id: str
    """Equal to the file name without ``.yaml``."""
    title: Markdown
    """The lesson's title; decks name its subdeck ``NN title``."""
    sources: tuple[str, ...]
    """Sections and labels the lesson covers (``S3.2.1``, ``S3.E1``); the study guide and
    ``paperdeck list`` show them (items carry their own ``source``)."""
    text: Markdown
    """The lesson itself, Markdown with \\( \\) and \\[ \\] math."""
    concepts: tuple[Concept, ...] = ()
    """Terms and definitions."""
    equations: tuple[Equation, ...] = ()
    """Equations with their symbols."""
    worked_examples: tuple[WorkedExample, ...] = ()
    """Computations worked step by step, recomputed on load."""
    flashcards: tuple[Flashcard, ...] = ()
    """Question-and-answer cards."""
    clozes: tuple[Cloze, ...] = ()
    """Fill-in-the-blank cards."""
    questions: tuple[Question, ...] = ()
    """Quiz questions (also cards in decks)."""
    visuals: tuple[Visual, ...] = ()
    """Figures drawn from the math."""
    resources: tuple[Resource, ...] = ()
    """Things to read or watch beside the lesson."""
    also: tuple[str, ...] = ()
    """Other labels the lesson's text states facts from, beside its ``sources`` and not shown
    as them (a table of results quoted in passing): with a source index, ``check`` grounds its
    numbers and quotes there too (docs/grounding.md)."""
    derived: tuple[Latex, ...] = ()
    """Arithmetic behind a number the lesson's text states but does not work out
    (``2.3 \\cdot 10^{19} / (1.2 \\cdot 10^{20}) = 0.19``): ``check`` recomputes it (docs/grounding.md)."""


@dataclass(frozen=True)
class Constant:
    """A value the paper states once and cards use anywhere (``d_model = 512`` at S3.1)."""

    symbol: Latex
    """The symbol as LaTeX (``d_{\\text{model}}``); a card that writes it may state the value."""
    value: float
    """Its value in the paper."""
    source: str
    """Where the paper states it: a label such as ``S3.1``; ``check`` finds the value there."""


@dataclass(frozen=True)
class FigureText:
    """Words a figure of the paper shows in its image, which the paper's LaTeX does not hold."""

    source: str
    """The figure's label (``S3.F1``)."""
    text: tuple[str, ...]
    """Each phrase as the image shows it (``Add & Norm``): a card may quote it."""


@dataclass(frozen=True)
class Paper:
    """The paper and its lessons in teaching order (``content/paper.yaml``)."""

    id: str
    """Short name used as the root of tags (``aiayn``)."""
    title: str
    """The paper's title."""
    authors: tuple[str, ...]
    """Authors in the paper's order."""
    year: int
    """Year of publication."""
    arxiv: str
    """arXiv id, quoted so YAML keeps it text (``"1706.03762"``)."""
    lessons: tuple[str, ...]
    """Lesson ids in teaching order; each is ``content/lessons/<id>.yaml``."""
    resources: tuple[Resource, ...] = ()
    """Things to read or watch about the whole paper."""
    paper: Literal["a4", "letter"] | None = None
    """The project's paper size for printed documents; a recipe's ``paper`` and ``--paper`` override it."""
    constants: tuple[Constant, ...] = ()
    """The paper's constants that cards state away from their section, each declared once with
    its label: with a source index, ``check`` grounds them there (docs/grounding.md)."""
    figure_text: tuple[FigureText, ...] = ()
    """Words the paper's figures show as images, declared once per figure: with a source index,
    ``check`` finds a card's quote of a figure there (docs/grounding.md)."""


@dataclass(frozen=True)
class Content:
    """Everything loaded from ``content/``."""

    paper: Paper
    lessons: tuple[Lesson, ...]
    """In teaching order, as paper.yaml lists them."""
    places: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    """Where each item is written, by id (``content/lessons/03-sdpa.yaml:14``): an error met
    while an output is made of an item names it there (``documents.items.item_errors``)."""
