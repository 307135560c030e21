"""Read YAML safely and remember the line of every value.

Validation reports ``path:line: field: message``; to know the line it needs the
YAML nodes, which ``yaml.safe_load`` throws away. ``load`` composes the node tree
with the safe loader and builds plain Python values from it: mappings become
``LineDict`` and sequences ``LineList``, which carry the line of each entry.

Three things guard authors who write LaTeX in YAML:

- a double-quoted string in which an escape made a control character
  (``"\\frac"`` reads as form feed + ``rac``) is an error that says to use
  single quotes or a block scalar. A TAB typed into a single-quoted, plain or
  block string is kept: it is what the author typed and Markdown and LaTeX read
  it as a space;
- numbers such as ``1e-5`` and ``2.5E3`` are numbers (YAML 1.1, which PyYAML
  follows, wants a dot and a signed exponent: ``1.0e-5``), through loader
  subclasses, so PyYAML's own classes stay as they are;
- syntax errors are told in plain words at the line of the mistake
  (``_plain_syntax_error``).

What one file can make paperdeck do is bounded (``SECURITY.md`` lists the limits):
its size (``MAX_FILE_BYTES``), how deep it nests (``MAX_DEPTH``), how many aliases
it uses (``MAX_ALIASES``) and how many values it expands to (``MAX_VALUES``, which
stops an alias bomb), each a one-line error at the line where it is passed. A file
reached through a symbolic link that leads out of the project is refused, and so
is ``.nan`` or ``.inf`` (or a number too large for a float) wherever a number stands.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import ContentError, Finding

MAX_FILE_BYTES = 256 * 1024
"""Largest YAML file read: 8x the largest shipped lesson (``results.yaml``, 30,862 bytes)."""
MAX_DEPTH = 32
"""Deepest nesting of mappings and lists (the shipped files nest 7 deep)."""
MAX_ALIASES = 100
"""Most uses of YAML aliases (``*name``) in one file (the shipped files use none)."""
MAX_VALUES = 100_000
"""Most values one file expands to, aliases counted at every use (the largest shipped file
has 1,064): a few hundred bytes of nested aliases would otherwise expand to billions."""


class LineDict(dict[str, Any]):
    """A mapping that knows the line of itself and of each of its keys."""

    line: int = 0
    key_lines: dict[str, int]


class LineList(list[Any]):
    """A sequence that knows the line of itself and of each of its items."""

    line: int = 0
    item_lines: list[int]


_STANDARD_TAGS = {
    "tag:yaml.org,2002:" + name for name in ("map", "seq", "str", "int", "float", "bool", "null", "timestamp")
}
_MERGE = "tag:yaml.org,2002:merge"


_FLOAT_WITHOUT_DOT = re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$")
"""Scientific notation YAML 1.1 reads as text: ``1e-5``, ``2.5E3``, ``-1e+3``."""


def _with_exponent_floats(loader: type) -> type:
    """A subclass of ``loader`` that reads ``1e-5`` as a number; ``loader`` is unchanged
    (``add_implicit_resolver`` copies the resolver table into the subclass)."""
    subclass = type(f"Paperdeck{loader.__name__}", (loader,), {})
    resolver: Any = subclass
    resolver.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT_WITHOUT_DOT, list("-+0123456789."))
    return subclass


_SAFE: type = _with_exponent_floats(yaml.SafeLoader)
_FAST: type | None = _with_exponent_floats(yaml.CSafeLoader) if hasattr(yaml, "CSafeLoader") else None

_ESCAPES = {
    "\0": "a NUL",
    "\a": "a bell",
    "\b": "a backspace",
    "\t": "a TAB",
    "\n": "a line break",
    "\v": "a vertical tab",
    "\f": "a form feed",
    "\r": "a carriage return",
    "\x1b": "an escape",
    "\x85": "a next-line",
    "\xa0": "a no-break space",
    "\u2028": "a line separator",
    "\u2029": "a paragraph separator",
}
"""Characters a double-quoted YAML escape makes out of the start of a LaTeX command
(``\\frac``, ``\\theta``, ``\\beta``, ``\\alpha``, ``\\vec``, ``\\rho``, ``\\nabla``,
``\\epsilon``, ``\\Nu``, ``\\_``, ``\\L``, ``\\P``), with their names."""
_ESCAPE_LETTERS = {
    "\0": "0",
    "\a": "a",
    "\b": "b",
    "\t": "t",
    "\n": "n",
    "\v": "v",
    "\f": "f",
    "\r": "r",
    "\x1b": "e",
    "\x85": "N",
    "\xa0": "_",
    "\u2028": "L",
    "\u2029": "P",
}


def _escape_problem(node: yaml.Node, value: str) -> str:
    """Why a double-quoted ``value`` was probably meant as LaTeX, or ''."""
    for i, char in enumerate(value):
        if char not in _ESCAPES:
            continue
        if char == "\n" and node.start_mark.line != node.end_mark.line:
            continue  # a blank line inside a quoted string that spans lines also gives \n
        letter = _ESCAPE_LETTERS[char]
        after = value[i + 1 : i + 13]
        return (
            f"in double quotes YAML reads \\{letter} as {_ESCAPES[char]} "
            f'("\\{letter}{after}" became {_ESCAPES[char]} + "{after}"): '
            "write text with backslashes in single quotes or a block scalar (|)"
        )
    return ""


class _TooLarge(Exception):
    """A limit was passed: the file is reported once, at ``finding``, and not built further."""

    def __init__(self, finding: Finding):
        self.finding = finding


class _Builder:
    def __init__(self, path: str):
        self.path = path
        self.problems: list[Finding] = []
        self._scalar = _SAFE("")
        self._built: set[int] = set()
        self._aliases = 0
        self._values = 0

    def _count(self, node: yaml.Node, field: str, line: int, depth: int, key_line: int) -> None:
        """Count one value against the limits; ``_TooLarge`` when one is passed.

        An alias's node is its anchor's, which knows only the anchor's line: what aliases
        pass is told at ``key_line``, the line of the nearest key above the value."""
        self._values += 1
        if not isinstance(node, yaml.ScalarNode):
            if id(node) in self._built:  # the composer gives every alias its anchor's node
                self._aliases += 1
            self._built.add(id(node))
        if depth > MAX_DEPTH:
            raise _TooLarge(Finding(self.path, line, field, f"nested more than {MAX_DEPTH} levels deep"))
        if self._aliases > MAX_ALIASES:
            message = f"more than {MAX_ALIASES} uses of YAML aliases (*name); write the values out"
        elif self._values > MAX_VALUES:
            message = f"more than {MAX_VALUES:,} values (YAML aliases count at every use)"
        else:
            return
        raise _TooLarge(Finding(self.path, key_line or line, field, message))

    def build(self, node: yaml.Node, field: str, depth: int = 1, key_line: int = 0) -> Any:
        line = node.start_mark.line + 1
        self._count(node, field, line, depth, key_line)
        if node.tag not in _STANDARD_TAGS:
            self.problems.append(Finding(self.path, line, field, f"YAML tag {node.tag} is not allowed"))
            return None
        if isinstance(node, yaml.MappingNode):
            out = LineDict()
            out.line, out.key_lines = line, {}
            for key_node, value_node in node.value:
                key_line = key_node.start_mark.line + 1
                if key_node.tag == _MERGE:
                    self.problems.append(
                        Finding(
                            self.path,
                            key_line,
                            field or "<<",
                            "merge keys (<<) are not supported; write the keys out",
                        )
                    )
                    continue
                key = self.build(key_node, field, depth + 1, key_line)
                name = f"{field}.{key}" if field else str(key)
                if not isinstance(key, str):
                    self.problems.append(Finding(self.path, key_line, name, "keys must be text"))
                    continue
                if key in out:
                    self.problems.append(Finding(self.path, key_line, name, "duplicate key"))
                    continue
                out[key] = self.build(value_node, name, depth + 1, key_line)
                out.key_lines[key] = key_line
            return out
        if isinstance(node, yaml.SequenceNode):
            items = LineList()
            items.line, items.item_lines = line, []
            for i, item in enumerate(node.value):
                items.append(self.build(item, f"{field}[{i}]", depth + 1, key_line))
                items.item_lines.append(item.start_mark.line + 1)
            return items
        try:
            value = self._scalar.construct_object(node, deep=True)
        except ValueError as error:  # a timestamp that is no date (2027-02-30): PyYAML's datetime raises
            self.problems.append(Finding(self.path, line, field, f"{node.value} is not a date: {error}"))
            return None
        if isinstance(value, float) and not math.isfinite(value):
            # .nan and .inf would print as "Total: nan points" and make the key JSON invalid.
            message = f"{node.value} is not a number paperdeck can use; write a finite number"
            self.problems.append(Finding(self.path, line, field, message))
        if isinstance(value, str) and isinstance(node, yaml.ScalarNode) and node.style == '"':
            problem = _escape_problem(node, value)
            if problem:
                self.problems.append(Finding(self.path, line, field, problem))
        return value


def _compose(text: str) -> yaml.Node | None:
    """The node tree of ``text``: libyaml's parser where it is installed (ten times
    faster), with the pure-Python parser's wording for syntax errors."""
    if not _FAST:
        return yaml.compose(text, Loader=_SAFE)
    try:
        return yaml.compose(text, Loader=_FAST)
    except yaml.YAMLError as fast_error:
        try:
            yaml.compose(text, Loader=_SAFE)
        except yaml.YAMLError:
            raise
        except RecursionError:  # the pure-Python parser recurses per level: keep libyaml's word
            pass
        raise fast_error from None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _line_above(lines: list[str], line: int) -> str:
    """The nearest line above the 1-based ``line`` that holds something other than a comment."""
    for above in reversed(lines[: line - 1]):
        if above.strip() and not above.lstrip().startswith("#"):
            return above
    return ""


_OPENS_QUOTE = re.compile(r"""^\s*(?:- )?[^\s:'"#][^:]*:\s+(['"])(.*)$""")


def _unclosed_quote(lines: list[str], first: int, last: int) -> int:
    """The last line from ``first`` to before ``last`` (1-based) whose value opens a quote
    that the line does not close, or 0."""
    for number in range(last - 1, first - 1, -1):
        match = _OPENS_QUOTE.match(lines[number - 1])
        if match and match.group(1) not in match.group(2).replace(match.group(1) * 2, ""):
            return number
    return 0


def _plain_syntax_error(error: yaml.MarkedYAMLError, lines: list[str]) -> tuple[int, str]:
    """The line of a syntax mistake and what it is, in plain words.

    PyYAML often notices a mistake on the line after it (an unclosed quote or
    bracket, a key without its colon) and names it in parser terms; the common
    cases are told here at the line where the mistake is. Others keep PyYAML's
    wording.
    """
    problem = error.problem or ""
    context = error.context or ""
    at = error.problem_mark.line + 1 if error.problem_mark else 0
    began = error.context_mark.line + 1 if error.context_mark else at
    text = lines[at - 1] if 0 < at <= len(lines) else ""
    if problem.startswith("mapping values are not allowed"):
        above = _line_above(lines, at)
        opens_block = above.rstrip().endswith((":", "|", ">", "|-", ">-"))
        if above and _indent(text) > _indent(above) and not opens_block:
            return at, "this line is indented more than the one above"
        return at, "a second ': ' on one line; put a value that holds ': ' in quotes"
    if problem == "could not find expected ':'":
        return began, "a key without its ':' (write key: value), or a line indented wrongly"
    if "but found '-'" in problem or "but found '<block sequence start>'" in problem:
        return at, "a list item where a key was expected; check this line's indentation"
    if "but found '<block mapping start>'" in problem:
        return at, "this line's indentation matches no line above it; line it up with its neighbours"
    if "but found '<scalar>'" in problem and context == "while parsing a block mapping":
        opened = _unclosed_quote(lines, began, at)
        if opened:  # the quote ran on to the next quote, lines below
            return opened, "a quote opened on this line is never closed"
        return at, "text goes on after the closing quote, ] or }; put the whole value in single quotes"
    if context == "while scanning a quoted scalar":
        return began, "a quote opened on this line is never closed"
    if "escape" in problem and "double-quoted" in context:
        key = re.match(r"\s*(?:- )?([^\s:'\"#][^:]*):\s", text)
        return at, (
            (f"{key.group(1)}: " if key else "")
            + "a backslash in double quotes starts a YAML escape, not LaTeX; "
            "write text with backslashes in single quotes or a block scalar (|)"
        )
    if context in ("while parsing a flow sequence", "while parsing a flow mapping"):
        bracket, closing = ("[", "]") if "sequence" in context else ("{", "}")
        return began, (
            f"a {bracket} opened on this line is not closed with {closing} "
            f"(in a value that starts with {bracket}, put the whole value in single quotes)"
        )
    if problem == "found character '\\t' that cannot start any token":
        return at, "a TAB in the indentation; indent with spaces"
    if "that cannot start any token" in problem:
        return at, f"a value cannot start with {problem.split(chr(39))[1]}; put it in quotes"
    if context == "while scanning an alias" or problem.startswith("found undefined alias"):
        return at, "a value that starts with * is read as a YAML alias; put it in quotes"
    if context == "while scanning a block scalar":
        return at, "text after | or > on the same line; start the text on the next line, indented"
    return at or began, f"YAML syntax error: {problem or context}"


def _read(path: Path, shown_as: str, folder: Path | None) -> bytes:
    """The bytes of ``path``, within the limits, or a ContentError."""
    try:
        resolved = path.resolve(strict=True)
        if folder is not None and not any(
            resolved.is_relative_to(inside.resolve()) for inside in (folder, folder.parent)
        ):
            message = (
                f"a symbolic link to {resolved}, outside the project; copy the file into the project instead"
            )
            raise ContentError([Finding(shown_as, 0, "", message)])
        if not resolved.is_file():  # a device or a pipe would be read without end
            raise ContentError([Finding(shown_as, 0, "", "not a regular file")])
        with open(resolved, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ContentError([Finding(shown_as, 0, "", "file not found")]) from None
    except (RuntimeError, OSError) as error:  # a loop of symbolic links (3.11 raises RuntimeError)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise ContentError([Finding(shown_as, 0, "", f"cannot be read: {reason}")]) from None
    if len(data) > MAX_FILE_BYTES:
        size = os.path.getsize(resolved)
        raise ContentError(
            [
                Finding(
                    shown_as,
                    0,
                    "",
                    f"{size:,} bytes is more than the limit of {MAX_FILE_BYTES:,} bytes per file; split it",
                )
            ]
        )
    return data


def load(path: Path, shown_as: str, folder: Path | None = None) -> Any:
    """The YAML document in ``path`` with line information, or a ContentError.

    ``shown_as`` is how error messages name the file (relative to the project).
    ``folder`` is the project's ``content/`` or ``decks/``: a file whose real place
    is neither in it nor in the project around it (a symbolic link leading out of
    the project) is refused. ``folder`` may itself be a link, as in the bundled copy.
    """
    data = _read(path, shown_as, folder)
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
        line, message = _plain_syntax_error(error, text.splitlines())
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
    except _TooLarge as error:
        raise ContentError([error.finding]) from None
    except yaml.constructor.ConstructorError as error:
        mark = error.problem_mark
        line = mark.line + 1 if mark else 0
        raise ContentError([Finding(shown_as, line, "", f"YAML error: {error.problem}")]) from None
    if builder.problems:
        raise ContentError(builder.problems)
    return value
