"""Study items: the format-neutral stage between the model and the exporters.

A deck recipe (or a practice request) plus the content and a seed become a
``Deck`` of ``StudyItem``s in teaching order. Exporters read only these; they
never read YAML and never draw random numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .. import problems
from ..content.model import Content, Lesson, Paper, Visual
from ..content.recipes import DeckRecipe, GuideRecipe, ProblemSet, SiteRecipe
from ..errors import about, naming
from ..identity import option_order, problem_slot
from ..problems import variant_seed
from .checks import AnswerCheck, problem_check, question_check
from .quiz import Option, ProblemItem, QuestionFigure, QuizItem, question_figures

if TYPE_CHECKING:
    from ..visuals import Diagram, Part

#: Every kind of item, in the order a lesson presents them.
KINDS = (
    "concept",
    "equation",
    "cloze",
    "flashcard",
    "worked_example",
    "question",
    "visual",
    "label",
    "problem",
)
_LESSON_FIELDS = {
    "concept": "concepts",
    "equation": "equations",
    "cloze": "clozes",
    "flashcard": "flashcards",
    "worked_example": "worked_examples",
    "question": "questions",
    "visual": "visuals",
}


@dataclass(frozen=True)
class StudyItem:
    """One thing to study, with the identity and place the exporters need."""

    kind: str
    """One of ``KINDS``; exporters dispatch on it."""
    key: str
    """Stable identity: the content id, or a problem's slot (``aiayn/sdpa/easy/1``)."""
    group: str
    """The part of the deck it belongs to (``03 Scaled Dot-Product Attention``)."""
    source: str
    """Paper label (``S3.2.1``, ``S3.E1``)."""
    tags: tuple[str, ...]
    """Hierarchical tags (``aiayn::s3.2.1``)."""
    body: Any
    """The model object (Concept, Equation, …) or a ``problems.Problem``."""
    lesson: Lesson | None = None
    """The lesson it comes from; None for generated problems."""
    variants: tuple[Any, ...] = ()
    """For a problem: the problems its card rotates through, ``body`` first (exporters
    that show one problem use ``body``)."""
    place: str = ""
    """Where it is written (``content/lessons/03-sdpa.yaml:14``; a label card: its figure's),
    for errors; '' for generated problems."""
    figure: QuestionFigure | None = None
    """A question's figure (``Question.figure``), shown with its prompt."""

    @property
    def options(self) -> tuple[Option, ...]:
        """A question's choices in the order the card and the site show them: multiple choice
        shuffled by its key alone (``identity.option_order``), True then False; empty for
        other items. (A quiz form shuffles its own, per form: ``QuestionItem.options``.)"""
        if self.kind != "question":
            return ()
        body = self.body
        if body.type == "true_false":
            return (Option("True", body.answer is True), Option("False", body.answer is False))
        if body.type != "multiple_choice":
            return ()
        listed = [
            Option(str(body.answer), True),
            *(Option(d.text, False, d.mistake) for d in body.distractors),
        ]
        return tuple(option_order(self.key, listed))

    @cached_property
    def checks(self) -> tuple[AnswerCheck, ...]:
        """What a typed answer is checked against on the card and the site alike
        (``checks.AnswerCheck``): a problem's, one per problem of ``variants`` (``body`` alone
        if none); a numeric question's one; empty for other items."""
        if self.kind == "problem":
            return tuple(problem_check(problem) for problem in self.variants or (self.body,))
        if self.kind == "question" and self.body.type == "numeric":
            return (question_check(self.body),)
        return ()


def item_errors(item: StudyItem | QuizItem) -> AbstractContextManager[None]:
    """Name ``item`` in any error raised while an output is made of it: every exporter walks
    its items inside this, so a user's error is one line naming the file, line and item
    (``content/lessons/03-sdpa.yaml:14: visual 'sdpa-heatmap': …``), as mkdocs'
    ``_populate_page`` names its page. A generated problem is named by its slot or id, type
    and seed (which regenerates it), and by the file of a project's own type."""
    from ..problems.registry import project_file

    if isinstance(item, StudyItem) and item.kind != "problem":
        return naming(item.place, f"{item.kind.replace('_', ' ')} {item.key!r}")
    if isinstance(item, StudyItem):
        problem, key = item.body, item.key
    elif isinstance(item, ProblemItem):
        problem, key = item.problem, item.problem.id
    else:
        return naming(item.place, f"question {item.question.id!r}")
    return naming(project_file(problem.type), f"problem {key!r} ({problem.type}, seed {problem.seed})")


@dataclass(frozen=True)
class LabelCard:
    """One labelled part of a figure to name, with the figure it is hidden in."""

    visual: Visual
    """The figure (parameters resolved)."""
    part: Part
    """The part hidden on the front and named on the back."""
    diagram: Diagram
    """The figure's layout: its size and every part, to place the hidden box."""

    @property
    def covers(self) -> tuple[Part, ...]:
        """The other parts hidden with this one, plain, on every output (the card's front, the
        site's figure): drawn with the same words or named as twins, so none gives it away."""
        return self.diagram.twins(self.part)


@dataclass(frozen=True)
class Deck:
    """Everything one ``.apkg`` holds."""

    title: str
    """Top-level deck name."""
    paper_id: str
    """Root of the tags and of the identity of notes (``aiayn``)."""
    items: tuple[StudyItem, ...]
    exam: str = ""
    """The exam's date from the recipe (ISO), which paces the deck's new cards; empty: none."""
    retention: float | None = None
    """The recipe's desired retention, written into every deck of the package; None: none."""


@dataclass(frozen=True)
class Guide:
    """Everything a study guide prints: lessons' items in teaching order."""

    paper: Paper
    title: str
    items: tuple[StudyItem, ...]


@dataclass(frozen=True)
class Site:
    """Everything a study site shows: lessons' items in teaching order, each lesson
    followed by the practice problems of the types it teaches."""

    paper: Paper
    title: str
    items: tuple[StudyItem, ...]
    """Lesson items by lesson; a problem's ``group`` is the lesson that teaches its type
    (else ``Practice``), and its ``variants`` the problems its block rotates through."""
    exam: str = ""
    """The exam's date from the recipe (ISO), which the review page starts with; empty: none."""


def lesson_group(number: int, lesson: Lesson) -> str:
    """The name of a lesson's part of the deck: its number and title."""
    return f"{number:02d} {lesson.title}"


def source_tag(paper_id: str, source: str) -> str:
    """``S3.2.1`` → ``aiayn::s3.2.1``."""
    return f"{paper_id}::{source.lower()}"


def label_key(visual_id: str, part_id: str) -> str:
    """The stable key of the label card of one part of a figure: ``<visual id>--<part id>``."""
    return f"{visual_id}--{part_id}"


def _label_items(
    visual: Visual, group: str, tags: tuple[str, ...], lesson: Lesson, place: str
) -> list[StudyItem]:
    from .. import visuals

    diagram = visuals.diagram(visual.kind, visual.params)
    return [
        StudyItem(
            "label",
            label_key(visual.id, part.id),
            group,
            visual.source,
            tags,
            LabelCard(visual, part, diagram),
            lesson,
            place=place,
        )
        for part in diagram.parts
        if part.ask
    ]


def lesson_items(content: Content, lesson_ids: Iterable[str] = ()) -> list[StudyItem]:
    """The items of the chosen lessons (all if none chosen), in teaching order.

    Visuals come with their parameters resolved (see ``Visual.resolved``); a visual
    with ``label_cards`` is followed by one ``label`` item per part it asks for.
    """
    wanted = set(lesson_ids)
    examples = {e.id: e for lesson in content.lessons for e in lesson.worked_examples}
    paper_id = content.paper.id
    figures = question_figures(content)
    items = []
    for number, lesson in enumerate(content.lessons, 1):
        if wanted and lesson.id not in wanted:
            continue
        group = lesson_group(number, lesson)
        lesson_tag = f"{paper_id}::lesson::{number:02d}-{lesson.id}"
        for kind, field in _LESSON_FIELDS.items():
            for obj in getattr(lesson, field):
                if isinstance(obj, Visual):
                    obj = obj.resolved(examples)
                source = getattr(obj, "label", None) or obj.source
                tags = (source_tag(paper_id, source), lesson_tag, f"{paper_id}::kind::{kind}")
                place = content.places.get(obj.id, "")
                figure = figures.get(obj.id) if kind == "question" else None
                items.append(
                    StudyItem(kind, obj.id, group, source, tags, obj, lesson, place=place, figure=figure)
                )
                if isinstance(obj, Visual) and obj.label_cards:
                    label_tags = (*tags[:2], f"{paper_id}::kind::label")
                    with naming(place, f"visual {obj.id!r}"):
                        items.extend(_label_items(obj, group, label_tags, lesson, place))
    return items


Track = Callable[[Iterator[Any], int, str], Iterable[Any]]
"""Wraps a long iteration (items, their count, a label), e.g. in a progress bar."""


def _untracked(iterator: Iterator[Any], count: int, label: str) -> Iterable[Any]:
    return iterator


def problem_source(paper_id: str, problem_set: ProblemSet) -> tuple[str, tuple[str, ...]]:
    """Where problems of ``problem_set`` come from in the paper ``paper_id``, and the tag saying so.

    The recipe's ``source`` wins; else the type's own ``source``, when the type was
    written for this paper (a project's own type, or a built-in type in the
    Attention paper's project). A built-in type used by another paper claims no
    section of it: its items name the type instead and carry no section tag.
    """
    problem_type = problems.get(problem_set.type)
    if problem_set.source:
        return problem_set.source, (source_tag(paper_id, problem_set.source),)
    if problem_type.paper in ("", paper_id):
        return problem_type.source, (source_tag(paper_id, problem_type.source),)
    return f"problem type {problem_type.id}", ()


def problem_items(
    paper_id: str,
    slot_prefix: str,
    group: str,
    sets: Iterable[ProblemSet],
    seed: int,
    track: Track = _untracked,
) -> list[StudyItem]:
    """Generated problems; each keeps its slot so a rebuild updates it in place."""
    items = []
    for problem_set in sets:
        source, section_tags = problem_source(paper_id, problem_set)
        streams = [
            problems.generate(
                problem_set.type, problem_set.count, variant_seed(seed, v), problem_set.difficulty
            )
            for v in range(problem_set.variants)
        ]
        generated = track(zip(*streams, strict=True), problem_set.count, f"{problem_set.type} problems")
        with about(f"generating the {problem_set.difficulty} {problem_set.type} problems of {slot_prefix!r}"):
            for index, variants in enumerate(generated, 1):
                problem = variants[0]
                key = problem_slot(slot_prefix, problem.type, problem.difficulty, index)
                tags = (
                    *section_tags,
                    f"{paper_id}::problem::{problem.type}",
                    f"{paper_id}::difficulty::{problem.difficulty}",
                )
                items.append(StudyItem("problem", key, group, source, tags, problem, variants=variants))
    return items


def build_deck(content: Content, recipe: DeckRecipe, seed: int) -> Deck:
    """The deck a recipe describes: its lessons in order, then its problems."""
    items = lesson_items(content, recipe.lessons)
    items += problem_items(content.paper.id, recipe.id, "Practice", recipe.problems, seed)
    return Deck(recipe.title, content.paper.id, tuple(items), recipe.exam, recipe.retention)


def build_guide(content: Content, recipe: GuideRecipe) -> Guide:
    """The guide a recipe describes: its lessons' items in teaching order."""
    return Guide(content.paper, recipe.title, tuple(lesson_items(content, recipe.lessons)))


def _teaching_group(source: str, lessons: list[tuple[str, Lesson]]) -> str:
    """The group of the first lesson that lists ``source`` or, failing that, its section
    (``S5.4`` → ``S5``, ``S3.E1`` → ``S3``); ``Practice`` if none does."""
    label = source
    while label:
        for group, lesson in lessons:
            if label in lesson.sources:
                return group
        label = label.rpartition(".")[0]
    return "Practice"


def build_site(content: Content, recipe: SiteRecipe, seed: int) -> Site:
    """The site a recipe describes: its lessons in order, each followed by its practice."""
    items = lesson_items(content, recipe.lessons)
    lessons = list({item.group: item.lesson for item in items if item.lesson is not None}.items())
    practice = problem_items(content.paper.id, recipe.id, "Practice", recipe.problems, seed)
    placed = [replace(item, group=_teaching_group(item.source, lessons)) for item in practice]
    ordered = [*items, *placed]
    order = {group: i for i, (group, _) in enumerate(lessons)}
    ordered.sort(key=lambda item: order.get(item.group, len(order)))  # stable: kinds keep their order
    return Site(content.paper, recipe.title, tuple(ordered), recipe.exam)


def build_practice(
    content: Content,
    sets: Iterable[ProblemSet],
    seed: int,
    set_name: str = "practice",
    track: Track = _untracked,
) -> Deck:
    """A practice deck of generated problems only, in the slots of ``set_name``."""
    group = "Practice" if set_name == "practice" else f"Practice::{set_name}"
    items = problem_items(content.paper.id, set_name, group, sets, seed, track)
    return Deck(content.paper.title, content.paper.id, tuple(items))
