"""Students' names as a responses file gives them, without a roster to check them against.

A name typed in a spreadsheet, pasted from a learning platform or read off a form can
carry what no one sees: a zero-width space or joiner, a soft hyphen, a byte-order mark,
a right-to-left override (which reverses the line it is printed in), or the same accented
letter in two Unicode forms (``José`` as one code point or as ``e`` and a combining
accent). ``clean`` removes the invisible characters and puts the name in one form (NFC),
so such names are one name; ``lookalikes`` then finds the names that still differ only by
letters that look alike (Cyrillic ``А`` for Latin ``A``, fullwidth ``Ａ``, case), which may be
one student typed twice or two students: the teacher decides, so they are warned about,
never merged.

Look-alike letters are a small table (``_LOOKALIKE``) of the Cyrillic and Greek letters
that print as Latin ones, after NFKC (which folds fullwidth and mathematical letters) and
case folding. It is not Unicode's full confusables list (UTS #39): a name it misses is
graded as written, as before, and costs the teacher only a warning not given; a library
for it (``confusable-homoglyphs``) would be a dependency for fifty letters.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from ..errors import Finding

_BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_INVISIBLE = "\u00ad\u034f\u180e\u200b\u2060\u2061\u2062\u2063\u2064\ufeff" + _BIDI_CONTROLS
_JOINERS = "\u200c\u200d"
"""Zero-width non-joiner and joiner: part of how some scripts spell a name (Persian, the
Indic scripts), so kept between two letters of those scripts, and removed elsewhere."""
_DROP = {ord(c): None for c in _INVISIBLE}

_LOOKALIKE = str.maketrans(
    {
        # Cyrillic, lower case (names are compared case-folded)
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "ë",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "і": "i",
        "ї": "ï",
        "ј": "j",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "һ": "h",
        "ӏ": "l",
        "ɡ": "g",
        # Greek, lower case
        "α": "a",
        "β": "b",
        "ε": "e",
        "ζ": "z",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "μ": "u",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ϲ": "c",
        "ϳ": "j",
        # Latin letters that print as others
        "ı": "i",
        "ſ": "s",
    }
)


def _script_joiner_kept(name: str, i: int) -> bool:
    """Whether the joiner at ``name[i]`` stands between two letters of a script that spells with it."""
    if not 0 < i < len(name) - 1:
        return False
    before, after = name[i - 1], name[i + 1]
    return all(
        c.isalpha() and not unicodedata.name(c, "").startswith(("LATIN", "CYRILLIC", "GREEK"))
        for c in (before, after)
    )


def clean(name: str) -> str:
    """``name`` as it is kept and printed: NFC, without invisible characters (zero-width
    spaces, soft hyphens, bidi controls; joiners but where a script spells with them),
    spaces collapsed."""
    text = unicodedata.normalize("NFC", name).translate(_DROP)
    if any(c in text for c in _JOINERS):
        text = "".join(c for i, c in enumerate(text) if c not in _JOINERS or _script_joiner_kept(text, i))
    return " ".join(text.split())


def identity(name: str) -> str:
    """What tells two names apart as one and the same: the cleaned name, case folded."""
    return clean(name).casefold()


def _skeleton(name: str) -> str:
    folded = unicodedata.normalize("NFKC", identity(name)).casefold()
    return " ".join(unicodedata.normalize("NFC", folded.translate(_LOOKALIKE)).split())


def _differences(one: str, other: str) -> str:
    """The letters of ``one`` that are not of Latin script, named: what makes it look like ``other``."""
    shown = []
    for c in dict.fromkeys(one + other):
        folded = c.casefold()
        if (
            unicodedata.normalize("NFKC", c) != c
            or c.isalpha()
            and folded.translate(_LOOKALIKE) != folded
            and not unicodedata.name(c, "").startswith("LATIN")
        ):
            shown.append(f"{c} {unicodedata.name(c, '?').title()} U+{ord(c):04X}")
    return "; ".join(shown)


def lookalikes(names: Iterable[tuple[int, str]], shown: str) -> tuple[Finding, ...]:
    """A warning per name (line, name) that looks like an earlier one without being it: one
    student typed twice, or two students? Graded apart; the teacher decides."""
    first: dict[str, tuple[int, str]] = {}
    found: list[Finding] = []
    for line, name in names:
        skeleton = _skeleton(name)
        if skeleton in first and first[skeleton][1] != name:
            earlier_line, earlier = first[skeleton]
            letters = _differences(name, earlier)
            because = f" (look-alike letters: {letters})" if letters else ""
            found.append(
                Finding(
                    shown,
                    line,
                    "column student",
                    f"{name!r} looks like {earlier!r} on line {earlier_line}{because}; graded "
                    "as two students: if they are one, give them one row",
                )
            )
        else:
            first.setdefault(skeleton, (line, name))
    return tuple(found)
