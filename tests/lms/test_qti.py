"""The QTI 2.1 package of every shipped quiz: valid against IMS's schemas, complete, and scored
as the quiz says, by evaluating the response processing written in each item (qti_model)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal

import pytest
from lxml import etree

from generator import answers, problems
from generator.documents.lms import ProblemPool, QuestionBank
from generator.problems import Tolerance

from .conftest import SHIPPED, VARIANTS, documents, flat, key_and_mistakes, package_files
from .qti_model import NS, Item

CP = {"cp": "http://www.imsglobal.org/xsd/imscp_v1p1", "pd": "urn:x-paperdeck:lms:1"}


@pytest.mark.parametrize("recipe_id", SHIPPED)
def test_every_item_the_test_and_the_manifest_validate(recipe_id, lms_quizzes, qti_schema, cp_schema):
    _, package, _ = lms_quizzes[recipe_id]
    files = package_files(package)
    for name, data in files.items():
        schema = cp_schema if name == "imsmanifest.xml" else qti_schema
        document = etree.fromstring(data)
        assert schema.validate(document), (name, schema.error_log.filter_from_errors()[:3])
    assert sum(name.startswith("items/") for name in files) == len(documents(lms_quizzes[recipe_id][0]))


def test_the_schema_checks_the_math_and_the_structure(lms_quizzes, qti_schema):
    """Validation is not vacuous: MathML is checked against MathML 2, items against QTI."""
    files = package_files(lms_quizzes["quiz-attention"][1])
    name = next(n for n, data in files.items() if n.startswith("items/p") and b"<mfrac>" in data)
    broken_math = files[name].replace(b"<mfrac>", b"<mfrac><mbogus/>", 1)
    assert not qti_schema.validate(etree.fromstring(broken_math))
    broken_item = files[name].replace(b"<responseIf>", b"<responseIf><gte/>", 1)
    assert not qti_schema.validate(etree.fromstring(broken_item))


@pytest.mark.parametrize("recipe_id", SHIPPED)
def test_the_manifest_names_every_file_and_only_them(recipe_id, lms_quizzes):
    files = package_files(lms_quizzes[recipe_id][1])
    manifest = etree.fromstring(files["imsmanifest.xml"])
    named = {f.get("href") for f in manifest.iterfind(".//cp:file", CP)}
    assert named | {"imsmanifest.xml"} == set(files)
    resources = {r.get("identifier"): r for r in manifest.iterfind(".//cp:resource", CP)}
    test = next(r for r in resources.values() if r.get("type") == "imsqti_test_xmlv2p1")
    dependencies = {d.get("identifierref") for d in test.iterfind("cp:dependency", CP)}
    assert dependencies == set(resources) - {test.get("identifier")}
    # Every item the test refers to is in the package, and every item is referred to once.
    refs = [r.get("href") for r in etree.fromstring(files["test.xml"]).iterfind(".//q:assessmentItemRef", NS)]
    assert sorted(refs) == sorted(n for n in files if n.startswith("items/"))


@pytest.mark.parametrize("recipe_id", SHIPPED)
def test_the_test_draws_the_recipes_count_and_one_variant_per_problem(recipe_id, lms_quizzes):
    quiz, package, _ = lms_quizzes[recipe_id]
    test = etree.fromstring(package_files(package)["test.xml"])
    sections = test.findall("q:testPart/q:assessmentSection", NS)
    assert len(sections) == len(quiz.recipe.sections)
    for section, recipe_section, document in zip(sections, quiz.recipe.sections, quiz.sections, strict=True):
        if recipe_section.questions is not None:
            assert isinstance(document, QuestionBank)
            select = int(section.find("q:selection", NS).get("select"))
            assert select == (recipe_section.questions.count or len(document.questions))
            assert len(section.findall("q:assessmentItemRef", NS)) == len(document.questions) >= select
        else:
            assert isinstance(document, ProblemPool)
            pools = section.findall("q:assessmentSection", NS)
            assert len(pools) == recipe_section.problems.count
            for pool in pools:
                assert pool.find("q:selection", NS).get("select") == "1"
                assert len(pool.findall("q:assessmentItemRef", NS)) == VARIANTS


def test_no_tolerance_is_written_as_equal(lms_quizzes):
    """A QTI player scores garbage as right through ``equal`` with a tolerance mode (NaN): never written."""
    for _, package, _ in lms_quizzes.values():
        for name, data in package_files(package).items():
            assert b"<equal" not in data and b"toleranceMode" not in data, name


def _typed(values) -> list[str]:
    return [str(Decimal(repr(float(x)))) if not isinstance(x, int) else str(x) for x in values]


def _edge(value: float, tolerance: Tolerance, side: int, beyond: bool = False) -> str:
    """The value a student types at the edge of the tolerance (or a hair beyond it)."""
    width = max(
        Decimal(repr(float(tolerance.abs or 0.0))),
        Decimal(repr(float(tolerance.rel or 0.0))) * abs(Decimal(repr(float(value)))),
    )
    if beyond:
        scale = abs(Decimal(repr(float(value))))
        width += max(width * Decimal("1e-6"), scale * Decimal("1e-9"), Decimal("1e-12"))
    return str(Decimal(repr(float(value))) + side * width)


def _numeric_cases(item: Item, key: list[float], tolerance: Tolerance, mistakes: list[tuple[str, list]]):
    ids = item.response_ids
    top = item.max_score()
    # The key, as the numbers' shortest decimals.
    outcome = item.run(dict(zip(ids, _typed(key), strict=True)))
    assert outcome == (top, ()), outcome
    for i, value in enumerate(key):
        for side in (-1, 1):
            inside = dict(zip(ids, _typed(key), strict=True)) | {ids[i]: _edge(value, tolerance, side)}
            assert answers.accepts(value, float(inside[ids[i]]), tolerance)
            assert item.run(inside).score == top, (ids[i], inside[ids[i]])
            outside = inside | {ids[i]: _edge(value, tolerance, side, beyond=True)}
            assert not answers.accepts(value, float(outside[ids[i]]), tolerance)
            assert item.run(outside).score == 0, (ids[i], outside[ids[i]])
    for text in ("abc", "0,73", ""):
        assert item.run(dict.fromkeys(ids, text)) == (0.0, ()), text
        if len(ids) > 1:  # one box of garbage among right numbers
            assert item.run(dict(zip(ids, _typed(key), strict=True)) | {ids[0]: text}) == (0.0, ())
    for _, wrong in mistakes:
        outcome = item.run(dict(zip(ids, _typed(wrong), strict=True)))
        if all(answers.accepts(k, w, tolerance) for k, w in zip(key, wrong, strict=True)):
            assert outcome.score == top  # indistinguishable from the key: the key wins
            continue
        assert outcome.score == 0
        first = next(
            m
            for m, w in mistakes
            if all(answers.accepts(a, b, tolerance) for a, b in zip(w, wrong, strict=True))
        )
        assert len(outcome.feedback) == 1 and outcome.feedback[0].startswith("Mistake:"), outcome
        assert _words(first) in _shown(outcome.feedback[0])


def _words(text: str) -> str:
    """The longest stretch of a mistake's words without math, to find in the feedback shown."""
    pieces = re.split(r"\\\(.*?\\\)", text)
    return " ".join(max(pieces, key=len).split())


def _shown(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("recipe_id", SHIPPED)
def test_every_item_scores_as_the_quiz_says(recipe_id, lms_quizzes):
    quiz, package, _ = lms_quizzes[recipe_id]
    files = package_files(package)
    counted = 0
    for identifier, document in documents(quiz).items():
        item = Item(files[f"items/{identifier}.xml"])
        counted += 1
        if hasattr(document, "problem"):
            problem = document.problem
            key, mistakes = key_and_mistakes(problem)
            _numeric_cases(item, key, problem.tolerance, mistakes)
            continue
        question = document.question
        if document.options:
            letters = [chr(ord("A") + i) for i in range(len(document.options))]
            right = letters[document.answer_index]
            assert item.run({"RESPONSE": right}) == (item.max_score(), ())
            assert item.run({}) == (0.0, ())
            for letter, option in zip(letters, document.options, strict=True):
                if option.correct:
                    continue
                outcome = item.run({"RESPONSE": letter})
                assert outcome.score == 0
                if option.mistake:
                    assert len(outcome.feedback) == 1
                    assert _words(option.mistake) in _shown(outcome.feedback[0])
        elif question.type == "numeric":
            _numeric_cases(item, [question.answer], Tolerance(abs=question.tolerance or 0.0), [])
        else:
            assert item.run({"RESPONSE": "anything"}) == (0.0, ())  # marked by hand in the LMS
    assert counted


def test_every_variant_regenerates_from_the_seed_in_the_manifest(lms_quizzes, tmp_path):
    """``paperdeck problems TYPE --problem-seed S -d D`` (the command in the metadata) gives the
    variant's key, for one variant of each problem type of the final quiz."""
    files = package_files(lms_quizzes["quiz-final"][1])
    manifest = etree.fromstring(files["imsmanifest.xml"])
    seen = set()
    for resource in manifest.iterfind(".//cp:resource", CP):
        meta = resource.find("cp:metadata/pd:problem", CP)
        if meta is None or meta.get("type") in seen:
            continue
        seen.add(meta.get("type"))
        kind, seed, difficulty = meta.get("type"), meta.get("seed"), meta.get("difficulty")
        arguments = ["problems", kind, "--problem-seed", seed, "-d", difficulty]
        assert meta.get("command") == "paperdeck " + " ".join(arguments)
        run = subprocess.run(
            [sys.executable, "-m", "generator.cli", *arguments, "--format", "json"],
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp_path,
        )
        regenerated = json.loads(run.stdout)[0]
        item = Item(files[resource.get("href")])
        primary = problems.get(meta.get("type")).primary
        expected = flat(regenerated["answer"][primary])
        assert [item.correct(i) for i in item.response_ids] == pytest.approx(expected, abs=1e-12)
    assert len(seen) >= 6


def test_seeds_stay_out_of_what_a_student_sees(lms_quizzes):
    """A seed regenerates a problem's answer: it is in the manifest only, never in an item."""
    quiz, package, _ = lms_quizzes["quiz-final"]
    files = package_files(package)
    for variant in quiz.problems:
        seed = str(variant.problem.seed).encode()
        assert not any(seed in data for name, data in files.items() if name != "imsmanifest.xml")


def test_the_package_is_the_same_bytes_each_time(project, lms_quizzes):
    from generator.documents.lms import build_lms_quiz
    from generator.exporters import qti

    again = build_lms_quiz(project.content, project.quiz_recipe("quiz-attention"), 7, VARIANTS, b"lms-test")
    assert qti.package_bytes(again, 0) == lms_quizzes["quiz-attention"][1]
