"""The fixed set of paperdeck note types: fields, card templates, one stylesheet.

Anki matches a note type by id and by its schema (field names, template names); a
changed schema makes it refuse to update notes. So each note type's id comes from
a stable name (``paperdeck/<Name>/v1``) and its fields and templates never change
between builds. A real change is a new version: a new name, a new id.

Problem and numeric-question cards check a typed answer in the card itself: the
expected numbers sit in ``data-`` attributes of a ``.pd-check`` element, the front
keeps what the student typed in ``sessionStorage`` (AnkiDroid, AnkiMobile, AnkiWeb;
Anki desktop keeps one page for both sides, so a ``window`` property serves when
storage is refused), and the back compares it with the key within the tolerance.
The back has its own input too, so a client that lost the front's value can still
check. Everything is also printed, so a client without JavaScript shows the key
and the steps.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

from ... import shared_script
from ...identity import anki_id

_ASSETS = resources.files(__package__)
STYLE = _ASSETS.joinpath("card.css").read_text(encoding="utf-8")
"""The stylesheet every paperdeck note type shares (day and night mode)."""
CHECK_SCRIPT = (
    "<script>\n"
    + shared_script("answers.js")
    + _ASSETS.joinpath("check.js").read_text(encoding="utf-8")
    + "</script>"
)
"""The typed-answer check of Problem and numeric Question cards (ES5, see check.js), with the
one answer rule (``generator/answers.js``) ahead of it in the same script."""
VARIANT_SCRIPT = (
    "<script>\n"
    + shared_script("today.js")
    + _ASSETS.joinpath("variant.js").read_text(encoding="utf-8")
    + "</script>"
)
"""Picks the day's problem of a Problem card (ES5, see variant.js) by the rule the study site uses
too (``generator/today.js``, ahead of it in the same script); runs before the check."""


_ATTRIBUTE_VALUE = re.compile(r'=\s*"([^"]*)"')
"""The double-quoted attribute values of a template (its only attribute quoting)."""
_FIELD = re.compile(r"\{\{([^#/^{}:]+)\}\}")
"""A field placed as it is (``{{Id}}``), not a section (``{{#Id}}``) or a filter."""


@dataclass(frozen=True)
class Template:
    """One card of a note type."""

    name: str
    front: str
    back: str


@dataclass(frozen=True)
class NoteType:
    """A paperdeck note type; its id and schema come from ``name`` and never change."""

    name: str
    """Short name (``Concept``); Anki shows ``paperdeck <name>``."""
    fields: tuple[str, ...]
    templates: tuple[Template, ...]
    cloze: bool = False
    version: int = 1
    sort_field: int = 0
    """Index of the field Anki's browser sorts and searches duplicates by."""

    @functools.cached_property
    def field_set(self) -> frozenset[str]:
        return frozenset(self.fields)

    @functools.cached_property
    def attribute_fields(self) -> frozenset[str]:
        """The fields a template places inside an HTML attribute (``data-id="{{Id}}"``)."""
        sides = "".join(t.front + t.back for t in self.templates)
        return frozenset(name for value in _ATTRIBUTE_VALUE.findall(sides) for name in _FIELD.findall(value))

    @functools.cached_property
    def id(self) -> int:
        return anki_id(self.name, f"v{self.version}")

    @property
    def anki_name(self) -> str:
        return f"paperdeck {self.name}" + (f" v{self.version}" if self.version > 1 else "")

    def to_json(self, mod: int, deck_id: int) -> dict[str, object]:
        """The note type as the ``models`` JSON of a schema-11 collection."""
        return {
            "id": self.id,
            "name": self.anki_name,
            "type": 1 if self.cloze else 0,
            "mod": mod,
            "usn": -1,
            "sortf": self.sort_field,
            "did": deck_id,
            "tmpls": [
                {
                    "name": t.name,
                    "ord": i,
                    "qfmt": t.front,
                    "afmt": t.back,
                    "bqfmt": "",
                    "bafmt": "",
                    "did": None,
                    "bfont": "",
                    "bsize": 0,
                }
                for i, t in enumerate(self.templates)
            ],
            "flds": [
                {"name": f, "ord": i, "sticky": False, "rtl": False, "font": "Arial", "size": 20, "media": []}
                for i, f in enumerate(self.fields)
            ],
            "css": STYLE,
            "latexPre": LATEX_PRE,
            "latexPost": r"\end{document}",
            "latexsvg": False,
            "req": [],
            "tags": [],
            "vers": [],
        }


LATEX_PRE = (
    "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n"
    "\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n"
    "\\begin{document}\n"
)


def _card(kind: str, body: str) -> str:
    return f'<div class="pd pd-{kind}">{body}</div>'


FOOTER = (
    '<div class="pd-footer"><span class="pd-source">Source: {{Source}}</span>'
    '<span class="pd-id">{{Id}}</span></div>'
)


def _check(side: str) -> str:
    """The typed-answer box: hidden until the script shows it."""
    box = (
        f'<div class="pd-check" data-side="{side}" '
        'data-id="{{Id}}" data-expected="{{Expected}}" data-abs="{{TolAbs}}" data-rel="{{TolRel}}">'
    )
    ask = 'Type <span data-pd="AnswerName">{{AnswerName}}</span>' if side == "front" else "Your answer"
    box += (
        f'<label hidden>{ask}:<input type="text" autocomplete="off" autocorrect="off" '
        'autocapitalize="off" spellcheck="false" placeholder="numbers, by spaces or commas"></label>'
    )
    if side == "back":
        box += '<div class="pd-verdict" hidden></div>'
    return box + "</div>"


CONCEPT = NoteType(
    "Concept",
    ("Front", "Back", "Reverse", "Extra", "Source", "Id"),
    (
        Template(
            "Forward",
            _card("concept", '<div class="pd-front">{{Front}}</div>'),
            _card(
                "concept",
                '<div class="pd-front">{{Front}}</div><hr id="answer">'
                '<div class="pd-back">{{Back}}</div>'
                '{{#Extra}}<div class="pd-extra">{{Extra}}</div>{{/Extra}}' + FOOTER,
            ),
        ),
        Template(
            "Reverse",
            "{{#Reverse}}"
            + _card("concept", '<div class="pd-label">Which term?</div><div class="pd-back">{{Back}}</div>')
            + "{{/Reverse}}",
            _card(
                "concept",
                '<div class="pd-label">Which term?</div><div class="pd-back">{{Back}}</div>'
                '<hr id="answer"><div class="pd-front">{{Front}}</div>'
                '{{#Extra}}<div class="pd-extra">{{Extra}}</div>{{/Extra}}' + FOOTER,
            ),
        ),
    ),
)

CLOZE = NoteType(
    "Cloze",
    ("Text", "Extra", "Source", "Id"),
    (
        Template(
            "Cloze",
            _card("cloze", "{{cloze:Text}}"),
            _card(
                "cloze",
                '{{cloze:Text}}<hr id="answer">'
                '{{#Extra}}<div class="pd-extra">{{Extra}}</div>{{/Extra}}' + FOOTER,
            ),
        ),
    ),
    cloze=True,
)

_EQUATION_BACK = (
    '<div class="pd-formula">{{Formula}}</div>'
    "{{#Symbols}}{{Symbols}}{{/Symbols}}"
    '{{#DeepDive}}<div class="pd-deep-dive">{{DeepDive}}</div>{{/DeepDive}}'
)

EQUATION = NoteType(
    "Equation",
    ("Name", "Formula", "Symbols", "DeepDive", "Source", "Id"),
    (
        Template(
            "Name to formula",
            _card(
                "equation",
                '<div class="pd-label">Equation</div><div class="pd-front">{{Name}}</div>'
                '<div class="pd-ask">Write the equation.</div>',
            ),
            _card(
                "equation",
                '<div class="pd-label">Equation</div><div class="pd-front">{{Name}}</div>'
                '<hr id="answer">' + _EQUATION_BACK + FOOTER,
            ),
        ),
        Template(
            "Formula to symbols",
            "{{#Symbols}}"
            + _card(
                "equation",
                '<div class="pd-label">Equation</div><div class="pd-formula">{{Formula}}</div>'
                '<div class="pd-ask">What does each symbol stand for, and what is its shape?</div>',
            )
            + "{{/Symbols}}",
            _card(
                "equation",
                '<div class="pd-label">Equation</div><div class="pd-formula">{{Formula}}</div>'
                '<hr id="answer"><div class="pd-front">{{Name}}</div>{{Symbols}}'
                '{{#DeepDive}}<div class="pd-deep-dive">{{DeepDive}}</div>{{/DeepDive}}' + FOOTER,
            ),
        ),
    ),
)

_WORKED_FRONT = (
    '<div class="pd-label">Worked example</div><div class="pd-front">{{Title}}</div>'
    '{{#Task}}<div class="pd-prompt">{{Task}}</div>{{/Task}}'
    '{{#Given}}<div class="pd-given-block">Given:{{Given}}</div>{{/Given}}'
)

WORKED_EXAMPLE = NoteType(
    "Worked Example",
    ("Title", "Task", "Given", "Steps", "Result", "Source", "Id"),
    (
        Template(
            "Work it",
            _card(
                "worked",
                _WORKED_FRONT + '<div class="pd-ask">Work it through, then compare step by step.</div>',
            ),
            _card(
                "worked",
                _WORKED_FRONT + '<hr id="answer"><ol class="pd-steps">{{Steps}}</ol>'
                '{{#Result}}<div class="pd-answer">Result:{{Result}}</div>{{/Result}}' + FOOTER,
            ),
        ),
    ),
)

_QUESTION_FRONT = '<div class="pd-label">{{Format}}</div><div class="pd-prompt">{{Prompt}}</div>'

QUESTION = NoteType(
    "Question",
    (
        "Prompt",
        "Format",
        "Options",
        "OptionsKey",
        "Answer",
        "Explanation",
        "AnswerName",
        "Expected",
        "TolAbs",
        "TolRel",
        "Source",
        "Id",
    ),
    (
        Template(
            "Question",
            _card(
                "question",
                _QUESTION_FRONT + "{{#Options}}{{Options}}{{/Options}}"
                "{{#Expected}}" + _check("front") + "{{/Expected}}",
            )
            + "{{#Expected}}"
            + CHECK_SCRIPT
            + "{{/Expected}}",
            _card(
                "question",
                _QUESTION_FRONT + '<hr id="answer">'
                "{{#OptionsKey}}{{OptionsKey}}{{/OptionsKey}}"
                "{{#Expected}}" + _check("back") + "{{/Expected}}"
                '<div class="pd-answer">{{Answer}}</div>'
                '{{#Explanation}}<div class="pd-explanation">{{Explanation}}</div>{{/Explanation}}' + FOOTER,
            )
            + "{{#Expected}}"
            + CHECK_SCRIPT
            + "{{/Expected}}",
        ),
    ),
)

_PROBLEM_FRONT = (
    '<div class="pd-meta">Practice · {{ProblemType}} · {{Difficulty}} · '
    'seed <span data-pd="Seed">{{Seed}}</span></div>'
    '<div class="pd-prompt" data-pd="Prompt">{{Prompt}}</div>'
    '{{#Given}}<div class="pd-given-block">Given:<div data-pd="Given">{{Given}}</div></div>'
    "{{/Given}}"
)


def _variants(side: str) -> str:
    """The note's problems as JSON, read by VARIANT_SCRIPT."""
    return (
        f'{{{{#Variants}}}}<script type="application/json" class="pd-variants" data-id="{{{{Id}}}}" '
        f'data-side="{side}">{{{{Variants}}}}</script>{{{{/Variants}}}}'
    )


# Version 2 added the Variants field (the problems a card rotates through): a new
# note-type id, so importing it over version 1 needs Anki's "merge note types".
PROBLEM = NoteType(
    "Problem",
    (
        "Prompt",
        "Given",
        "AnswerName",
        "Expected",
        "TolAbs",
        "TolRel",
        "Tolerance",
        "Answer",
        "Steps",
        "Mistakes",
        "Figure",
        "ProblemType",
        "Difficulty",
        "Seed",
        "Source",
        "Id",
        "Variants",
    ),
    (
        Template(
            "Solve",
            _card(
                "problem",
                _PROBLEM_FRONT + "{{#Expected}}" + _check("front") + "{{/Expected}}" + _variants("front"),
            )
            + VARIANT_SCRIPT
            + CHECK_SCRIPT,
            _card(
                "problem",
                _PROBLEM_FRONT + '<hr id="answer">'
                "{{#Expected}}" + _check("back") + "{{/Expected}}"
                '<div class="pd-answer">Key:<div data-pd="Answer">{{Answer}}</div></div>'
                '<div class="pd-tolerance">Tolerance: {{Tolerance}}</div>'
                '<div class="pd-label">Worked steps</div>'
                '<ol class="pd-steps" data-pd="Steps">{{Steps}}</ol>'
                '{{#Figure}}<div class="pd-figure" data-pd="Figure">{{Figure}}</div>{{/Figure}}'
                '{{#Mistakes}}<div class="pd-label">Common mistakes</div>'
                '<div data-pd="Mistakes">{{Mistakes}}</div>{{/Mistakes}}'
                '<div class="pd-regenerate">This problem again, with its key: <code>paperdeck problems '
                '{{ProblemType}} --problem-seed <span data-pd="Seed">{{Seed}}</span> -d {{Difficulty}}'
                "</code></div>" + FOOTER + _variants("back"),
            )
            + VARIANT_SCRIPT
            + CHECK_SCRIPT,
        ),
    ),
    version=2,
)

FIGURE = NoteType(
    "Figure",
    ("Figure", "Caption", "Source", "Id"),
    (
        Template(
            "Read the figure",
            _card(
                "figure",
                '<div class="pd-label">Figure</div><div class="pd-figure">{{Figure}}</div>'
                '<div class="pd-ask">What does this figure show, and why?</div>',
            ),
            _card(
                "figure",
                '<div class="pd-label">Figure</div><div class="pd-figure">{{Figure}}</div>'
                '<hr id="answer"><div class="pd-caption">{{Caption}}</div>' + FOOTER,
            ),
        ),
    ),
)

# A label card is a figure with one labelled part covered by a box placed in percentages
# of the image, so it stays on its part at any width; the back outlines the part and
# names it. Parts drawn with the same words (the decoder's Positional Encoding beside the
# encoder's) are covered too on the front ({{Covers}}), plain grey, so the answer cannot be
# read off a twin. Plain HTML and CSS: no script, so every client shows it alike.
_FRAME = (
    '<div class="pd-figure pd-occlusion"><div class="pd-occlusion-frame">{{Figure}}{covers}'
    '<div class="{cls}" data-part="{{Which}}" style="{{Mask}}">{mark}</div></div></div>'
)

LABEL = NoteType(
    "Label",
    # Id first: Anki flags notes whose first field repeats as duplicates, and every
    # label note of one figure has the same Figure.
    ("Id", "Figure", "Which", "Mask", "Covers", "Answer", "Note", "Caption", "Parts", "Source"),
    (
        Template(
            "Name the part",
            _card(
                "part",
                '<div class="pd-label">Name the hidden part</div>'
                + _FRAME.replace("{covers}", "{{Covers}}")
                .replace("{cls}", "pd-mask")
                .replace("{mark}", "<span>?</span>"),
            ),
            _card(
                "part",
                '<div class="pd-label">Name the hidden part</div>'
                + _FRAME.replace("{covers}", "").replace("{cls}", "pd-reveal").replace("{mark}", "")
                + '<hr id="answer"><div class="pd-answer">{{Answer}}</div>'
                '{{#Note}}<div class="pd-explanation">{{Note}}</div>{{/Note}}'
                '{{#Caption}}<div class="pd-caption">{{Caption}}</div>{{/Caption}}' + FOOTER,
            ),
        ),
    ),
)

ALL = (CONCEPT, CLOZE, EQUATION, WORKED_EXAMPLE, QUESTION, PROBLEM, FIGURE, LABEL)
"""Every paperdeck note type; a package carries only those its notes use."""
