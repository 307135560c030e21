"""Build frozen dataclasses from YAML values, collecting every problem.

The model's type hints are the schema: a field without a default is required,
a key that is not a field is an error, and each value must have the field's
type. A field marked as math (``model.Markdown``, ``model.Latex``) has its math
checked wherever it sits, so ``check`` rejects all the math a build would.
Nothing is raised here; problems are appended to a ``Report`` so that a file's
mistakes are all reported at once.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import Finding
from ..latex import latex_problems
from ..suggest import closest
from . import text
from .model import LATEX, MARKDOWN, MathKind
from .yamlsource import LineDict, LineList

_NOT_BUILT = object()


@dataclass
class Report:
    """Problems found so far, and per-class checks to run on each built object."""

    path: str
    problems: list[Finding] = field(default_factory=list)
    checks: dict[type, Callable[[Any, Where], None]] = field(default_factory=dict)

    def add(self, line: int, name: str, message: str) -> None:
        self.problems.append(Finding(self.path, line, name, message))


@dataclass(frozen=True)
class Where:
    """Where a value sits in a file, for messages about it."""

    report: Report
    line: int
    name: str
    key_lines: dict[str, int] = field(default_factory=dict)
    """Lines of the keys of the mapping this is, when it is one."""

    def error(self, message: str, subfield: str = "", line: int = 0) -> None:
        """Report ``message`` about this value or its ``subfield`` (``given.K``, ``ids[1]``)."""
        name = f"{self.name}.{subfield}" if subfield and self.name else subfield or self.name
        if not line and subfield:
            line = self.key_lines.get(re.split(r"[.\[]", subfield)[0], 0)
        self.report.add(line or self.line, name, message)


def _type_name(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if hint is str:
        return "text"
    if hint is bool:
        return "true or false"
    if hint in (int, float):
        return "a number" if hint is float else "a whole number"
    if origin is tuple:
        return "a list"
    if origin is dict or hint is dict:
        return "a mapping"
    if origin is Literal:
        return "one of " + ", ".join(map(str, typing.get_args(hint)))
    if dataclasses.is_dataclass(hint):
        return "a mapping"
    return str(hint)


_MATH_CHECKS: dict[MathKind, Callable[[str], list[str]]] = {
    MARKDOWN: text.problems,
    LATEX: latex_problems,
}


def build(hint: Any, value: Any, where: Where) -> Any:
    """``value`` converted to ``hint``, or _NOT_BUILT after reporting why not."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin is typing.Annotated:
        built = build(typing.get_args(hint)[0], value, where)
        if isinstance(built, str) and MARKDOWN in hint.__metadata__:
            built = text.Source(built)  # parsed here, once: every output renders its tree
        if isinstance(built, str):
            for marker in hint.__metadata__:
                for message in _MATH_CHECKS[marker](built):
                    where.error(message)
        return built
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None:
            return None
        return build(options[0], value, where)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):  # hints are classes, never instances
        return _build_dataclass(hint, value, where)
    if origin is tuple:
        if not isinstance(value, list):
            where.error(f"expected a list, got {_describe(value)}")
            return _NOT_BUILT
        item_hint = typing.get_args(hint)[0]
        lines = value.item_lines if isinstance(value, LineList) else [where.line] * len(value)
        built = [
            build(item_hint, item, Where(where.report, line, f"{where.name}[{i}]"))
            for i, (item, line) in enumerate(zip(value, lines, strict=True))
        ]
        return _NOT_BUILT if _NOT_BUILT in built else tuple(built)
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            where.error(f"expected a mapping, got {_describe(value)}")
            return _NOT_BUILT
        return value
    if origin is Literal:
        allowed = typing.get_args(hint)
        if value not in allowed:
            where.error(f"expected one of {', '.join(map(str, allowed))}, got {value!r}")
            return _NOT_BUILT
        return value
    if hint is bool:
        if not isinstance(value, bool):
            where.error(f"expected true or false, got {_describe(value)}")
            return _NOT_BUILT
        return value
    if hint in (int, float):
        ok = isinstance(value, int) and not isinstance(value, bool)
        if hint is float:
            ok = ok or isinstance(value, float)
        if not ok:
            where.error(f"expected {_type_name(hint)}, got {_describe(value)}")
            return _NOT_BUILT
        return hint(value)
    if hint is str:
        if isinstance(value, bool) or value is None or isinstance(value, (list, dict)):
            where.error(f"expected text, got {_describe(value)}")
            return _NOT_BUILT
        if not isinstance(value, str):
            return str(value)  # a bare number such as `arxiv: 1706.03762`
        if not value.strip():
            where.error("must not be empty")
            return _NOT_BUILT
        return value
    raise TypeError(f"no YAML conversion for {hint!r}")  # a programming error in the model


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text"
    return repr(value)


@functools.cache
def _schema(cls: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """The type hints (with their math markers) and the fields of a model class."""
    hints = typing.get_type_hints(cls, include_extras=True)
    return hints, {f.name: f for f in dataclasses.fields(cls) if f.init}


def _build_dataclass(cls: type, value: Any, where: Where) -> Any:
    if not isinstance(value, dict):
        where.error(f"expected a mapping, got {_describe(value)}")
        return _NOT_BUILT
    hints, fields = _schema(cls)
    key_lines = value.key_lines if isinstance(value, LineDict) else {}
    line = value.line if isinstance(value, LineDict) else where.line
    absent = [name for name in fields if name not in value]
    meant: set[str] = set()  # absent fields that a mistyped key stands for: said once, there
    for key in value:
        if key not in fields:
            known = ", ".join(fields)
            match = closest(str(key), absent)
            hint = f"; did you mean {match!r}?" if match else ""
            if match:
                meant.add(match)
            where.error(f"unknown key{hint} (expected one of: {known})", key, key_lines.get(key, line))
    kwargs: dict[str, Any] = {}
    complete = True
    for name, spec in fields.items():
        sub = Where(where.report, key_lines.get(name, line), f"{where.name}.{name}" if where.name else name)
        if name not in value:
            required = spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING
            if required:
                if name not in meant:
                    where.error("missing", name, line)
                complete = False
            continue
        built = build(hints[name], value[name], sub)
        if built is _NOT_BUILT:
            complete = False
        else:
            kwargs[name] = built
    if not complete:
        return _NOT_BUILT
    obj = cls(**kwargs)
    check = where.report.checks.get(cls)
    if check:
        check(obj, Where(where.report, line, where.name, key_lines))
    return obj


def build_file(cls: type, value: Any, report: Report) -> Any:
    """The top-level object of a file, or None if it had problems."""
    line = value.line if isinstance(value, LineDict) else 1
    obj = build(cls, value, Where(report, line, ""))
    return None if obj is _NOT_BUILT else obj
