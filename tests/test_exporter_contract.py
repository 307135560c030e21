"""The exporter contract: every format of ``exporters.FORMATS`` is held to the typed protocol."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from generator import exporters


def test_mypy_checks_every_format_against_the_protocol():
    """The TYPE_CHECKING table that mypy checks names exactly the modules of FORMATS."""
    tree = ast.parse(Path(exporters.__file__).read_text(encoding="utf-8"))
    (checked,) = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "_CHECKED"
    ]
    assert isinstance(checked, ast.Dict)
    table = {
        key.value: f"generator.exporters.{value.id}"  # type: ignore[union-attr]
        for key, value in zip(checked.keys, checked.values, strict=True)
    }
    assert table == exporters.FORMATS


@pytest.mark.parametrize("name", sorted(exporters.FORMATS))
def test_every_exporter_takes_document_target_and_options(name):
    parameters = list(inspect.signature(exporters.get(name).export).parameters.values())
    assert len(parameters) == 3
    assert inspect.signature(exporters.get(name).export).return_annotation in ("list[Path]", list)
