"""``docs/authoring.md`` is generated from the code and must match it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from generator.project import reference as docs

AUTHORING = Path(__file__).parents[1] / "docs" / "authoring.md"


def test_authoring_reference_is_up_to_date() -> None:
    assert AUTHORING.read_text(encoding="utf-8") == docs.render(), (
        "docs/authoring.md is stale: run .venv/bin/python -m generator.project.reference > docs/authoring.md"
    )


@pytest.mark.parametrize(
    "cls", [cls for cls, _ in docs.CONTENT_CLASSES + docs.RECIPE_CLASSES], ids=lambda cls: cls.__name__
)
def test_every_field_has_a_docstring_and_an_example(cls: type) -> None:
    assert set(docs.field_docs(cls)) == {f.name for f in dataclasses.fields(cls)}
    assert yaml.safe_load(docs.EXAMPLES[cls])


def test_a_field_without_a_docstring_is_refused() -> None:
    @dataclasses.dataclass
    class Undocumented:
        documented: int
        """Yes."""
        bare: int

    with pytest.raises(ValueError, match="Undocumented: fields without a docstring: bare"):
        docs.field_docs(Undocumented)
