"""The data of a problem type and of a generated problem: frozen dataclasses, JSON-plain."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .. import answers
from ..values import Precision, Value

DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Step:
    """One step of a worked solution."""

    title: str
    """What the step does, in words (Markdown with math: ``Scale by \\(\\sqrt{d_k}\\)``)."""
    latex: str
    """The step's math as LaTeX, without delimiters (display style)."""


@dataclass(frozen=True)
class Distractor:
    """The result a student gets by making one named mistake."""

    mistake: str
    """The mistake, in words (Markdown with math: ``forgot to divide by \\(\\sqrt{d_k}\\)``);
    every exporter typesets its math (PDFs, cards) or writes it as plain text (CSV, terminal)."""
    answer: dict[str, Any]
    """The wrong answer: the type's primary key at least, named as in the problem's answer,
    and only results the mistake changes (a result it leaves right is left out)."""


@dataclass(frozen=True)
class Tolerance:
    """How close an answer must be to count as right."""

    abs: float | None = None
    """Largest absolute difference accepted."""
    rel: float | None = None
    """Largest relative difference accepted."""

    def accepts(self, expected: float, got: float) -> bool:
        """The one tolerance rule (``answers.accepts``)."""
        return answers.accepts(expected, got, self)

    def to_json(self) -> dict[str, float]:
        out = {}
        if self.abs is not None:
            out["abs"] = self.abs
        if self.rel is not None:
            out["rel"] = self.rel
        return out


@dataclass(frozen=True)
class Solution:
    """What ``solve`` returns: everything that follows from the givens."""

    answer: dict[str, Any]
    """Named results, JSON-plain (numbers, nested lists, strings)."""
    steps: tuple[Step, ...]
    """Worked steps with intermediate values."""
    distractors: tuple[Distractor, ...] = ()
    """Results of named mistakes, for multiple choice and for keys."""


@dataclass(frozen=True)
class ProblemType:
    """A registered kind of problem."""

    id: str
    """Short id used on the command line and in recipes (``sdpa``)."""
    description: str
    """One line for ``paperdeck list``."""
    pick: Callable[[np.random.Generator, str], dict[str, Any]]
    """Draws the givens for a difficulty."""
    solve: Callable[[dict[str, Any]], Solution]
    """Computes the answer, the worked steps and the named mistakes (``Distractor``) from
    the givens, as a ``Solution``; see "Named mistakes"."""
    prompt: Callable[[dict[str, Any]], str]
    """The question, Markdown with \\( \\) math, for these givens."""
    tolerance: Tolerance
    """Tolerance for every numeric answer of this type."""
    primary: str
    """The answer key a student types on a card."""
    source: str
    """Where the paper teaches it (``S3.E1``), a label in the paper named by ``paper``."""
    work_space_cm: float
    """Height of the space to work in under the problem on a printed sheet, in cm, at
    easy difficulty (the PDF scales it up for medium and hard)."""
    precision: Precision | None = None
    """The digits its answers are given to (``Precision(decimals=3)``), as its prompt says in
    words ("Give the output to three decimals"; opening a project checks the two agree); None
    where the answers are whole numbers or exact, and the tolerance decides how they are
    shown. The key prints answers to it and an answer sheet's digit grid has its places."""
    heatmap: Literal["full", "causal"] | None = None
    """Whether an Anki card shows the answer's ``weights`` (queries x keys) as an
    attention heatmap: ``"full"`` every cell, ``"causal"`` with the cells above the
    diagonal (key after query) marked as masked; None for no heatmap."""
    softmax_inputs: Callable[[dict[str, Any]], list[np.ndarray]] | None = None
    """The scores each softmax of the solution runs over, for these givens (rows of
    arrays; ``-inf`` where masked): a quiz without calculators prints the
    exponentials of these. None when the type takes no softmax."""
    solve_picked: Callable[[dict[str, Any]], Solution] | None = None
    """``solve`` without its input checks, for givens ``pick`` drew (optional, for speed)."""
    needs_calculator: bool = False
    """Its answer needs sin, cos, roots or powers that a printed table cannot give."""
    inputs: dict[str, str] = field(default_factory=dict)
    """Each ``given`` name with what it is, in a line (the authoring reference lists them)."""
    outputs: dict[str, str] = field(default_factory=dict)
    """Each ``answer`` name with what it is, in a line."""
    paper: str = ""
    """Id of the paper whose section ``source`` names (the built-in types say ``aiayn``);
    empty for a project's own type (in its ``problems/`` folder), whose ``source`` names
    a section of that project's paper. Problems are tagged with ``source`` only in a
    project of that paper."""


@dataclass(frozen=True)
class Problem:
    """One generated problem with its key, in the public JSON form."""

    id: str
    type: str
    seed: int
    """The seed that regenerates exactly this problem."""
    difficulty: str
    prompt: str
    given: dict[str, Any]
    steps: tuple[Step, ...]
    answer: dict[str, Any]
    tolerance: Tolerance
    distractors: tuple[Distractor, ...] = field(default=())
    precision: Precision | None = None
    """Its type's ``precision`` (not in the JSON form: the type declares it)."""

    def value(self, name: str) -> Value:
        """The answer ``name`` with its shape and precision."""
        return Value(self.answer[name], self.precision)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "seed": self.seed,
            "difficulty": self.difficulty,
            "prompt": self.prompt,
            "given": self.given,
            "steps": [{"title": s.title, "latex": s.latex} for s in self.steps],
            "answer": self.answer,
            "tolerance": self.tolerance.to_json(),
            "distractors": [{"mistake": d.mistake, "answer": d.answer} for d in self.distractors],
        }
