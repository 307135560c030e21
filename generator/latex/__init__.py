"""The LaTeX math paperdeck understands: one subset, read by one parser.

Content writes math as LaTeX inside ``\\( … \\)`` and ``\\[ … \\]`` (what Anki's
MathJax reads). The content loader checks it here, and the print exporter
translates it to Typst math with the same parser, so ``paperdeck check``
rejects exactly the math that printing could not typeset. Nothing here
imports an exporter.
"""

from __future__ import annotations

from .check import latex_problems, math_problems, math_spans
from .parser import SYMBOLS, LatexError, convert

__all__ = ["SYMBOLS", "LatexError", "convert", "latex_problems", "math_problems", "math_spans"]
