"""Find the project (content and recipes) a command works on, and load it.

Like git or mkdocs: ``--project DIR`` if given, else the nearest folder at or
above the current one that holds ``content/paper.yaml``, else the Attention
paper's content that ships inside the package. Commands say which on stderr.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..errors import Finding, UsageError

if TYPE_CHECKING:  # finding a project (``find_root``) loads nothing
    from ..content.model import Content
    from ..content.recipes import DeckRecipe, QuizRecipe, Recipe

BUNDLED = Path(__file__).parent.parent / "bundled"

_R = TypeVar("_R", "DeckRecipe", "QuizRecipe")


@dataclass(frozen=True)
class Project:
    """A loaded, validated project."""

    root: Path
    content: Content
    recipes: dict[str, Recipe]
    warnings: tuple[Finding, ...] = ()
    """Warnings about the project's own problem types (``problems.audit``, which runs each
    type once as the project opens): advice that ``check`` prints after the card-rule
    warnings (``content.card_rules``), which only ``check`` looks for."""

    def describe(self) -> str:
        """One line saying which project this is, for stderr."""
        if self.root == BUNDLED:
            return (
                f"no project here or above (no content/paper.yaml): using the bundled paper, "
                f"{self.content.paper.title!r}"
            )
        return f"project {self.root}"

    @property
    def out(self) -> Path:
        """Where output goes by default: ``out/`` under the project, or under the
        current folder for the bundled paper (never inside the installed package)."""
        return (Path.cwd() if self.root == BUNDLED else self.root) / "out"

    def paper(self, option: str | None, recipe: Recipe | None = None) -> str:
        """The paper size to print on: ``--paper``, else the recipe's, else the project's
        (``paper:`` in content/paper.yaml), else a4."""
        return option or getattr(recipe, "paper", None) or self.content.paper.paper or "a4"

    def secret(self, say: Callable[[str], None]) -> bytes:
        """The teacher's secret quiz seeds derive from (``generator.documents.secret``), made on first use
        in the project folder, or in the current folder for the bundled paper."""
        from ..documents.secret import load_secret

        return load_secret(Path.cwd() if self.root == BUNDLED else self.root, say)

    def deck_recipe(self, name: str | None) -> DeckRecipe:
        """The deck recipe called ``name``, or the first deck recipe when no name is given."""
        from ..content.recipes import DeckRecipe

        return self._recipe(name, "deck", DeckRecipe)

    def quiz_recipe(self, name: str | None) -> QuizRecipe:
        """The quiz recipe called ``name``, or the first quiz recipe when no name is given."""
        from ..content.recipes import QuizRecipe

        return self._recipe(name, "quiz", QuizRecipe)

    def _recipe(self, name: str | None, kind: str, cls: type[_R]) -> _R:
        # A recipe's class is fixed by its kind (kinds.KINDS): these are the
        # recipes of ``kind``.
        of_kind = {k: r for k, r in self.recipes.items() if isinstance(r, cls)}
        if name is None:
            if not of_kind:
                raise UsageError(f"no {kind} recipe in {self.root / 'decks'}")
            return next(iter(of_kind.values()))
        name = Path(name).stem if name.endswith(".yaml") else name
        if name not in of_kind:
            raise UsageError(f"no {kind} recipe {name!r}; choose from {', '.join(of_kind) or 'none'}")
        return of_kind[name]


def find_root(project: Path | None) -> Path:
    """The project directory to use."""
    if project is not None:
        if not (project / "content").is_dir():
            raise UsageError(f"{project} has no content/ folder")
        return project
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "content" / "paper.yaml").is_file():
            return folder
    return BUNDLED


def open_project(project: Path | None = None) -> Project:
    """Load and validate the content and recipes of the project."""
    from .. import problems
    from ..content import load
    from ..content.recipes import load_recipes
    from .kinds import recipe_classes

    root = find_root(project)
    content = load(root)
    recipes = load_recipes(root, content, recipe_classes()) if (root / "decks").is_dir() else {}
    from ..problems.audit import type_warnings

    own_types = problems.load_project_types(root / "problems")  # loaded with the content: no work
    # Card rules are advice only ``check`` prints: looking for them took 0.14 s of the
    # 0.35 s that opening the bundled paper takes, in every command.
    return Project(root, content, recipes, tuple(type_warnings(own_types)))
