"""Values a card derives by arithmetic that it writes out: ``15 = 6 + 9``, ``\\sqrt{512}
\\approx 22.63``, ``1024/16 = 64``, ``e^{0.5} = 1.64872127``.

A chain of sides joined by ``=``, ``\\approx`` or ``≈`` checks when every side that is
pure arithmetic (numbers, ``+ - \\times \\cdot / ^``, ``\\frac``, ``\\sqrt``, ``e^{x}``,
``\\exp``, ``\\log``, parentheses) has the same value, to the precision of the shortest
number written as a lone side (half a unit of its last digit; with ``\\approx`` one unit).
A side that is a lone number in a chain that checks is *derived*; the numbers it was
computed from are grounded on their own.
"""

from __future__ import annotations

import ast
import functools
import math
import re
from dataclasses import dataclass
from decimal import Decimal

from . import numbers

_RELATION = re.compile(r"\\approx|≈|(?<![<>!\\])=(?!=)|\\simeq")
_ARITHMETIC = re.compile(
    r"(?:\d[\d,]*(?:\.\d+)?|\\frac|\\sqrt|\\exp|\\ln|\\log|\\sin|\\cos|\\tan|\\cdot|\\times|\\left|\\right|\\,|"
    r"[-+*/^(){}×·⋅−\[\] ]|(?<![A-Za-z\\])e(?![A-Za-z])|\\mathrm\{e\}|\\text\{e\}|\\pi)+"
)
_CHAIN = re.compile(r"(?:" + _ARITHMETIC.pattern[3:-2] + r"|" + _RELATION.pattern + r")+")
_DELIMITERS = re.compile(r"\\[()\[\]]")
_SCIENTIFIC = r"(\d+(?:\.\d+)?)\s*(?:\\cdot|\\times|×|⋅|·)\s*10\s*\^\s*\{?\s*([-−]?\d+)\s*\}?"
_MAX_EXPONENT = 400


@dataclass(frozen=True)
class Derived:
    """A lone number in a chain of equal values that checks."""

    start: int
    end: int
    value: str
    decimals: int = 0
    """Digits written after its decimal point: the precision it states."""


def _python(expression: str) -> str:
    text = expression.replace("\\left", "").replace("\\right", "").replace("\\,", " ")
    text = text.replace("\\mathrm{e}", "e").replace("\\text{e}", "e")
    text = text.replace("−", "-").replace("×", "*").replace("·", "*").replace("⋅", "*")
    text = text.replace("\\cdot", "*").replace("\\times", "*")
    for _ in range(8):  # nested \frac{..}{..} and \sqrt{..}, innermost first
        new = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"((\1)/(\2))", text)
        new = re.sub(r"\\frac\s*(\d)\s*(\d)", r"((\1)/(\2))", new)
        new = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r"sqrt(\1)", new)
        new = re.sub(r"\\sqrt\s*(\d+(?:\.\d+)?)", r"sqrt(\1)", new)
        new = re.sub(r"(?<![\w.])e\s*\^\s*\{([^{}]*)\}", r"exp(\1)", new)
        new = re.sub(r"(?<![\w.])e\s*\^\s*(-?\d+(?:\.\d+)?)", r"exp(\1)", new)
        new = re.sub(r"\^\s*\{([^{}]*)\}", r"**(\1)", new)
        new = re.sub(r"(?<![}\w])\{([^{}]*)\}", r"(\1)", new)
        if new == text:
            break
        text = new
    text = text.replace("\\pi", "PI_")
    text = text.replace("\\exp", "exp").replace("\\ln", "log").replace("\\log", "log")
    for name in ("sin", "cos", "tan"):
        text = text.replace("\\" + name, name)
    text = text.replace("{", "(").replace("}", ")").replace("[", "(").replace("]", ")")
    text = text.replace("^", "**")
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)
    text = re.sub(r"(?<![\w.])e(?![\w(])", "E_", text)  # Euler's number alone
    text = re.sub(r"\)\s*\(", ")*(", text)
    text = re.sub(r"(\d)\s*\(", r"\1*(", text)
    text = re.sub(r"(\d|\))\s*PI_", r"\1*PI_", text)
    return text


_FUNCTIONS = {
    "sqrt": math.sqrt,
    "exp": math.exp,
    "log": math.log,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
}


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    ):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in ("E_", "PI_"):
        return math.e if node.id == "E_" else math.pi
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div):
            return left / right
        if isinstance(node.op, ast.Pow) and abs(right) <= _MAX_EXPONENT:
            return float(left**right)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and len(node.args) == 1
        and not node.keywords
    ):
        argument = _evaluate(node.args[0])
        if node.func.id == "exp" and argument > _MAX_EXPONENT:
            raise ValueError("too large")
        return _FUNCTIONS[node.func.id](argument)
    raise ValueError("not arithmetic")


def value_of(expression: str) -> float | None:
    """The value of an arithmetic ``expression`` written in LaTeX or plain text, or None."""
    text = _python(expression.strip())
    if not re.search(r"\d", text) or len(text) > 400:
        return None
    try:
        value = _evaluate(ast.parse(text, mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, TypeError, RecursionError):
        return None
    return value if math.isfinite(value) else None


def _half_unit(written: str) -> float:
    """Half a unit of the last digit of the number ``written`` (``6.99 \\cdot 10^{-4}``: 5e-7)."""
    scientific = re.fullmatch(_SCIENTIFIC, written)
    if scientific:
        return _half_unit(scientific.group(1)) * 10.0 ** int(scientific.group(2).replace("−", "-"))
    digits = written.replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return 0.5 * 10.0**-decimals


@functools.lru_cache(maxsize=8192)
def derived(text: str) -> tuple[Derived, ...]:
    """The lone numbers of ``text`` that a chain of equal values derives (see the module docstring);
    kept per text, as an item's fields are read again for each field."""
    if not _RELATION.search(text):
        return ()
    plain = _DELIMITERS.sub(lambda m: " " * len(m.group()), text)
    found: list[Derived] = []
    for run in _CHAIN.finditer(plain):
        sides: list[tuple[int, int, bool]] = []
        position = run.start()
        previous_loose = False
        for relation in [*_RELATION.finditer(plain, run.start(), run.end()), None]:
            stop = relation.start() if relation else run.end()
            side = _trimmed(plain, position, stop)
            loose = previous_loose
            if side is not None:
                sides.append((*side, loose))
            if relation is None:
                break
            previous_loose = relation.group() != "="
            position = relation.end()
        known = [(s, e, loose, v) for s, e, loose in sides if (v := value_of(plain[s:e])) is not None]
        if len(known) < 2:
            continue
        reference = known[0][3]
        lone = [(s, e) for s, e, _, _ in known if _lone_number(plain[s:e])]
        tolerance = max((_half_unit(plain[s:e].strip()) for s, e in lone), default=0.0)
        if any(loose for _, _, loose, _ in known[1:]):
            tolerance *= 2  # "about": within one unit of the last digit
        tolerance = max(tolerance, abs(reference) * 1e-9)
        if all(abs(v - reference) <= tolerance * 1.0001 for _, _, _, v in known):
            for s, e in lone:
                for number in numbers.numbers(plain[s:e]):
                    found.append(Derived(s + number.start, s + number.end, number.value, number.decimals))
    return tuple(found)


def _lone_number(side: str) -> bool:
    return (
        re.fullmatch(r"\s*[-−]?\d[\d,]*(?:\.\d+)?\s*", side) is not None
        or re.fullmatch(r"\s*" + _SCIENTIFIC + r"\s*", side) is not None
    )


def _trimmed(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start] in " )}]":  # the end of what came before
        start += 1
    while start < end and text[start] in " ({[":
        if text[start] in "({[" and _balanced(text[start:end]):
            break
        start += 1
    while end > start and text[end - 1] in " )}],.({[":
        if text[end - 1] in ")}]" and _balanced(text[start:end]):
            break
        end -= 1
    if start >= end or not re.search(r"\d", text[start:end]):
        return None
    return start, end


def _balanced(text: str) -> bool:
    depth = 0
    for c in text:
        depth += c in "({["
        depth -= c in ")}]"
        if depth < 0:
            return False
    return depth == 0


def decimal_of(written: str) -> Decimal:
    """``written`` as a Decimal (separators dropped)."""
    return Decimal(written.replace(",", ""))
