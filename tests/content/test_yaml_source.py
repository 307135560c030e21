"""YAML that cannot betray LaTeX or numbers: exponent floats, loaders left as PyYAML ships them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.content import yamlsource
from generator.errors import ContentError


def load_text(tmp_path: Path, text: str):
    path = tmp_path / "file.yaml"
    path.write_text(text)
    return yamlsource.load(path, "file.yaml")


@pytest.mark.parametrize(
    "written, number",
    [
        ("1e-5", 1e-5),
        ("2.5E3", 2500.0),
        ("-1e+3", -1000.0),
        ("1.0e-5", 1e-5),
        (".5e2", 50.0),
        ("3", 3),
    ],
)
def test_exponent_numbers_are_numbers(tmp_path: Path, written: str, number: float) -> None:
    value = load_text(tmp_path, f"x: {written}\n")["x"]
    assert value == number and not isinstance(value, str)


@pytest.mark.parametrize("written", ["1e5x", "e5", "S3.E1", "1e"])
def test_other_text_stays_text(tmp_path: Path, written: str) -> None:
    assert load_text(tmp_path, f"x: {written}\n")["x"] == written


def test_pyyaml_loaders_are_not_changed() -> None:
    assert yaml.safe_load("x: 1e-5") == {"x": "1e-5"}
    assert yaml.load("x: 1e-5", Loader=yaml.CSafeLoader) == {"x": "1e-5"}


def test_tab_typed_in_a_block_scalar_is_kept(tmp_path: Path) -> None:
    assert load_text(tmp_path, "x: |\n  a\tb\n")["x"] == "a\tb\n"


def test_line_break_of_a_quoted_string_over_lines_is_not_an_escape(tmp_path: Path) -> None:
    assert load_text(tmp_path, 'x: "one\n\n  two"\n')["x"] == "one\ntwo"


def test_double_quoted_latex_is_named_with_its_field(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as caught:
        load_text(tmp_path, 'a:\n  b: "\\frac{1}{H}"\n')
    assert str(caught.value).startswith("file.yaml:2: a.b: in double quotes YAML reads \\f as a form feed")


def test_a_date_that_is_no_date_is_named_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as caught:
        load_text(tmp_path, "kind: deck\nexam: 2027-02-30\n")
    assert [str(f) for f in caught.value.problems] == [
        "file.yaml:2: exam: 2027-02-30 is not a date: day is out of range for month"
    ]
