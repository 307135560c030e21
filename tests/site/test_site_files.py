"""The study site's files, without a browser: pages, escaping, math, budget."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.documents.items import KINDS, StudyItem
from generator.exporters.site import markup, pages
from generator.latex.mathml import to_mathml

BUDGET = 8 * 1024 * 1024


def test_every_item_kind_has_a_renderer() -> None:
    assert set(pages.RENDERERS) == set(KINDS)


def test_an_unknown_kind_is_refused(document) -> None:
    with pytest.raises(ValueError, match="no layout for item kind 'poem'"):
        pages.render_items("poem", [StudyItem("poem", "x", "g", "S1", (), None)], None)  # type: ignore[arg-type]


def test_index_and_one_page_per_lesson_in_teaching_order(site: Path, project) -> None:
    lessons = project.content.lessons
    expected = [f"{n:02d}-{lesson.id}.html" for n, lesson in enumerate(lessons, 1)]
    assert sorted(p.name for p in site.glob("*.html")) == sorted(["index.html", "review.html", *expected])
    index = (site / "index.html").read_text()
    assert [index.index(f'href="{name}"') for name in expected] == sorted(
        index.index(f'href="{name}"') for name in expected
    )


def test_every_item_of_the_document_is_on_a_page(site: Path, document) -> None:
    html = "".join(p.read_text() for p in site.glob("*.html"))
    for item in document.items:
        if item.kind in ("concept", "flashcard", "cloze", "question", "problem"):
            assert f'data-key="{markup.attribute(item.key)}"' in html, item.key
        elif item.kind == "equation":
            assert f'id="{pages.dom_id("eq", item.key)}"' in html
        elif item.kind == "visual":
            assert f'id="{pages.dom_id("fig", item.key)}"' in html
    kinds = {item.kind for item in document.items}
    assert kinds == set(KINDS)


def test_the_site_fits_its_budget_and_references_only_its_own_files(site: Path) -> None:
    files = [p for p in site.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) <= BUDGET
    names = {str(p.relative_to(site)) for p in files}
    for page in site.glob("*.html"):
        html = page.read_text()
        for ref in re.findall(r'(?:src|href)="([^"]*)"', html):
            if ref.startswith(("https://", "http://")):
                # Links the reader may follow (arXiv, resources), never loaded by the page.
                assert re.search(rf'<a [^>]*href="{re.escape(ref)}"', html), ref
            elif not ref.startswith("#"):
                assert ref.split("#")[0] in names, (page.name, ref)
    css = (site / "assets" / "site.css").read_text()
    for ref in re.findall(r"url\(\"?([^\")]+)", css):
        assert f"assets/{ref}" in names


def test_no_raw_latex_reaches_a_page(site: Path) -> None:
    for page in site.glob("*.html"):
        html = page.read_text()
        assert not re.search(r"\\[()\[\]]", html), page.name
        assert "<math" in html or page.name == "index.html"


def test_figures_are_svg_diagrams_and_png_plots_with_their_captions_as_alt(site: Path) -> None:
    html = (site / "02-architecture.html").read_text()
    images = re.findall(r'<img src="(figures/[^"]+)" alt="([^"]*)"', html)
    assert any(src.endswith(".svg") for src, _ in images)
    assert all(alt.strip() for _, alt in images)
    plots = "".join(p.read_text() for p in site.glob("*.html"))
    assert re.search(r'<img src="figures/[^"]+\.png"', plots)


def test_text_is_escaped_for_where_it_lands() -> None:
    assert markup.inline("<b>bold</b> & *em*") == "&lt;b&gt;bold&lt;/b&gt; &amp; <em>em</em>"
    assert markup.attribute('say "hi" <now>') == "say &quot;hi&quot; &lt;now&gt;"
    assert markup.url("javascript:alert(1)") is None
    assert markup.url("data:text/html,<script>") is None
    assert markup.url("//evil.example/x") is None
    assert markup.url('https://example.org/?a=1&b="2"') == "https://example.org/?a=1&amp;b=&quot;2&quot;"
    assert markup.inline(r"\(a < b\)") == "<math><mrow><mi>a</mi><mo>&lt;</mo><mi>b</mi></mrow></math>"


def test_an_empty_header_cell_is_no_column_header() -> None:
    """The corner above a table's row labels (the paper's Table 3) is a plain cell: axe reports an
    empty column header, and a screen reader would announce one."""
    from generator.exporters.site.markup import block

    table = block("| | BLEU |\n|---|---|\n| base | 25.8 |")
    assert '<thead><tr><td></td><th scope="col">BLEU</th></tr></thead>' in table


def test_a_resource_with_a_script_url_is_not_a_link() -> None:
    from generator.content.model import Resource

    html = pages.resources_html(
        [Resource("Click <me>", "javascript:alert(1)"), Resource("Paper", "https://arxiv.org/abs/1706.03762")]
    )
    assert "javascript" not in html and "Click &lt;me&gt;" in html
    assert '<a href="https://arxiv.org/abs/1706.03762"' in html


def test_script_data_cannot_close_its_script_element() -> None:
    text = markup.script_json(["</script><script>alert(1)</script>", "<!--"])
    assert "</" not in text and "<!--" not in text


def test_clozes_blank_text_and_math_alike() -> None:
    html = markup.inline(r"take the {{c1::dot product}}, divide by \(\sqrt{ {{c2::d_k}} }\)", clozes=True)
    assert '<span class="pd-blank" data-c="1"><span>dot product</span></span>' in html
    assert '<mrow class="pd-blank" data-c="2">' in html and "{{" not in html


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        (r"\frac{a}{b}", "<mfrac><mi>a</mi><mi>b</mi></mfrac>"),
        (r"x_i^2", "<msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>"),
        (r"W^{Q}_i", "<msubsup><mi>W</mi><mi>i</mi><mi>Q</mi></msubsup>"),  # both scripts stacked
        (r"x^{a_b}_c", "<msubsup><mi>x</mi><mi>c</mi><msub><mi>a</mi><mi>b</mi></msub></msubsup>"),
        (r"\sum^n_{i}", "<munderover><mo>∑</mo><mi>i</mi><mi>n</mi></munderover>"),
        (r"\sqrt{d_k}", "<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt>"),
        (r"\mathbb{R}", "<mi>ℝ</mi>"),
        (r"\mathrm{softmax}", "<mi>softmax</mi>"),
        (r"\text{if } x", "<mtext>if </mtext>"),
        (r"\begin{pmatrix} 1 & 2 \end{pmatrix}", '<mo stretchy="true">(</mo><mtable><mtr><mtd><mn>1</mn>'),
        (r"\left( x \right)", '<mrow><mo stretchy="true">(</mo><mi>x</mi><mo stretchy="true">)</mo></mrow>'),
    ],
)
def test_math_is_mathml_from_the_one_parser(latex: str, expected: str) -> None:
    assert expected in to_mathml(latex)


def test_math_the_parser_refuses_is_refused_for_the_site_too() -> None:
    from generator.latex import LatexError

    with pytest.raises(LatexError, match=r"unknown LaTeX command \\foo"):
        to_mathml(r"\foo{x}")
    with pytest.raises(LatexError, match="pdblank"):  # only the site's clozes know blanks
        from generator.latex import convert

        convert(r"\pdblank{1}{x}")


def test_source_labels_link_into_the_papers_arxiv_html(document) -> None:
    paper = document.paper
    assert pages.source_url(paper, "S3.2.1") == "https://arxiv.org/html/1706.03762#S3.SS2.SSS1"
    assert pages.source_url(paper, "S3.E1") == "https://arxiv.org/html/1706.03762#S3.E1"
    assert pages.source_url(paper, "S4.T1") == "https://arxiv.org/html/1706.03762#S4.T1"
    assert pages.source_url(paper, "SA") == "https://arxiv.org/html/1706.03762"


def test_practice_blocks_sit_in_the_lesson_that_teaches_their_type(document) -> None:
    placed = {item.body.type: item.group for item in document.items if item.kind == "problem"}
    assert placed["sdpa"] == "03 Scaled Dot-Product Attention"
    assert placed["label-smoothing"].startswith("10 Training")  # S5.4 is taught under S5
    assert all(group != "Practice" for group in placed.values())


def _new_project(folder: Path) -> Path:
    from generator.cli import main

    assert main(["new", str(folder), "--title", "Layer <Norm>"]) == 0
    return folder


def test_a_site_recipe_mistake_names_file_line_and_field(tmp_path: Path, capsys) -> None:
    from generator.cli import main

    project = _new_project(tmp_path / "p")
    (project / "decks" / "site.yaml").write_text(
        "kind: site\ntitle: S\nlessons: [first-lesson, nope]\nproblems:\n  - {type: sotfmax}\n"
    )
    assert main(["--project", str(project), "check"]) == 2
    err = capsys.readouterr().err
    assert "decks/site.yaml:3: lessons[1]: no lesson 'nope' in content/paper.yaml" in err
    assert "decks/site.yaml:5: problems[0].type: " in err
    assert "Traceback" not in err


def test_another_papers_site_escapes_its_text_and_puts_foreign_problems_on_a_practice_page(
    tmp_path: Path, capsys
) -> None:
    from generator.cli import main

    project = _new_project(tmp_path / "p")
    lesson = project / "content" / "lessons" / "first-lesson.yaml"
    text = lesson.read_text().replace(
        "title: First lesson", 'title: "First <script>alert(1)</script> lesson"'
    )
    # A script link never reaches a page: the content check refuses it (and markup.url would drop it).
    lesson.write_text(text.replace("url: https://arxiv.org/", 'url: "javascript:alert(1)"'))
    assert main(["--project", str(project), "check"]) == 2
    assert "resources[0].url: expected an http:// or https:// address" in capsys.readouterr().err
    lesson.write_text(text)
    (project / "decks" / "site.yaml").write_text(
        "kind: site\ntitle: 'Study <b>site</b>'\nproblems:\n  - {type: sdpa, count: 1, variants: 3}\n"
    )
    assert main(["--project", str(project), "build", "--seed", "3"]) == 0
    site = project / "out" / "site"
    pages_written = sorted(p.name for p in site.glob("*.html"))
    assert pages_written == ["01-first-lesson.html", "index.html", "practice.html", "review.html"]
    page = (site / "01-first-lesson.html").read_text()
    assert "<script>alert" not in page and "First &lt;script&gt;alert(1)&lt;/script&gt; lesson" in page
    assert "javascript:" not in page
    assert "Study &lt;b&gt;site&lt;/b&gt;" in (site / "index.html").read_text()
    practice = (site / "practice.html").read_text()
    assert practice.count('class="pd-practice"') == 1 and 'data-variants="3"' in practice


def test_the_sites_progress_keeps_its_stored_name(site: Path) -> None:
    """The name a student's progress is stored under (``identity.site_store``) is pinned: a change
    would leave every student's progress behind."""
    from generator.identity import site_store

    assert site_store("aiayn", "1706.03762", "aiayn-site") == "paperdeck:site:6b12012e63ce125f"
    assert 'data-store="paperdeck:site:6b12012e63ce125f"' in (site / "index.html").read_text()
