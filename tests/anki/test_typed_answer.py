"""The typed-answer check of problem and numeric cards, run in Node against the card HTML
that the real Anki library renders.

Node stands in for the card WebView with a minimal DOM: the elements the script reads
(the ``.pd-check`` box, its input, label and verdict, the ``.pd-mistake`` items) are
taken from the rendered HTML. Front and back run as two page loads sharing one
``sessionStorage`` (AnkiDroid, AnkiMobile), or as one page without it (Anki desktop).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from generator.exporters.plain_text import prose
from generator.values import Precision

NODE = shutil.which("node")


@pytest.fixture(autouse=True)
def node() -> str:
    """Node.js, which `.ci/run` installs: without it these tests fail, never skip."""
    assert NODE is not None, "Node.js is needed to run the card script (apt-get install nodejs)"
    return NODE


class _Elements(HTMLParser):
    """The check box, its children and the mistake items of one card side."""

    def __init__(self) -> None:
        super().__init__()
        self.box: dict | None = None
        self.children: list[dict] = []
        self.mistakes: list[dict] = []
        self.shown: dict | None = None
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        attributes = {k: v or "" for k, v in attrs}
        classes = attributes.get("class", "").split()
        if "pd-check" in classes:
            self.box, self._depth = attributes, 1
            return
        if "pd-mistake" in classes:
            self.mistakes.append(attributes)
        if "data-shown" in attributes:
            self.shown = attributes
        if self._depth:
            if tag in ("input", "label") or "pd-verdict" in classes:
                self.children.append({"tag": tag, "attrs": attributes})
            if tag != "input":
                self._depth += 1

    def handle_endtag(self, tag):
        if self._depth:
            self._depth -= 1


def _side(html: str) -> dict:
    parser = _Elements()
    parser.feed(html)
    assert parser.box is not None, "the side has a check box"
    # The answer check alone (a Problem card also picks its day's problem: see
    # test_cards_in_chromium.py); here the card shows its note's own problem.
    (script,) = [s for s in re.findall(r"<script>(.*?)</script>", html, re.S) if "paperdeck:typed:" in s]
    return {
        "box": parser.box,
        "children": parser.children,
        "mistakes": parser.mistakes,
        "script": script,
        "shown": parser.shown,
    }


HARNESS = r"""
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const vm = require("vm");
function El(tag, attrs) {
  this.tagName = tag; this.attrs = attrs || {}; this.hidden = "hidden" in this.attrs;
  this.className = this.attrs["class"] || ""; this.textContent = ""; this.value = "";
  this.listeners = {}; this.children = [];
}
El.prototype.getAttribute = function (n) { return n in this.attrs ? this.attrs[n] : null; };
El.prototype.addEventListener = function (t, f) { (this.listeners[t] = this.listeners[t] || []).push(f); };
El.prototype.fire = function (t, e) { (this.listeners[t] || []).forEach(f => f(e || {})); };
El.prototype.getElementsByTagName = function (t) { return this.children.filter(c => c.tagName === t); };
El.prototype.querySelector = function (s) {
  return this.children.find(c => c.className.split(" ").includes(s.slice(1))) || null;
};
El.prototype.focus = function () {}; El.prototype.blur = function () {};
function page(side, win) {
  const box = new El("div", side.box);
  box.children = side.children.map(c => new El(c.tag, c.attrs));
  const shown = side.shown ? new El("span", side.shown) : null;  // the key as the question asks
  box.parentNode = { querySelector: s => (s === "[data-shown]" ? shown : null) };
  const mistakes = side.mistakes.map(m => new El("li", m));
  win.document = {
    querySelectorAll: s => (s === ".pd-check" ? [box] : s.startsWith(".pd-mistake") ? mistakes : []),
  };
  vm.runInContext(side.script, win);
  return { box, input: box.getElementsByTagName("input")[0], label: box.getElementsByTagName("label")[0],
           verdict: box.querySelector(".pd-verdict"), mistakes };
}
function storage() {
  const data = {};
  return { getItem: k => (k in data ? data[k] : null), setItem: (k, v) => { data[k] = String(v); },
           removeItem: k => { delete data[k]; } };
}
const results = [];
for (const run of input.runs) {
  const shared = storage();
  const win = vm.createContext({});
  win.window = win;
  if (run.storage) { win.sessionStorage = shared; }
  else { Object.defineProperty(win, "sessionStorage", { get() { throw new Error("denied"); } }); }
  const front = page(input.front, win);
  const shown = !front.label.hidden;
  if (run.typed !== null) { front.input.value = run.typed; front.input.fire("input"); }
  // A separate page load on phones: a fresh context that shares only the storage.
  const backWin = run.storage ? vm.createContext({ sessionStorage: shared }) : win;
  backWin.window = backWin;
  const back = page(input.back, backWin);
  results.push({
    shown, cls: back.verdict.className, text: back.verdict.textContent, hidden: back.verdict.hidden,
    value: back.input.value, hit: back.mistakes.filter(m => m.className.includes("pd-hit")).length,
  });
  if (run.retype !== undefined) {
    back.input.value = run.retype; back.input.fire("input");
    results[results.length - 1].retyped = back.verdict.className;
  }
}
process.stdout.write(JSON.stringify(results));
"""


def _run(card, runs):
    payload = {"front": _side(card.question()), "back": _side(card.answer()), "runs": runs}
    done = subprocess.run(
        [NODE, "-e", HARNESS],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def _problem_card(col, key_prefix):
    nids = col.find_notes(f'"Id:{key_prefix}*"')
    assert nids
    return col.get_note(nids[0]).cards()[0]


def test_sdpa_card_checks_typed_matrix(col, write, make_deck, import_package):
    deck = make_deck()
    import_package(col, write(deck))
    item = next(i for i in deck.items if i.key.startswith("aiayn/sdpa/"))
    (nid,) = col.find_notes(f'"Id:{item.key}"')
    card = col.get_note(nid).cards()[0]
    output = [x for row in item.body.answer["output"] for x in row]
    distractor = item.body.distractors[0].answer["output"]
    wrong = [x for row in distractor for x in row]
    spaced = " ".join(f"{x:.3f}" for x in output)
    runs = [
        {"storage": True, "typed": spaced},
        {"storage": True, "typed": "[[" + ", ".join(f"{x:.4f}" for x in output) + "]]"},
        {"storage": True, "typed": " ".join(f"{x + 0.05:.3f}" for x in output)},
        {"storage": True, "typed": " ".join(f"{x:.4f}" for x in wrong)},
        {"storage": True, "typed": spaced + " 1"},
        {"storage": True, "typed": None, "retype": spaced},
        {"storage": True, "typed": "two point six"},
        {"storage": False, "typed": spaced},
        {"storage": True, "typed": " ".join(f"{x:.3f}".replace(".", ",") for x in output)},
    ]
    results = _run(card, runs)
    right, brackets, off, mistake, count, nothing, words, desktop, comma = results
    assert right["shown"] and not right["hidden"], "the script shows the input and the verdict"
    assert right["cls"] == "pd-verdict pd-right" and right["value"] == spaced
    assert brackets["cls"] == "pd-verdict pd-right"
    assert off["cls"] == "pd-verdict pd-wrong" and "off" in off["text"]
    # The key as the prompt asks for it ("Give 3 decimals"), not the key's float.
    assert item.body.precision == Precision(decimals=3)
    assert f", the key has {output[0]:.3f}." in off["text"]
    assert mistake["cls"] == "pd-verdict pd-wrong" and mistake["hit"] == 1
    assert prose(item.body.distractors[0].mistake) in mistake["text"]  # its math as text
    assert count["cls"] == "pd-verdict pd-wrong" and f"Expected {len(output)} numbers" in count["text"]
    assert nothing["cls"] == "pd-verdict pd-none" and nothing["retyped"] == "pd-verdict pd-right"
    assert words["cls"] == "pd-verdict pd-wrong" and "Could not read" in words["text"]
    assert desktop["cls"] == "pd-verdict pd-right", "without sessionStorage the page keeps the value"
    assert comma["cls"] == "pd-verdict pd-right", "decimal commas are understood"


def test_numeric_question_checks_exact_answers(col, write, make_deck, import_package):
    import_package(col, write(make_deck()))
    (nid,) = col.find_notes('"Id:q-variance"')
    card = col.get_note(nid).cards()[0]
    right, wrong, fraction = _run(
        card,
        [
            {"storage": True, "typed": "64"},
            {"storage": True, "typed": "64.5"},
            {"storage": True, "typed": "128/2"},
        ],
    )
    assert right["cls"] == "pd-verdict pd-right"
    assert wrong["cls"] == "pd-verdict pd-wrong"
    assert fraction["cls"] == "pd-verdict pd-right"


def test_cards_without_javascript_still_show_key_and_steps(col, write, make_deck, import_package):
    deck = make_deck()
    import_package(col, write(deck))
    item = next(i for i in deck.items if i.kind == "problem")
    (nid,) = col.find_notes(f'"Id:{item.key}"')
    answer = re.sub(r"<script>.*?</script>", "", col.get_note(nid).cards()[0].answer(), flags=re.S)
    assert "Key:" in answer and "pd-steps" in answer
    assert re.search(r"<label hidden>", answer), "the input is hidden until the script runs"
    assert "{{" not in notes_script() and "}}" not in notes_script(), "no template syntax in the script"


def notes_script() -> str:
    from generator.exporters.anki.notetypes import CHECK_SCRIPT

    return CHECK_SCRIPT


def test_a_tolerance_with_abs_and_rel_accepts_the_larger_as_python_and_the_site_do(
    col, write, make_deck, import_package
):
    # max(abs, rel*|expected|) (generator/answers.py): the card once read abs alone.
    deck = make_deck()
    import_package(col, write(deck))
    item = next(i for i in deck.items if i.key.startswith("aiayn/sdpa/"))
    (nid,) = col.find_notes(f'"Id:{item.key}"')
    note = col.get_note(nid)
    note["TolAbs"], note["TolRel"] = "0.0001", "0.5"
    col.update_note(note)
    output = [x for row in item.body.answer["output"] for x in row]
    within_rel = " ".join(f"{x * 1.2:.4f}" for x in output)
    (rel,) = _run(note.cards()[0], [{"storage": True, "typed": within_rel}])
    assert rel["cls"] == "pd-verdict pd-right", rel["text"]
    assert "within \u00b10.0001 or \u00b150% of the key" in rel["text"]
