"""Numbers and words in text, read the same way from the paper and from a card.

One reader for both sides, so that a number matches when it is the same value however it
is written: ``100,000`` and ``100K``, ``2.3 \\cdot 10^{19}`` and ``2.3⋅10^19``, ``0.10``
and ``0.1``. Signs are ignored (``-0.5`` in ``step^{-0.5}`` is the paper's 0.5).

Not numbers: references to the paper's own parts (``Section 3.2``, ``Table 2``,
``S3.2.1``, ``Eq. (1)``, ``footnote 5``, ``reference [36]``), digits inside names (``P100``, ``newstest2014``,
``tensor2tensor``) and subscripts (``W_1``, ``x_{2}``): they are indices, not values.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..content.text import PlainRenderer, inlines

_REFERENCE = re.compile(
    r"(?:\b(?:sections?|secs?\.|tables?|figures?|figs?\.|eqs?\.|equations?|footnotes?|appendix|"
    r"appendices|quiz|lesson|lessons|algorithm|chapter|references?|refs?\.)|§)\s*~?[(\[]?\d+(?:\.\d+)*[)\]]?"
    r"(?:\s*(?:,|and|or|-|–|to)\s*\(?\d+(?:\.\d+)*\)?)*"
    r"|\bS(?:\d+|[A-Z])(?:\.\d+)*(?:\.[ETF]\d+)?\b"
    r"|\b\d+\s+(?:decimals|decimal places|significant (?:digits|figures))\b"
    r"|\^\s*\{?\s*2\s*\}?(?![\d.])",  # how many digits to give; a square (an operation, not a value)
    re.I,
)
_SUBSCRIPT = re.compile(r"_\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9])")
_SCIENTIFIC = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:\\cdot|\\times|×|⋅|·|\*)\s*10\s*\^\s*\{?\s*[-−]?\s*(\d+)\s*\}?"
)
_SCIENTIFIC_SIGN = re.compile(r"10\s*\^\s*\{?\s*([-−])")
_POWER_OF_TEN = re.compile(r"(?<![\w.])10\s*\^\s*\{?\s*([-−]?)\s*(\d+)\s*\}?")
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.\\])(\d{1,3}(?:,\d{3})+(?![\d])|\d+)(\.\d+)?(?:\s?([KMB])(?![A-Za-z]))?(?![A-Za-z0-9])"
)
_COMMAND = re.compile(r"\\[A-Za-z]+")
_WORD = re.compile(r"[a-z0-9]+")

NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "sixteen": 16,
    "twenty": 20,
    "hundred": 100,
    "thousand": 1000,
    "half": 0.5,
    "twice": 2,
    "single": 1,
    "once": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "double": 2,
    "quarter": 0.25,
}
"""Words the paper writes numbers as; the index counts them as numbers (a card's ``8 GPUs``
is the paper's ``eight GPUs``). A card's own number words are not checked."""

_SUFFIX = {"K": Decimal(1000), "M": Decimal(10) ** 6, "B": Decimal(10) ** 9}


@dataclass(frozen=True)
class Number:
    """A number as written in a text: where, as written, and its value."""

    start: int
    """Offset of its first character in the text it was read from."""
    end: int
    """Offset after its last character."""
    written: str
    """The characters as written (``100K``, ``2.3 \\cdot 10^{19}``)."""
    value: str
    """The value, canonical: ``100000``, ``23000000000000000000``, ``0.1``."""
    unscaled: str
    """The value without a ``K``, ``M`` or ``B`` suffix (``65`` for ``65M``), canonical: a table
    whose column says ``× 10^6`` holds it so."""
    decimals: int = 0
    """Digits written after the decimal point (``0.50``: 2): the precision it states."""


def canonical(value: Decimal) -> str:
    """``value`` as a plain decimal without sign, exponent or trailing zeros."""
    value = abs(value).normalize()
    text = format(value, "f")
    return text


def _value(number: str, fraction: str | None, suffix: str | None) -> Decimal:
    value = Decimal(number.replace(",", "") + (fraction or ""))
    if suffix:
        value *= _SUFFIX[suffix]
    return value


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if chars[i] not in "\n":
                chars[i] = " "
    return "".join(chars)


def numbers(text: str) -> list[Number]:
    """Every number written in ``text`` (Markdown with LaTeX math, or the paper's text with
    its math as TeX), in order."""
    found: list[Number] = []
    taken = [m.span() for m in _REFERENCE.finditer(text)]
    taken += [m.span() for m in _SUBSCRIPT.finditer(text)]
    for m in _SCIENTIFIC.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        negative = _SCIENTIFIC_SIGN.search(m.group())
        exponent = int(m.group(2)) * (-1 if negative else 1)
        try:
            value = Decimal(m.group(1)) * Decimal(10) ** exponent
        except InvalidOperation:
            continue
        places = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
        found.append(
            Number(
                m.start(), m.end(), m.group(), canonical(value), canonical(value), max(0, places - exponent)
            )
        )
        taken.append(m.span())
    for m in _POWER_OF_TEN.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        exponent = int(m.group(2)) * (-1 if m.group(1) else 1)
        power = canonical(Decimal(10) ** exponent)
        found.append(Number(m.start(), m.end(), m.group(), power, power))
        taken.append(m.span())
    # Commands are letters: ``\sqrt{512}`` keeps 512, ``\mathbb{R}^{d}`` gives nothing.
    plain = _blank(text, taken)
    plain = _COMMAND.sub(lambda c: " " * len(c.group()), plain)
    for m in _NUMBER.finditer(plain):
        value = _value(m.group(1), m.group(2), m.group(3))
        unscaled = canonical(_value(m.group(1), m.group(2), None))
        decimals = len(m.group(2)) - 1 if m.group(2) else 0
        found.append(
            Number(m.start(), m.end(), text[m.start() : m.end()], canonical(value), unscaled, decimals)
        )
    found.sort(key=lambda n: n.start)
    return found


def number_words(text: str) -> list[str]:
    """The values of the number words in ``text`` (``eight`` → ``8``), canonical."""
    return [
        canonical(Decimal(str(NUMBER_WORDS[w]))) for w in _WORD.findall(text.lower()) if w in NUMBER_WORDS
    ]


def math_as_words(latex: str) -> str:
    """LaTeX math as the words a reader would quote: command names dropped, braces and
    scripts as spaces (``\\sqrt{d_k}`` → ``d k``)."""
    latex = re.sub(r"\\(?:text|mathrm|mathit|mathbf|operatorname)\s*\{([^{}]*)\}", r" \1 ", latex)
    latex = _COMMAND.sub(" ", latex)
    return latex


_MATH_AS_WORDS = PlainRenderer(lambda math: " " + math_as_words(math.latex) + " ")


def words(text: str) -> list[str]:
    """``text`` as normalized words: Unicode compatibility form, lowercase, letters and
    digits only (hyphens and punctuation split words), math as its letters."""
    text = _MATH_AS_WORDS.inline(inlines(text, strip=False))
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _WORD.findall(text.lower())


SHINGLE_SIZES = (1, 2, 3)
"""The paper's words are kept as hashes of every run of 1, 2 and 3 words: a phrase is found
when each of its runs of 3 (or the whole phrase, when shorter) is among them."""
_SALT = b"paperdeck-shingle-v1"


def shingle_hash(run: list[str]) -> str:
    """The hash of a run of words: 40 bits of BLAKE2b, hex (collisions within one label's few
    thousand runs: about one in a hundred million)."""
    return hashlib.blake2b(" ".join(run).encode(), digest_size=5, key=_SALT).hexdigest()


def shingles(text_words: list[str]) -> set[str]:
    """The hashes of every run of ``SHINGLE_SIZES`` words in ``text_words``."""
    found = set()
    for size in SHINGLE_SIZES:
        for i in range(len(text_words) - size + 1):
            found.add(shingle_hash(text_words[i : i + size]))
    return found


def phrase_shingles(phrase_words: list[str]) -> set[str]:
    """The hashes a phrase needs to be found: each run of 3 words, or the whole phrase when shorter."""
    size = min(len(phrase_words), max(SHINGLE_SIZES))
    return {shingle_hash(phrase_words[i : i + size]) for i in range(len(phrase_words) - size + 1)}
