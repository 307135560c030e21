"""How much ``check`` lets through: numbers on cards changed as an author's slip would change
them, and counted when they still pass.

Two mutations of every number the content grounds (0 and 1 left out): a last-digit typo
(the last digit plus one, 9 becoming 0) and a swap for another number of the paper (drawn,
seeded, from every number of the index). Each mutated number is grounded again in its own
text, once as ``check`` does and once by membership alone (the number anywhere in the cited
labels' text, tables whole): the share still passing is what the check lets through.
``tests/grounding/test_mutation.py`` pins the rates; docs/grounding.md reports them.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace

from ..content.model import Content
from . import arithmetic, numbers
from .check import _cell_named, _constants, _kind, _Lines, _scope, _texts
from .index import SourceIndex


@dataclass(frozen=True)
class Rates:
    """Mutated numbers and how many of them still passed, by mutation (``typo``, ``swap``,
    ``typo>10``: typos of numbers above 10) and by how the number was grounded before
    (``all``, or a kind of ``check.KINDS``: ``cell`` for the table cells items name)."""

    tried: Counter[tuple[str, str]]
    passed: Counter[tuple[str, str]]
    """Still grounded by ``check``."""
    membership: Counter[tuple[str, str]]
    """Still grounded by membership alone."""

    def rate(self, mutation: str, kind: str = "all", membership: bool = False) -> float:
        """The share of ``mutation``s of numbers grounded as ``kind`` that passed."""
        passed = self.membership if membership else self.passed
        return passed[(mutation, kind)] / max(1, self.tried[(mutation, kind)])


def _typo(written: numbers.Number) -> str:
    text = written.written
    for i in range(len(text) - 1, -1, -1):
        if text[i].isdigit():
            return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1 :]
    return text


def mutation_rates(content: Content, index: SourceIndex, seed: int = 0) -> Rates:
    """Mutate every grounded number of ``content`` (see the module docstring) and count."""
    rng = random.Random(seed)
    pool = sorted(
        {v for e in index.labels.values() for v in e.numbers if v not in ("0", "1")},
        key=lambda v: (float(v), v),
    )
    constants, _ = _constants(content, index, _Lines(None))
    tried: Counter[tuple[str, str]] = Counter()
    passed: Counter[tuple[str, str]] = Counter()
    membership: Counter[tuple[str, str]] = Counter()
    for text in _texts(content, _Lines(None)):
        scope = _scope(text.labels, index, text.whole_tables)
        whole = _scope(text.labels, index, True)
        cells = {
            v
            for reference in text.cells
            for c in _cell_named(reference, text.labels, index)[1]
            for v in c.numbers
        }
        spans = [(d.start, d.end) for d in arithmetic.derived(text.text)]
        for number in numbers.numbers(text.text):
            kind = _kind(number, text, scope, cells, spans, constants)
            if number.value in ("0", "1") or not kind:
                continue
            mutations = {"typo": _typo(number), "swap": rng.choice([v for v in pool if v != number.value])}
            if float(number.value) > 10:
                mutations["typo>10"] = mutations["typo"]
            for name, new in mutations.items():
                changed = text.text[: number.start] + new + text.text[number.end :]
                mutated = next((n for n in numbers.numbers(changed) if n.start == number.start), None)
                if mutated is None or mutated.value == number.value:
                    continue
                new_spans = [(d.start, d.end) for d in arithmetic.derived(changed)]
                still = bool(_kind(mutated, replace(text, text=changed), scope, cells, new_spans, constants))
                for key in ((name, "all"), (name, kind)):
                    tried[key] += 1
                    passed[key] += still
                    membership[key] += mutated.value in whole
    return Rates(tried, passed, membership)
