"""Warnings about cards that are valid but teach badly (``paperdeck check`` prints them).

Five rules, each about one card:

- a reversed concept (``reverse: true``) whose definition contains its own term:
  every content word of the term (words of three or more letters, hyphenated
  words split, small function words ignored) occurs in the definition,
  case-insensitively and ignoring math delimiters, with names in math split at
  their capitals (``\\mathrm{LayerNorm}`` holds ``layer`` and ``norm``). A word
  of six or more letters also matches a word with the same first six letters
  (``averaging`` matches ``average``), and a word of four or more letters matches
  a word it begins or that begins it (``norm`` matches ``normalization``). Two or
  more neighbouring words of the term also occur as their initials (``PE`` for
  ``positional encoding``). The term is checked without its parentheses and,
  separately, each parenthesised name in it (``Self-attention (intra-attention)``
  checks ``self-attention`` and ``intra-attention``; a parenthesis that starts
  with a function word, ``(in recurrent models)``, is a qualifier and is not
  checked). The reverse card would give its answer away;
- a cloze whose hidden text also appears unhidden on the same card, in the rest
  of its text or in its ``extra`` (as a whole word or number, case-insensitively),
  or in another deletion that the card shows filled in (``{{c1::0.1}} … {{c2::0.1}}``);
- a flashcard back longer than ``MAX_BACK`` characters of plain text: its length is
  counted after removing math delimiters, Markdown emphasis and code markers,
  LaTeX font and sizing commands (``\\mathrm``, ``\\text``, ``\\left`` …), the
  backslash of other commands, and braces. Keep the back to one idea and put the
  rest in ``explanation``;
- an answer that lists three or more items: a flashcard's back or a concept's
  definition (the answer of its forward card) whose first sentence, outside math
  and parentheses, holds a series ``A, B and C`` (or ``A; B; C``) of short items
  (at most ``MAX_ITEM_WORDS`` words each). Ask for one item, or for the list as
  an ordered cloze where the order is the point.

and one rule about pairs of cards, across the whole content (interference):

- two cards that hide the same answer under cues that differ by one word or number
  (one replaced, added or dropped) or not at all. A card's cue is a flashcard's
  front, or a cloze's text as one of its cards shows it (its own deletions blank,
  the others filled in); its answer is what that cloze card hides, or the first
  clause of a flashcard's back (up to a comma, semicolon, parenthesis or full
  stop), compared as plain lowercase text. Cues and answers are compared as words
  and numbers (``5.01``, ``100,000``), math as its letters. A learner who meets
  both cannot tell from the cue which one they are answering: ask what tells them
  apart, or keep one;
- two flashcards whose fronts are the same once their table names are left out
  (``in Table 2``, ``(Table 3)``) and whose answers are numbers of the same kind
  (as many decimals, and the same unit word after them if any), with different
  values: the table name is the only cue to which number is asked.

and one rule about an equation:

- an equation variable whose symbol does not occur in the equation's LaTeX nor in
  the shape of another of its variables (``d_{model}`` may explain a shape): the
  symbol's first name (a command such as ``\\mathcal{F}``, or the letters before
  its subscripts and superscripts: ``W`` of ``W_i^{Q}``) is looked for among the
  commands and letters of the LaTeX, with font commands unwrapped; a symbol that
  lists several (``Q, K, V``) is checked name by name.

Warnings are ``Finding``s, printed as ``path:line: field: warning: message``.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import Finding
from . import yamlsource
from .model import Content
from .text import CLOZE, Inline, Inlines, PlainRenderer, Text, inlines, plain, prose

MAX_BACK = 170
"""Longest flashcard back, in plain-text characters."""

_BLANK = "zzblankzz"
"""The token a cue has where its card's deletion is (kept intact by ``plain_text``)."""
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[a-z]+(?:-[a-z]+)*")
_FIRST_CLAUSE = re.compile(r"[,;(]|\.(?:\s|$)")


def plain_text(text: str | Inlines) -> str:
    """``text`` as a reader sees it: its words without markup, math in Unicode as the plain-text
    writer of the LaTeX parser writes it (``content.text.prose``), on one line."""
    return " ".join(prose(text).split())


def _normal(text: str) -> str:
    """Lowercase text without its markup (math as its LaTeX) and with single spaces."""
    return " ".join(plain(text).lower().split())


def _contains(haystack: str, needle: str) -> bool:
    """Whether ``needle`` occurs in ``haystack`` as whole words (not inside a longer word or number)."""
    if not needle:
        return False
    pattern = r"(?<![\w.])" + re.escape(needle) + r"(?![\w]|\.\d)"
    return re.search(pattern, haystack) is not None


_FUNCTION_WORDS = frozenset("a an the and or of in on for with to by at as its from into than".split())


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", _normal(text))


_CAPITALS = re.compile(r"(?<=[a-z])(?=[A-Z])")
_NOT_INITIALS = frozenset("an as at be by do he if in is it me my no of on or so to up us we".split())


def _definition_words(text: str) -> set[str]:
    """The words of a definition, names in math split at their capitals (``LayerNorm``)."""
    return set(_words(_CAPITALS.sub(" ", text)))


def term_forms(term: str) -> list[list[str]]:
    """The content words of each name a concept's term gives itself (see the module docstring)."""
    inside = re.findall(r"\(([^)]*)\)", term)
    outside = re.sub(r"\([^)]*\)", " ", term)
    forms = [outside] + [i for i in inside if _words(i)[:1] and _words(i)[0] not in _FUNCTION_WORDS]
    content = [[w for w in _words(f) if len(w) >= 3 and w not in _FUNCTION_WORDS] for f in forms]
    return [words for words in content if words]


def _word_in(word: str, words: set[str]) -> bool:
    if word in words:
        return True
    if len(word) >= 6 and any(len(w) >= 6 and w[:6] == word[:6] for w in words):
        return True
    return any(min(len(w), len(word)) >= 4 and (w.startswith(word) or word.startswith(w)) for w in words)


def _as_initials(words: list[str], found: set[str]) -> dict[int, str]:
    """Index of each term word covered by initials in the definition -> those initials."""
    covered: dict[int, str] = {}
    for start in range(len(words)):
        for end in range(start + 2, len(words) + 1):
            initials = "".join(w[0] for w in words[start:end])
            if initials in found and initials not in _NOT_INITIALS:
                covered.update({i: initials for i in range(start, end)})
    return covered


def gives_term_away(term: str, definition: str) -> list[str] | None:
    """The words of ``term`` that ``definition`` contains when it contains all of one name, else None
    (a word found as initials is shown as ``word (as PE)``)."""
    found = _definition_words(definition)
    for words in term_forms(term):
        initials = _as_initials(words, found)
        if all(i in initials or _word_in(w, found) for i, w in enumerate(words)):
            return [
                w if i not in initials or _word_in(w, found) else f"{w} (as {initials[i].upper()})"
                for i, w in enumerate(words)
            ]
    return None


MAX_ITEM_WORDS = 8
"""Longest item, in words, of a series that counts as a list (``listed_items``)."""
MAX_SHORT_ITEM_WORDS = 3
"""Longest item of a series without a comma before its last item (``A, B and C``)."""
_SENTENCE_END = re.compile(r"(?<=[A-Za-z0-9)'\"])\.(?:\s|$)")
_PARENTHESES = re.compile(r"\([^()]*\)")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_LAST_ITEM = re.compile(r"^(.+?)\s+(?:and|or)\s+(.+)$")


def _short(items: list[str], words: int) -> bool:
    return all(0 < len(item.split()) <= words for item in items)


_MATH_AS_X = PlainRenderer(lambda _math: " X ")


def listed_items(text: str) -> list[str]:
    """The items of a series of three or more in the first sentence of ``text``, outside math
    and parentheses, else an empty list: ``A; B; C``, ``A × B × C`` or ``A, B, and C`` with
    items of at most ``MAX_ITEM_WORDS`` words, or ``A, B and C`` with items of at most
    ``MAX_SHORT_ITEM_WORDS`` (longer ones are more often a clause than an item)."""
    outside = _PARENTHESES.sub(" ", _MATH_AS_X.inline(inlines(text)))
    first = _THOUSANDS.sub("", _SENTENCE_END.split(outside, maxsplit=1)[0])
    for separator in (";", "×"):
        parts = [" ".join(p.split()) for p in first.split(separator)]
        if len(parts) >= 3 and _short(parts, MAX_ITEM_WORDS):
            return parts
    parts = [" ".join(p.split()) for p in first.split(",")]
    for start in range(len(parts) - 2 + 1):
        for end in range(len(parts), start + 1, -1):
            run, last = parts[start : end - 1], parts[end - 1]
            if last.startswith(("and ", "or ")) and len(run) >= 2:
                items = run + [last.split(None, 1)[1]]
                if _short(items, MAX_ITEM_WORDS):
                    return items
            pair = _LAST_ITEM.match(last)
            if pair is not None and run:
                items = run + [pair.group(1), pair.group(2)]
                if _short(items, MAX_SHORT_ITEM_WORDS):
                    return items
    return []


def cloze_cards(text: str) -> dict[str, tuple[str, str]]:
    """Card number -> (cue, answer): the cloze as that card shows it, its own deletions
    blank and the others filled in, and the text those deletions hide."""
    cards: dict[str, tuple[str, str]] = {}
    for number in dict.fromkeys(m.group(1) for m in CLOZE.finditer(text)):

        def shown(m: re.Match[str], number: str = number) -> str:
            return f" {_BLANK} " if m.group(1) == number else m.group(2)

        hidden = " ".join(m.group(2) for m in CLOZE.finditer(text) if m.group(1) == number)
        cards[number] = (CLOZE.sub(shown, text), hidden)
    return cards


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(plain_text(text).lower())


def first_clause(text: str) -> Inlines:
    """A flashcard back up to the end of its first clause (a comma, semicolon, parenthesis or
    full stop in its text, not in math or markup): the value it answers."""
    clause: list[Inline] = []
    for node in inlines(text):
        if isinstance(node, Text) and (cut := _FIRST_CLAUSE.search(node.text)) is not None:
            before = node.text[: cut.start()].rstrip()
            return (*clause, Text(before)) if before else tuple(clause)
        clause.append(node)
    return tuple(clause)


def one_word_apart(a: list[str], b: list[str]) -> tuple[str, str] | None:
    """The differing words when ``a`` and ``b`` are equal or differ by one word replaced, added
    or dropped (``("", "")`` when equal); otherwise None."""
    if abs(len(a) - len(b)) > 1:
        return None
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(a), len(b)) - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    rest_a, rest_b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    if len(rest_a) > 1 or len(rest_b) > 1:
        return None
    return (" ".join(rest_a), " ".join(rest_b))


_FONT_ARGUMENT = re.compile(r"\\(?:mathrm|text|mathit|operatorname|textrm|mathsf|mathtt)\s*\{([^{}]*)\}")
_NAME = re.compile(r"\\[A-Za-z]+(?:\{[^{}]*\})?|[A-Za-z]+")


def _names(latex: str) -> tuple[set[str], str]:
    """The commands of ``latex`` (``\\mathcal{F}`` with its argument) and its letters, one string."""
    text = _FONT_ARGUMENT.sub(r" \1 ", latex).replace(r"\_", "_")
    commands = set(re.findall(r"\\[A-Za-z]+(?:\{[^{}]*\})?", text))
    commands |= {c.split("{")[0] for c in commands}
    letters = " ".join(re.findall(r"(?<!\\)(?<![A-Za-z])[A-Za-z]+", re.sub(r"\\[A-Za-z]+", " ", text)))
    return commands, letters


def symbol_missing(symbol: str, where: str) -> list[str]:
    """The names of ``symbol`` (comma-separated, each by its first name) that the LaTeX
    ``where`` lacks."""
    commands, letters = _names(where)
    missing = []
    for part in symbol.split(","):
        text = _FONT_ARGUMENT.sub(r" \1 ", part).replace(r"\_", "_").strip()
        first = _NAME.match(text)
        if first is None:
            continue
        name = first[0]
        found = name in commands if name.startswith("\\") else name in letters
        if not found:
            missing.append(part.strip())
    return missing


def _lines(project: Path | None, lesson_id: str) -> dict[tuple[str, int], dict[str, int]]:
    """(list name, index) -> key lines of that item in the lesson's file, when it can be read."""
    if project is None:
        return {}
    path = project / "content" / "lessons" / f"{lesson_id}.yaml"
    try:
        data = yamlsource.load(path, str(path))
    except Exception:  # noqa: BLE001 - lines are a nicety; content was validated already
        return {}
    found: dict[tuple[str, int], dict[str, int]] = {}
    for name in ("concepts", "clozes", "flashcards", "equations"):
        items = data.get(name) if isinstance(data, dict) else None
        if isinstance(items, yamlsource.LineList):
            for i, (item, line) in enumerate(zip(items, items.item_lines, strict=True)):
                key_lines = dict(getattr(item, "key_lines", {}))
                key_lines[""] = line
                variables = item.get("variables") if isinstance(item, dict) else None
                if isinstance(variables, yamlsource.LineList):
                    key_lines.update(
                        {
                            f"variables[{j}].symbol": variable_line
                            for j, variable_line in enumerate(variables.item_lines)
                        }
                    )
                found[(name, i)] = key_lines
    return found


def card_rule_warnings(content: Content, project: Path | str | None = None) -> list[Finding]:
    """Every card-rule warning for ``content``; with ``project`` given, with file lines."""
    root = Path(project) if project is not None else None
    warnings: list[Finding] = []
    all_lines = {lesson.id: _lines(root, lesson.id) for lesson in content.lessons}
    for lesson in content.lessons:
        path = f"content/lessons/{lesson.id}.yaml"
        lines = all_lines[lesson.id]

        def warn(
            kind: str,
            index: int,
            field: str,
            message: str,
            path: str = path,
            lines: dict[tuple[str, int], dict[str, int]] = lines,
        ) -> None:
            key_lines = lines.get((kind, index), {})
            line = key_lines.get(field, key_lines.get("", 0))
            warnings.append(Finding(path, line, f"{kind}[{index}].{field}", f"warning: {message}"))

        for i, concept in enumerate(lesson.concepts):
            items = listed_items(concept.definition)
            if items:
                warn("concepts", i, "definition", _list_message(f"concept {concept.id!r}: definition", items))
            if not concept.reverse:
                continue
            words = gives_term_away(concept.term, concept.definition)
            if words:
                warn(
                    "concepts",
                    i,
                    "definition",
                    f"reversed concept {concept.id!r}: the definition contains its term "
                    f"({', '.join(words)}), so the reverse card gives its answer away",
                )
        for i, cloze in enumerate(lesson.clozes):
            shown = _normal(CLOZE.sub(" ", cloze.text))
            extra = _normal(cloze.extra)
            said: set[str] = set()
            for hidden in dict.fromkeys(_normal(m.group(2)) for m in CLOZE.finditer(cloze.text)):
                where = "text" if _contains(shown, hidden) else "extra" if _contains(extra, hidden) else ""
                if where:
                    said.add(hidden)
                    warn(
                        "clozes",
                        i,
                        where if where == "extra" else "text",
                        f"cloze {cloze.id!r}: hidden text {hidden!r} also appears unhidden in its {where}",
                    )
            deletions = [(m.group(1), _normal(m.group(2))) for m in CLOZE.finditer(cloze.text)]
            for number, hidden in deletions:
                other = next((n for n, h in deletions if n != number and _contains(h, hidden)), None)
                if other is not None and hidden not in said:
                    said.add(hidden)
                    warn(
                        "clozes",
                        i,
                        "text",
                        f"cloze {cloze.id!r}: hidden text {hidden!r} of c{number} shows on the "
                        f"same card, filled in as c{other}",
                    )
        for i, equation in enumerate(lesson.equations):
            shapes = " ".join(v.shape for v in equation.variables)
            for j, variable in enumerate(equation.variables):
                if symbol_missing(variable.symbol, equation.latex + " " + shapes):
                    warn(
                        "equations",
                        i,
                        f"variables[{j}].symbol",
                        f"equation {equation.id!r}: variable '{variable.symbol}' does not occur in its"
                        f" LaTeX '{equation.latex}' (nor in a shape)",
                    )
        for i, card in enumerate(lesson.flashcards):
            length = len(plain_text(card.back))
            if length > MAX_BACK:
                warn(
                    "flashcards",
                    i,
                    "back",
                    f"flashcard {card.id!r}: back is {length} characters of plain text "
                    f"(at most {MAX_BACK}); keep one idea and move the rest to explanation",
                )
            items = listed_items(card.back)
            if items:
                warn("flashcards", i, "back", _list_message(f"flashcard {card.id!r}: back", items))
    return warnings + _interference(content, all_lines) + _table_twins(content, all_lines)


def _list_message(what: str, items: list[str]) -> str:
    shown = "; ".join(repr(item) for item in items)
    return (
        f"{what} lists {len(items)} items ({shown}); ask for one, or for the list as an "
        "ordered cloze where the order is the point"
    )


_TABLE_NAME = re.compile(r"\(?\s*\b(?:(?:in|per|of|from|on)\s+)?table\s+\d+(?:'s)?\s*\)?", re.I)
_NUMBER_ANSWER = re.compile(r"^(-?\d[\d,]*(?:\.(\d+))?)\s*([a-z]*)")


def number_kind(answer: str | Inlines) -> tuple[str, int, str] | None:
    """(value, decimals, unit word) when ``answer`` is a number, optionally followed by a unit."""
    m = _NUMBER_ANSWER.match(plain_text(answer).lower())
    if m is None:
        return None
    return m.group(1), len(m.group(2) or ""), m.group(3)


def _table_twins(content: Content, lines: dict[str, dict[tuple[str, int], dict[str, int]]]) -> list[Finding]:
    """Flashcards whose fronts differ only by a table name and that ask the same kind of number."""
    seen: dict[tuple[str, int, str, str], tuple[str, str, str]] = {}
    found: list[Finding] = []
    for lesson in content.lessons:
        for i, card in enumerate(lesson.flashcards):
            kind = number_kind(first_clause(card.back))
            if kind is None or not _TABLE_NAME.search(plain_text(card.front)):
                continue
            cue = " ".join(_tokens(_TABLE_NAME.sub(" ", plain_text(card.front))))
            key = (cue, kind[1], kind[2], "")
            earlier = seen.get(key)
            if earlier is not None and earlier[1] != kind[0]:
                key_lines = lines[lesson.id].get(("flashcards", i), {})
                found.append(
                    Finding(
                        f"content/lessons/{lesson.id}.yaml",
                        key_lines.get("front", key_lines.get("", 0)),
                        f"flashcards[{i}].front",
                        f"warning: flashcard {card.id!r} asks the same kind of number as {earlier[0]} "
                        f"({kind[0]} against {earlier[1]}) under a front that differs only by its table "
                        "name; a learner cannot tell which number is asked, so name what differs "
                        "(the data set, the model) or keep one",
                    )
                )
            seen.setdefault(key, (f"flashcard {card.id!r}", kind[0], lesson.id))
    return found


def _interference(content: Content, lines: dict[str, dict[tuple[str, int], dict[str, int]]]) -> list[Finding]:
    """Pairs of cards that hide the same answer under cues one word or number apart."""
    # (lesson, kind, index, name shown in the message, field, cue tokens, answer as shown)
    cards: list[tuple[str, str, int, str, str, list[str], str]] = []
    for lesson in content.lessons:
        for i, card in enumerate(lesson.flashcards):
            cards.append(
                (
                    lesson.id,
                    "flashcards",
                    i,
                    f"flashcard {card.id!r}",
                    "front",
                    _tokens(card.front),
                    plain_text(first_clause(card.back)),
                )
            )
        for i, cloze in enumerate(lesson.clozes):
            for number, (cue, hidden) in cloze_cards(cloze.text).items():
                cards.append(
                    (
                        lesson.id,
                        "clozes",
                        i,
                        f"cloze {cloze.id!r} (c{number})",
                        "text",
                        _tokens(cue),
                        plain_text(hidden),
                    )
                )
    by_answer: dict[str, list[int]] = {}
    for n, unit in enumerate(cards):
        value = " ".join(_tokens(unit[6]))
        if value:
            by_answer.setdefault(value, []).append(n)
    found: list[Finding] = []
    for members in by_answer.values():
        for later_at, later in enumerate(members):
            for earlier in members[:later_at]:
                a, b = cards[earlier], cards[later]
                differ = one_word_apart(a[5], b[5])
                if differ is None:
                    continue
                lesson_id, kind, index, name, field = b[:5]
                key_lines = lines[lesson_id].get((kind, index), {})
                how = (
                    "is the same"
                    if differ == ("", "")
                    else f"differs only by the word {differ[0] or differ[1]!r}"
                    if "" in differ
                    else f"differs only in {differ[0]!r} / {differ[1]!r}"
                )
                found.append(
                    Finding(
                        f"content/lessons/{lesson_id}.yaml",
                        key_lines.get(field, key_lines.get("", 0)),
                        f"{kind}[{index}].{field}",
                        f"warning: {name} hides {b[6]!r} like {a[3]} under a cue that {how}; "
                        "a learner cannot tell them apart, so ask what differs or keep one",
                    )
                )
                break
    return found
