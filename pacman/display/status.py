"""The words a view shows about a game: the status bar's lines, the end box, and how they fit.

One job: text. `status_lines` makes the three lines of the status bar (score and moves, the
agents, the last search and a note), `describe_agents` the agents line, `end_banner` the box at
the end of a game. `wrap_text`, `fit_text` and `status_rows` fit such lines into rows of a
given pixel width; they measure text only through the `measure` function they are given
(`measure(text)` is the text's width in pixels, e.g. a pygame font's `size(text)[0]`), so this
module needs no pygame: a command that only needs the words (the replay page, a text view)
imports it without starting any graphics.

The rule for fitting: a line too long for its row wraps at its SEPARATOR gaps first, then at
spaces; a single word too wide for a row ends in "..."; when the lines need more rows than
there are, the line with the most rows gives up its last rows and ends in " ...".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pacman.display.protocol import MoveInfo

if TYPE_CHECKING:
    from pacman.record import GameRecord
    from pacman.state import GameState

__all__ = ["Measure", "SEPARATOR", "MIN_WIDTH_TEXT", "TYPICAL_STATUS", "describe_agents",
           "end_banner", "status_lines", "wrap_text", "fit_text", "status_rows"]

#: the width in pixels of a text, as drawn (e.g. `lambda t: font.size(t)[0]`)
Measure = Callable[[str], float]

SEPARATOR = "    "       # between the parts of a status line; a line wraps here first
#: the frame is at least this line wide (plus padding), so the status bar reads on small mazes
MIN_WIDTH_TEXT = "AlphaBetaAgent depth=3 better vs 2 x DirectionalGhost"
#: the usual status lines at their longest: the bar has rows for them at the frame's width
TYPICAL_STATUS = ("Score: -1234    Moves: 3000", MIN_WIDTH_TEXT,
                  "last move: 1,234,567 nodes in 250.0 ms    0.10 s/move    "
                  "PAUSED (space: go, n: step)")


def describe_agents(agents: Sequence[str]) -> str:
    """E.g. `AlphaBetaAgent depth=3 better vs 2 x RandomGhost`.

    The first description is Pacman's; the ghosts' follow after " vs ", runs of the same
    description counted (`2 x RandomGhost`), the runs joined by ", ". No agents: "".
    """
    if not agents:
        return ""
    groups: list[list[Any]] = []
    for name in agents[1:]:
        if groups and groups[-1][0] == name:
            groups[-1][1] += 1
        else:
            groups.append([name, 1])
    ghosts = ", ".join(f"{count} x {name}" if count > 1 else name for name, count in groups)
    return f"{agents[0]} vs {ghosts}" if ghosts else agents[0]


def end_banner(record: GameRecord, keyboard: bool = False) -> list[str]:
    """The end-of-game box: a title and the score; empty for a stopped game (no box).

    The title is "Pacman wins!" ("You win!" when a person played with the keyboard), "Game
    over" for a loss, else the outcome in capitals ("CAPPED", "CRASH", ...); the detail reads
    "score S after N moves", with the first 60 characters of the fault, if any, in brackets.
    """
    if record.outcome.value == "stopped":
        return []
    title = {"win": "You win!" if keyboard else "Pacman wins!",
             "loss": "Game over"}.get(record.outcome.value, record.outcome.value.upper())
    moves = record.pacman_moves
    detail = f"score {record.score} after {moves} move{'' if moves == 1 else 's'}"
    if record.fault:
        detail += f" ({record.fault[:60]})"
    return [title, detail]


def wrap_text(text: str, width: int, measure: Measure) -> list[str]:
    """`text` in rows no wider than `width` (`measure(text)` is a pixel width): broken at the
    SEPARATOR gaps first, then at spaces; a single word too wide ends in '...'."""
    if measure(text) <= width:
        return [text]
    rows: list[str] = []
    current = ""

    def extended(piece: str, gap: str) -> bool:
        """Put `piece` on the current row if it fits there; False if it does not."""
        nonlocal current
        joined = f"{current}{gap}{piece}" if current else piece
        if measure(joined) > width:
            return False
        current = joined
        return True

    for part in text.split(SEPARATOR):
        if extended(part, SEPARATOR):
            continue
        if current:  # the part starts a row of its own, word by word
            rows.append(current)
            current = ""
        for word in part.split(" "):
            if not extended(word, " "):
                if current:
                    rows.append(current)
                current = fit_text(word, width, measure)
    if current:
        rows.append(current)
    return rows


def fit_text(text: str, width: int, measure: Measure) -> str:
    """`text` shortened to end in '...' if it is wider than `width`."""
    if measure(text) <= width:
        return text
    while len(text) > 1 and measure(text + "...") > width:
        text = text[:-1]
    return text.rstrip() + "..."


def status_rows(lines: Sequence[str], width: int, capacity: int, measure: Measure
                ) -> list[tuple[int, str]]:
    """The status lines wrapped into at most `capacity` rows of `(line index, text)`.

    When they need more rows, the line with the most rows (the later one on a tie) gives up
    its last row until they fit; a line cut short ends in '...'.
    """
    wrapped = [wrap_text(line, width, measure) if line else [] for line in lines]
    cut = [False] * len(wrapped)
    while sum(len(rows) for rows in wrapped) > capacity:
        longest = max(range(len(wrapped)), key=lambda i: (len(wrapped[i]), i))
        if not wrapped[longest]:
            break
        wrapped[longest].pop()
        cut[longest] = True
    result: list[tuple[int, str]] = []
    for index, rows in enumerate(wrapped):
        for number, row in enumerate(rows):
            if cut[index] and number == len(rows) - 1:
                while row and measure(row + " ...") > width:  # drop whole words first
                    row = row.rsplit(" ", 1)[0] if " " in row.strip() else row[:-1]
                row = row.rstrip() + " ..."
            result.append((index, row))
    return result


def status_lines(state: GameState, agents: Sequence[str], move: MoveInfo | None,
                 note: str = "") -> tuple[str, str, str]:
    """The three status-bar lines: score and moves, the agents, the last search and `note`.

    The first reads "Score: S    Moves: N" (N: Pacman's moves, 0 before any); the second is
    `describe_agents(agents)`; the third "last move: 1,234 nodes in 250.0 ms" (seconds from
    one second on) when `move` counted nodes, then `note` after a SEPARATOR gap, or "".
    """
    moves = move.pacman_moves if move is not None else 0
    first = f"Score: {state.score}    Moves: {moves}"
    third = ""
    if move is not None and move.nodes is not None:
        took = (f"{move.seconds * 1000:.1f} ms" if move.seconds < 1 else
                f"{move.seconds:.2f} s")
        third = f"last move: {move.nodes:,} nodes in {took}"
    if note:
        third = f"{third}    {note}" if third else note
    return first, describe_agents(agents), third
