"""Typst for the print exporter: LaTeX math and author text converted, templates.

``convert`` turns LaTeX math into Typst math (``LatexError`` outside the subset);
``markdown`` turns content text into Typst markup that prints as written.
"""

from __future__ import annotations

from .markup import display_math, escape, inline_math, markdown, string
from .math import SYMBOLS, LatexError, convert

__all__ = ["SYMBOLS", "LatexError", "convert", "display_math", "escape", "inline_math",
           "markdown", "string"]
