"""Read ``content/paper.yaml`` and its lessons, validate, and build the model.

Every problem in every file is collected and raised together as one
``ContentError`` of ``path:line: field: message`` lines.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from .. import problems
from .. import visuals as visuals_package
from ..errors import ContentError, Finding, PaperdeckError, ProblemInputError
from ..problems import precision
from ..problems.registry import SOURCE_LABEL
from ..values import Precision
from ..visuals.kinds import image as image_kind
from . import yamlsource
from .model import (
    Cloze,
    Concept,
    Content,
    Equation,
    Flashcard,
    Lesson,
    Paper,
    Question,
    Resource,
    Visual,
    WorkedExample,
)
from .needs import need_problem
from .schema import Report, Where, build_file
from .text import CLOZE
from .text import problems as text_problems

ITEM_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
"""A cloze deletion as Anki reads it: the hidden part ends at the first ``}}``."""


class _Checks:
    """Checks that need more than one field, run on each object as it is built."""

    def __init__(
        self, ids: dict[str, str], visuals: list[tuple[Visual, Where]], figures: list[tuple[str, Where]]
    ):
        self.ids = ids  # item id -> "path:line" where first defined
        self.visuals = visuals  # checked at the end, when every worked example is known
        self.figures = figures  # a question's figure: checked at the end, when every visual is known

    def install(self, report: Report) -> None:
        report.checks = {
            Lesson: self.lesson,
            Concept: self.item,
            Equation: self.equation,
            WorkedExample: self.worked_example,
            Question: self.question,
            Visual: self.visual,
        }
        report.checks[Flashcard] = self.item
        report.checks[Cloze] = self.cloze
        report.checks[Resource] = self.resource
        report.checks[Precision] = self.precision_data

    def precision_data(self, declared: Precision, where: Where) -> None:
        for message in declared.problems():
            where.error(message)

    def item(self, obj: Any, where: Where) -> None:
        if not ITEM_ID.match(obj.id):
            where.error("ids are lowercase letters, digits and hyphens", "id")
        here = f"{where.report.path}:{where.line}"
        if obj.id in self.ids:
            where.error(f"duplicate id {obj.id!r} (first used at {self.ids[obj.id]})", "id")
        else:
            self.ids[obj.id] = here
        source = getattr(obj, "source", None)
        if source is not None and not SOURCE_LABEL.match(source):
            where.error(f"expected a label like S3.2.1 or S3.E1, got {source!r}", "source")

    def cloze(self, cloze: Cloze, where: Where) -> None:
        self.item(cloze, where)
        hidden = [match.group(2) for match in CLOZE.finditer(cloze.text)]  # as Anki reads the raw text
        if not hidden:
            where.error("blank at least one part as {{c1::…}}", "text")
        for part in hidden:
            if part.count("{") != part.count("}"):
                where.error(
                    f"hidden part '{part}' ends at the first }}}}: put a space between "
                    "braces that close math and the }} that closes the blank",
                    "text",
                )

    def resource(self, resource: Resource, where: Where) -> None:
        # The guide (and a site) make the address a live link: javascript: or file: would run or
        # open what the reader did not choose.
        try:
            parts = urlsplit(resource.url.strip())
        except ValueError:
            parts = urlsplit("")
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
            where.error(f"expected an http:// or https:// address, got {resource.url!r}", "url")

    def lesson(self, lesson: Lesson, where: Where) -> None:
        for i, source in enumerate(lesson.sources):
            if not SOURCE_LABEL.match(source):
                where.error(f"expected a label like S3.2.1 or S3.E1, got {source!r}", f"sources[{i}]")

    def equation(self, eq: Equation, where: Where) -> None:
        self.item(eq, where)
        if not SOURCE_LABEL.match(eq.label):
            where.error(f"expected a label like S3.E1, got {eq.label!r}", "label")
        if not eq.variables:
            where.error("list at least one variable", "variables")

    def worked_example(self, example: WorkedExample, where: Where) -> None:
        self.item(example, where)
        try:
            problem_type = problems.get(example.problem)
        except PaperdeckError as error:
            where.error(str(error), "problem")
            return
        try:
            solution = problem_type.solve(example.given)
        except ProblemInputError as error:
            where.error(error.message, error.field)
            return
        except Exception as error:  # a project's own type: the author's code fails on these givens
            from ..problems.audit import raised
            from ..problems.registry import project_file

            if not project_file(example.problem):
                raise  # a built-in type: our bug

            failure = raised(example.problem, error)
            where.error(f"{failure.message} ({failure.path}:{failure.line})", "given")
            return
        wrong = precision.disagreement(example.task, example.precision)
        if wrong:
            where.error(wrong, "task" if example.precision else "precision")
        for key, stated in example.result.items():
            if key not in solution.answer:
                where.error(
                    f"{example.problem} has no result {key!r} (it gives {', '.join(solution.answer)})",
                    f"result.{key}",
                )
                continue
            mismatch = _mismatch(stated, solution.answer[key], example.tolerance)
            if mismatch:
                where.error(mismatch, f"result.{key}")

    def question(self, q: Question, where: Where) -> None:
        self.item(q, where)
        if q.figure:
            self.figures.append((q.figure, where))
        if isinstance(q.answer, str):  # an option's text or a model answer: math like any text
            for message in text_problems(q.answer):
                where.error(message, "answer")
        if q.type == "multiple_choice":
            if not isinstance(q.answer, str) or not q.answer.strip():
                where.error("a multiple-choice answer is the text of the right option", "answer")
            if len(q.distractors) < 2:
                where.error("give at least two distractors, each with its mistake", "distractors")
            texts = [q.answer] + [d.text for d in q.distractors]
            if len(set(texts)) != len(texts):
                where.error("options must all differ", "distractors")
        elif q.distractors:
            where.error(f"only multiple_choice questions have distractors, not {q.type}", "distractors")
        if q.type == "true_false" and not isinstance(q.answer, bool):
            where.error("a true_false answer is true or false", "answer")
        if q.type == "numeric":
            if isinstance(q.answer, bool) or not isinstance(q.answer, (int, float)):
                where.error("a numeric answer is a number", "answer")
            if q.tolerance is None or q.tolerance < 0:
                where.error("a numeric question states its tolerance (0 or more)", "tolerance")
            elif isinstance(q.answer, (int, float)) and not isinstance(q.answer, bool):
                for name, message in precision.problems(q.prompt, q.precision, q.answer, q.tolerance):
                    where.error(message, name)
        elif q.tolerance is not None:
            where.error("only numeric questions have a tolerance", "tolerance")
        if q.precision is not None and q.type != "numeric":
            where.error("only numeric questions have a precision", "precision")
        for i, need in enumerate(q.needs):
            wrong = need_problem(need)
            if wrong:
                where.error(wrong, f"needs[{i}]")
        if q.needs and q.calculator:
            where.error("a question either lists what it needs or needs a calculator, not both", "needs")
        if q.type == "short_answer" and not (isinstance(q.answer, str) and q.answer.strip()):
            where.error("a short_answer answer is the model answer, as text", "answer")

    def visual(self, visual: Visual, where: Where) -> None:
        self.item(visual, where)
        self.visuals.append((visual, where))


def _check_visuals(
    visuals: list[tuple[Visual, Where]], lessons: list[Lesson], root: Path
) -> dict[str, dict[str, Any]]:
    """Reports every bad visual; returns the parameters of image visuals with their file found
    under ``root`` (the content folder), by visual id."""
    examples = {e.id: e for lesson in lessons for e in lesson.worked_examples}
    files: dict[str, dict[str, Any]] = {}
    for visual, where in visuals:
        if visual.kind == "image":
            params, problem = image_kind.resolve(dict(visual.params or {}), root)
            if problem:
                where.error(problem, "params.file")
                continue
            files[visual.id] = params
        example = (visual.params or {}).get("example")
        if example is not None and example not in examples:
            where.error(f"no worked example {example!r} in the content", "params.example")
            continue
        messages = visuals_package.validate(visual.kind, visual.resolved(examples).params)
        for message in messages:
            field, _, text = message.partition(": ")
            where.error(text, field)
        if visual.label_cards and not messages and not visuals_package.KINDS[visual.kind].is_diagram:
            diagrams = ", ".join(k for k, kind in sorted(visuals_package.KINDS.items()) if kind.is_diagram)
            where.error(
                f"visual kind {visual.kind!r} has no labelled parts; label cards need a diagram "
                f"kind ({diagrams})",
                "label_cards",
            )
    return files


def _with_files(lesson: Lesson, files: dict[str, dict[str, Any]]) -> Lesson:
    """``lesson`` with its image visuals' parameters as the loader found their files."""
    if not any(v.id in files for v in lesson.visuals):
        return lesson
    return dataclasses.replace(
        lesson,
        visuals=tuple(
            dataclasses.replace(v, params=files[v.id]) if v.id in files else v for v in lesson.visuals
        ),
    )


def _listed_lessons(paper: Paper | None, raw: Any) -> list[str] | None:
    """The lesson ids paper.yaml lists: its model's, or when the paper did not build, its list if
    that is a list of texts; None when there is none to read."""
    if paper is not None:
        return list(paper.lessons)
    listed = raw.get("lessons") if isinstance(raw, dict) else None
    if isinstance(listed, yamlsource.LineList) and all(isinstance(i, str) for i in listed):
        return list(listed)
    return None


def _mismatch(stated: Any, computed: Any, tolerance: float) -> str:
    if isinstance(computed, str) or isinstance(stated, str):
        return "" if stated == computed else f"stated {stated!r}, recomputed {computed!r}"
    try:
        a = np.asarray(stated, dtype=float)
    except (TypeError, ValueError):
        return f"expected numbers shaped like {np.shape(computed)}"
    b = np.asarray(computed, dtype=float)
    if a.shape != b.shape:
        return f"stated shape {a.shape}, recomputed shape {b.shape}"
    worst = float(np.max(np.abs(a - b))) if a.size else 0.0
    if not worst <= tolerance:
        shown = np.array2string(b, precision=8, separator=", ")
        return f"stated result is off by {worst:.3g} (tolerance {tolerance:g}); recomputed {shown}"
    return ""


def load(project: Path | str) -> Content:
    """The validated content of the project at ``project`` (its ``content/`` folder), or a
    ContentError with every problem found (``read_content``)."""
    content, found, _ = read_content(project)
    if found:
        raise ContentError(found)
    assert content is not None
    return content


def read_content(project: Path | str) -> tuple[Content | None, list[Finding], frozenset[str]]:
    """The content of the project at ``project`` as far as it builds, every problem found, and
    the ids of the lessons its paper lists that did not build: the stages after this one
    (recipes, problem types) can still be checked against the rest (``paperdeck check``
    reports every mistake at once).

    The project's own problem types (its ``problems/`` folder) are registered
    first: worked examples and recipes may use them; a module that fails to load is
    reported with the rest.
    """
    problems_found: list[Finding] = []
    try:
        problems.load_project_types(Path(project) / "problems")
        types_failed = False
    except ContentError as error:
        problems_found.extend(error.problems)
        types_failed = True
    root = Path(project) / "content"
    ids: dict[str, str] = {}
    visuals: list[tuple[Visual, Where]] = []
    figures: list[tuple[str, Where]] = []
    reports: list[Report] = []

    def read(cls: type, path: Path) -> tuple[Any, Any]:
        shown = str(path.relative_to(root.parent))
        report = Report(shown)
        _Checks(ids, visuals, figures).install(report)
        try:
            value = yamlsource.load(path, shown, root)
        except ContentError as error:
            problems_found.extend(error.problems)
            return None, None
        reports.append(report)
        return build_file(cls, value, report), value

    if not (root / "paper.yaml").is_file():
        raise ContentError([Finding(str(Path("content") / "paper.yaml"), 0, "", "file not found")])
    paper, raw = read(Paper, root / "paper.yaml")
    lessons: list[Lesson] = []
    # The lessons are read even when paper.yaml has a mistake elsewhere, if its list of lessons reads.
    listed_ids = _listed_lessons(paper, raw)
    if listed_ids is not None:
        listed = set()
        for i, (lesson_id, line) in enumerate(zip(listed_ids, raw["lessons"].item_lines, strict=True)):
            path = root / "lessons" / f"{lesson_id}.yaml"
            if lesson_id in listed:
                problems_found.append(
                    Finding("content/paper.yaml", line, f"lessons[{i}]", f"lesson {lesson_id!r} listed twice")
                )
                continue
            listed.add(lesson_id)
            if not ITEM_ID.match(lesson_id) or not path.is_file():
                renamed = path.with_suffix(".yml").is_file()
                hint = f" (there is {lesson_id}.yml: lesson files end in .yaml)" if renamed else ""
                problems_found.append(
                    Finding(
                        "content/paper.yaml",
                        line,
                        f"lessons[{i}]",
                        f"no lesson file content/lessons/{lesson_id}.yaml{hint}",
                    )
                )
                continue
            lesson, _ = read(Lesson, path)
            if lesson is not None:
                if lesson.id != lesson_id:
                    problems_found.append(
                        Finding(
                            f"content/lessons/{lesson_id}.yaml",
                            1,
                            "id",
                            f"must equal the file name {lesson_id!r}",
                        )
                    )
                lessons.append(lesson)
        for path in sorted((root / "lessons").glob("*.yaml")):
            if path.stem not in listed:
                problems_found.append(
                    Finding(
                        f"content/lessons/{path.name}",
                        0,
                        "",
                        "lesson not listed in content/paper.yaml lessons",
                    )
                )
        for path in sorted((root / "lessons").glob("*.yml")):
            if path.stem not in listed:  # a listed one is reported on its line in paper.yaml
                problems_found.append(
                    Finding(
                        f"content/lessons/{path.name}",
                        0,
                        "",
                        f"lesson files end in .yaml: rename it {path.stem}.yaml",
                    )
                )
    # With other problems some lessons were not built, so some examples are unknown: a figure
    # drawn from a worked example is checked when its example was built, the others all the same.
    complete = not problems_found and not any(r.problems for r in reports)
    built = [e.id for lesson in lessons for e in lesson.worked_examples]
    visuals[:] = [(v, w) for v, w in visuals if complete or (v.params or {}).get("example") in [None, *built]]
    if visuals or complete:
        files = _check_visuals(visuals, lessons, root)
        lessons = [_with_files(lesson, files) for lesson in lessons]
    drawn = {v.id for lesson in lessons for v in lesson.visuals}
    # With a lesson not built, a figure not found may be in it; otherwise it is reported with the rest.
    every_lesson = paper is not None and {lesson.id for lesson in lessons} >= set(paper.lessons)
    for figure, where in figures:
        if figure not in drawn and every_lesson:
            where.error(f"no visual {figure!r} in the content", "figure")
    problems_found += [p for report in reports for p in report.problems]
    if types_failed:  # a type the module that did not load would have registered is no news
        problems_found = [p for p in problems_found if not p.message.startswith("unknown problem type")]
    if paper is None:
        return None, problems_found, frozenset()
    unbuilt = frozenset(paper.lessons) - {lesson.id for lesson in lessons}
    return Content(paper=paper, lessons=tuple(lessons), places=ids), problems_found, unbuilt
