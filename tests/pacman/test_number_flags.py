"""Numbers on the command line (issue 46): one reading for every flag (`read_number`), in
ASCII digits like agent settings and the time limits: `1_0` and `٣`, which `int()` and
`float()` take, are refused, and so is a number text longer than `MAX_NUMBER_CHARS`."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from pacman.cli import main
from pacman.cli.options import (
    MAX_NUMBER_CHARS,
    animation_fps,
    number_in,
    positive_int,
    read_number,
    seconds,
)

#: texts `int()` or `float()` read that are no number a person types here
NOT_NUMBERS = ["1_0", "\u0663", "\u0661\u0660", "\uff11", "1__0", "1_0.5", "0x10", "1e3_0",
               "", " ", "+", "-", ".", "e3", "1 0", "1\x00", "²", "1" * (MAX_NUMBER_CHARS + 1)]


@pytest.mark.parametrize("text", NOT_NUMBERS)
@pytest.mark.parametrize("kind", [int, float])
def test_read_number_refuses_what_no_person_types(text: str, kind: type[float]) -> None:
    assert read_number(text, kind) is None


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("3", int, 3), (" +3 ", int, 3), ("-0", int, 0), ("0.5", float, 0.5), ("1e3", float, 1e3),
    (".5", float, 0.5), ("5.", float, 5.0), ("-2E-2", float, -0.02),
    ("1" * 100, int, int("1" * 100)),
])
def test_read_number_reads_ascii_numbers(text: str, kind: type[float], value: float) -> None:
    assert read_number(text, kind) == value


def test_float_words_are_read_so_that_the_range_refuses_them() -> None:
    assert read_number("inf") == float("inf")
    assert read_number("3", float) == 3.0 and read_number("1.5", int) is None
    with pytest.raises(argparse.ArgumentTypeError, match="expected a number >= 0"):
        number_in(0, 1)("inf")


@pytest.mark.parametrize("parse", [positive_int, number_in(0, 60), animation_fps, seconds])
@pytest.mark.parametrize("text", ["1_0", "\u0663", "1" * 5000])
def test_every_number_type_reads_the_same_way(parse: Callable[[str], float],
                                              text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as raised:
        parse(text)
    assert len(str(raised.value)) < 120  # the text is shown cut short


@pytest.mark.parametrize("flag", ["--animation-fps", "--animation-skip", "--frame-time",
                                  "--zoom", "-n", "--seed", "--max-moves", "-k",
                                  "--timeout", "--game-timeout"])
@pytest.mark.parametrize("text", ["\u0663", "1_0"])
def test_play_flags_refuse_other_digits_and_underscores(
        capsys: pytest.CaptureFixture[str], tmp_path: object, flag: str, text: str) -> None:
    """The campaign's input: `--animation-fps ٣` and `--animation-skip 1_0` were taken."""
    code = main(["play", "-q", "-p", "greedy", "-l", "testClassic", "--max-moves", "5",
                 "--gif", f"{tmp_path}/game.gif", flag, text])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("pacman: error: argument ") and flag in err[0]
    assert repr(text) in err[0]
