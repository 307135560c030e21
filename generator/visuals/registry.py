"""The registry of visual kinds and the checking of their parameters.

A kind registers itself with the ``@visual`` decorator, which names its
parameters (each a checker that returns the value in canonical, JSON-plain form
or raises ``ParamError``) and the function that draws the figure; a diagram (boxes
and arrows, written as SVG with named parts) registers with ``@diagram``. Content
authors write the parameters, so every value is checked for type and range
before anything is drawn, and every mistake is reported, not just the first.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import PaperdeckError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .diagram import Diagram


class VisualError(PaperdeckError):
    """A visual's kind or parameters are invalid; carries every message found."""

    def __init__(self, messages: list[str]):
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


class ParamError(ValueError):
    """Raised by a parameter checker: what is wrong, and where below the parameter."""

    def __init__(self, message: str, subfield: str = ""):
        self.message = message
        self.subfield = subfield
        super().__init__(message)


_REQUIRED = object()


@dataclass(frozen=True)
class Param:
    """One parameter of a visual kind."""

    check: Callable[[Any], Any]
    """Returns the value in canonical JSON-plain form, or raises ``ParamError``; its
    docstring says in words what it accepts (the authoring reference prints it)."""
    default: Any = _REQUIRED
    """Value used when the parameter is left out; required when absent."""

    @property
    def required(self) -> bool:
        return self.default is _REQUIRED


@dataclass(frozen=True)
class VisualKind:
    """A registered kind of figure."""

    id: str
    """Name used in content YAML (``attention-heatmap``)."""
    description: str
    """One line for listings."""
    params: dict[str, Param]
    draw: Callable[[dict[str, Any]], Figure] | None
    """Draws the figure from checked, canonical parameters (plots); None for diagrams."""
    check: Callable[[dict[str, Any]], list[str]] = field(default=lambda params: [])
    """Checks between parameters, run once each parameter is valid on its own."""
    layout: Callable[[dict[str, Any]], Diagram] | None = None
    """Lays out a box-and-arrow diagram (SVG and named parts) instead of drawing a plot."""

    @property
    def is_diagram(self) -> bool:
        return self.layout is not None


KINDS: dict[str, VisualKind] = {}


def visual(
    kind_id: str,
    description: str,
    params: dict[str, Param],
    check: Callable[[dict[str, Any]], list[str]] | None = None,
) -> Callable[[Callable[[dict[str, Any]], Figure]], Callable[[dict[str, Any]], Figure]]:
    """Register the decorated drawing function as the visual kind ``kind_id``."""

    def register(draw: Callable[[dict[str, Any]], Figure]) -> Callable[[dict[str, Any]], Figure]:
        if kind_id in KINDS:
            raise ValueError(f"visual kind {kind_id!r} registered twice")
        KINDS[kind_id] = VisualKind(kind_id, description, params, draw, check or (lambda p: []))
        return draw

    return register


def diagram(
    kind_id: str,
    description: str,
    params: dict[str, Param],
    check: Callable[[dict[str, Any]], list[str]] | None = None,
) -> Callable[[Callable[[dict[str, Any]], Diagram]], Callable[[dict[str, Any]], Diagram]]:
    """Register the decorated layout function as the diagram kind ``kind_id`` (SVG with named parts)."""

    def register(layout: Callable[[dict[str, Any]], Diagram]) -> Callable[[dict[str, Any]], Diagram]:
        if kind_id in KINDS:
            raise ValueError(f"visual kind {kind_id!r} registered twice")
        KINDS[kind_id] = VisualKind(kind_id, description, params, None, check or (lambda p: []), layout)
        return layout

    return register


def get_kind(kind_id: str) -> VisualKind:
    """The kind with this id, or a VisualError listing the valid ids."""
    try:
        return KINDS[kind_id]
    except (KeyError, TypeError):
        raise VisualError([_unknown_kind(kind_id)]) from None


def _unknown_kind(kind_id: object) -> str:
    return f"kind: unknown visual kind {kind_id!r}; choose from {', '.join(sorted(KINDS))}"


def normalize(kind_id: str, params: dict[str, Any] | None) -> tuple[dict[str, Any], list[str]]:
    """Checked parameters with defaults filled in, and the messages of every mistake.

    The parameters are returned in canonical form (plain ints, floats, lists), so
    equal figures have equal parameters and hash alike.
    """
    if kind_id not in KINDS:
        return {}, [_unknown_kind(kind_id)]
    kind = KINDS[kind_id]
    if params is None:
        params = {}
    if not isinstance(params, dict):
        return {}, [f"params: expected a mapping of parameter names to values, got {_show(params)}"]
    messages = []
    for name in params:
        if name not in kind.params:
            messages.append(
                f"params.{name}: unknown parameter of {kind_id}; expected one of {', '.join(kind.params)}"
            )
    out: dict[str, Any] = {}
    for name, param in kind.params.items():
        if name not in params or params[name] is None and not param.required:
            if param.required:
                messages.append(f"params.{name}: required by {kind_id}")
            else:
                out[name] = param.default
            continue
        try:
            out[name] = param.check(params[name])
        except ParamError as error:
            messages.append(f"params.{name}{error.subfield}: {error.message}")
    if not messages:
        messages.extend(kind.check(out))
    return out, messages


def validate(kind: str, params: dict[str, Any] | None) -> list[str]:
    """Every mistake in a visual's kind and parameters, one line each; empty when fine.

    Each message starts with the field it is about (``params.d_k: …``), so the
    content loader can prefix it with ``file:line: visuals[0].``.
    """
    return normalize(kind, params)[1]


# Parameter checkers. Each returns the canonical value or raises ParamError.


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def integer(lo: int, hi: int) -> Callable[[Any], int]:
    """A whole number from ``lo`` to ``hi``."""

    def check(value: Any) -> int:
        if not _is_int(value) or not lo <= value <= hi:
            raise ParamError(f"expected a whole number from {lo} to {hi}, got {_show(value)}")
        return int(value)

    check.__doc__ = f"a whole number from {lo} to {hi}"
    return check


def integers(lo: int, hi: int, max_len: int) -> Callable[[Any], list[int]]:
    """A list of 1 to ``max_len`` different whole numbers from ``lo`` to ``hi``, kept in order."""

    def check(value: Any) -> list[int]:
        if (
            not isinstance(value, (list, tuple))
            or not 1 <= len(value) <= max_len
            or not all(_is_int(v) and lo <= v <= hi for v in value)
        ):
            raise ParamError(
                f"expected a list of 1 to {max_len} whole numbers from {lo} to {hi}, got {_show(value)}"
            )
        if len(set(value)) != len(value):
            raise ParamError(f"expected different numbers, got {_show(value)}")
        return [int(v) for v in value]

    check.__doc__ = f"a list of 1 to {max_len} different whole numbers from {lo} to {hi}"
    return check


def drawable_math(value: str, subfield: str = "") -> None:
    """Raises ParamError when ``value`` holds math (text between ``$`` signs, as matplotlib
    reads a label) that matplotlib's math parser refuses, which would otherwise fail the
    build while drawing. Matplotlib is imported only for text with math in it."""
    if value.count("$") - value.count("\\$") < 2:
        return
    from matplotlib import cbook

    if not cbook.is_math_text(value):
        return
    from matplotlib.mathtext import MathTextParser

    try:
        MathTextParser("path").parse(value, 72)
    except ValueError as error:
        reason = str(error).strip().splitlines()[-1].split(": ", 1)[-1]
        reason = re.sub(r"\s+", " ", re.sub(r", \(line:\d+, col:\d+\)$", "", reason))
        raise ParamError(
            f"math between $ signs that matplotlib cannot draw in {_show(value)}: {reason}", subfield
        ) from None


def text(max_len: int) -> Callable[[Any], str]:
    """A one-line string of at most ``max_len`` characters."""

    def check(value: Any) -> str:
        if not isinstance(value, str) or len(value) > max_len or "\n" in value:
            raise ParamError(f"expected one line of at most {max_len} characters, got {_show(value)}")
        drawable_math(value)
        return value

    check.__doc__ = f"one line of text, at most {max_len} characters"
    return check


def labels(max_len: int) -> Callable[[Any], list[str]]:
    """A list of short strings (token names for matrix rows or columns)."""

    def check(value: Any) -> list[str]:
        if (
            not isinstance(value, (list, tuple))
            or not 1 <= len(value) <= max_len
            or not all(isinstance(v, str) and 0 < len(v) <= 12 for v in value)
        ):
            raise ParamError(
                f"expected a list of 1 to {max_len} labels of 1 to 12 characters, got {_show(value)}"
            )
        for n, label in enumerate(value):
            drawable_math(label, f"[{n}]")
        return list(value)

    check.__doc__ = f"a list of 1 to {max_len} labels of 1 to 12 characters"
    return check


def matrix(max_rows: int, max_cols: int) -> Callable[[Any], list[list[float]]]:
    """A matrix of finite numbers (list of equal-length rows), as floats."""

    def check(value: Any) -> list[list[float]]:
        return as_matrix(value, max_rows, max_cols)

    check.__doc__ = f"a matrix (list of rows of numbers), at most {max_rows} x {max_cols}"
    return check


def as_matrix(value: Any, max_rows: int, max_cols: int, subfield: str = "") -> list[list[float]]:
    """``value`` as a list of rows of floats, or ParamError saying what is wrong."""
    if isinstance(value, (list, tuple)) and value and all(_is_number(v) for v in value):
        value = [value]  # a single row written as a vector
    if (
        not isinstance(value, (list, tuple))
        or not value
        or not all(isinstance(row, (list, tuple)) and row for row in value)
    ):
        raise ParamError(f"expected a matrix (a list of rows of numbers), got {_show(value)}", subfield)
    if len({len(row) for row in value}) != 1:
        raise ParamError("expected rows of equal length", subfield)
    if not all(_is_number(v) for row in value for v in row):
        raise ParamError(f"expected finite numbers only, got {_show(value)}", subfield)
    if len(value) > max_rows or len(value[0]) > max_cols:
        raise ParamError(
            f"expected at most {max_rows} rows and {max_cols} columns so the figure stays readable,"
            f" got {len(value)} x {len(value[0])}",
            subfield,
        )
    return [[float(v) for v in row] for row in value]


def one_of(choices: Sequence[str]) -> Callable[[Any], str]:
    """One of a fixed set of strings."""

    def check(value: Any) -> str:
        if value not in choices:
            raise ParamError(f"expected one of {', '.join(choices)}, got {_show(value)}")
        return str(value)

    check.__doc__ = "one of " + ", ".join(choices)
    return check
