"""The recipe kinds a project can build, each registered once.

A kind (``kind: deck`` in ``decks/<id>.yaml``) is one ``RecipeKind``: its recipe class (the
fields of its YAML, ``content/recipes.py``), the document built from it (``documents/``), the
exporter that writes that document (``exporters/``), where it goes under ``out/`` and an
example recipe. Everything else reads this table: the recipe parser (``content.recipes``,
handed ``recipe_classes()`` when a project opens), ``paperdeck build`` (``commands/build.py``),
the authoring reference (``reference.py``) and the scaffold of ``paperdeck new``
(``scaffold.py``). mypy checks each record: its builder takes its recipe class and makes what
its exporter takes, so a deck handed to the guide's exporter fails ``mypy --strict``.

The table lives in ``project/``, the package that opens a project and writes its examples,
because it names the content (recipe classes), the documents and the exporters; ``content/``,
below all three, cannot import it without an import cycle (``tests/test_layers.py``), so the
parser is handed the classes. Builders import their documents when they run and exporters
import their modules when they export: importing this module costs ``build --help`` nothing.

A new kind that ``build`` writes (measured by adding a toy ``plain`` kind in a scratch clone):
its exporter module in ``exporters/`` and its ``@exporter`` function in ``exporters/__init__.py``,
its recipe class in ``content/recipes.py`` (and in ``Recipe``), its ``kind(...)`` here, and its
test; then regenerate ``docs/authoring.md`` and the pinned ``kind: missing (…)`` message in
``tests/content/broken/recipes/missing-kind.yaml``, which lists the kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .. import exporters
from ..content.recipes import DeckRecipe, GuideRecipe, QuizRecipe, SiteRecipe

if TYPE_CHECKING:  # the documents are imported by the builders, when a build runs
    from ..content.model import Content
    from ..content.recipes import Recipe
    from ..documents.items import Deck, Guide, Site
    from ..documents.quiz import Quiz

RecipeT = TypeVar("RecipeT")
DocumentT = TypeVar("DocumentT")

FOLDER = "{}"
"""The target of a kind a build writes as a folder named after the recipe."""


@dataclass(frozen=True)
class BuildOptions:
    """Choices shared by every recipe of one build."""

    seed: int
    """Seed of every randomized problem in this build."""
    paper: str | None = None
    """Paper size of printed documents: a4 or letter; None means each recipe's (else a4)."""
    secret: bytes = b""
    """The teacher's secret quiz form seeds derive from."""


@dataclass(frozen=True)
class RecipeKind(Generic[RecipeT, DocumentT]):
    """One recipe kind: what its recipe says, what is built from it, and what writes that."""

    recipe: type[RecipeT]
    """Its recipe class: the fields of its ``decks/<id>.yaml``."""
    document: Callable[[Content, RecipeT, BuildOptions], DocumentT]
    """The document the recipe describes, built from the content."""
    exporter: exporters.Format[DocumentT]
    """The format that writes that document (mypy checks it takes what ``document`` makes)."""
    target: str
    """Where it goes under ``out/``, ``{}`` the recipe's id: a file (``{}.apkg``) or ``FOLDER``."""
    example: str
    """A recipe of this kind as YAML, ``{title}`` its title inside single quotes: the authoring
    reference shows it, and ``paperdeck new`` writes the deck's and the quiz's."""
    mark: str = ""
    """For a kind written as a folder: a file every build leaves in it, ``{}`` the recipe's id,
    by which a later build knows the folder for one it may replace (``commands/build.py``)."""

    def example_yaml(self, title: str) -> str:
        """The example with ``title`` in it (its single quotes doubled, as YAML reads them)."""
        return self.example.format(title=title.replace("'", "''"))


KINDS: dict[str, RecipeKind[Any, Any]] = {}
"""Every kind by its name, in the order registered below (the order ``check`` lists them in)."""


def kind(name: str, registered: RecipeKind[RecipeT, DocumentT]) -> None:
    """Register a recipe kind as ``name``. A call with no type context of its own, so mypy
    solves the record's recipe and document types from its fields (in a ``dict[str,
    RecipeKind[Any, Any]]`` literal it would take them as ``Any`` and check nothing)."""
    KINDS[name] = registered


def recipe_classes() -> dict[str, type[Recipe]]:
    """Each kind's recipe class by name: what the recipe parser reads a ``kind:`` as."""
    return {name: registered.recipe for name, registered in KINDS.items()}


def _deck(content: Content, recipe: DeckRecipe, options: BuildOptions) -> Deck:
    from ..documents.items import build_deck

    return build_deck(content, recipe, options.seed)


kind(
    "deck",
    RecipeKind(
        DeckRecipe,
        _deck,
        exporters.to_anki,
        "{}.apkg",
        """\
kind: deck
title: '{title}'
problems:
  - type: softmax
    count: 3
    difficulty: easy
""",
    ),
)


def _quiz(content: Content, recipe: QuizRecipe, options: BuildOptions) -> Quiz:
    from ..documents.quiz import build_quiz

    return build_quiz(content, recipe, options.seed, recipe.versions, options.secret)


kind(
    "quiz",
    RecipeKind(
        QuizRecipe,
        _quiz,
        exporters.to_quiz,
        FOLDER,
        """\
kind: quiz
title: '{title}: quiz'
minutes: 20
calculator: false
versions: 2
instructions: Show your work.
sections:
  - title: Questions
    points: 1
    questions: {{lessons: [first-lesson]}}
  - title: A problem
    points: 2
    problems: {{type: softmax, count: 1}}
""",
        mark="{}-key.json",
    ),
)


def _guide(content: Content, recipe: GuideRecipe, options: BuildOptions) -> Guide:
    from ..documents.items import build_guide

    return build_guide(content, recipe)


kind(
    "guide", RecipeKind(GuideRecipe, _guide, exporters.to_guide, "{}.pdf", "kind: guide\ntitle: '{title}'\n")
)


def _site(content: Content, recipe: SiteRecipe, options: BuildOptions) -> Site:
    from ..documents.items import build_site

    return build_site(content, recipe, options.seed)


kind(
    "site",
    RecipeKind(
        SiteRecipe,
        _site,
        exporters.to_site,
        FOLDER,
        "kind: site\ntitle: '{title}: study site'\nproblems:\n  - {{type: softmax, count: 2}}\n",
        mark=".paperdeck-site",  # exporters.site.RECORD, which lists the files a build wrote there
    ),
)
