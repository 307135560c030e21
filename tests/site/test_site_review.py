"""The review page (review.html) in Chromium on ``file://``: ts-fsrs schedules the site's cards,
the schedule survives a relaunch with the same profile, export then import restores it, a foreign
or damaged file changes nothing, no page loads a module script, axe is clean at 360 px; a practice
problem comes up with the day's numbers, loaded only then, and an equation is asked from its name."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ..browser import chromium
from .browsing import LESSON_PAGES, PAGES, draw_every_block
from .test_site_axe import AXE, judged

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

REVIEW = "review.html"
SCHEDULE = "() => localStorage.getItem(document.documentElement.dataset.store + ':review')"


def _shown(page: Any) -> list[str]:
    """The cards of the queue on screen: lesson/key of each."""
    return page.evaluate("""() => [...document.querySelectorAll('.pd-queue [data-key][data-lesson]')]
        .filter(e => e.offsetParent !== null).map(e => e.dataset.lesson + '/' + e.dataset.key)""")


def _open(context: Any, site: Path) -> tuple[Any, list[str]]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((site / REVIEW).as_uri())
    return page, errors


def _review(page: Any, ratings: list[str]) -> list[str]:
    """Rates the cards shown, one after the other: "Good" clicks the button, "3" presses the key."""
    rated = []
    for rating in ratings:
        [card] = _shown(page)
        rated.append(card)
        if rating.isdigit():
            page.keyboard.press(rating)
        else:
            page.get_by_role("button", name=re.compile(f"^{rating} ")).click()
        assert "Next review of that card" in page.locator(".pd-review-next").text_content()
    return rated


def test_review_schedules_and_the_schedule_survives_a_relaunch(
    browser: Any, site: Path, tmp_path: Path
) -> None:
    launch = dict(executable_path=chromium(), args=["--no-sandbox"], viewport={"width": 360, "height": 780})
    context = browser.browser_type.launch_persistent_context(tmp_path / "profile", **launch)
    page, errors = _open(context, site)
    assert "separate from Anki's" in page.locator(".pd-separate").text_content()
    first = _shown(page)
    assert len(first) == 1 and first[0].startswith("why-attention/"), "new cards come in teaching order"
    assert "0 due, 20 new left today" in page.locator(".pd-review-status").text_content()
    intervals = page.locator(".pd-rate .pd-interval").all_text_contents()
    assert len(intervals) == 4 and all(re.fullmatch(r"\(\d+ (min|h|days?|months)\)", i) for i in intervals)
    rated = _review(page, ["Good", "3", "4", "1"])
    assert len(set(rated)) == 4
    schedule = json.loads(page.evaluate(SCHEDULE))
    assert sorted(schedule["cards"]) == sorted(rated)
    easy = schedule["cards"][rated[2]]
    assert easy["state"] == 2 and easy["reps"] == 1 and easy["due"] - easy["last_review"] >= 86400000
    assert schedule["fresh"]["count"] == 4
    assert "16 new left today" in page.locator(".pd-review-status").text_content()
    context.close()

    context = browser.browser_type.launch_persistent_context(tmp_path / "profile", **launch)
    page, errors_after = _open(context, site)
    assert json.loads(page.evaluate(SCHEDULE)) == schedule, "the due dates persist"
    assert "16 new left today" in page.locator(".pd-review-status").text_content()
    page.goto((site / LESSON_PAGES[0]).as_uri())
    cards = page.locator("main [data-key][data-lesson]").count()
    assert page.locator(".pd-due").text_content() == f"(0 due now, {cards - 4} not reviewed yet)"
    page.get_by_role("link", name="Review the cards that are due").click()
    assert page.url.endswith(REVIEW)
    context.close()
    assert errors == errors_after == []


def test_export_then_import_restores_the_state_and_bad_files_change_nothing(
    tab: Any, site: Path, tmp_path: Path
) -> None:
    page = tab.open(REVIEW)
    page.evaluate(
        "() => localStorage.setItem(document.documentElement.dataset.store,"
        " JSON.stringify({known: {'why-attention/x': 1}, answers: {}}))"
    )
    _review(page, ["Good", "Hard", "1"])
    before = page.evaluate(SCHEDULE)
    with page.expect_download() as download:
        page.get_by_role("button", name="Export progress").click()
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["format"] == "paperdeck-progress" and data["site"]["known"] == {"why-attention/x": 1}
    assert data["review"] == json.loads(before)

    page.evaluate("() => localStorage.clear()")
    page.reload()
    assert (
        page.evaluate(SCHEDULE) is None
        and "0 due, 20 new left today" in page.locator(".pd-review-status").text_content()
    )
    with page.expect_navigation():
        page.locator(".pd-import").set_input_files(exported)
    assert page.evaluate(SCHEDULE) == before
    imported = page.locator(".pd-import-status").text_content()
    assert imported == f"Imported {exported.name}: 3 cards' schedules."
    site_state = "() => localStorage.getItem(document.documentElement.dataset.store)"
    kept = page.evaluate(site_state)
    assert json.loads(kept)["known"] == {"why-attention/x": 1}

    foreign = dict(data, store="paperdeck:another-paper")
    damaged = dict(data, review={"cards": {"a/b": {"due": "tomorrow"}}})
    for name, content, message in [
        ("foreign.json", json.dumps(foreign), "holds the progress of another site (paperdeck:another-paper)"),
        ("damaged.json", json.dumps(damaged), "is damaged"),
        ("truncated.json", exported.read_text(encoding="utf-8")[:200], "is not a JSON file"),
        ("other.json", json.dumps({"cards": []}), "is not a progress file exported by this site"),
    ]:
        (tmp_path / name).write_text(content, encoding="utf-8")
        page.locator(".pd-import").set_input_files(tmp_path / name)
        status = page.locator(".pd-import-status")
        page.wait_for_function(
            "s => document.querySelector('.pd-import-status').textContent.includes(s)", arg=message
        )
        assert status.text_content().startswith(f"Nothing imported: {name} ")
        assert status.text_content().endswith("Your progress is unchanged.")
        assert page.evaluate(SCHEDULE) == before and page.evaluate(site_state) == kept
    assert tab.errors == []


def test_no_page_loads_a_module_script(site: Path) -> None:
    pages = sorted(site.glob("*.html"))
    assert {p.name for p in pages} == {*PAGES, REVIEW}
    for page in pages:
        tags = re.findall(r"<script\b[^>]*>", page.read_text(encoding="utf-8"))
        assert tags and all("type=" not in tag for tag in tags), page.name
    scripts = [*site.glob("assets/*.js"), *site.glob("problems/*.js")]
    for script in scripts:
        assert not re.search(r"^\s*(import|export)\s", script.read_text(encoding="utf-8"), re.M), script.name
    assert (site / "assets" / "ts-fsrs.js").read_text(encoding="utf-8").startswith("/*! ts-fsrs 5.4.2")


def test_the_review_page_is_axe_clean_at_360_px_day_and_night(browser: Any, site: Path) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    page.goto((site / REVIEW).as_uri())
    page.get_by_label("Exam date").fill("2099-01-15")  # the plan's table shown too
    assert page.locator(".pd-plan tbody tr").count() > 10
    page.locator(".pd-rate").first.focus()
    draw_every_block(page)
    page.evaluate(AXE)
    found = {scheme: judged(page, scheme) for scheme in ("light", "dark")}
    # Nothing runs off a phone's screen (the progress file's input did, by 16 px); a wide table
    # scrolls inside its own box.
    wider = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    context.close()
    assert found == {"light": ([], []), "dark": ([], [])}
    assert wider == 0


def test_an_exam_date_paces_the_new_cards_and_predicts_each_lessons_recall(tab: Any) -> None:
    page = tab.open(REVIEW)
    total = page.locator(".pd-queue [data-key][data-lesson]").count()
    lessons = page.evaluate("""() => [...new Map([...document.querySelectorAll('.pd-review-lesson')]
        .map(g => [g.dataset.page, g.dataset.title])).values()]""")
    _review(page, ["Good", "Easy"])
    exam = page.evaluate("""() => { const d = new Date(); d.setDate(d.getDate() + 30);
        return d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-'
               + String(d.getDate()).padStart(2, '0'); }""")
    page.get_by_label("Exam date").fill(exam)
    per_day = -(-(total - 2) // 23)  # 30 days less a week's sweep, as documents/plan.py
    summary = page.locator(".pd-plan-summary").text_content()
    assert f", in 30 days: {total - 2} new cards left, {per_day} a day" in summary
    rows = page.locator(".pd-plan tbody tr")
    assert [rows.nth(i).locator("th").text_content() for i in range(rows.count())] == lessons
    first = rows.nth(0).locator("td").all_text_contents()
    recall = re.fullmatch(r"(\d+)% \(2 of (\d+) reviewed\)", first[2])
    assert recall and 50 <= int(recall.group(1)) < 100, first
    assert first[0] == f"{int(recall.group(2)) - 2} of {recall.group(2)}"
    assert rows.nth(1).locator("td").nth(2).text_content() == "not reviewed yet"
    assert f"{max(20, per_day) - 2} new left today" in page.locator(".pd-review-status").text_content()
    page.reload()
    assert page.get_by_label("Exam date").input_value() == exam
    assert page.locator(".pd-plan tbody tr").count() == len(lessons)
    assert "You are on the pace you set on " in page.locator(".pd-plan-summary").text_content()
    assert page.locator(".pd-plan tbody tr td:nth-child(5)").all_text_contents() == ["none"] * len(lessons)
    # Three days later, no new card seen since: three days of the pace set are behind, the first
    # lessons' first; one card seen makes it one fewer.
    page.evaluate("""() => { const key = document.documentElement.dataset.store + ':review';
        const s = JSON.parse(localStorage.getItem(key)), d = new Date(); d.setDate(d.getDate() - 3);
        s.paced.day = d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-'
                      + String(d.getDate()).padStart(2, '0');
        localStorage.setItem(key, JSON.stringify(s)); }""")
    page.reload()
    late = 3 * per_day
    assert (
        f"You are {late} new cards behind the pace you set on "
        in page.locator(".pd-plan-summary").text_content()
    )
    left = [
        int(t.split(" of ")[0]) for t in page.locator(".pd-plan tbody tr td:nth-child(2)").all_text_contents()
    ]
    expected, rest = [], late
    for unseen in left:
        expected.append(min(unseen, rest))
        rest -= expected[-1]
    shown = page.locator(".pd-plan tbody tr td:nth-child(5)").all_text_contents()
    assert shown == [f"{n} card{'s' * (n != 1)}" if n else "none" for n in expected]
    _review(page, ["Good"])
    assert f"You are {late - 1} new cards behind" in page.locator(".pd-plan-summary").text_content()
    page.get_by_label("Exam date").fill("2020-01-01")
    refused = page.locator(".pd-plan-summary").text_content()
    assert refused == "That date is not after today: choose a later one."
    assert page.locator(".pd-plan").is_hidden()
    assert tab.errors == []


def test_a_card_is_reviewed_with_the_keyboard_only(tab: Any) -> None:
    """Tab to the card's answer button, Enter shows the answer, a digit rates; focus is never lost."""
    page = tab.open(REVIEW)
    [card] = _shown(page)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('pd-flip')"):
            break
    else:
        pytest.fail("Tab never reached the card's Show answer button")
    focused = page.evaluate("() => document.activeElement.closest('[data-key]').dataset.key")
    assert focused == card.split("/", 1)[1]
    page.keyboard.press("Enter")
    assert page.locator(".pd-queue .pd-back:visible").count() == 1
    page.keyboard.press("3")
    assert _shown(page) != [card]
    assert json.loads(page.evaluate(SCHEDULE))["cards"][card]["reps"] == 1
    assert tab.errors == []


def test_the_index_links_to_the_review_page(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="review.html">Review the cards that are due</a>' in index
    for name in LESSON_PAGES:
        assert '<a href="review.html">' in (site / name).read_text(encoding="utf-8"), name


def test_a_sites_exam_date_starts_the_plan_until_the_student_gives_theirs(
    browser: Any, project: Any, tmp_path: Path
) -> None:
    """A site built for an exam (its recipe's ``exam:``, or ``build --exam``) opens its review
    page with that date and its plan; a date the student gives stays theirs after a reload."""
    import dataclasses
    from datetime import date, timedelta

    from generator.commands.build import build_recipe
    from generator.project.kinds import BuildOptions

    exam = date.today() + timedelta(days=30)
    first = project.content.lessons[0].id
    recipe = dataclasses.replace(
        project.recipes["aiayn-site"], lessons=(first,), problems=(), exam=exam.isoformat()
    )
    build_recipe(project, recipe, tmp_path, BuildOptions(seed=11))
    context = browser.new_context(viewport={"width": 360, "height": 780})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((tmp_path / "aiayn-site" / REVIEW).as_uri())
        assert f"This site was made for an exam on {exam:%a %d %b %Y}" in page.content()
        assert page.get_by_label("Exam date").input_value() == exam.isoformat()
        assert ", in 30 days: " in page.locator(".pd-plan-summary").text_content()
        assert page.locator(".pd-plan tbody tr").count() == 1
        own = (exam + timedelta(days=10)).isoformat()
        page.get_by_label("Exam date").fill(own)
        page.reload()
        assert page.get_by_label("Exam date").input_value() == own
        assert ", in 40 days: " in page.locator(".pd-plan-summary").text_content()
        page.get_by_label("Exam date").fill("")  # no exam: the site's date does not come back
        page.reload()
        assert page.get_by_label("Exam date").input_value() == ""
        assert page.locator(".pd-plan").is_hidden()
        assert errors == []
    finally:
        context.close()


SEEN_ALL_BUT_PROBLEMS = """() => {
    const key = document.documentElement.dataset.store + ':review', now = Date.now(), cards = {};
    for (const e of document.querySelectorAll('.pd-queue [data-key][data-lesson]:not(.pd-practice)')) {
        cards[e.dataset.lesson + '/' + e.dataset.key] = {due: now + 30 * 86400000, stability: 30,
            difficulty: 5, elapsed_days: 0, scheduled_days: 30, learning_steps: 0, reps: 1, lapses: 0,
            state: 2, last_review: now};
    }
    localStorage.setItem(key, JSON.stringify({cards: cards, fresh: {day: '', count: 0}, exam: ''}));
}"""


def test_a_problem_comes_up_with_the_days_numbers_is_checked_and_rated(tab: Any, site: Path) -> None:
    """A problem's card loads its lesson's numbers only when it comes up, shows the problem its
    lesson page shows today, checks a typed answer with the lesson page's code, and is scheduled
    as the problem (lesson/key as the progress names it), not as the day's variant."""
    page = tab.open(REVIEW)
    assert page.locator(".pd-queue .pd-practice").count() > 10
    page.evaluate(SEEN_ALL_BUT_PROBLEMS)
    page.reload()
    [card] = _shown(page)
    block = page.locator(".pd-queue .pd-practice:visible")
    page.wait_for_selector(".pd-queue .pd-practice[data-started]:visible")
    group = block.locator("xpath=..")
    assert group.get_attribute("data-page") == "02-architecture.html"
    assert card == f"practice/{block.get_attribute('data-key')}"
    loaded = [r.rsplit("/", 2)[-2:] for r in tab.requests if "/problems/" in r]
    assert loaded == [["problems", "02-architecture.js"]], "only the file of the problem shown"
    seed, prompt = block.get_attribute("data-seed"), block.locator('[data-pd="prompt"]').inner_html()
    assert block.locator('[data-pd="seed"]').inner_text() == seed and prompt
    shown_variant = [block.get_attribute("data-key"), int(block.get_attribute("data-variant"))]
    variant = page.evaluate("([k, i]) => paperdeckProblems[k][i]", shown_variant)
    assert str(variant["seed"]) == seed
    block.locator("input").fill(" ".join(repr(x + 1000) for x in variant["expected"]))
    block.locator("input").press("Enter")
    assert block.locator(".pd-feedback").inner_text().startswith("✘")
    assert _shown(page) == [card], "Enter in the answer checks it and does not rate the card"
    block.locator("input").fill(" ".join(repr(x) for x in variant["expected"]))
    block.locator("button[type=submit]").click()
    assert block.locator(".pd-feedback").inner_text().startswith("✔ Correct")
    page.get_by_role("button", name=re.compile("^Good ")).click()
    schedule = json.loads(page.evaluate(SCHEDULE))
    assert schedule["cards"][card]["reps"] == 1 and schedule["fresh"]["count"] == 1
    [after] = _shown(page)
    assert after != card and after.startswith("practice/")
    page.wait_for_selector(".pd-queue .pd-practice[data-started]:visible")
    assert len([r for r in tab.requests if "/problems/" in r]) == 1, "a lesson's file loads once"
    assert tab.errors == []

    lesson = tab.open("02-architecture.html")
    same = lesson.locator(f'.pd-practice[data-key="{card.split("/", 1)[1]}"]')
    assert same.get_attribute("data-seed") == seed, "the day's problem, as on its lesson page"
    assert same.locator('[data-pd="prompt"]').inner_html() == prompt
    assert lesson.locator(".pd-due").text_content().startswith("(0 due now, ")


def test_the_review_page_stays_light(tab: Any, site: Path) -> None:
    """The review page holds its problems' cards but not their numbers (3.4 MB for the paper),
    and opening it loads no file of problems."""
    review = (site / REVIEW).read_text(encoding="utf-8")
    numbers = sum(f.stat().st_size for f in (site / "problems").glob("*.js"))
    assert numbers > 2_000_000 and "paperdeckProblems" not in review and "problems/review.js" not in review
    assert len(review.encode()) < 600_000  # 572 kB with the equations' and problems' cards (522 kB without)
    page = tab.open(REVIEW)
    assert _shown(page) and not page.locator(".pd-queue .pd-practice[data-started]").count()
    assert [r for r in tab.requests if "/problems/" in r] == [] and tab.errors == []


SEEN_BEFORE = """key => {
    const store = document.documentElement.dataset.store + ':review', now = Date.now(), cards = {};
    for (const e of document.querySelectorAll('.pd-queue [data-key][data-lesson]')) {
        if (e.dataset.key === key) break;
        cards[e.dataset.lesson + '/' + e.dataset.key] = {due: now + 86400000, stability: 1,
            difficulty: 5, elapsed_days: 0, scheduled_days: 1, learning_steps: 0, reps: 1, lapses: 0,
            state: 2, last_review: now};
    }
    localStorage.setItem(store, JSON.stringify({cards: cards, fresh: {day: '', count: 0}, exam: ''}));
}"""
"""Every card of the queue before the one with ``key`` seen and due tomorrow: that one comes up next."""


def test_an_equation_is_a_card_from_its_name_to_its_formula(tab: Any, document: Any) -> None:
    """The review page asks for each equation from its name, as the Anki Equation note does,
    shows its formula and symbols as the answer, and schedules it; its lesson page counts it."""
    from generator.exporters.site.markup import math

    equations = [i for i in document.items if i.kind == "equation"]
    page = tab.open(REVIEW)
    cards = page.locator(".pd-queue .pd-card[aria-label='Equation']")
    assert cards.count() == len(equations) > 5
    first = equations[0]
    lesson = first.lesson.id
    page.evaluate(SEEN_BEFORE, first.key)
    page.reload()
    assert _shown(page) == [f"{lesson}/{first.key}"]
    card = page.locator(".pd-queue .pd-card:visible")
    assert "Write the equation." in card.locator(".pd-front").inner_text()
    assert card.locator(".pd-back").is_hidden() and card.locator(".pd-known").count() == 0
    card.get_by_role("button", name="Show answer").click()
    assert (
        card.locator(".pd-back math").count() > 0 and card.locator(".pd-back table.pd-symbols").count() == 1
    )
    expected = math(first.body.latex, display=True)
    assert card.locator(".pd-back .pd-display").inner_html() == expected
    page.keyboard.press("3")
    assert json.loads(page.evaluate(SCHEDULE))["cards"][f"{lesson}/{first.key}"]["reps"] == 1
    assert tab.errors == []
    name = next(n for n in LESSON_PAGES if n[3:] == f"{lesson}.html")
    page = tab.open(name)
    equation = page.locator(f'.pd-equation[data-key="{first.key}"][data-lesson="{lesson}"]')
    assert equation.count() == 1, "its lesson page counts it among the cards the review page has"


def test_a_problem_and_an_equation_on_the_review_page_are_axe_clean_at_360_px(
    browser: Any, site: Path
) -> None:
    """The two cards the review page shows apart from the lesson pages' layout: a problem, its numbers
    loaded, answered and its key open, and an equation with its answer shown."""
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    page.goto((site / REVIEW).as_uri())
    found = {}
    for kind in ("problem", "equation"):
        if kind == "problem":
            page.evaluate(SEEN_ALL_BUT_PROBLEMS)
        else:
            page.evaluate(
                SEEN_BEFORE,
                page.locator(".pd-queue .pd-card[aria-label='Equation']").first.get_attribute("data-key"),
            )
        page.reload()
        if kind == "problem":
            page.wait_for_selector(".pd-queue .pd-practice[data-started]:visible")
            block = page.locator(".pd-queue .pd-practice:visible")
            block.locator("input").fill("1")
            block.locator("input").press("Enter")
            block.locator("details.pd-key summary").click()
        else:
            page.locator(".pd-queue .pd-card:visible").get_by_role("button", name="Show answer").click()
        draw_every_block(page)
        page.evaluate(AXE)
        found[kind] = {scheme: judged(page, scheme) for scheme in ("light", "dark")}
        found[kind]["wider"] = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    context.close()
    clean = {"light": ([], []), "dark": ([], []), "wider": 0}
    assert found == {"problem": clean, "equation": clean}
