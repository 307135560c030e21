"""The one list of LaTeX commands that stand for one symbol, from which each writer's table derives.

A row is the command (without its backslash), the Unicode it stands for (what MathJax
prints on a card; the site's MathML puts it in an element of the row's *class*), the Typst
that prints it, and the terminal's form where a one-line text reads better otherwise
(``\\cdot`` is ``·``, ``\\top`` the superscript ``ᵀ``). LaTeX's ``\\epsilon`` is the lunate
ϵ and ``\\varepsilon`` ε, in every output.

Classes, as the site writes them: ``letter`` ``<mi>`` (italic), ``upright`` ``<mi
mathvariant="normal">`` (capital Greek), ``operator`` ``<mo>``, ``function`` ``<mi>`` in
upright letters (``max``, ``log``), ``limits`` ``<mo movablelimits>`` (``arg max``),
``space`` ``<mspace>``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Symbol:
    """One command that stands for one symbol."""

    unicode: str
    """The character (or word) it prints, as on a card and the site."""
    typst: str
    """Typst math that prints it."""
    kind: str
    """How the site's MathML writes it: letter, upright, operator, function, limits or space."""
    plain: str
    """Its form in terminal text (the Unicode unless a line of text reads better otherwise)."""


def _rows(kind: str, table: str) -> dict[str, Symbol]:
    """Rows written ``command unicode typst [plain]``, one a line (``_`` for a space in plain)."""
    rows = {}
    for line in table.strip().splitlines():
        name, unicode, typst, *plain = line.split(maxsplit=3)
        rows[name] = Symbol(unicode, typst, kind, plain[0].replace("_", " ") if plain else unicode)
    return rows


_LETTERS = _rows(
    "letter",
    """
    alpha α alpha
    beta β beta
    gamma γ gamma
    delta δ delta
    epsilon ϵ epsilon.alt
    varepsilon ε epsilon
    zeta ζ zeta
    eta η eta
    theta θ theta
    vartheta ϑ theta.alt
    iota ι iota
    kappa κ kappa
    lambda λ lambda
    mu μ mu
    nu ν nu
    xi ξ xi
    pi π pi
    varpi ϖ pi.alt
    rho ρ rho
    varrho ϱ rho.alt
    sigma σ sigma
    varsigma ς sigma.alt
    tau τ tau
    upsilon υ upsilon
    phi ϕ phi.alt
    varphi φ phi
    chi χ chi
    psi ψ psi
    omega ω omega
    top ⊤ top ᵀ
    bot ⊥ bot
    infty ∞ infinity
    partial ∂ partial
    nabla ∇ nabla
    ell ℓ ell
    hbar ℏ planck
    emptyset ∅ emptyset
    """,
)
_UPRIGHT = _rows(
    "upright",
    """
    Gamma Γ Gamma
    Delta Δ Delta
    Theta Θ Theta
    Lambda Λ Lambda
    Xi Ξ Xi
    Pi Π Pi
    Sigma Σ Sigma
    Upsilon Υ Upsilon
    Phi Φ Phi
    Psi Ψ Psi
    Omega Ω Omega
    """,
)
_OPERATORS = _rows(
    "operator",
    """
    cdot ⋅ dot.op ·
    times × times
    div ÷ div
    pm ± plus.minus
    mp ∓ minus.plus
    ast ∗ ast
    star ⋆ star
    circ ∘ compose
    bullet ∙ bullet
    odot ⊙ dot.o
    oplus ⊕ plus.o
    otimes ⊗ times.o
    perp ⊥ perp
    prime ′ prime
    sum ∑ sum Σ
    prod ∏ product Π
    int ∫ integral
    le ≤ <=
    leq ≤ <=
    ge ≥ >=
    geq ≥ >=
    ne ≠ !=
    neq ≠ !=
    ll ≪ <<
    gg ≫ >>
    approx ≈ approx
    sim ∼ tilde.op ~
    simeq ≃ tilde.eq
    equiv ≡ equiv
    propto ∝ prop
    cong ≅ tilde.equiv
    mid ∣ divides |
    in ∈ in
    notin ∉ in.not
    ni ∋ in.rev
    subset ⊂ subset
    subseteq ⊆ subset.eq
    supset ⊃ supset
    supseteq ⊇ supset.eq
    cup ∪ union
    cap ∩ inter
    setminus ∖ without
    forall ∀ forall
    exists ∃ exists
    neg ¬ not
    land ∧ and
    lor ∨ or
    wedge ∧ and
    vee ∨ or
    to → ->
    rightarrow → ->
    leftarrow ← <-
    gets ← <-
    Rightarrow ⇒ =>
    Leftarrow ⇐ arrow.l.double
    leftrightarrow ↔ <->
    Leftrightarrow ⇔ <=>
    iff ⟺ <=>
    implies ⟹ =>
    mapsto ↦ |->
    uparrow ↑ arrow.t
    downarrow ↓ arrow.b
    dots … dots.h
    ldots … dots.h
    cdots ⋯ dots.h.c
    vdots ⋮ dots.v
    ddots ⋱ dots.down
    langle ⟨ chevron.l
    rangle ⟩ chevron.r
    lfloor ⌊ floor.l
    rfloor ⌋ floor.r
    lceil ⌈ ceil.l
    rceil ⌉ ceil.r
    colon : :
    """,
)
# Bars have a Typst of several words, so they are written out.
_BARS = {
    name: Symbol(bar, f'#math.class("{role}", sym.{typst})', "operator", bar)
    for name, bar, role, typst in (
        ("lvert", "|", "opening", "bar.v"),
        ("rvert", "|", "closing", "bar.v"),
        ("lVert", "‖", "opening", "bar.double"),
        ("rVert", "‖", "closing", "bar.double"),
        ("vert", "|", "normal", "bar.v"),
        ("Vert", "‖", "normal", "bar.double"),
    )
}
#: Operators Typst knows by the same name (upright, with limits where LaTeX has them).
_FUNCTIONS = {
    name: Symbol(name, name, "function", name)
    for name in (
        "max min exp log ln sin cos tan sinh cosh tanh arg lim det sup inf dim ker deg "
        "gcd Pr sec csc cot arcsin arccos arctan"
    ).split()
}
_LIMITS = {
    name: Symbol(words, f'op("{words}", limits: #true)', "limits", words)
    for name, words in (("argmax", "arg max"), ("argmin", "arg min"))
}
_SPACES = {
    "quad": Symbol("\u2003", "quad", "space", "  "),
    "qquad": Symbol("\u2003\u2003", "wide", "space", "    "),
}

SYMBOLS: dict[str, Symbol] = {
    **_LETTERS,
    **_UPRIGHT,
    **_OPERATORS,
    **_BARS,
    **_FUNCTIONS,
    **_LIMITS,
    **_SPACES,
}
"""Every command that stands for one symbol, by name (without the backslash)."""


@dataclass(frozen=True)
class Accent:
    """A mark over (or under) its argument."""

    mark: str
    """The spacing mark the site's MathML sets over the argument."""
    typst: str
    """The Typst function that sets it."""
    combining: str
    """The combining character terminal text puts after a one-letter argument (x̂)."""


ACCENTS: dict[str, Accent] = {
    "hat": Accent("^", "hat", "\u0302"),
    "widehat": Accent("^", "hat", "\u0302"),
    "bar": Accent("¯", "macron", "\u0304"),
    "overline": Accent("‾", "overline", "\u0305"),
    "underline": Accent("_", "underline", "\u0332"),
    "tilde": Accent("~", "tilde", "\u0303"),
    "widetilde": Accent("~", "tilde", "\u0303"),
    "vec": Accent("→", "arrow", "\u20d7"),
    "dot": Accent("˙", "dot", "\u0307"),
    "ddot": Accent("¨", "dot.double", "\u0308"),
    "check": Accent("ˇ", "caron", "\u030c"),
    "breve": Accent("˘", "breve", "\u0306"),
    "acute": Accent("´", "acute", "\u0301"),
    "grave": Accent("`", "grave", "\u0300"),
    "overrightarrow": Accent("→", "arrow", "\u20d7"),
}
"""Every accent command, by name."""

FENCES = {
    "(": "(",
    ")": ")",
    "[": "[",
    "]": "]",
    r"\{": "{",
    r"\}": "}",
    "|": "|",
    r"\|": "‖",
    "<": "⟨",
    ">": "⟩",
    "/": "/",
    ".": "",
}
"""The character each delimiter after ``\\left`` or ``\\right`` prints (``.``: none); the named
ones (``\\langle``) are in ``SYMBOLS``."""
