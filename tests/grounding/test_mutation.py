"""What ``check`` lets through when numbers on the shipped cards are changed: a last-digit
typo and a swap for another number of the paper (``generator.grounding.mutation``). The
rates are pinned a little above what they are, so a change that lets more through fails."""

from __future__ import annotations

from pathlib import Path

from generator.content import load
from generator.grounding.check import load_index
from generator.grounding.mutation import mutation_rates

ROOT = Path(__file__).resolve().parents[2]


def test_mutated_numbers_are_caught():
    index = load_index(ROOT)
    assert index is not None
    rates = mutation_rates(load(ROOT), index, seed=0)
    print({k: (rates.tried[k], round(rates.rate(k), 3), round(rates.rate(k, rates.membership), 3))
           for k in rates.tried})
    assert rates.tried["typo"] > 800 and rates.tried["swap"] > 800
    assert rates.rate("typo") < 0.25
    assert rates.rate("typo>10") < 0.10
    assert rates.rate("swap") < 0.27
