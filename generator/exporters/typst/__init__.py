"""Typst for the print exporter: author text and math as Typst markup, templates.

``markdown`` turns content text into Typst markup that prints as written; its
math goes through ``generator.latex``, the parser the content loader checks with.
"""

from __future__ import annotations

from .markup import display_math, escape, inline_math, markdown, string

__all__ = ["display_math", "escape", "inline_math", "markdown", "string"]
