"""Layouts: the shipped mazes, the parser's reading of docs/rules.md 3-6, and its error messages."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pacman.errors import LayoutError
from pacman.layout import LAYOUT_DIR, Layout, load_layout, parse_layout, shipped_layouts

# /work/shared/layouts/README.md: name -> (width, height, food, capsules, ghosts)
SHIPPED = {
    "capsuleClassic": (19, 7, 23, 3, 3),
    "contestClassic": (20, 9, 69, 6, 3),
    "mediumClassic": (20, 11, 97, 2, 2),
    "minimaxClassic": (9, 5, 2, 0, 3),
    "openClassic": (25, 9, 86, 1, 1),
    "originalClassic": (28, 27, 229, 4, 4),
    "powerClassic": (20, 7, 53, 8, 4),
    "smallClassic": (20, 7, 55, 2, 2),
    "testClassic": (5, 10, 8, 0, 1),
    "trappedClassic": (8, 5, 4, 0, 2),
    "trickyClassic": (20, 13, 114, 6, 4),
}


def test_the_eleven_classic_layouts_ship() -> None:
    assert set(SHIPPED) <= set(shipped_layouts())
    assert shipped_layouts() == sorted(shipped_layouts())


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_layout_loads_with_its_classic_size(name: str) -> None:
    layout = load_layout(name)
    width, height, food, capsules, ghosts = SHIPPED[name]
    assert (layout.width, layout.height) == (width, height)
    assert (len(layout.food), len(layout.capsules), len(layout.ghost_starts)) == (
        food, capsules, ghosts)
    assert layout.name == name
    # a full wall border, and no agent, food or capsule in a wall
    for x in range(width):
        assert layout.is_wall(x, 0) and layout.is_wall(x, height - 1)
    for y in range(height):
        assert layout.is_wall(0, y) and layout.is_wall(width - 1, y)
    for cell in (*layout.food, *layout.capsules, layout.pacman_start, *layout.ghost_starts):
        assert not layout.is_wall(*cell)
    assert load_layout(LAYOUT_DIR / f"{name}.lay") == layout  # by path too
    assert load_layout(str(LAYOUT_DIR / f"{name}.lay")) == layout


def test_minimax_classic_positions() -> None:
    layout = load_layout("minimaxClassic")
    # %%%%%%%%%      y = 4
    # %.P    G%      y = 3
    # % %.%G%%%      y = 2
    # %G    %%%      y = 1
    # %%%%%%%%%      y = 0
    assert layout.pacman_start == (2, 3)
    assert layout.ghost_starts == ((1, 1), (5, 2), (7, 3))
    assert layout.food == ((1, 3), (3, 2))


def test_layout_is_immutable() -> None:
    layout = parse_layout("%%%\n%P%\n%%%\n")
    with pytest.raises(dataclasses.FrozenInstanceError):
        layout.width = 5  # type: ignore[misc]
    assert isinstance(layout.walls, frozenset)
    assert isinstance(layout, Layout)


def test_rule_3_lines_are_stripped_and_other_characters_are_floor() -> None:
    layout = parse_layout("  %%%%%%%   \n\t%P xE5%  \n%.  o %\t\n   %%%%%%%\n\n\n")
    assert (layout.width, layout.height) == (7, 4)
    assert layout.pacman_start == (1, 2)
    assert layout.ghost_starts == ()  # '5' is not a ghost digit
    assert layout.food == ((1, 1),) and layout.capsules == ((4, 1),)
    interior_walls = {c for c in layout.walls if 0 < c[0] < 6 and 0 < c[1] < 3}
    assert interior_walls == set()
    assert str(layout) == "%%%%%%%\n%P xE5%\n%.  o %\n%%%%%%%\n"


def test_rule_3_leading_blank_lines_do_not_count_as_rows() -> None:
    layout = parse_layout("\n\n%%%\n%P%\n%%%\n")
    assert (layout.width, layout.height) == (3, 3)


def test_rule_3_extra_trailing_walls_are_tolerated() -> None:
    layout = parse_layout("%%%%%\n%P .%\n%%%%%%\n")
    assert (layout.width, layout.height) == (5, 3)
    assert (5, 0) not in layout.walls
    capsule = load_layout("capsuleClassic")
    assert capsule.width == 19  # its last line has 20 '%'


def error_of(text: str, tmp_path: Path, name: str = "bad.lay") -> LayoutError:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(LayoutError) as caught:
        load_layout(path)
    return caught.value


def test_rule_6_ragged_short_line_names_file_line_column(tmp_path: Path) -> None:
    error = error_of("%%%%%\n%P .%\n%..%\n%%%%%\n", tmp_path)
    assert str(error).startswith(f"{tmp_path / 'bad.lay'}:3:5: ragged")
    assert (error.line, error.column) == (3, 5)


def test_rule_6_ragged_long_line_with_other_characters(tmp_path: Path) -> None:
    error = error_of("%%%%%\n%P .%.\n%%%%%\n", tmp_path)
    assert str(error).startswith(f"{tmp_path / 'bad.lay'}:2:6: ragged")
    error = error_of("%%%%%\n%P .%%.\n%%%%%\n", tmp_path)
    assert (error.line, error.column) == (2, 6)


def test_rule_6_column_counts_the_stripped_indentation(tmp_path: Path) -> None:
    error = error_of("\n  %%%%%\n  %P .%\n  %.%\n  %%%%%\n", tmp_path)
    assert (error.line, error.column) == (4, 6)
    assert str(error).startswith(f"{tmp_path / 'bad.lay'}:4:6:")


def test_rule_6_a_space_on_the_border_is_stripped_so_the_line_is_ragged(tmp_path: Path) -> None:
    error = error_of("%%%%%\n P .%\n%%%%%\n", tmp_path)
    assert error.line == 2 and "ragged" in str(error)


def test_rule_6_blank_line_inside_is_ragged(tmp_path: Path) -> None:
    error = error_of("%%%%%\n%P .%\n\n%%%%%\n", tmp_path)
    assert error.line == 3


def test_rule_6_no_pacman(tmp_path: Path) -> None:
    error = error_of("%%%%%\n%. G%\n%%%%%\n", tmp_path)
    assert str(error).startswith(str(tmp_path / "bad.lay"))
    assert "Pacman" in str(error)


def test_rule_6_two_pacmen_names_the_second(tmp_path: Path) -> None:
    error = error_of("%%%%%\n%P .%\n% P %\n%%%%%\n", tmp_path)
    assert str(error).startswith(f"{tmp_path / 'bad.lay'}:3:3:")
    assert "line 2, column 2" in str(error)  # where the first one is
    assert "Pacman" in str(error)


@pytest.mark.parametrize(("text", "line", "column"), [
    ("%%.%%\n%P .%\n%%%%%\n", 1, 3),    # top
    ("%%%%%\n%P .%\n%% %%\n", 3, 3),    # bottom
    ("%%%%%\nxP .%\n%%%%%\n", 2, 1),    # left, an unknown character
    ("%%%%%\n%P ..\n%%%%%\n", 2, 5),    # right
    ("%%%%%\n%P .G\n%%%%%\n", 2, 5),    # a ghost on the border
])
def test_rule_6_open_border(tmp_path: Path, text: str, line: int, column: int) -> None:
    error = error_of(text, tmp_path)
    assert (error.line, error.column) == (line, column)
    assert str(error).startswith(f"{tmp_path / 'bad.lay'}:{line}:{column}:")


@pytest.mark.parametrize("text", ["", "\n\n", "   \n\t\n"])
def test_empty_file(tmp_path: Path, text: str) -> None:
    error = error_of(text, tmp_path)
    assert str(error).startswith(str(tmp_path / "bad.lay"))
    assert "empty" in str(error)


@pytest.mark.parametrize("data", [b"%%%\n%P%\n%%%\x00\n", b"\x89PNG\r\n\x1a\n\xff\xfe\x00",
                                  b"%%%\n%P\xff\n%%%\n"])
def test_binary_file(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "picture.lay"
    path.write_bytes(data)
    with pytest.raises(LayoutError) as caught:
        load_layout(path)
    assert str(caught.value).startswith(str(path))
    assert "not a text layout" in str(caught.value)


def test_unknown_layout_name_lists_the_shipped_ones() -> None:
    with pytest.raises(LayoutError) as caught:
        load_layout("noSuchClassic")
    message = str(caught.value)
    assert message.startswith("noSuchClassic:")
    assert "mediumClassic" in message and "trickyClassic" in message


def test_missing_lay_path(tmp_path: Path) -> None:
    with pytest.raises(LayoutError) as caught:
        load_layout(tmp_path / "missing.lay")
    assert str(tmp_path / "missing.lay") in str(caught.value)


def test_a_directory_is_not_a_layout(tmp_path: Path) -> None:
    with pytest.raises(LayoutError):
        load_layout(tmp_path)


def test_parse_layout_names_its_source() -> None:
    with pytest.raises(LayoutError) as caught:
        parse_layout("%%%\n%.%\n%%%\n", name="inline")
    assert str(caught.value).startswith("inline:")
    with pytest.raises(LayoutError) as caught:
        parse_layout("%%%\n%P.\n%%%\n", name="inline", source="/tmp/x.lay")
    assert str(caught.value).startswith("/tmp/x.lay:2:3:")


def test_layout_error_is_a_value_error() -> None:
    assert issubclass(LayoutError, ValueError)


def test_load_by_file_name_without_suffix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tiny"
    path.write_text("%%%%\n%P.%\n%%%%\n")
    layout = load_layout(path)
    assert layout.name == "tiny" and layout.food == ((2, 1),)
    monkeypatch.chdir(tmp_path)
    assert load_layout("tiny") == layout


def test_a_utf8_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "bom.lay"
    path.write_bytes("\ufeff%%%%%\n%P .%\n%%%%%\n".encode())
    layout = load_layout(path)
    assert (layout.width, layout.height, layout.food) == (5, 3, ((3, 1),))
    assert layout == parse_layout("%%%%%\n%P .%\n%%%%%\n", "bom")
    assert parse_layout("\ufeff%%%\n%P%\n%%%\n").width == 3  # text given directly too


def test_a_byte_order_mark_elsewhere_is_an_unknown_character() -> None:
    layout = parse_layout("%%%%%\n%P\ufeff.%\n%%%%%\n")
    assert layout.unknown_characters == ("\ufeff",)
    assert (2, 1) not in layout.walls


def test_unknown_characters_are_floor_and_reported_once_in_order() -> None:
    layout = parse_layout("%%%%%%%\n%PxE5%%\n%x\t.Ex%\n%%%%%%%\n")
    assert layout.unknown_characters == ("x", "E", "5", "\t")
    assert {(2, 2), (3, 2), (4, 2), (1, 1), (2, 1), (4, 1), (5, 1)}.isdisjoint(layout.walls)
    assert layout.food == ((3, 1),) and layout.ghost_starts == ()
    assert parse_layout("%%%\n%P%\n%%%\n").unknown_characters == ()


def test_unknown_characters_do_not_count_in_equality_and_survive_with_ghosts() -> None:
    odd = parse_layout("%%%%%\n%PxG%\n%%%%%\n")
    plain = parse_layout("%%%%%\n%P G%\n%%%%%\n")
    assert odd == plain and hash(odd) == hash(plain)
    assert odd.with_ghosts(0).unknown_characters == ("x",)
    assert "unknown_characters" not in repr(odd)
