"""LaTeX math and Markdown as plain Unicode text, for people reading a terminal.

Math is written by ``latex.plain`` (a writer of the one LaTeX parser, so it reads exactly
the math the loader checks and print typesets) as a *box*: lines of text with a baseline,
so a matrix can stand in rows and columns beside the text around it:

    AV = ⎡ 0.1  0.2 ⎤
         ⎣ 0.3  0.4 ⎦

In running prose (``compact``) a matrix is written on one line, ``[1 2; 3 4]``.
"""

from __future__ import annotations

import re

from ..content.markdown import CODE, EMPHASIS, STRONG
from ..latex.plain import Box, beside, math_box, matrix_box

__all__ = ["Box", "beside", "math_box", "matrix_box", "prose"]

_MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
_CODE_OR_MATH = re.compile(f"{CODE.pattern}|{_MATH.pattern}", re.S)


def prose(markdown: str) -> str:
    """Markdown with ``\\( \\)`` math as one line of plain text; matrices written compactly."""
    # Code is taken as written and math read apart; emphasis is content.markdown's rule, as on
    # the cards (``x_1 * y_2`` keeps its star).
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        code, latex, display = match.groups()
        if code is not None:
            kept.append(code)
        else:
            kept.append(" ".join(math_box(latex if latex is not None else display, compact=True).lines))
        return f"\x00{len(kept) - 1}\x00"

    text = _CODE_OR_MATH.sub(keep, markdown)
    text = EMPHASIS.sub(r"\1", STRONG.sub(r"\1", text))
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], text)
