"""A minimal project to start from, and the examples the authoring reference shows.

``paperdeck new DIR --title "…"`` writes ``project_files``: a paper, one lesson
holding one item of every kind and one question of every type, a deck recipe,
a quiz recipe, a ``.gitignore`` and the authoring reference (``docs/authoring.md``).
The same YAML snippets are the examples of ``docs/authoring.md`` (``generator.project.reference``),
so every example there is checked and built by the tests of ``paperdeck new``; a recipe kind's
example is registered with the kind (``kinds.py``).
"""

from __future__ import annotations

import re
import textwrap

LESSON_ID = "first-lesson"

LESSON_HEAD = """\
id: first-lesson
title: First lesson
sources: [S1, S1.E1]
text: |
  The lesson itself: Markdown, with math inside \\( … \\) and \\[ … \\].
  The softmax of a vector of scores \\(x\\) is
  \\[ \\mathrm{softmax}(x)_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}. \\]
"""
"""The head of the scaffold's lesson: what a ``Lesson`` needs besides its lists."""

ITEMS: dict[str, list[str]] = {
    "concepts": [
        """\
- id: softmax
  term: Softmax
  definition: >-
    Turns a vector of scores into probabilities: exponentiate each score,
    then divide by the sum of the exponentials.
  source: S1
  reverse: true
"""
    ],
    "equations": [
        """\
- id: softmax-equation
  name: Softmax
  label: S1.E1
  latex: '\\mathrm{softmax}(x)_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}'
  variables:
    - symbol: x
      shape: n
      meaning: The scores, one per option.
    - symbol: x_i
      shape: scalar
      meaning: The score of option \\(i\\).
  deep_dive: >-
    Subtracting the largest score from every score first gives the same
    result and keeps \\(e^{x_i}\\) small.
"""
    ],
    "worked_examples": [
        """\
- id: softmax-of-two-scores
  title: Softmax of two scores
  source: S1.E1
  problem: softmax
  given: {x: [1, 0]}
  steps:
    - 'Exponentiate: \\(e^1 = 2.71828\\) and \\(e^0 = 1\\).'
    - 'Divide each by their sum \\(3.71828\\).'
  result: {p: [0.73105858, 0.26894142]}
  tolerance: 1e-8
"""
    ],
    "flashcards": [
        """\
- id: softmax-sums-to-one
  front: What do the outputs of a softmax add up to?
  back: One.
  explanation: Each output is its exponential divided by the sum of all the exponentials.
  source: S1
"""
    ],
    "clozes": [
        """\
- id: softmax-divides
  text: 'Softmax divides each \\(e^{x_i}\\) by {{c1::the sum of all the exponentials}}.'
  extra: So the outputs are positive and add up to one.
  source: S1.E1
"""
    ],
    "questions": [
        """\
- id: softmax-largest
  type: multiple_choice
  prompt: Which score gets the largest softmax output?
  answer: The largest score
  distractors:
    - text: The smallest score
      mistake: reads softmax as favouring small scores
    - text: Every score gets the same output
      mistake: forgets that the outputs depend on the scores
  explanation: The exponential grows with the score.
  source: S1
""",
        """\
- id: softmax-shift
  type: true_false
  prompt: Adding the same number to every score leaves the softmax unchanged.
  answer: true
  explanation: The common factor \\(e^c\\) cancels between each exponential and their sum.
  source: S1.E1
""",
        """\
- id: softmax-two-equal
  type: numeric
  prompt: Two scores are equal. What is the softmax output of the first?
  answer: 0.5
  tolerance: 0
  source: S1.E1
""",
        """\
- id: softmax-why-exp
  type: short_answer
  prompt: Why does softmax exponentiate the scores before dividing by their sum?
  answer: So that every output is positive, while a larger score still gets a larger output.
  source: S1
""",
    ],
    "visuals": [
        """\
- id: softmax-saturation-figure
  kind: softmax-saturation
  caption: The largest softmax weight of random scores, with and without scaling.
  source: S1
  params: {keys: 8}
"""
    ],
    "resources": [
        """\
- title: The paper
  url: https://arxiv.org/
  note: Read section 1 first.
"""
    ],
}
"""The lists of the scaffold's lesson, each item as YAML (a list item, unindented)."""

VARIABLE = """\
- symbol: x_i
  shape: scalar
  meaning: The score of option \\(i\\).
"""
CHOICE = """\
- text: The smallest score
  mistake: reads softmax as favouring small scores
"""

PAPER = """\
id: {id}
title: {title}
authors: [First Author, Second Author]
year: 2024
arxiv: "0000.00000"
lessons: [first-lesson]
"""

GITIGNORE = """\
# What paperdeck writes: the build output and the teacher's secret quiz seeds derive
# from (keep the secret, and back it up, but never share it: students have the tool).
out/
.paperdeck-secret
__pycache__/
"""

AUTHORING = "docs/authoring.md"
"""Where a new project gets the authoring reference (every field, type and kind)."""


def quoted(text: str) -> str:
    """``text`` as a single-quoted YAML string (backslashes stay as written)."""
    return "'" + text.replace("'", "''") + "'"


def paper_id(title: str) -> str:
    """A short id for the paper from its title: its first three words, lowercase, hyphenated."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words[:3]) or "paper"


def lesson_yaml() -> str:
    """The scaffold's lesson: one item of every kind, one question of every type."""
    out = [LESSON_HEAD]
    for field, items in ITEMS.items():
        out.append(f"{field}:\n")
        out += [textwrap.indent(item, "  ") for item in items]
    return "".join(out)


def project_files(title: str, paper: str | None = None) -> dict[str, str]:
    """The files of a new project, by path relative to its folder: the YAML, a
    ``.gitignore`` and the authoring reference of this paperdeck."""
    from .kinds import KINDS
    from .reference import render

    paper = paper or paper_id(title)
    return {
        "content/paper.yaml": PAPER.format(id=paper, title=quoted(title)),
        f"content/lessons/{LESSON_ID}.yaml": lesson_yaml(),
        f"decks/{paper}.yaml": KINDS["deck"].example_yaml(title),
        "decks/quiz.yaml": KINDS["quiz"].example_yaml(title),
        ".gitignore": GITIGNORE,
        AUTHORING: render(),
    }
