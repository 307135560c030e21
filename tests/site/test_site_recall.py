"""Active recall on the study site's pages in Chromium: every flashcard flips and every
cloze reveals, by mouse and by keyboard; label figures, worked examples one step at a time,
and progress kept on the device."""

from __future__ import annotations

from pathlib import Path

import pytest

from .browsing import LESSON_PAGES, WATCH, centres, click, draw_every_block

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("name", LESSON_PAGES)
def test_every_card_flips_by_mouse_tap_and_keyboard(tab, name: str) -> None:
    page = tab.open(name)
    draw_every_block(page)
    page.evaluate(WATCH)
    selector = ".pd-card:not(.pd-cloze)"
    keys = page.locator(selector).evaluate_all("cs => cs.map(c => c.getAttribute('data-key'))")
    assert keys
    assert page.locator(f"{selector} .pd-back:visible").count() == 0
    for i in range(len(keys)):
        flip, front = centres(page, selector, i, (".pd-flip", ".pd-front"))  # the front stays put
        page.mouse.click(*flip)  # mouse: opens
        page.keyboard.press("Space")  # keyboard, on the focused button: closes
        page.keyboard.press("Enter")  # opens
        page.mouse.click(*front)  # a tap on the card itself: closes
    log = page.evaluate("window.pdLog.filter(e => e[1] === 'aria-expanded')")
    for key in keys:
        assert [state for k, _, state, _ in log if k == key] == ["true", "false", "true", "false"], key
    assert page.locator(f"{selector} .pd-back:visible").count() == 0
    assert tab.errors == []


@pytest.mark.parametrize("name", LESSON_PAGES)
def test_every_cloze_reveals_one_blank_at_a_time(tab, name: str) -> None:
    page = tab.open(name)
    draw_every_block(page)
    shown = """c => [...new Set([...c.querySelectorAll('.pd-blank.pd-shown')]
        .map(b => +b.getAttribute('data-c')))].sort((a, b) => a - b)"""
    clozes = page.locator(".pd-cloze")
    for i in range(clozes.count()):
        cloze = clozes.nth(i)
        button = cloze.locator(".pd-reveal-blank")
        numbers = sorted(
            {
                int(n)
                for n in cloze.locator(".pd-blank").evaluate_all(
                    "bs => bs.map(b => b.getAttribute('data-c'))"
                )
            }
        )
        assert len(numbers) == int(button.get_attribute("data-count"))
        assert cloze.evaluate(shown) == []
        for k in range(len(numbers)):
            if k % 2:
                page.keyboard.press("Enter")  # keyboard, on the button the mouse pressed
            else:
                click(page, ".pd-cloze .pd-reveal-blank", i)
            assert cloze.evaluate(shown) == numbers[: k + 1]
        assert button.inner_text() == "Hide the blanks"
        page.keyboard.press("Space")
        assert cloze.evaluate(shown) == []
        last = cloze.locator(f'.pd-blank[data-c="{numbers[-1]}"]').first
        last.click()  # a tap on a blank reveals that one
        assert cloze.evaluate(shown) == [numbers[-1]]
    assert tab.errors == []


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


def _paper_site(folder: Path, title: str, arxiv: str) -> Path:
    """A new project's study site (recipe ``site``), built into ``folder``/out; its folder."""
    from generator.cli import main
    from generator.commands.build import build_recipe
    from generator.project import open_project
    from generator.project.kinds import BuildOptions

    assert main(["new", str(folder), "--title", title]) == 0
    paper = folder / "content" / "paper.yaml"
    paper.write_text(paper.read_text().replace('"0000.00000"', f'"{arxiv}"'))
    (folder / "decks" / "site.yaml").write_text("kind: site\ntitle: Study site\n")
    project = open_project(folder)
    build_recipe(project, project.recipes["site"], folder / "out", BuildOptions(seed=1))
    return folder / "out" / "site"


def test_two_papers_sites_on_file_keep_their_own_progress(browser, tmp_path: Path) -> None:
    """Every file:// page shares one storage. Two papers whose titles begin alike get one paper id
    from ``paperdeck new``, and their site recipes one name; each site still keeps its own progress,
    and the progress an older site kept (under the paper id and folder) is read and moved once."""
    first = _paper_site(tmp_path / "a", "Attention Is All You Need", "1706.03762")
    second = _paper_site(tmp_path / "b", "Attention Is All We Need, Again", "2401.00001")
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    lesson = "01-first-lesson.html"
    page.goto((second / lesson).as_uri())
    old, store = page.evaluate(
        "[document.documentElement.dataset.site, document.documentElement.dataset.store]"
    )
    assert old == "attention-is-all/site"
    # What a site built before kept: one card known, under the name both sites had.
    page.evaluate(
        "k => localStorage.setItem('paperdeck:' + k, JSON.stringify({known: {'first-lesson/x': 1},"
        " answers: {}}))",
        old,
    )
    page.goto((first / lesson).as_uri())
    page.locator(".pd-card:not(.pd-cloze)").first.locator(".pd-known").click()
    first_store = page.evaluate("document.documentElement.dataset.store")
    assert first_store != store
    kept = page.evaluate("k => JSON.parse(localStorage.getItem(k)).known", first_store)
    assert "first-lesson/x" in kept and len(kept) == 2  # the old progress, moved, and the new mark
    assert page.evaluate("Object.keys(localStorage).sort()") == [first_store]
    page.goto((second / lesson).as_uri())
    known = page.locator(".pd-card:not(.pd-cloze)").first.locator(".pd-known")
    assert known.get_attribute("aria-pressed") == "false"
    page.goto((second / "index.html").as_uri())
    assert page.locator(".pd-total").inner_text().startswith("Known: 0 of ")
    page.locator(".pd-reset").click()
    page.locator(".pd-reset-confirm").click()
    page.goto((first / "index.html").as_uri())
    assert page.locator(".pd-total").inner_text().startswith("Known: 2 of ")  # (one was no card of this site)
    context.close()
    assert errors == []
