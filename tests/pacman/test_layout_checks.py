"""`check_playable`: layouts that can never be won or whose ghosts can never move, and
`list_layouts`: a folder's layouts with its bad files set apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman.errors import LayoutError
from pacman.layout import (
    LAYOUT_DIR,
    check_playable,
    list_layouts,
    load_layout,
    parse_layout,
    shipped_layouts,
)


def problem(text: str, num_ghosts: int | None = None) -> str:
    with pytest.raises(LayoutError) as caught:
        check_playable(parse_layout(text, "bad"), num_ghosts)
    message = str(caught.value)
    assert message.startswith("bad: not playable: ") and "\n" not in message
    return message


@pytest.mark.parametrize("name", shipped_layouts())
def test_every_shipped_layout_is_playable(name: str) -> None:
    layout = load_layout(name)
    check_playable(layout)
    for count in range(len(layout.ghost_starts) + 1):
        check_playable(layout, count)


def test_a_plain_layout_is_playable() -> None:
    check_playable(parse_layout("""
        %%%%%%
        %P . %
        % %%G%
        %%%%%%
    """))


def test_no_food() -> None:
    message = problem("""
        %%%%%%
        %P oG%
        %%%%%%
    """)
    assert "no food: the game can never be won" in message


def test_food_pacman_cannot_reach_names_one_cell_and_counts_the_rest() -> None:
    # y = 2:  %P.%..%    the room on the right is walled off from Pacman
    # y = 1:  %  %. %
    message = problem("""
        %%%%%%%
        %P.%..%
        %  %. %
        %%%%%%%
    """)
    assert "food at (4, 1) and 2 more food cells that Pacman cannot reach from its start " \
           "(1, 2)" in message


def test_one_food_pacman_cannot_reach() -> None:
    message = problem("""
        %%%%%%
        %P.%.%
        %%%%%%
    """)
    assert "food at (4, 1) that Pacman cannot reach from its start (1, 1)" in message
    assert "more" not in message


def test_pacman_walled_in() -> None:
    message = problem("""
        %%%%%%
        %P%. %
        %%%%%%
    """)
    assert "Pacman is walled in at its start (1, 1): no free neighbour" in message
    assert "cannot reach" not in message  # the walled-in message says it all


def test_a_walled_in_ghost_can_never_move() -> None:
    text = """
        %%%%%%%
        %P . %%
        %%%%%G%
        %%%%%%%
    """
    message = problem(text)
    assert "ghost 1 is walled in at its start (5, 1)" in message
    assert "never move" in message
    check_playable(parse_layout(text), num_ghosts=0)  # not in play: no problem


def test_only_the_first_num_ghosts_are_checked() -> None:
    # ghosts are numbered by their digit: '1' plays, '2' (walled in) only with 2 ghosts
    text = """
        %%%%%%%
        %P .1%%
        %%%%%2%
        %%%%%%%
    """
    check_playable(parse_layout(text), num_ghosts=1)
    assert "ghost 2 is walled in at its start (5, 1)" in problem(text, num_ghosts=2)
    assert "ghost 2" in problem(text)


def test_every_problem_is_named_in_one_line() -> None:
    message = problem("""
        %%%%%%
        %P%G%%
        %%%%%%
    """)
    assert "no food" in message and "Pacman is walled in" in message
    assert "ghost 1 is walled in" in message


def test_the_error_names_the_layout_not_a_path(tmp_path: Path) -> None:
    path = tmp_path / "pocket.lay"
    path.write_text("%%%%%\n%P%.%\n%%%%%\n")
    with pytest.raises(LayoutError) as caught:
        check_playable(load_layout(path))
    assert str(caught.value).startswith("pocket: not playable: ")
    assert caught.value.source == "pocket"


# --------------------------------------------------------------------------- list_layouts

def test_list_layouts_of_the_shipped_folder() -> None:
    layouts, bad = list_layouts()
    assert bad == []
    assert [layout.name for layout in layouts] == shipped_layouts()
    assert list_layouts(LAYOUT_DIR) == (layouts, bad)


def test_one_bad_file_does_not_hide_the_others(tmp_path: Path) -> None:
    (tmp_path / "b_good.lay").write_text("%%%%\n%P.%\n%%%%\n")
    (tmp_path / "a_ragged.lay").write_text("%%%%\n%P.\n%%%%\n")
    (tmp_path / "c_binary.lay").write_bytes(b"\x89PNG\x00")
    (tmp_path / "d_good.lay").write_text("\ufeff%%%%\n%.P%\n%%%%\n")
    (tmp_path / "notes.txt").write_text("not a layout")
    layouts, bad = list_layouts(tmp_path)
    assert [layout.name for layout in layouts] == ["b_good", "d_good"]
    assert [path.name for path, _ in bad] == ["a_ragged.lay", "c_binary.lay"]
    assert bad[0][1].startswith(f"{tmp_path / 'a_ragged.lay'}:2:") and "ragged" in bad[0][1]
    assert "not a text layout" in bad[1][1]


def test_list_layouts_of_an_empty_or_missing_folder(tmp_path: Path) -> None:
    assert list_layouts(tmp_path) == ([], [])
    assert list_layouts(tmp_path / "missing") == ([], [])
