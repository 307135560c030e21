"""Every plot kind renders to a deterministic, cached PNG that is readable.

Diagram kinds (SVG) are tested in ``test_visuals_diagrams``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from matplotlib.text import Text
from PIL import Image

from generator import visuals
from generator.visuals import KINDS, figure, png_bytes, render

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

TOY = {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[2, 3], [4, 5]]}
FIGURES = Path(__file__).resolve().parents[2] / "content" / "figures"


def _image(name: str) -> dict[str, str]:
    """An image visual's parameters as the content loader fills them in."""
    path = FIGURES / name
    return {
        "file": f"figures/{name}",
        "path": str(path),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }


THREE = {
    "Q": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
    "K": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
    "V": [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]],
}

# Small but real parameters for each kind, so the suite stays fast.
CASES = {
    "attention-heatmap": {"given": TOY},
    "causal-mask": {"given": THREE},
    "softmax-saturation": {"d_k": [1, 16, 256], "samples": 200, "keys": 10, "seed": 0},
    "positional-encoding": {"d_model": 64, "positions": 50, "dims": [4, 5]},
    "lr-schedule": {"d_model": 512, "warmup_steps": 4000, "steps": 20000},
    "complexity": {"d": 512, "n_max": 2048},
    "image": _image("appendix-figure-3.png"),
}
# A changed parameter for each kind.
CHANGED = {
    "attention-heatmap": {"given": {**TOY, "Q": [[0, 1]]}},
    "causal-mask": {"given": {**THREE, "Q": [[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]]}},
    "softmax-saturation": {**CASES["softmax-saturation"], "seed": 1},
    "positional-encoding": {**CASES["positional-encoding"], "dims": [4, 6]},
    "lr-schedule": {**CASES["lr-schedule"], "warmup_steps": 2000},
    "complexity": {**CASES["complexity"], "k": 5},
    "image": _image("appendix-figure-4.png"),
}


def test_every_plot_kind_has_a_case():
    assert set(CASES) == {kind for kind in KINDS if not KINDS[kind].is_diagram} == set(CHANGED)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, Path]:
    cache = tmp_path_factory.mktemp("cache")
    return {kind: render(kind, params, cache) for kind, params in CASES.items()}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_renders_a_valid_png_of_house_size(kind, rendered):
    path = rendered[kind]
    assert path.name.startswith(f"{kind}-") and path.suffix == ".png"
    assert len(path.stem) == len(kind) + 1 + 12
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(path) as image:
        image.verify()
    with Image.open(path) as image:
        assert image.width == 1200  # 6 in at 200 dpi
        assert 400 <= image.height <= 2400
        assert "Software" not in image.info


@pytest.mark.parametrize("kind", sorted(set(CASES) - {"image"}))  # an image's words are its pixels
def test_text_is_at_least_10_pt(kind):
    fig = figure(kind, CASES[kind])
    assert fig.get_figwidth() == pytest.approx(6.0)
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
    assert sizes and min(sizes) >= 10


@pytest.mark.parametrize("kind", sorted(CASES))
def test_same_input_same_bytes(kind, rendered, tmp_path):
    again = render(kind, CASES[kind], tmp_path)
    assert again.name == rendered[kind].name
    assert again.read_bytes() == rendered[kind].read_bytes()


def test_same_bytes_in_a_fresh_process(rendered, tmp_path):
    # A new interpreter has fresh matplotlib state (font cache, ids): bytes must not care.
    code = (
        "import sys, json; from pathlib import Path; from generator.visuals import render;"
        "cases = json.loads(sys.argv[1]);"
        "[print(render(k, p, Path(sys.argv[2])).name) for k, p in cases.items()]"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(visuals.__file__).parents[2])}
    subprocess.run(
        [sys.executable, "-c", code, json.dumps(CASES), str(tmp_path)],
        check=True,
        env=env,
        capture_output=True,
    )
    for kind, path in rendered.items():
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), kind


@pytest.mark.parametrize("kind", sorted(CASES))
def test_changed_parameter_changes_name_and_picture(kind, rendered, tmp_path):
    changed = render(kind, CHANGED[kind], tmp_path)
    assert changed.name != rendered[kind].name
    assert changed.read_bytes() != rendered[kind].read_bytes()


CACHED = "attention-heatmap"
"""The kind the tests of the cache draw: the quickest to draw (0.3 s, where complexity's log axes
take 1 s), as these tests are of the cache, not of a figure."""


def test_cache_hit_does_not_redraw(tmp_path, monkeypatch):
    first = render(CACHED, CASES[CACHED], tmp_path)
    stamp = first.stat().st_mtime_ns

    def must_not_draw(params):
        raise AssertionError("a cached figure was drawn again")

    from dataclasses import replace

    monkeypatch.setitem(KINDS, CACHED, replace(KINDS[CACHED], draw=must_not_draw))
    second = render(CACHED, CASES[CACHED], tmp_path)
    assert second == first
    assert second.stat().st_mtime_ns == stamp
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.name]  # no temp files left


def test_defaults_written_out_hit_the_same_file(tmp_path):
    implicit = render("lr-schedule", {}, tmp_path)
    explicit = render("lr-schedule", {"d_model": 512, "warmup_steps": 4000, "steps": 20000}, tmp_path)
    assert implicit == explicit
    # Integers and floats of equal value in a matrix are the same figure.
    assert visuals.cache_key("attention-heatmap", {"given": TOY}) == visuals.cache_key(
        "attention-heatmap",
        {"given": {k: [[float(v) for v in row] for row in m] for k, m in TOY.items()}},
    )


def test_failed_draw_leaves_no_file(tmp_path, monkeypatch):
    from dataclasses import replace

    def broken(params):
        raise RuntimeError("boom")

    monkeypatch.setitem(KINDS, "complexity", replace(KINDS["complexity"], draw=broken))
    with pytest.raises(RuntimeError):
        render("complexity", {"d": 256}, tmp_path / "new")
    assert not (tmp_path / "new").exists() or not any((tmp_path / "new").iterdir())


def test_rendered_file_is_readable_by_others(rendered):
    assert rendered[CACHED].stat().st_mode & 0o044 == 0o044


def test_png_bytes_of_a_figure_is_deterministic():
    weights = [[0.6, 0.4], [0.1, 0.9]]
    assert png_bytes(visuals.attention_heatmap(weights)) == png_bytes(visuals.attention_heatmap(weights))


@pytest.mark.parametrize("planted", ["not a png", "a link", "a pipe"])
def test_a_figure_planted_in_the_cache_is_drawn_again(rendered, tmp_path, planted):
    """Another user of a shared cache could put anything under a figure's name."""
    path, good = tmp_path / rendered[CACHED].name, rendered[CACHED].read_bytes()
    if planted == "not a png":
        path.write_bytes(b"<svg onload='alert(1)'/>")
    elif planted == "a link":
        (tmp_path / "elsewhere.png").write_bytes(good)
        path.symlink_to(tmp_path / "elsewhere.png")
    else:
        os.mkfifo(path)
    assert render(CACHED, CASES[CACHED], tmp_path) == path
    assert not path.is_symlink() and path.read_bytes() == good


def test_a_diagram_changed_in_the_cache_is_written_again(tmp_path):
    path = render("attention-blocks", {"panel": "scaled-dot-product"}, tmp_path)
    good = path.read_bytes()
    path.write_bytes(good.replace(b"</svg>", b"<script>alert(1)</script></svg>"))
    assert render("attention-blocks", {"panel": "scaled-dot-product"}, tmp_path).read_bytes() == good


def test_an_image_is_named_by_what_it_holds_not_where_it_is(tmp_path):
    moved = tmp_path / "appendix-figure-3.png"
    moved.write_bytes((FIGURES / "appendix-figure-3.png").read_bytes())
    assert visuals.cache_key("image", {**CASES["image"], "path": str(moved)}) == visuals.cache_key(
        "image", CASES["image"]
    )


def test_an_image_changed_after_loading_is_not_drawn(tmp_path):
    changed = tmp_path / "figure.png"
    changed.write_bytes((FIGURES / "appendix-figure-4.png").read_bytes())
    with pytest.raises(visuals.VisualError, match="changed after the content was loaded"):
        figure("image", {**CASES["image"], "path": str(changed)})
