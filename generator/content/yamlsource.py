"""Read YAML safely and remember the line of every value.

Validation reports ``path:line: field: message``; to know the line it needs the
YAML nodes, which ``yaml.safe_load`` throws away. ``load`` composes the node tree
with the safe loader and builds plain Python values from it: mappings become
``LineDict`` and sequences ``LineList``, which carry the line of each entry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..errors import ContentError, Finding


class LineDict(dict):
    """A mapping that knows the line of itself and of each of its keys."""

    line: int = 0
    key_lines: dict[str, int]


class LineList(list):
    """A sequence that knows the line of itself and of each of its items."""

    line: int = 0
    item_lines: list[int]


_STANDARD_TAGS = {
    "tag:yaml.org,2002:" + name
    for name in ("map", "seq", "str", "int", "float", "bool", "null", "timestamp")
}
_MERGE = "tag:yaml.org,2002:merge"


class _Builder:
    def __init__(self, path: str):
        self.path = path
        self.problems: list[Finding] = []
        self._scalar = yaml.SafeLoader("")

    def build(self, node: yaml.Node, field: str) -> Any:
        line = node.start_mark.line + 1
        if node.tag not in _STANDARD_TAGS:
            self.problems.append(Finding(self.path, line, field, f"YAML tag {node.tag} is not allowed"))
            return None
        if isinstance(node, yaml.MappingNode):
            out = LineDict()
            out.line, out.key_lines = line, {}
            for key_node, value_node in node.value:
                key_line = key_node.start_mark.line + 1
                if key_node.tag == _MERGE:
                    self.problems.append(Finding(self.path, key_line, field or "<<",
                                                 "merge keys (<<) are not supported; write the keys out"))
                    continue
                key = self.build(key_node, field)
                name = f"{field}.{key}" if field else str(key)
                if not isinstance(key, str):
                    self.problems.append(Finding(self.path, key_line, name, "keys must be text"))
                    continue
                if key in out:
                    self.problems.append(Finding(self.path, key_line, name, "duplicate key"))
                    continue
                out[key] = self.build(value_node, name)
                out.key_lines[key] = key_line
            return out
        if isinstance(node, yaml.SequenceNode):
            items = LineList()
            items.line, items.item_lines = line, []
            for i, item in enumerate(node.value):
                items.append(self.build(item, f"{field}[{i}]"))
                items.item_lines.append(item.start_mark.line + 1)
            return items
        return self._scalar.construct_object(node, deep=True)


def _compose(text: str) -> yaml.Node | None:
    """The node tree of ``text``: libyaml's parser where it is installed (ten times
    faster), with the pure-Python parser's wording for syntax errors."""
    if not _FAST:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    try:
        return yaml.compose(text, Loader=_FAST)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


_FAST = getattr(yaml, "CSafeLoader", None)


def load(path: Path, shown_as: str) -> Any:
    """The YAML document in ``path`` with line information, or a ContentError.

    ``shown_as`` is how error messages name the file (relative to the project).
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ContentError([Finding(shown_as, 0, "", "file not found")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        message = f"not UTF-8 text: byte 0x{data[error.start]:02x} at column {column} ({error.reason})"
        raise ContentError([Finding(shown_as, line, "", message)]) from None
    try:
        node = _compose(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 0
        message = f"YAML syntax error: {error.problem or error.context}"
        raise ContentError([Finding(shown_as, line, "", message)]) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        message = f"character {error.character!r} is not allowed in YAML"
        raise ContentError([Finding(shown_as, line, "", message)]) from None
    if node is None:
        raise ContentError([Finding(shown_as, 1, "", "file is empty")])
    builder = _Builder(shown_as)
    try:
        value = builder.build(node, "")
    except yaml.constructor.ConstructorError as error:
        mark = error.problem_mark
        line = mark.line + 1 if mark else 0
        raise ContentError([Finding(shown_as, line, "", f"YAML error: {error.problem}")]) from None
    if builder.problems:
        raise ContentError(builder.problems)
    return value
