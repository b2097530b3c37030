"""Parse and load classic `.lay` files into an immutable `Layout` (docs/rules.md 3-6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

Position = tuple[int, int]

LAYOUT_DIR = Path(__file__).parent / "layouts"
WALL, FOOD, CAPSULE, PACMAN, GHOST = "%", ".", "o", "P", "G"
GHOST_DIGITS = "1234"


class LayoutError(ValueError):
    """A layout that cannot be used, with the file, line and column at fault."""

    def __init__(self, source: str, message: str, line: int | None = None,
                 column: int | None = None) -> None:
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")
        self.source, self.line, self.column = source, line, column


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
                      self.pacman_start, self.ghost_starts[:count], self.text)

    def __str__(self) -> str:
        return self.text


def parse_layout(text: str, name: str = "<layout>", source: str | None = None) -> Layout:
    """Parse layout text; raise `LayoutError` naming the source file, line and column."""
    layout_name = name
    name = source or name
    if "\x00" in text:
        raise LayoutError(name, "not a text layout file (contains NUL bytes)")
    raw_lines = text.splitlines()
    while raw_lines and not raw_lines[-1].strip():
        raw_lines.pop()
    first = 0
    while first < len(raw_lines) and not raw_lines[first].strip():
        first += 1
    if first == len(raw_lines):
        raise LayoutError(name, "empty layout file")
    rows: list[tuple[int, int, str]] = []  # (file line number, column offset, stripped text)
    for number in range(first, len(raw_lines)):
        raw = raw_lines[number]
        stripped = raw.strip()
        rows.append((number + 1, len(raw) - len(raw.lstrip()), stripped))
    width, height = len(rows[0][2]), len(rows)
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
    )


def shipped_layouts() -> list[str]:
    """Names of the layouts that ship with the package, sorted."""
    return sorted(path.stem for path in LAYOUT_DIR.glob("*.lay"))


def load_layout(name_or_path: str | Path) -> Layout:
    """Load a layout by shipped name (`mediumClassic`) or by file path."""
    path = Path(name_or_path)
    candidates = [path] if path.suffix == ".lay" or path.exists() else []
    candidates += [LAYOUT_DIR / f"{name_or_path}.lay", LAYOUT_DIR / f"{name_or_path}"]
    for candidate in candidates:
        if candidate.is_file():
            try:
                data = candidate.read_bytes()
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise LayoutError(str(candidate), "not a text layout file (not UTF-8)") from None
            except OSError as error:
                raise LayoutError(str(candidate), f"cannot read: {error.strerror}") from None
            return parse_layout(text, candidate.stem, source=str(candidate))
    known = ", ".join(shipped_layouts())
    raise LayoutError(str(name_or_path), f"no such layout (shipped layouts: {known})")
