"""The LaTeX math paperdeck understands: one subset, read by one parser.

Content writes math as LaTeX inside ``\\( … \\)`` and ``\\[ … \\]`` (what Anki's
MathJax reads). The content loader checks it here, and the print exporter
translates it to Typst math with the same parser, so ``paperdeck check``
rejects exactly the math that printing could not typeset. Nothing here
imports an exporter.
"""

from __future__ import annotations

from .check import delimiter_problems, latex_problems
from .parser import SYMBOLS, LatexError, convert

__all__ = ["SYMBOLS", "LatexError", "convert", "delimiter_problems", "latex_problems"]
