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
import hashlib
from dataclasses import dataclass

STYLE = """\
.card {
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 19px; line-height: 1.5; text-align: left;
  color: #1f2328; background: #fdfdfc;
  margin: 0; padding: 0;
}
.pd { max-width: 40em; margin: 0 auto; padding: 0.9em 1em 1.4em; overflow-wrap: break-word; }
.pd p { margin: 0 0 0.7em; }
.pd-label { font-size: 0.72em; letter-spacing: 0.06em; text-transform: uppercase; color: #6e7781;
  margin-bottom: 0.5em; }
.pd-front { font-size: 1.15em; font-weight: 600; }
.pd-ask { margin-top: 0.7em; color: #57606a; font-style: italic; }
.pd-back, .pd-answer, .pd-result { margin-top: 0.5em; }
.pd-answer { font-weight: 600; }
.pd-extra, .pd-explanation, .pd-deep-dive { margin-top: 0.8em; color: #424a53; }
.pd-extra { font-size: 0.9em; }
.pd-formula { margin: 0.6em 0; overflow-x: auto; }
.pd-given, .pd-values { margin: 0.5em 0; padding-left: 1.2em; }
.pd-values li, .pd-steps li, .pd-options li { margin: 0.35em 0; }
.pd-steps { padding-left: 1.4em; }
.pd-step-title { font-weight: 600; }
.pd-options { padding-left: 1.8em; }
.pd-options .pd-correct { font-weight: 600; }
.pd-options .pd-correct::after { content: " \\2714"; color: #1a7f37; }
.pd-mistake-note { display: block; font-size: 0.85em; color: #6e7781; }
.pd-mistakes { font-size: 0.9em; color: #424a53; }
.pd-mistakes .pd-hit { background: #fff8c5; }
.pd-meta, .pd-footer { font-size: 0.75em; color: #6e7781; }
.pd-footer { margin-top: 1.5em; border-top: 1px solid #d0d7de; padding-top: 0.4em; }
.pd-id { float: right; }
.pd-name { font-style: italic; }
.pd-symbols { border-collapse: collapse; margin: 0.6em 0; display: block; overflow-x: auto; }
.pd-symbols td, .pd-symbols th { border-bottom: 1px solid #d0d7de; padding: 0.3em 0.5em;
  vertical-align: top; }
.pd-symbols th { text-align: left; font-size: 0.8em; color: #6e7781; }
.pd-figure img, img { max-width: 100%; height: auto; }
.pd-figure { text-align: center; margin: 0.6em 0; }
.pd-caption { margin-top: 0.4em; }
.pd-check input { font: inherit; width: 100%; box-sizing: border-box; padding: 0.4em 0.5em;
  margin-top: 0.3em; border: 1px solid #8c959f; border-radius: 6px; background: #fff; color: inherit; }
.pd-check label { display: block; margin-top: 0.8em; }
.pd-verdict { margin-top: 0.6em; padding: 0.4em 0.6em; border-radius: 6px; }
.pd-verdict.pd-right { background: #dafbe1; color: #116329; }
.pd-verdict.pd-wrong { background: #ffebe9; color: #a40e26; }
.pd-verdict.pd-none { background: #f6f8fa; color: #57606a; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
.cloze { font-weight: 700; color: #0550ae; }
mjx-container[display="true"], .MathJax_Display { overflow-x: auto; overflow-y: hidden; max-width: 100%; }
hr#answer { border: 0; border-top: 1px solid #d0d7de; margin: 1em 0; }
@media (max-width: 480px) { .card { font-size: 17px; } .pd { padding: 0.6em 0.7em 1em; } }

.card.nightMode, .card.night_mode, .nightMode .card, .night_mode .card {
  color: #e6edf3; background: #161b22; }
.nightMode .pd-label, .night_mode .pd-label, .nightMode .pd-meta, .night_mode .pd-meta,
.nightMode .pd-footer, .night_mode .pd-footer, .nightMode .pd-ask, .night_mode .pd-ask,
.nightMode .pd-mistake-note, .night_mode .pd-mistake-note,
.nightMode .pd-symbols th, .night_mode .pd-symbols th { color: #9198a1; }
.nightMode .pd-extra, .night_mode .pd-extra, .nightMode .pd-explanation, .night_mode .pd-explanation,
.nightMode .pd-deep-dive, .night_mode .pd-deep-dive,
.nightMode .pd-mistakes, .night_mode .pd-mistakes { color: #c9d1d9; }
.nightMode .pd-footer, .night_mode .pd-footer, .nightMode hr#answer, .night_mode hr#answer,
.nightMode .pd-symbols td, .night_mode .pd-symbols td { border-color: #3d444d; }
.nightMode .pd-check input, .night_mode .pd-check input { background: #0d1117; border-color: #3d444d; }
.nightMode .pd-verdict.pd-right, .night_mode .pd-verdict.pd-right { background: #12361f; color: #7ee787; }
.nightMode .pd-verdict.pd-wrong, .night_mode .pd-verdict.pd-wrong { background: #42171d; color: #ffa198; }
.nightMode .pd-verdict.pd-none, .night_mode .pd-verdict.pd-none { background: #21262d; color: #9198a1; }
.nightMode .pd-mistakes .pd-hit, .night_mode .pd-mistakes .pd-hit { background: #3b2e00; }
.nightMode .pd-options .pd-correct::after, .night_mode .pd-options .pd-correct::after { color: #7ee787; }
.nightMode .cloze, .night_mode .cloze { color: #79c0ff; }
.nightMode .pd-figure img, .night_mode .pd-figure img { filter: invert(0.9) hue-rotate(180deg); }
"""

# ES5 only, wrapped in a function: Anki desktop runs every card's scripts in one page,
# so top-level ``let``/``const`` would clash from the second card on, and old Android
# WebViews know no newer syntax.
CHECK_SCRIPT = r"""<script>
(function () {
  var PREFIX = "paperdeck:typed:";
  function makeStore() {
    try {
      var s = window.sessionStorage;
      s.setItem(PREFIX + "probe", "1");
      s.removeItem(PREFIX + "probe");
      return {
        get: function (k) { return s.getItem(PREFIX + k); },
        set: function (k, v) { s.setItem(PREFIX + k, v); },
        del: function (k) { s.removeItem(PREFIX + k); }
      };
    } catch (e) {
      var o = window.paperdeckTyped = window.paperdeckTyped || {};
      return {
        get: function (k) { return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : null; },
        set: function (k, v) { o[k] = v; },
        del: function (k) { delete o[k]; }
      };
    }
  }
  function one(text) {
    var m = /^(-?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(text);
    if (m) { return Number(m[1]) / Number(m[2]); }
    return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : NaN;
  }
  function split(text, separators, decimalComma) {
    var t = String(text).replace(/[\u2212\u2012\u2013\u2014]/g, "-")
      .replace(/\s*(\u00d7|x|\*)\s*10\s*\^\s*\{?\s*([-+]?\d+)\s*\}?/gi, "e$2")
      .replace(/[\[\]\(\)\{\}]/g, " ");
    var parts = t.split(separators), out = [];
    for (var i = 0; i < parts.length; i++) {
      var p = parts[i].replace(/^\s+|\s+$/g, "");
      if (!p) { continue; }
      var x = one(decimalComma ? p.replace(",", ".") : p);
      if (isNaN(x) || !isFinite(x)) { return null; }
      out.push(x);
    }
    return out;
  }
  function numbers(text, count) {
    var plain = split(text, /[\s,;]+/, false);
    if (plain && plain.length === count) { return plain; }
    var comma = split(text, /[\s;]+/, true);  // 2,66 3,66: decimal commas
    if (comma && comma.length === count) { return comma; }
    return plain || comma;
  }
  function fmt(x) { return String(Math.round(x * 1e6) / 1e6); }
  function within(expected, got, abs, rel) {
    var diff = Math.abs(expected - got);
    if (!isNaN(abs) && diff <= abs + 1e-9) { return true; }
    return !isNaN(rel) && diff <= rel * Math.abs(expected) + 1e-12;
  }
  function matches(expected, got, abs, rel) {
    if (!got || got.length !== expected.length) { return false; }
    for (var i = 0; i < expected.length; i++) {
      if (!within(expected[i], got[i], abs, rel)) { return false; }
    }
    return true;
  }
  function judge(box, typed, verdict) {
    var expected = split(box.getAttribute("data-expected"), /\s+/, false) || [];
    var abs = parseFloat(box.getAttribute("data-abs"));
    var rel = parseFloat(box.getAttribute("data-rel"));
    var tol = !isNaN(abs) ? (abs > 0 ? "\u00b1" + abs : "exactly") : "\u00b1" + rel * 100 + "%";
    var hits = document.querySelectorAll(".pd-mistake[data-values]");
    for (var h = 0; h < hits.length; h++) { hits[h].className = "pd-mistake"; }
    verdict.hidden = false;
    if (!typed || !/\S/.test(typed)) {
      verdict.className = "pd-verdict pd-none";
      verdict.textContent = "Nothing typed: compare your working with the key below.";
      return;
    }
    var got = numbers(typed, expected.length);
    if (!got) {
      verdict.className = "pd-verdict pd-wrong";
      verdict.textContent = "Could not read \u201c" + typed + "\u201d as numbers.";
      return;
    }
    if (got.length !== expected.length) {
      verdict.className = "pd-verdict pd-wrong";
      verdict.textContent = "Expected " + expected.length + " number" + (expected.length === 1 ? "" : "s") +
        ", got " + got.length + ".";
      return;
    }
    var wrong = [];
    for (var i = 0; i < expected.length; i++) {
      if (!within(expected[i], got[i], abs, rel)) { wrong.push(i); }
    }
    if (!wrong.length) {
      verdict.className = "pd-verdict pd-right";
      verdict.textContent = "\u2714 Correct: " +
        (expected.length === 1 ? "within " : "every number within ") + tol + " of the key.";
      return;
    }
    var k = wrong[0];
    var text = "\u2718 " + wrong.length + " of " + expected.length + " off (" + tol + "): " +
      (expected.length > 1 ? "number " + (k + 1) + " is " : "you typed ") + fmt(got[k]) +
      ", the key has " + fmt(expected[k]) + ".";
    for (var j = 0; j < hits.length; j++) {
      var values = split(hits[j].getAttribute("data-values"), /\s+/, false);
      if (matches(values, got, abs, rel)) {
        hits[j].className = "pd-mistake pd-hit";
        text += " It matches a known mistake: " + hits[j].getAttribute("data-mistake") + ".";
        break;
      }
    }
    verdict.className = "pd-verdict pd-wrong";
    verdict.textContent = text;
  }
  var store = makeStore();
  var boxes = document.querySelectorAll(".pd-check");
  for (var b = 0; b < boxes.length; b++) {
    (function (box) {
      var id = box.getAttribute("data-id");
      var input = box.getElementsByTagName("input")[0];
      var label = box.getElementsByTagName("label")[0];
      if (!input || !label) { return; }
      label.hidden = false;
      if (box.getAttribute("data-side") === "front") {
        store.del(id);
        input.addEventListener("input", function () { store.set(id, input.value); });
        input.addEventListener("keydown", function (event) {
          if (event.key !== "Enter" && event.keyCode !== 13) { return; }
          event.preventDefault();
          store.set(id, input.value);
          if (typeof pycmd === "function") { pycmd("ans"); } else { input.blur(); }
        });
        if (typeof pycmd === "function") { input.focus(); }
        return;
      }
      var verdict = box.querySelector(".pd-verdict");
      var typed = store.get(id);
      input.value = typed || "";
      judge(box, typed, verdict);
      input.addEventListener("input", function () {
        store.set(id, input.value);
        judge(box, input.value, verdict);
      });
    })(boxes[b]);
  }
})();
</script>"""


def stable_id(name: str) -> int:
    """A positive id below 2**53 (exact in JavaScript) derived only from ``name``."""
    digest = hashlib.sha256(name.encode()).digest()
    return (1 << 40) + int.from_bytes(digest[:8], "big") % (1 << 52)


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
    def id(self) -> int:
        return stable_id(f"paperdeck/{self.name}/v{self.version}")

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
                {"name": t.name, "ord": i, "qfmt": t.front, "afmt": t.back, "bqfmt": "", "bafmt": "",
                 "did": None, "bfont": "", "bsize": 0}
                for i, t in enumerate(self.templates)
            ],
            "flds": [
                {"name": f, "ord": i, "sticky": False, "rtl": False, "font": "Arial", "size": 20,
                 "media": []}
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


FOOTER = ('<div class="pd-footer"><span class="pd-source">Source: {{Source}}</span>'
          '<span class="pd-id">{{Id}}</span></div>')


def _check(side: str) -> str:
    """The typed-answer box: hidden until the script shows it."""
    box = (f'<div class="pd-check" data-side="{side}" '
           'data-id="{{Id}}" data-expected="{{Expected}}" data-abs="{{TolAbs}}" data-rel="{{TolRel}}">')
    ask = "Type {{AnswerName}}" if side == "front" else "Your answer"
    box += (f'<label hidden>{ask}:<input type="text" autocomplete="off" autocorrect="off" '
            'autocapitalize="off" spellcheck="false" placeholder="numbers, by spaces or commas"></label>')
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
            _card("concept", '<div class="pd-front">{{Front}}</div><hr id="answer">'
                  '<div class="pd-back">{{Back}}</div>'
                  '{{#Extra}}<div class="pd-extra">{{Extra}}</div>{{/Extra}}' + FOOTER),
        ),
        Template(
            "Reverse",
            "{{#Reverse}}" + _card("concept", '<div class="pd-label">Which term?</div>'
                                   '<div class="pd-back">{{Back}}</div>') + "{{/Reverse}}",
            _card("concept", '<div class="pd-label">Which term?</div><div class="pd-back">{{Back}}</div>'
                  '<hr id="answer"><div class="pd-front">{{Front}}</div>'
                  '{{#Extra}}<div class="pd-extra">{{Extra}}</div>{{/Extra}}' + FOOTER),
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
            _card("cloze", "{{cloze:Text}}<hr id=\"answer\">"
                  '{{#Extra}}<div class="pd-extra">{{Extra}}</div>{{/Extra}}' + FOOTER),
        ),
    ),
    cloze=True,
)

_EQUATION_BACK = ('<div class="pd-formula">{{Formula}}</div>'
                  '{{#Symbols}}{{Symbols}}{{/Symbols}}'
                  '{{#DeepDive}}<div class="pd-deep-dive">{{DeepDive}}</div>{{/DeepDive}}')

EQUATION = NoteType(
    "Equation",
    ("Name", "Formula", "Symbols", "DeepDive", "Source", "Id"),
    (
        Template(
            "Name to formula",
            _card("equation", '<div class="pd-label">Equation</div><div class="pd-front">{{Name}}</div>'
                  '<div class="pd-ask">Write the equation.</div>'),
            _card("equation", '<div class="pd-label">Equation</div><div class="pd-front">{{Name}}</div>'
                  '<hr id="answer">' + _EQUATION_BACK + FOOTER),
        ),
        Template(
            "Formula to symbols",
            "{{#Symbols}}" + _card(
                "equation", '<div class="pd-label">Equation</div><div class="pd-formula">{{Formula}}</div>'
                '<div class="pd-ask">What does each symbol stand for, and what is its shape?</div>'
            ) + "{{/Symbols}}",
            _card("equation", '<div class="pd-label">Equation</div><div class="pd-formula">{{Formula}}</div>'
                  '<hr id="answer"><div class="pd-front">{{Name}}</div>{{Symbols}}'
                  '{{#DeepDive}}<div class="pd-deep-dive">{{DeepDive}}</div>{{/DeepDive}}' + FOOTER),
        ),
    ),
)

_WORKED_FRONT = ('<div class="pd-label">Worked example</div><div class="pd-front">{{Title}}</div>'
                 '{{#Task}}<div class="pd-prompt">{{Task}}</div>{{/Task}}'
                 '{{#Given}}<div class="pd-given-block">Given:{{Given}}</div>{{/Given}}')

WORKED_EXAMPLE = NoteType(
    "Worked Example",
    ("Title", "Task", "Given", "Steps", "Result", "Source", "Id"),
    (
        Template(
            "Work it",
            _card("worked", _WORKED_FRONT
                  + '<div class="pd-ask">Work it through, then compare step by step.</div>'),
            _card("worked", _WORKED_FRONT + '<hr id="answer"><ol class="pd-steps">{{Steps}}</ol>'
                  '{{#Result}}<div class="pd-answer">Result:{{Result}}</div>{{/Result}}' + FOOTER),
        ),
    ),
)

_QUESTION_FRONT = ('<div class="pd-label">{{Format}}</div><div class="pd-prompt">{{Prompt}}</div>')

QUESTION = NoteType(
    "Question",
    ("Prompt", "Format", "Options", "OptionsKey", "Answer", "Explanation", "AnswerName", "Expected",
     "TolAbs", "TolRel", "Source", "Id"),
    (
        Template(
            "Question",
            _card("question", _QUESTION_FRONT + "{{#Options}}{{Options}}{{/Options}}"
                  "{{#Expected}}" + _check("front") + "{{/Expected}}") + "{{#Expected}}" + CHECK_SCRIPT
            + "{{/Expected}}",
            _card("question", _QUESTION_FRONT + '<hr id="answer">'
                  "{{#OptionsKey}}{{OptionsKey}}{{/OptionsKey}}"
                  "{{#Expected}}" + _check("back") + "{{/Expected}}"
                  '<div class="pd-answer">{{Answer}}</div>'
                  '{{#Explanation}}<div class="pd-explanation">{{Explanation}}</div>{{/Explanation}}'
                  + FOOTER) + "{{#Expected}}" + CHECK_SCRIPT + "{{/Expected}}",
        ),
    ),
)

_PROBLEM_FRONT = ('<div class="pd-meta">Practice · {{ProblemType}} · {{Difficulty}} · seed {{Seed}}</div>'
                  '<div class="pd-prompt">{{Prompt}}</div>'
                  '{{#Given}}<div class="pd-given-block">Given:{{Given}}</div>{{/Given}}')

PROBLEM = NoteType(
    "Problem",
    ("Prompt", "Given", "AnswerName", "Expected", "TolAbs", "TolRel", "Tolerance", "Answer", "Steps",
     "Mistakes", "Figure", "ProblemType", "Difficulty", "Seed", "Source", "Id"),
    (
        Template(
            "Solve",
            _card("problem", _PROBLEM_FRONT + "{{#Expected}}" + _check("front") + "{{/Expected}}")
            + CHECK_SCRIPT,
            _card("problem", _PROBLEM_FRONT + '<hr id="answer">'
                  "{{#Expected}}" + _check("back") + "{{/Expected}}"
                  '<div class="pd-answer">Key:{{Answer}}</div>'
                  '<div class="pd-tolerance">Tolerance: {{Tolerance}}</div>'
                  '<div class="pd-label">Worked steps</div><ol class="pd-steps">{{Steps}}</ol>'
                  '{{#Figure}}<div class="pd-figure">{{Figure}}</div>{{/Figure}}'
                  '{{#Mistakes}}<div class="pd-label">Common mistakes</div>{{Mistakes}}{{/Mistakes}}'
                  + FOOTER) + CHECK_SCRIPT,
        ),
    ),
)

FIGURE = NoteType(
    "Figure",
    ("Figure", "Caption", "Source", "Id"),
    (
        Template(
            "Read the figure",
            _card("figure", '<div class="pd-label">Figure</div><div class="pd-figure">{{Figure}}</div>'
                  '<div class="pd-ask">What does this figure show, and why?</div>'),
            _card("figure", '<div class="pd-label">Figure</div><div class="pd-figure">{{Figure}}</div>'
                  '<hr id="answer"><div class="pd-caption">{{Caption}}</div>' + FOOTER),
        ),
    ),
)

ALL = (CONCEPT, CLOZE, EQUATION, WORKED_EXAMPLE, QUESTION, PROBLEM, FIGURE)
"""Every paperdeck note type; a package carries only those its notes use."""
