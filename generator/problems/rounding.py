"""How answers are rounded for the JSON form: ``numerals.rounded``, under the name problem
types use."""

from __future__ import annotations

from ..numerals import ANSWER_DECIMALS
from ..numerals import rounded as plain

__all__ = ["ANSWER_DECIMALS", "plain"]
