"""The paper's figures as SVG diagrams: parts match what is drawn, words fit, bytes repeat."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from generator import visuals
from generator.visuals import KINDS, diagram, parts, render
from generator.visuals.diagram import FONT_SIZE, plain

SVG = "{http://www.w3.org/2000/svg}"
PROJECT = Path(__file__).resolve().parents[2]

# Every diagram kind with the parameter sets worth drawing.
CASES = {
    "transformer-architecture": [{}, {"N": 2, "h": 4, "d_model": 256, "d_ff": 1024}],
    "attention-blocks": [{}, {"panel": "scaled-dot-product"}, {"panel": "multi-head", "h": 16}],
}
ALL = [(kind, params) for kind, sets in CASES.items() for params in sets]


def _words(element: ET.Element) -> list[str]:
    """The text of each <text> element under ``element``, as a reader sees it."""
    return ["".join(t.itertext()) for t in element.iter(f"{SVG}text")]


def test_every_diagram_kind_has_cases():
    assert set(CASES) == {kind for kind in KINDS if KINDS[kind].is_diagram}


@pytest.mark.parametrize("kind, params", ALL)
def test_parts_are_what_is_drawn(kind, params):
    drawn = diagram(kind, params)
    root = ET.fromstring(drawn.svg)
    assert root.get("viewBox") == f"0 0 {drawn.width:g} {drawn.height:g}"
    groups = {
        g.get("id")[len("part-") :]: g for g in root.iter(f"{SVG}g") if g.get("id", "").startswith("part-")
    }
    ids = [p.id for p in drawn.parts]
    assert len(ids) == len(set(ids)), "part ids are unique"
    assert list(groups) == ids, "every drawn part is listed, in drawing order, and nothing else"
    all_words = " ".join(_words(root))
    for part in drawn.parts:
        words = _words(groups[part.id])
        # The label is the part's main lines; annotations (h = 8) follow in smaller type.
        assert " ".join(words).startswith(part.label), part.id
        assert part.label in all_words
        x, y, w, h = part.box
        assert 0 <= x and 0 <= y and x + w <= drawn.width and y + h <= drawn.height, part.id
        for text in groups[part.id].iter(f"{SVG}text"):
            assert x <= float(text.get("x")) <= x + w and y <= float(text.get("y")) <= y + h, part.id
        left, top, width, height = drawn.fraction(part)
        assert 0 <= left and left + width <= 100 and 0 <= top and top + height <= 100


@pytest.mark.parametrize("kind, params", ALL)
def test_every_word_fits_its_part_in_dejavu_sans(kind, params):
    """DejaVu Sans is the widest font the SVG names; a label that fits it fits any of them."""
    drawn = diagram(kind, params)
    root = ET.fromstring(drawn.svg)
    measure = TextToPath()
    boxes = {p.id: p.box for p in drawn.parts}
    for group in root.iter(f"{SVG}g"):
        part_id = group.get("id", "")[len("part-") :]
        if part_id not in boxes:
            continue
        for text in group.iter(f"{SVG}text"):
            size = float(text.get("font-size"))
            words = "".join(text.itertext())
            width, _, _ = measure.get_text_width_height_descent(
                words, FontProperties(family="DejaVu Sans", size=size), ismath=False
            )
            x, _, w, _ = boxes[part_id]
            anchor = text.get("text-anchor")
            start = {
                "middle": float(text.get("x")) - width / 2,
                "start": float(text.get("x")),
                "end": float(text.get("x")) - width,
            }[anchor]
            assert x <= start and start + width <= x + w, f"{part_id}: {words!r} is {width:.0f} px wide"


def test_the_configuration_shows_as_labels():
    words = " ".join(_words(ET.fromstring(diagram("transformer-architecture").svg)))
    for label in ("N×", "N = 6", "h = 8", "dff = 2048", "dmodel = 512"):
        assert label in words
    small = " ".join(
        _words(ET.fromstring(diagram("transformer-architecture", CASES["transformer-architecture"][1]).svg))
    )
    assert "N = 2" in small and "h = 4" in small and "dff = 1024" in small and "N = 6" not in small
    blocks = " ".join(_words(ET.fromstring(diagram("attention-blocks", {"h": 16}).svg)))
    assert "h = 16" in blocks and "dk = 32" in blocks, "d_k = d_model / h"


def test_the_papers_parts_are_all_there():
    figure_1 = {p.label for p in parts("transformer-architecture")}
    assert figure_1 >= {
        "Inputs",
        "Input Embedding",
        "Positional Encoding",
        "Multi-Head Attention",
        "Add & Norm",
        "Feed Forward",
        "N×",
        "Outputs (shifted right)",
        "Output Embedding",
        "Masked Multi-Head Attention",
        "Linear",
        "Softmax",
        "Output Probabilities",
    }
    assert sum(p.label == "Add & Norm" for p in parts("transformer-architecture")) == 5
    left = [p.label for p in parts("attention-blocks", {"panel": "scaled-dot-product"})]
    assert left == ["MatMul", "SoftMax", "Mask (opt.)", "Scale", "MatMul", "Q", "K", "V"]
    right = {p.label for p in parts("attention-blocks", {"panel": "multi-head"})}
    assert right == {"Linear", "Concat", "Scaled Dot-Product Attention", "h = 8", "V", "K", "Q"}
    both = parts("attention-blocks")
    assert len(both) == len(left) + len(parts("attention-blocks", {"panel": "multi-head"}))


def test_repeats_are_drawn_but_asked_once():
    asked = [p for p in parts("transformer-architecture") if p.ask]
    assert len({p.answer for p in asked}) == len(asked), "no two label cards want the same answer"
    assert [p.label for p in asked].count("Add & Norm") == 1


def test_plain_words_drop_subscript_markup():
    assert plain("d_{model} = 512") == "dmodel = 512"


@pytest.mark.parametrize("kind, params", ALL)
def test_same_params_same_bytes_and_name(kind, params, tmp_path):
    first = render(kind, params, tmp_path / "a")
    second = render(kind, params, tmp_path / "b")
    assert first.name == second.name and first.suffix == ".svg"
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes().startswith(b"<svg ")


def test_changed_params_change_name_and_bytes(tmp_path):
    base = render("transformer-architecture", {}, tmp_path)
    changed = render("transformer-architecture", {"N": 3}, tmp_path)
    assert base.name != changed.name and base.read_bytes() != changed.read_bytes()
    written_out = {"N": 6, "h": 8, "d_model": 512, "d_ff": 2048}
    assert render("transformer-architecture", written_out, tmp_path) == base


def test_same_bytes_in_a_fresh_process_without_matplotlib(tmp_path):
    """Laying out and writing a diagram, and checking content, never import matplotlib."""
    code = (
        "import sys, json; from pathlib import Path; from generator.visuals import render;"
        "from generator.cli import main;"
        "assert main(['-q', '--project', sys.argv[3], 'check']) == 0;"
        "cases = json.loads(sys.argv[1]);"
        "[print(render(k, p, Path(sys.argv[2])).name) for k, p in cases];"
        "assert 'matplotlib' not in sys.modules, 'matplotlib was imported'"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(ALL), str(tmp_path / "fresh"), str(PROJECT)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    names = [line for line in done.stdout.split() if line.endswith(".svg")]
    for (kind, params), name in zip(ALL, names, strict=True):
        here = render(kind, params, tmp_path / "here")
        assert here.name == name and (tmp_path / "fresh" / name).read_bytes() == here.read_bytes()


def test_bad_params_are_reported_by_field():
    assert visuals.validate("transformer-architecture", {"N": 0, "heads": 8}) == [
        "params.heads: unknown parameter of transformer-architecture; expected one of N, h, d_model, d_ff",
        "params.N: expected a whole number from 1 to 99, got 0",
    ]
    assert visuals.validate("attention-blocks", {"h": 7}) == [
        "params.h: expected a divisor of d_model = 512 (d_k = d_model / h), got 7"
    ]
    assert visuals.validate("attention-blocks", {"panel": "left"}) == [
        "params.panel: expected one of both, scaled-dot-product, multi-head, got 'left'"
    ]


def test_diagrams_and_plots_are_not_confused():
    with pytest.raises(TypeError, match="is a diagram"):
        visuals.figure("attention-blocks")
    with pytest.raises(TypeError, match="is a plot"):
        visuals.diagram("lr-schedule")
    assert parts("lr-schedule") == ()


def test_text_size_is_readable_in_print():
    # 14 px is 10.5 pt at the natural size the guide prints; annotations are 11 px (8.25 pt).
    assert FONT_SIZE == 14
    sizes = {
        float(t.get("font-size"))
        for t in ET.fromstring(diagram("transformer-architecture").svg).iter(f"{SVG}text")
    }
    assert min(sizes) >= 11
