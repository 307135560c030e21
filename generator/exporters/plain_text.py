"""LaTeX math and Markdown as plain Unicode text, for people reading a terminal.

Math is written by ``latex.plain`` (a writer of the one LaTeX parser, so it reads exactly
the math the loader checks and print typesets) as a *box*: lines of text with a baseline,
so a matrix can stand in rows and columns beside the text around it:

    AV = ⎡ 0.1  0.2 ⎤
         ⎣ 0.3  0.4 ⎦

In running prose (``compact``) a matrix is written on one line, ``[1 2; 3 4]``.
"""

from __future__ import annotations

from ..content.text import prose
from ..latex.plain import Box, beside, math_box, matrix_box

__all__ = ["Box", "beside", "math_box", "matrix_box", "prose"]
