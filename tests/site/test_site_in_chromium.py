"""The study site in a real browser: Debian's Chromium driven by Playwright, from file://.

Every page loads without console errors or requests outside the site; every card
flips and every cloze reveals by mouse and by keyboard; every question answers on
the spot; numeric checks agree with ``paperdeck grade`` at the tolerance boundary;
practice blocks match ``paperdeck problems --problem-seed``; pages fit 360 px and
follow dark mode; axe-core finds no serious or critical violation.
"""

from __future__ import annotations

import functools
import html
import http.server
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.content.model import Question

from .conftest import PROJECT

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _pages() -> list[str]:
    from generator.project import open_project

    lessons = open_project(PROJECT).content.lessons
    return ["index.html", *(f"{n:02d}-{lesson.id}.html" for n, lesson in enumerate(lessons, 1))]


PAGES = _pages()
FONT_LOADED = """async () => { await document.fonts.ready;
    return [...document.fonts].some(f => f.family.includes('Noto Sans Math') && f.status === 'loaded'); }"""
LESSON_PAGES = PAGES[1:]


def _plain(markdown: str) -> str:
    """The text a reader's browser holds (textContent) for Markdown the site renders (its math as MathML)."""
    from generator.exporters.site.markup import inline

    return _text_of(inline(markdown))


def _text_of(markup: str) -> str:
    """The textContent of markup the site wrote, its spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", "", markup))).strip()


def _shown(locator: Any) -> str:
    return re.sub(r"\s+", " ", locator.text_content()).strip()


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_with_no_error_and_no_request_outside_the_site(tab, site: Path, name: str) -> None:
    page = tab.open(name)
    page.wait_for_load_state("load")
    assert tab.errors == []
    root = site.as_uri()
    outside = [url for url in tab.requests if not url.startswith(root + "/")]
    assert outside == []
    if name != "index.html":  # the math font, loaded from the site where there is math
        assert page.evaluate(FONT_LOADED)
    # No raw LaTeX anywhere a reader could see it, answers included.
    text = page.evaluate("""() => { const b = document.body.cloneNode(true);
        b.querySelectorAll('script').forEach(s => s.remove()); return b.textContent; }""")
    assert not re.search(r"\\[()\[\]]", text)


_WATCH = """() => { window.pdLog = [];
    new MutationObserver(changes => changes.forEach(c => window.pdLog.push(
        [c.target.closest('[data-key]').getAttribute('data-key'), c.attributeName,
         c.target.getAttribute(c.attributeName), c.target.classList.contains('pd-shown')])))
      .observe(document.body, {subtree: true, attributes: true,
               attributeFilter: ['aria-expanded', 'class']}); }"""


_CENTER = """async e => { const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r)));
    for (let n = 0, top = null; n < 20 && e.getBoundingClientRect().top !== top; n++) {
        top = e.getBoundingClientRect().top; e.scrollIntoView({block: 'center'}); await frame(); }
    const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }"""
"""Scrolls an element to the middle of the screen until it stays there (blocks are drawn when they
come near the screen, and drawing one can move what follows); returns the middle's coordinates."""


def _click(page: Any, selector: str, index: int) -> None:
    """A real mouse click in the middle of the ``index``-th match (no waiting on animations:
    the site has none), so hundreds of cards stay fast."""
    x, y = page.locator(selector).nth(index).evaluate(_CENTER)
    page.mouse.click(x, y)


@pytest.mark.parametrize("name", LESSON_PAGES)
def test_every_card_flips_by_mouse_tap_and_keyboard(tab, name: str) -> None:
    page = tab.open(name)
    page.evaluate(_WATCH)
    selector = ".pd-card:not(.pd-cloze)"
    keys = page.locator(selector).evaluate_all("cs => cs.map(c => c.getAttribute('data-key'))")
    assert keys
    assert page.locator(f"{selector} .pd-back:visible").count() == 0
    for i in range(len(keys)):
        _click(page, f"{selector} .pd-flip", i)  # mouse: opens
        page.keyboard.press("Space")  # keyboard, on the focused button: closes
        page.keyboard.press("Enter")  # opens
        _click(page, f"{selector} .pd-front", i)  # a tap on the card itself: closes
    log = page.evaluate("window.pdLog.filter(e => e[1] === 'aria-expanded')")
    for key in keys:
        assert [state for k, _, state, _ in log if k == key] == ["true", "false", "true", "false"], key
    assert page.locator(f"{selector} .pd-back:visible").count() == 0
    assert tab.errors == []


@pytest.mark.parametrize("name", LESSON_PAGES)
def test_every_cloze_reveals_one_blank_at_a_time(tab, name: str) -> None:
    page = tab.open(name)
    shown = """c => [...new Set([...c.querySelectorAll('.pd-blank.pd-shown')]
        .map(b => +b.getAttribute('data-c')))].sort((a, b) => a - b)"""
    clozes = page.locator(".pd-cloze")
    for i in range(clozes.count()):
        cloze = clozes.nth(i)
        button = cloze.locator(".pd-reveal-blank")
        numbers = sorted({int(n) for n in cloze.locator(".pd-blank").evaluate_all(
            "bs => bs.map(b => b.getAttribute('data-c'))")})
        assert len(numbers) == int(button.get_attribute("data-count"))
        assert cloze.evaluate(shown) == []
        for k in range(len(numbers)):
            if k % 2:
                page.keyboard.press("Enter")  # keyboard, on the button the mouse pressed
            else:
                _click(page, ".pd-cloze .pd-reveal-blank", i)
            assert cloze.evaluate(shown) == numbers[:k + 1]
        assert button.inner_text() == "Hide the blanks"
        page.keyboard.press("Space")
        assert cloze.evaluate(shown) == []
        last = cloze.locator(f'.pd-blank[data-c="{numbers[-1]}"]').first
        last.click()  # a tap on a blank reveals that one
        assert cloze.evaluate(shown) == [numbers[-1]]
    assert tab.errors == []


def _questions(document, name: str) -> list[Any]:
    lesson_id = name[3:-5]
    return [i for i in document.items if i.kind == "question" and i.lesson.id == lesson_id]


@pytest.mark.parametrize("name", LESSON_PAGES)
def test_every_question_answers_on_the_spot(tab, document, name: str) -> None:
    page = tab.open(name)
    for item in _questions(document, name):
        body: Question = item.body
        box = page.locator(f'.pd-question[data-key="{item.key}"]')
        feedback = box.locator(".pd-feedback")
        # Nothing gives the answer away before one is chosen.
        assert box.locator(".pd-why:visible, .pd-explanation:visible, .pd-answer:visible").count() == 0
        if body.type in ("multiple_choice", "true_false"):
            options = box.locator(".pd-option")
            mistakes = {_plain(d.mistake) for d in body.distractors}
            seen = set()
            for k in range(options.count()):
                option = options.nth(k)
                option.click()
                if option.get_attribute("data-right") == "1":
                    assert feedback.inner_text().startswith("✔ Right")
                    assert "pd-right" in option.get_attribute("class")
                else:
                    said = _shown(feedback)
                    assert said.startswith("✘ Not this one")
                    if body.type == "multiple_choice":
                        named = said.split("The mistake behind it: ", 1)[1].strip()
                        assert named in mistakes, (item.key, named)
                        seen.add(named)
            if body.type == "multiple_choice":
                assert len(seen) == len(body.distractors)
        elif body.type == "numeric":
            box.locator("input").fill(repr(float(body.answer)))
            box.locator("input").press("Enter")
            assert feedback.inner_text().startswith("✔ Correct"), item.key
        else:
            answer = box.locator(".pd-answer")
            box.locator(".pd-show-answer").click()
            assert answer.is_visible()
    assert tab.errors == []


def _grade_accepts(expected: float, typed: str, tolerance: float) -> bool:
    """What ``paperdeck grade`` does with a typed answer: its reader and its tolerance rule."""
    from generator.answers import accepts
    from generator.grading.responses import numbers
    from generator.problems.model import Tolerance

    got = numbers(typed, 1)
    return (got is not None and len(got) == 1 and got[0] is not None
            and accepts(expected, got[0], Tolerance(abs=tolerance)))


def test_numeric_checks_at_the_tolerance_boundary_agree_with_grade(tab, document) -> None:
    numeric = [i for i in document.items if i.kind == "question" and i.body.type == "numeric"
               and i.body.tolerance]
    assert numeric
    item = numeric[0]
    lesson_page = next(p for p in LESSON_PAGES if p[3:-5] == item.lesson.id)
    page = tab.open(lesson_page)
    box = page.locator(f'.pd-question[data-key="{item.key}"]')
    expected, tol = float(item.body.answer), float(item.body.tolerance)
    cases = []
    for offset in (0.0, tol * 0.5, tol, -tol, tol * 1.02, -tol * 1.02, tol * 3):
        value = expected + offset
        cases += [repr(value), f"{value:.6f}".replace(".", ","), f"{value:.6f}".replace("-", "\u2212"),
                  f"  {value:.6f} "]
    cases += ["", "abc", "1 2"]
    for typed in cases:
        box.locator("input").fill(typed)
        box.locator("input").press("Enter")
        page_says = box.locator(".pd-feedback").inner_text().startswith("✔")
        assert page_says == _grade_accepts(expected, typed, tol), (typed, expected, tol)
    # Every numeric question, through the answer rule the page loads, on both sides of its tolerance.
    for item in numeric:
        expected, tol = float(item.body.answer), float(item.body.tolerance)
        for got in (expected + tol * 0.98, expected - tol, expected + tol * 1.05):
            page_says = page.evaluate("([e, g, t]) => paperdeckAnswers.accepts(e,"
                                      " paperdeckAnswers.read(g, 1)[0], {abs: t})",
                                      [expected, repr(got), tol])
            assert page_says == _grade_accepts(expected, repr(got), tol), (item.key, got)


def _problem_json(problem_type: str, seed: int, difficulty: str) -> dict[str, Any]:
    from generator.cli import Session, cli

    args = ["--project", str(PROJECT), "problems", problem_type, "--problem-seed", str(seed),
            "--difficulty", difficulty, "--format", "json"]
    result = CliRunner().invoke(cli, args, obj=Session())
    assert result.exit_code == 0, result.output
    [problem] = json.loads(result.stdout)
    return problem


def _flat(value: Any) -> list[float]:
    return [x for v in value for x in _flat(v)] if isinstance(value, list) else [float(value)]


@pytest.mark.parametrize("name", ["03-scaled-dot-product-attention.html", "10-training.html"])
def test_practice_blocks_match_the_problem_command_and_new_problem_changes_them(tab, name: str) -> None:
    from generator import problems

    page = tab.open(name)
    blocks = page.locator(".pd-practice")
    assert blocks.count() > 0
    named = 0
    for i in range(blocks.count()):
        block = blocks.nth(i)
        _, problem_type, difficulty, _ = block.get_attribute("data-key").split("/")
        block.evaluate(_CENTER)  # read what a reader sees there
        for _ in range(2):
            seed = int(block.get_attribute("data-seed"))
            assert block.locator('[data-pd="seed"]').inner_text() == str(seed)
            shown = _problem_json(problem_type, seed, difficulty)
            primary = problems.get(problem_type).primary
            shown_variant = [block.get_attribute("data-key"), int(block.get_attribute("data-variant"))]
            variant = page.evaluate("([key, i]) => paperdeckProblems[key][i]", shown_variant)
            assert variant["seed"] == seed
            assert variant["expected"] == pytest.approx(_flat(shown["answer"][primary]))
            if block.locator("details.pd-key").get_attribute("open") is None:
                block.locator("details.pd-key summary").click()  # the key is written when opened
            assert f"--problem-seed {seed}" in block.locator('[data-pd="command"]').text_content()
            # The command's key is accepted; a named mistake is named.
            typed = " ".join(repr(x) for x in _flat(shown["answer"][primary]))
            block.locator("input").fill(typed)
            block.locator("button[type=submit]").click()
            assert block.locator(".pd-feedback").inner_text().startswith("✔ Correct")
            for mistake, values in variant["mistakes"]:
                block.locator("input").fill(" ".join(repr(v) for v in values))
                block.locator("input").press("Enter")
                said = _shown(block.locator(".pd-feedback"))
                if said.startswith("✘"):  # (a mistake may fall within tolerance of the key)
                    assert f"It matches a known mistake: {_text_of(mistake)}." in said
                    named += 1
                    break
            prompt = block.locator('[data-pd="prompt"]').inner_text()
            block.locator(".pd-new").click()
            assert int(block.get_attribute("data-seed")) != seed
            assert block.locator('[data-pd="prompt"]').inner_text() != prompt or problem_type == "complexity"
            assert block.locator(".pd-feedback").inner_text() == ""
    assert named > 0
    assert tab.errors == []


def test_the_days_problem_is_picked_as_on_the_cards(tab, site: Path) -> None:
    """The site's pick and the Problem cards' variant.js agree for the same id, day and count."""
    from importlib import resources

    variant_js = resources.files("generator.exporters.anki").joinpath("variant.js").read_text()
    page = tab.open("03-scaled-dot-product-attention.html")
    block = page.locator(".pd-practice").first
    key, n = block.get_attribute("data-key"), int(block.get_attribute("data-variants"))
    picked = page.evaluate("""([js, key, n]) => {
        const card = document.createElement('div');
        const data = document.createElement('script');
        data.type = 'application/json'; data.className = 'pd-variants'; data.setAttribute('data-id', key);
        data.textContent = JSON.stringify(Array.from({length: n}, (_, i) => ({X: String(i)})));
        card.appendChild(data); document.body.appendChild(card);
        new Function(js)();
        return Number(card.getAttribute('data-variant'));
    }""", [variant_js, key, n])
    assert int(block.get_attribute("data-variant")) == picked


def test_label_figures_reveal_their_parts(tab) -> None:
    page = tab.open("02-architecture.html")
    box = page.locator(".pd-labels").first
    covers = box.locator("button.pd-cover")
    assert covers.count() >= 10
    first, second = covers.nth(0), covers.nth(1)
    answer = box.locator(f'li[data-part="{first.get_attribute("data-part")}"] .pd-label-answer')
    assert answer.is_hidden()
    first.click()
    assert answer.is_visible() and first.get_attribute("aria-expanded") == "true"
    second.press("Enter")
    assert second.get_attribute("aria-expanded") == "true"
    box.locator(".pd-reveal-all").click()
    assert box.locator(".pd-label-answer:visible").count() == covers.count()


def test_worked_examples_show_one_step_at_a_time(tab) -> None:
    page = tab.open("03-scaled-dot-product-attention.html")
    example = page.locator(".pd-example").first
    steps = example.locator(".pd-steps > li")
    assert steps.count() >= 2 and example.locator(".pd-steps > li:visible").count() == 0
    example.locator(".pd-next-step").click()
    assert example.locator(".pd-steps > li:visible").count() == 1
    example.locator(".pd-all-steps").click()
    assert example.locator(".pd-steps > li:visible").count() == steps.count()
    assert example.locator(".pd-result").is_visible()


def test_progress_stays_on_the_device_and_resets(tab) -> None:
    page = tab.open("03-scaled-dot-product-attention.html")
    card = page.locator(".pd-card:not(.pd-cloze)").first
    card.locator(".pd-known").click()
    question = page.locator('.pd-question[data-type="multiple_choice"]').first
    question.locator('.pd-option[data-right="1"]').click()
    page.reload()
    known = page.locator(".pd-card:not(.pd-cloze)").first.locator(".pd-known")
    assert known.get_attribute("aria-pressed") == "true"
    page = tab.open("index.html")
    row = page.locator('.pd-progress[data-lesson="scaled-dot-product-attention"]')
    assert row.inner_text().startswith("1 of ") and "· 1 of " in row.inner_text()
    page.locator(".pd-reset").click()
    page.locator(".pd-reset-confirm").click()
    assert row.inner_text().startswith("0 of ")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('paperdeck:'))") == []
    assert tab.errors == []


@pytest.mark.parametrize("name", PAGES)
def test_no_element_is_wider_than_a_360_px_phone(tab, name: str) -> None:
    page = tab.open(name)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    too_wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.right <= 360.5) return false;
        for (let a = e.parentElement; a; a = a.parentElement) {
            const o = getComputedStyle(a).overflowX;
            if (o === 'auto' || o === 'scroll' || o === 'hidden') return false;
        }
        return true;
    }).map(e => e.outerHTML.slice(0, 80))""")
    assert too_wide == []


def test_dark_mode_follows_the_system(browser, site: Path) -> None:
    shots = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 360, "height": 700}, color_scheme=scheme)
        page = context.new_page()
        page.goto((site / "03-scaled-dot-product-attention.html").as_uri())
        shots.append((page.screenshot(), page.evaluate("getComputedStyle(document.body).backgroundColor")))
        context.close()
    assert shots[0][0] != shots[1][0]
    assert shots[0][1] == "rgb(255, 255, 255)" and shots[1][1] != shots[0][1]


def test_every_control_is_reachable_by_keyboard_with_visible_focus(tab) -> None:
    page = tab.open("03-scaled-dot-product-attention.html")
    seen = set()
    for _ in range(25):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
            return [e.tagName, e.className, s.outlineStyle, s.outlineWidth]; }""")
        assert focused[0] != "BODY"
        assert focused[2] != "none" and focused[3] != "0px", focused
        seen.add(focused[0])
    assert {"A", "BUTTON"} <= seen


def test_works_from_a_static_host_in_a_subfolder(browser, site: Path) -> None:
    root = site.parent.parent
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        context = browser.new_context()
        page = context.new_page()
        failed, statuses = [], []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.on("response", lambda r: statuses.append((r.url, r.status)))
        base = f"http://127.0.0.1:{server.server_port}/{site.parent.name}/{site.name}/"
        page.goto(base + "04-multi-head-attention.html")
        page.wait_for_load_state("networkidle")
        assert failed == [] and all(status == 200 for _, status in statuses)
        assert all(url.startswith(base) for url, _ in statuses)
        assert page.evaluate(FONT_LOADED)
        context.close()
    finally:
        server.shutdown()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_or_critical_violation(browser, site: Path, name: str, scheme: str) -> None:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    page = context.new_page()
    page.goto((site / name).as_uri())
    # A block is drawn when the reader nears it (content-visibility: auto), and axe cannot judge
    # the contrast of one not drawn yet: scroll through the page first, as a reader does.
    page.evaluate("""async () => { for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {
        scrollTo(0, y); await new Promise(r => requestAnimationFrame(() => setTimeout(r))); }
        scrollTo(0, 0); }""")
    # Dark mode changes colours only: check contrast there, everything in light mode.
    options = {"resultTypes": ["violations"]}
    if scheme == "dark":
        options["runOnly"] = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}
    violations = axe_module.Axe().run(page, options=options).response["violations"]
    context.close()
    bad = [(v["id"], v["impact"], v["nodes"][0]["html"][:100]) for v in violations
           if v["impact"] in ("serious", "critical")]
    assert bad == []
