"""A question with a figure carries its image into both LMS exports: the QTI package holds the file
(as the site draws it: PNG, SVG for a diagram), names it in the manifest and shows it with an
``<img>``; Moodle XML embeds it base64 in a ``<file>`` of the question's text, as Moodle's importer
reads it (``question/format/xml/format.php``: ``import_text_with_files``, ``@@PLUGINFILE@@``).

No shipped question has a figure, so the shipped project is copied and two of its questions are
given one: a PNG (the appendix's Figure 4, an ``image`` visual) and an SVG (Figure 1, a diagram).
"""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
import sys

from lxml import etree

from generator import visuals

from .conftest import FIGURED, ROOT, give_figure, package_files
from .qti_model import NS

CP = {"cp": "http://www.imsglobal.org/xsd/imscp_v1p1"}


def test_the_shipped_quizzes_have_no_figure(lms_quizzes):
    """Why the fixture exists: were one given a figure, the tests over the shipped quizzes would see it."""
    for quiz, package, _ in lms_quizzes.values():
        assert quiz.figures == {}
        assert not any(name.startswith("items/figures/") for name in package_files(package))


def test_a_figure_is_a_file_of_the_package_named_in_the_manifest_and_shown_by_its_item(
    figured, qti_schema, cp_schema
):
    _, quiz, files, _, cache = figured
    assert set(quiz.figures) == set(FIGURED)
    manifest = etree.fromstring(files["imsmanifest.xml"])
    assert cp_schema.validate(manifest), cp_schema.error_log.filter_from_errors()[:3]
    resources = {r.get("identifier"): r for r in manifest.iterfind(".//cp:resource", CP)}
    for question, (_, figure, start) in FIGURED.items():
        visual = quiz.figures[question]
        assert visual.id == figure
        drawn = visuals.render(visual.kind, dict(visual.params or {}), cache)  # as the site draws it
        name = f"items/figures/{drawn.name}"
        assert files[name] == drawn.read_bytes() and files[name].startswith(start)
        item = etree.fromstring(files[f"items/q-{question}.xml"])
        assert qti_schema.validate(item), qti_schema.error_log.filter_from_errors()[:3]
        images = item.findall(".//q:img", NS)
        assert [i.get("src") for i in images] == [f"figures/{drawn.name}"]
        assert images[0].get("alt")
        named = [f.get("href") for f in resources[f"q-{question}"].iterfind("cp:file", CP)]
        assert named == [f"items/q-{question}.xml", name]


def test_the_package_with_figures_names_every_file_and_only_them(figured, qti_schema, cp_schema):
    """Every file the manifest names is in the zip, every file of the zip is named, every image an
    item shows is a file its own resource names (its path relative to the item), and every XML
    file of the package validates."""
    files = figured[2]
    for name, data in files.items():
        if name.endswith(".xml"):
            schema = cp_schema if name == "imsmanifest.xml" else qti_schema
            assert schema.validate(etree.fromstring(data)), (name, schema.error_log.filter_from_errors()[:3])
    manifest = etree.fromstring(files["imsmanifest.xml"])
    named = {f.get("href") for f in manifest.iterfind(".//cp:file", CP)}
    assert named | {"imsmanifest.xml"} == set(files)
    assert sum(name.startswith("items/figures/") for name in files) == len(FIGURED)
    for resource in manifest.iterfind(".//cp:resource", CP):
        own = {f.get("href") for f in resource.iterfind("cp:file", CP)}
        href = resource.get("href")
        if not href.startswith("items/"):
            continue
        for image in etree.fromstring(files[href]).iterfind(".//q:img", NS):
            assert "items/" + image.get("src") in own, (href, image.get("src"))


def test_moodle_embeds_the_figure_in_the_question_as_its_importer_reads_it(figured):
    _, quiz, _, xml, cache = figured
    root = etree.fromstring(xml.encode())
    carried = 0
    for question in root.iterfind("question"):
        name = question.findtext("name/text")
        text = question.find("questiontext")
        if text is None:
            continue  # a category
        embedded = {f.get("name"): f for f in text.iterfind("file")}
        referred = re.findall(r'@@PLUGINFILE@@/([^"]+)"', text.findtext("text"))
        # import_text_with_files keeps the files of the questiontext element, each at path/name:
        # every file the text refers to is there, and there is no other.
        assert set(referred) == set(embedded), name
        if name not in FIGURED:
            continue
        visual = quiz.figures[name]
        drawn = visuals.render(visual.kind, dict(visual.params or {}), cache)
        assert referred == [drawn.name]
        file = embedded[drawn.name]
        assert (file.get("path"), file.get("encoding")) == ("/", "base64")
        assert base64.b64decode(file.text, validate=True) == drawn.read_bytes()
        carried += 1
    assert carried == len(FIGURED)


def test_a_figure_that_names_no_visual_is_an_error_on_its_line(tmp_path):
    root = tmp_path / "broken"
    for folder in ("content", "decks"):
        shutil.copytree(ROOT / folder, root / folder)
    give_figure(root, "architecture", "arch-q-n-layers", "arch-vis-figure-9")
    lesson = root / "content/lessons/architecture.yaml"
    # and another mistake in the file: every one is reported at once
    lesson.write_text(lesson.read_text().replace("    source: S3.1\n", "    source: section 3\n", 1))
    lines = lesson.read_text().splitlines()
    line = 1 + lines.index("    figure: arch-vis-figure-9")
    other = 1 + lines.index("    source: section 3")
    run = subprocess.run(
        [sys.executable, "-m", "generator.cli", "check", "--project", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2, run.stderr
    assert f"content/lessons/architecture.yaml:{other}: " in run.stderr
    assert (
        f"content/lessons/architecture.yaml:{line}: questions[0].figure:"
        " no visual 'arch-vis-figure-9' in the content\n"
    ) in run.stderr, run.stderr
