"""`pacman explain --svg`: the picture carries, as text at its top, the summary lines the text
view prints first (the move, the chosen action and its value, nodes, evaluations, cuts, pruned)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from pacman.cli import main

ROOT = Path(__file__).parents[2]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two traced seeded replays: an alpha-beta and an expectimax Pacman, a few moves each."""
    folder = tmp_path_factory.mktemp("replays")
    paths = {}
    for method in ("alphabeta", "expectimax"):
        paths[method] = folder / f"{method}.json"
        assert main(["play", "-p", method, "-a", "depth=2", "--trace", "-g", "DirectionalGhost",
                     "-l", "smallClassic", "-q", "--seed", "1", "--max-moves", "3",
                     "--record", str(paths[method])]) == 0
    return paths


def explained(argv: list[str], picture: Path,
              capsys: pytest.CaptureFixture[str]) -> tuple[list[str], ElementTree.Element]:
    """The text view's lines of `pacman explain ARGV` (run without --svg) and the SVG root
    of the same command with --svg."""
    capsys.readouterr()
    assert main(["explain", *argv]) == 0
    text = capsys.readouterr().out.splitlines()
    assert main(["explain", *argv, "--svg", str(picture)]) == 0
    assert capsys.readouterr().out.splitlines() == [*text, f"wrote {picture}"]
    return text, ElementTree.fromstring(picture.read_text(encoding="utf-8"))


def summary_of(svg: ElementTree.Element) -> list[str]:
    """The picture's summary lines, in order."""
    group = svg.find(f"{SVG}g[@id='summary']")
    assert group is not None
    texts = group.findall(f"{SVG}text")
    assert all(t.get("class") == "summary" for t in texts)
    return [t.text or "" for t in texts]


def above_the_tree(svg: ElementTree.Element) -> None:
    """Every summary line sits above every node of the tree."""
    lowest = max(float(t.get("y", "0")) for t in svg.iter(f"{SVG}text")
                 if t.get("class") == "summary")
    shapes = [float(c.get("cy", "0")) for c in svg.iter(f"{SVG}circle")]
    shapes += [float(r.get("y", "0")) for r in svg.iter(f"{SVG}rect")]
    shapes += [min(float(point.split(",")[1]) for point in p.get("points", "").split())
               for p in svg.iter(f"{SVG}polygon")]
    assert shapes and lowest < min(shapes) - 10


def test_alphabeta_picture_carries_the_text_views_summary(
        replays: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, svg = explained([str(replays["alphabeta"]), "--move", "2"], tmp_path / "ab.svg",
                          capsys)
    assert summary_of(svg) == text[:2]
    assert text[0].startswith("alphabeta.json, Pacman's move 2 (recorded: ")
    assert text[0].endswith("; searched with alphabeta, depth 2, evaluation score")
    found = re.fullmatch(r"alphabeta, depth 2: (\w+) \(value (-?[\d.]+)\), (\d+) nodes "
                         r"generated, (\d+) evaluated, (\d+) cuts? pruning (\d+) moves?", text[1])
    assert found is not None, text[1]
    assert int(found[5]) > 0 and int(found[6]) > 0  # this move has cuts and pruned moves
    above_the_tree(svg)


def test_expectimax_picture_carries_the_text_views_summary(
        replays: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, svg = explained([str(replays["expectimax"]), "--move", "1"], tmp_path / "ex.svg",
                          capsys)
    assert summary_of(svg) == text[:2]
    assert re.fullmatch(r"expectimax, depth 2: \w+ \(value -?[\d.]+\), \d+ nodes generated, "
                        r"\d+ evaluated, 0 cuts pruning 0 moves", text[1]), text[1]
    above_the_tree(svg)


def test_a_tree_case_picture_carries_its_one_summary_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = ROOT / "tests/cases/alphabeta/01-textbook.test"
    text, svg = explained([str(case)], tmp_path / "case.svg", capsys)
    assert summary_of(svg) == [text[0]] == [
        "alphabeta, depth 2: Left (value 3), 11 nodes generated, 7 evaluated, 1 cut pruning "
        "2 moves"]
    # the title stays first, then the summary
    first = svg.find(f"{SVG}text")
    assert first is not None and first.text == f"{case}: alpha-beta"


def test_the_summary_is_drawn_inside_the_picture(
        replays: dict[str, Path], tmp_path: Path, browser: Any,
        capsys: pytest.CaptureFixture[str]) -> None:
    """In Chromium, each summary line is laid out within the picture's width, above the
    tree (a narrow tree, so the width comes from the text)."""
    picture = tmp_path / "narrow.svg"
    _, svg = explained([str(replays["alphabeta"]), "--move", "1", "--depth", "1",
                        "--max-shown", "4"], picture, capsys)
    width = float(svg.get("width", "0"))
    page = browser.new_page()
    try:
        page.goto(picture.resolve().as_uri())
        boxes = page.eval_on_selector_all(
            "text.summary", "texts => texts.map(t => { const b = t.getBBox(); "
                            "return [b.x, b.y, b.width, b.height]; })")
        top_node = page.eval_on_selector_all(
            "polygon, circle, rect", "shapes => Math.min(...shapes.map(s => s.getBBox().y))")
    finally:
        page.close()
    assert len(boxes) == 2
    for x, y, box_width, height in boxes:
        assert box_width > 200 and height > 8
        assert x >= 0 and x + box_width <= width
        assert y + height < top_node
