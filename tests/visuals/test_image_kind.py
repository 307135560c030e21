"""The image visual kind: the content loader finds its file under content/ (``kinds/image.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.content import load
from generator.visuals.kinds import image
from generator.visuals.registry import ParamError

ROOT = Path(__file__).resolve().parents[2]


def test_the_loader_fills_in_where_the_file_is_and_what_it_holds() -> None:
    shown = [v for lesson in load(ROOT).lessons for v in lesson.visuals if v.kind == "image"]
    assert [v.source for v in shown] == ["SA.F3", "SA.F4", "SA.F5"]
    for visual in shown:
        params = dict(visual.params or {})
        assert Path(params["path"]) == (ROOT / "content" / params["file"]).resolve()
        assert len(params["sha256"]) == 64


def test_a_file_that_is_not_an_image_is_refused(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "fake.png").write_text("not a picture")
    params, problem = image.resolve({"file": "figures/fake.png"}, tmp_path)
    assert problem == "content/figures/fake.png is not a PNG or JPEG image" and "path" not in params


def test_a_link_out_of_the_content_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "secret.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "content" / "link.png").symlink_to(tmp_path / "secret.png")
    _, problem = image.resolve({"file": "link.png"}, tmp_path / "content")
    assert problem == "link.png leads outside the content folder"


@pytest.mark.parametrize("file", ["../x.png", "/etc/x.png", "Figures/X.PNG", "x.gif", "a//b.png"])
def test_a_file_name_must_be_a_plain_relative_path(file: str) -> None:
    with pytest.raises(ParamError):
        image.content_file(file)
