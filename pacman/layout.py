"""Parse and load classic `.lay` files into an immutable `Layout` (docs/rules.md 3-6).

Size limits: a layout is at most `MAX_SIDE` cells wide and high, `MAX_CELLS` cells in all
(walls included) and `MAX_FREE_CELLS` free cells. The per-layout tables of `pacman.maze` grow
with the board's area (every index of the doubled grid: about 0.4 KB per cell) and with its
free cells (moves, collisions, half-way points: about 3.5 KB each), and the food bitmasks with
the square of the food count. Measured on the largest allowed layout (a 400x400 board with
25,000 free cells all holding food): built in about 1 s, a game on it peaks under 300 MB. A
bigger layout is a one-line `LayoutError` naming its size and the limit, raised before any
table is built, never a `MemoryError` or a hang; replays embed their layout text and go
through `parse_layout`, so the same limits apply.
"""

from __future__ import annotations

import os
import stat
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from pacman.errors import LayoutError
from pacman.files import LIMITS, read_bytes
from pacman.suggest import did_you_mean

Position = tuple[int, int]

LAYOUT_DIR = Path(__file__).parent / "layouts"
WALL, FOOD, CAPSULE, PACMAN, GHOST = "%", ".", "o", "P", "G"
GHOST_DIGITS = "1234"
KNOWN_CHARACTERS = frozenset(WALL + FOOD + CAPSULE + PACMAN + GHOST + GHOST_DIGITS + " ")
_BOM = "\ufeff"

#: the largest width and the largest height, in cells
MAX_SIDE = 1000
#: the largest board, width x height, walls included (e.g. 400 x 400)
MAX_CELLS = 160_000
#: the most free (non-wall) cells (e.g. a 150 x 150 open room)
MAX_FREE_CELLS = 25_000
#: the largest layout file read, in bytes (a full-size board with generous indentation)
MAX_FILE_BYTES = LIMITS["layout"]


@dataclass(frozen=True)
class Layout:
    """An immutable maze: walls, food, capsules and agent start positions.

    Coordinates follow docs/rules.md 1: `(0, 0)` is bottom-left, `x` grows East, `y` grows North.
    """

    name: str
    width: int
    height: int
    walls: frozenset[Position]
    food: tuple[Position, ...]
    capsules: tuple[Position, ...]
    pacman_start: Position
    ghost_starts: tuple[Position, ...]
    text: str = field(compare=False, repr=False)
    #: characters of the file that are not layout characters (`% . o P G 1 2 3 4` or space),
    #: in order of first appearance: they are read as floor, as the classic loader does, and
    #: a caller may warn about them once
    unknown_characters: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def is_wall(self, x: int, y: int) -> bool:
        """True if the cell at (x, y) is a wall."""
        return (x, y) in self.walls

    def with_ghosts(self, count: int) -> Layout:
        """This layout keeping only the first `count` ghosts (docs/rules.md 5)."""
        if count < 0:
            raise ValueError(f"the number of ghosts must be >= 0, got {count}")
        if count >= len(self.ghost_starts):
            return self
        return Layout(self.name, self.width, self.height, self.walls, self.food, self.capsules,
                      self.pacman_start, self.ghost_starts[:count], self.text,
                      self.unknown_characters)

    def __str__(self) -> str:
        return self.text


def check_size(source: str, width: int, height: int, free_cells: int) -> None:
    """Raise `LayoutError` if a board of this size is over the limits (module docstring)."""
    if width > MAX_SIDE or height > MAX_SIDE:
        raise LayoutError(source, f"layout too large: {width}x{height} cells (the limit is "
                          f"{MAX_SIDE} cells in width and in height)")
    if width * height > MAX_CELLS:
        raise LayoutError(source, f"layout too large: {width}x{height} = {width * height:,} "
                          f"cells (the limit is {MAX_CELLS:,} cells, walls included)")
    if free_cells > MAX_FREE_CELLS:
        raise LayoutError(source, f"layout too large: {free_cells:,} free cells in "
                          f"{width}x{height} (the limit is {MAX_FREE_CELLS:,} free cells)")


def parse_layout(text: str, name: str = "<layout>", source: str | None = None) -> Layout:
    """Parse layout text; raise `LayoutError` naming the source file, line and column.

    A UTF-8 byte order mark at the start is ignored. Characters other than `% . o P G 1 2 3 4`
    and space are floor, as in the classic loader, and are listed in the result's
    `unknown_characters` so that a caller can warn about them. A layout over the size limits
    (module docstring) is a `LayoutError` before any table is built.
    """
    layout_name = name
    name = source or name
    if "\x00" in text:
        raise LayoutError(name, "not a text layout file (contains NUL bytes)")
    if text.startswith(_BOM):
        text = text[1:]
    raw_lines = text.splitlines()
    while raw_lines and not raw_lines[-1].strip():
        raw_lines.pop()
    first = 0
    while first < len(raw_lines) and not raw_lines[first].strip():
        first += 1
    if first == len(raw_lines):
        raise LayoutError(name, "empty layout file")
    if len(raw_lines) - first > MAX_SIDE:  # before looking at every line
        check_size(name, len(raw_lines[first].strip()), len(raw_lines) - first, 0)
    rows: list[tuple[int, int, str]] = []  # (file line number, column offset, stripped text)
    for number in range(first, len(raw_lines)):
        raw = raw_lines[number]
        stripped = raw.strip()
        rows.append((number + 1, len(raw) - len(raw.lstrip()), stripped))
    width, height = len(rows[0][2]), len(rows)
    check_size(name, width, height, 0)
    for i, (line_no, offset, row) in enumerate(rows):
        if len(row) > width and set(row[width:]) == {WALL}:
            # The classic loader ignores cells past the first line's width; capsuleClassic
            # has one extra '%'. Extra wall cells are tolerated, anything else is ragged.
            row = row[:width]
            rows[i] = (line_no, offset, row)
        if len(row) != width:
            column = offset + min(len(row), width) + 1
            raise LayoutError(name, f"ragged line: {len(row)} cells where the first line has "
                              f"{width}", line_no, column)
    check_size(name, width, height, sum(len(row) - row.count(WALL) for _, _, row in rows))
    unknown: dict[str, None] = {}
    for _, _, row in rows:
        extra = set(row) - KNOWN_CHARACTERS
        for char in row if extra else ():
            if char in extra:
                unknown.setdefault(char)
    walls: set[Position] = set()
    food: list[Position] = []
    capsules: list[Position] = []
    agents: list[tuple[int, Position]] = []
    pacman_at: tuple[int, int] | None = None
    for row_index, (line_no, offset, row) in enumerate(rows):
        y = height - 1 - row_index
        for x, char in enumerate(row):
            border = x in (0, width - 1) or row_index in (0, height - 1)
            if char == WALL:
                walls.add((x, y))
                continue
            if border:
                raise LayoutError(name, f"open border: {char!r} where the border needs a wall "
                                  "'%'", line_no, offset + x + 1)
            if char == FOOD:
                food.append((x, y))
            elif char == CAPSULE:
                capsules.append((x, y))
            elif char == PACMAN:
                if pacman_at is not None:
                    raise LayoutError(name, f"a second Pacman (the first is at line "
                                      f"{pacman_at[0]}, column {pacman_at[1]})",
                                      line_no, offset + x + 1)
                pacman_at = (line_no, offset + x + 1)
                agents.append((0, (x, y)))
            elif char == GHOST:
                agents.append((1, (x, y)))
            elif char in GHOST_DIGITS:
                agents.append((int(char), (x, y)))
    if pacman_at is None:
        raise LayoutError(name, "no Pacman 'P' in the layout")
    agents.sort()
    return Layout(
        name=layout_name, width=width, height=height, walls=frozenset(walls),
        food=tuple(sorted(food)), capsules=tuple(sorted(capsules)),
        pacman_start=agents[0][1], ghost_starts=tuple(pos for _, pos in agents[1:]),
        text="\n".join(row for _, _, row in rows) + "\n",
        unknown_characters=tuple(unknown),
    )


def shipped_layouts() -> list[str]:
    """Names of the layouts that ship with the package, sorted."""
    return sorted(path.stem for path in LAYOUT_DIR.glob("*.lay"))


#: The eight symmetries of the grid, by the name `NAME@SYMMETRY` gives them (`assumptions@rot90`):
#: the identity (no suffix), the three quarter turns clockwise, the left-right mirror image, and
#: the mirror image turned. The rules do not change under them; the order in which moves are
#: listed (West, Stop, East, North, South) does, and so does which of two equal moves a search
#: that takes the first one plays.
SYMMETRIES = ("", "rot90", "rot180", "rot270", "flip", "flip-rot90", "flip-rot180",
              "flip-rot270")


def transformed(layout: Layout, symmetry: str) -> Layout:
    """`layout` under one of the `SYMMETRIES`, named `NAME@SYMMETRY` ("": the layout itself).

    The ghosts keep their order (up to four ghosts are written as `1`-`4`); food and capsules
    move with their cells. LayoutError for an unknown symmetry."""
    if symmetry not in SYMMETRIES:
        raise LayoutError(layout.name, f"no symmetry {symmetry!r} (one of: "
                          f"{', '.join(s for s in SYMMETRIES if s)})")
    if not symmetry:
        return layout
    width, height = layout.width, layout.height
    grid = [[" "] * width for _ in range(height)]  # grid[row][column], row 0 at the top

    def put(cell: Position, char: str) -> None:
        grid[height - 1 - cell[1]][cell[0]] = char

    for cell in layout.walls:
        put(cell, WALL)
    for cell in layout.food:
        put(cell, FOOD)
    for cell in layout.capsules:
        put(cell, CAPSULE)
    put(layout.pacman_start, PACMAN)
    numbered = len(layout.ghost_starts) <= len(GHOST_DIGITS)
    for number, cell in enumerate(layout.ghost_starts):
        put(cell, GHOST_DIGITS[number] if numbered else GHOST)
    rows = ["".join(row) for row in grid]
    if symmetry.startswith("flip"):
        rows = [row[::-1] for row in rows]
    turns = {"rot90": 1, "rot180": 2, "rot270": 3}.get(symmetry.rpartition("-")[2], 0)
    for _ in range(turns):  # a quarter turn clockwise: column c, read upwards, is row c
        rows = ["".join(row[column] for row in reversed(rows)) for column in range(len(rows[0]))]
    return parse_layout("\n".join(rows) + "\n", f"{layout.name}@{symmetry}")


def _found(path: str | Path) -> str:
    """What is at `path`, without following more than the system does: "file", "folder",
    "missing" (nothing, or a name no file can have), or "other" (a device or FIFO, or a path
    that cannot be looked at: a folder on the way that cannot be entered, a loop of links).
    Never raises: `Path.exists()` and `is_file()` raise PermissionError in such a folder."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL byte
        return "missing"
    except OSError:
        return "other"
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


def symmetry_parts(name_or_path: str) -> tuple[str, str]:
    """A layout reference as the layout it names and its symmetry: `('assumptions', 'rot90')`
    for `assumptions@rot90`, `(name_or_path, '')` when it has none. Read as `load_layout` reads
    it: a file that exists under the whole name (an `@` in a file's own name) is that file."""
    base, at, symmetry = name_or_path.rpartition("@")
    if at and symmetry and symmetry in SYMMETRIES and _found(name_or_path) == "missing":
        return base, symmetry
    return name_or_path, ""


def layout_reference(name_or_path: str) -> str:
    """How a store names a layout, the same from any folder: a shipped name as it is, a file
    by its absolute path; either with its symmetry (`NAME@SYMMETRY`)."""
    base, symmetry = symmetry_parts(name_or_path)
    if symmetry:
        return f"{layout_reference(base)}@{symmetry}"
    if name_or_path in shipped_layouts():
        return name_or_path
    return str(Path(name_or_path).resolve())


def load_layout(name_or_path: str | Path) -> Layout:
    """Load a layout by shipped name (`mediumClassic`) or by file path; `NAME@SYMMETRY` is the
    layout under one of the `SYMMETRIES` (`assumptions@flip-rot90`).

    A path that names something (or ends in `.lay`) is read as the layout file, with
    `pacman.files`: a file that cannot be read (permission denied, also on a folder on the
    way; a loop of links), that is not a regular file or that is over `MAX_FILE_BYTES` is a
    one-line `LayoutError` naming it, never an `OSError`. Otherwise the name is a shipped
    layout's, or a `LayoutError` naming the closest one (or, when none is close, listing them).
    """
    text = str(name_or_path)
    base, symmetry = symmetry_parts(text)
    if symmetry:
        return transformed(load_layout(base), symmetry)
    path = Path(name_or_path)
    found = _found(path)
    if found in ("file", "other") or (found == "folder" and path.suffix == ".lay"):
        return _read_layout(path)
    for candidate in (LAYOUT_DIR / f"{text}.lay", LAYOUT_DIR / text):
        if _found(candidate) == "file":
            return _read_layout(candidate)
    hint = did_you_mean(text, shipped_layouts())
    if hint:
        raise LayoutError(text, f"no such layout {hint}")
    known = ", ".join(shipped_layouts())
    raise LayoutError(text, f"no such layout (shipped layouts: {known})")


def _read_layout(path: Path) -> Layout:
    """The layout of the file at `path`; every problem is a `LayoutError` naming it."""
    name = str(path)

    def error(message: str) -> LayoutError:
        return LayoutError(name, message.removeprefix(f"{name}: "))

    data = read_bytes(path, "layout", error)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LayoutError(name, "not a text layout file (not UTF-8)") from None
    return parse_layout(text, path.stem, source=name)


def list_layouts(folder: str | Path | None = None
                 ) -> tuple[list[Layout], list[tuple[Path, str]]]:
    """The layouts of a folder's `*.lay` files (default: the shipped ones), sorted by name,
    and separately the files that cannot be loaded with their one-line error: one bad file
    (unreadable, in a folder that cannot be entered, a loop of links) does not hide the
    others. A folder that cannot be listed has no layouts."""
    layouts: list[Layout] = []
    bad: list[tuple[Path, str]] = []
    where = LAYOUT_DIR if folder is None else Path(folder)
    for path in sorted(where.glob("*.lay"), key=lambda p: (p.stem, p.name)):
        try:
            layouts.append(load_layout(path))
        except LayoutError as error:
            bad.append((path, str(error)))
    return layouts, bad


def ghosts_in_play(layout: Layout, requested: int | None, *, clamp: bool = False) -> int:
    """The number of ghosts a game on `layout` plays with: the one rule every entry follows.

    Args:
        layout: the layout; its ghost starts are the most ghosts a game on it can have.
        requested: how many ghosts were asked for; None means all the layout has.
        clamp: the classic command line's `-k`: a request for more ghosts than the layout has
            plays with all it has (as CS188's `pacman.py` does). Without it, such a request
            is refused: a library caller gets exactly what it asks for or an error.

    Returns:
        The number of ghosts, from 0 to the layout's ghost starts.

    Raises:
        LayoutError: a request that is not a whole number >= 0, or (without `clamp`) more
            ghosts than the layout has.
    """
    available = len(layout.ghost_starts)
    if requested is None:
        return available
    if isinstance(requested, bool) or not isinstance(requested, int) or requested < 0 or (
            requested > available and not clamp):
        raise LayoutError(layout.name, f"num_ghosts must be a whole number from 0 to "
                          f"{available} (the ghosts of layout {layout.name}), got "
                          f"{requested!r}")
    return min(requested, available)


def check_playable(layout: Layout, num_ghosts: int | None = None) -> None:
    """Raise `LayoutError` (with the layout's name) if the game cannot be won or a ghost can
    never move: no food; food Pacman cannot reach from its start; Pacman walled in; a ghost
    (among the first `num_ghosts`, all by default) whose start has no free neighbour (a ghost
    has no Stop). Walls are the only obstacles considered; every problem found is named."""
    free = {(x, y) for x in range(layout.width) for y in range(layout.height)} - layout.walls

    def free_neighbours(cell: Position) -> list[Position]:
        x, y = cell
        return [n for n in ((x - 1, y), (x + 1, y), (x, y + 1), (x, y - 1)) if n in free]

    problems: list[str] = []
    start = layout.pacman_start
    if not layout.food:
        problems.append("no food: the game can never be won")
    if not free_neighbours(start):
        problems.append(f"Pacman is walled in at its start {start}: no free neighbour")
    elif layout.food:
        reached = {start}
        queue = deque([start])
        while queue:
            for there in free_neighbours(queue.popleft()):
                if there not in reached:
                    reached.add(there)
                    queue.append(there)
        unreachable = [cell for cell in layout.food if cell not in reached]
        if unreachable:
            others = len(unreachable) - 1
            problems.append(f"food at {unreachable[0]}" + (
                f" and {others} more food cell{'s' if others > 1 else ''}" if others else "")
                + f" that Pacman cannot reach from its start {start}")
    ghosts = layout.ghost_starts if num_ghosts is None else layout.ghost_starts[:num_ghosts]
    for number, ghost in enumerate(ghosts, start=1):
        if not free_neighbours(ghost):
            problems.append(f"ghost {number} is walled in at its start {ghost}: with no free "
                            "neighbour it can never move")
    if problems:
        raise LayoutError(layout.name, "not playable: " + "; ".join(problems))
