"""Read autograder test files (`.test` / `.solution`, docs/test-cases.md) into `TreeCase` values."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pacman.errors import TestCaseError
from pacman.files import read_text
from pacman.game_tree import GameTree

__all__ = [
    "ALGORITHMS",
    "SUPPORTED_CLASSES",
    "Entry",
    "ParsedFile",
    "TestCaseError",
    "TreeCase",
    "case_from_files",
    "load_case",
    "parse_file",
    "parse_text",
    "read_test_file",
    "solution_path",
    "tree_from_test",
]

SUPPORTED_CLASSES = ("GraphGameTreeTest",)
ALGORITHMS = ("MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent")

_KEY = r"\s*([A-Za-z_][\w.-]*)\s*:\s*"
_COMMENT = r"\s*(?:#.*)?"
_ONE_LINE = re.compile(rf"{_KEY}\"([^\"]*)\"{_COMMENT}\Z")
_BLOCK_START = re.compile(rf"{_KEY}\"\"\"{_COMMENT}\Z")
_BLOCK_END = re.compile(rf"\s*\"\"\"{_COMMENT}\Z")
_SKIP = re.compile(rf"{_COMMENT}\Z")  # blank or comment-only line


@dataclass(frozen=True)
class Entry:
    """One `key: value` of a file; `line` is the key's line (a block's body starts on the next)."""

    key: str
    value: str
    line: int
    block: bool


@dataclass(frozen=True)
class ParsedFile:
    """The entries of one `.test` or `.solution` file, by key."""

    path: Path
    entries: Mapping[str, Entry]

    def get(self, key: str) -> Entry | None:
        """The entry for `key`, if present."""
        return self.entries.get(key)

    def require(self, key: str) -> Entry:
        """The entry for `key`; a `TestCaseError` if the file lacks it."""
        entry = self.entries.get(key)
        if entry is None:
            raise TestCaseError(self.path, None, f'missing key "{key}"')
        return entry

    @property
    def disabled(self) -> bool:
        """True if the file says `disabled: "true"`."""
        entry = self.entries.get("disabled")
        return entry is not None and entry.value.strip().lower() == "true"


def parse_text(text: str, path: str | Path) -> ParsedFile:
    """Parse the key/value syntax of docs/test-cases.md; errors name `path` and the line."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    entries: dict[str, Entry] = {}
    index = 0
    while index < len(lines):
        line, number = lines[index], index + 1
        index += 1
        if _SKIP.match(line):
            continue
        match = _ONE_LINE.match(line)
        if match:
            entry = Entry(match.group(1), match.group(2), number, block=False)
        else:
            match = _BLOCK_START.match(line)
            if not match:
                raise TestCaseError(path, number, f"cannot parse line {line.strip()!r} "
                                    '(expected key: "value" or key: """)')
            body: list[str] = []
            while index < len(lines) and not _BLOCK_END.match(lines[index]):
                body.append(lines[index])
                index += 1
            if index == len(lines):
                raise TestCaseError(path, number, f'unterminated block "{match.group(1)}"')
            index += 1  # the closing """
            entry = Entry(match.group(1), "\n".join(body), number, block=True)
        if entry.key in entries:
            raise TestCaseError(path, number, f'duplicate key "{entry.key}" '
                                f"(first on line {entries[entry.key].line})")
        entries[entry.key] = entry
    return ParsedFile(Path(path), entries)


def read_test_file(path: str | Path) -> str:
    """The text of a `.test`, `.solution` or `CONFIG` file, read the checked way
    (`pacman.files`: a regular file under the size cap, UTF-8, a leading byte-order mark
    dropped); any problem is a `TestCaseError` naming the file."""
    name = str(path)

    def error(message: str) -> TestCaseError:
        reason = message.removeprefix(f"{name}: ")  # TestCaseError names the file itself
        if reason.startswith("cannot read: "):  # as these errors have always said it
            reason = "cannot read file: " + reason.removeprefix("cannot read: ")
        return TestCaseError(path, None, reason)

    return read_text(path, "test", error)


def parse_file(path: str | Path) -> ParsedFile:
    """Read and parse one file; a missing or unreadable file is a `TestCaseError`."""
    return parse_text(read_test_file(path), path)


def solution_path(test_path: str | Path) -> Path:
    """The `.solution` file that goes with a `.test` file."""
    return Path(test_path).with_suffix(".solution")


@dataclass(frozen=True)
class TreeCase:
    """A game-tree test with its solution: run `alg` to `depth` on `tree`, expect the outcome."""

    path: Path
    alg: str
    depth: int
    tree: GameTree
    diagram: str
    expected_action: str
    expected_generated: frozenset[str]


def load_case(test_path: str | Path) -> TreeCase:
    """Parse a `.test` file and its `.solution` into a `TreeCase` (ignores `disabled`)."""
    test = parse_file(test_path)
    if not solution_path(test_path).is_file():
        raise TestCaseError(test_path, None, f"no solution file {solution_path(test_path)}")
    return case_from_files(test, parse_file(solution_path(test_path)))


def case_from_files(test: ParsedFile, solution: ParsedFile) -> TreeCase:
    """Validate a parsed test and solution and build the `TreeCase`."""
    alg, depth, tree, diagram = tree_from_test(test)
    action = solution.require("action")
    if len(action.value.split()) != 1:
        raise TestCaseError(solution.path, action.line, "action must be one action name")
    generated = solution.require("generated")
    return TreeCase(path=test.path, alg=alg, depth=depth, tree=tree, diagram=diagram,
                    expected_action=action.value.strip(),
                    expected_generated=frozenset(generated.value.split()))


def tree_from_test(test: ParsedFile) -> tuple[str, int, GameTree, str]:
    """Validate a parsed tree test: its `alg`, `depth`, tree and diagram."""
    path = test.path
    kind = test.require("class")
    if kind.value not in SUPPORTED_CLASSES:
        raise TestCaseError(path, kind.line, f'unsupported test class "{kind.value}" '
                            f"(supported: {', '.join(SUPPORTED_CLASSES)})")
    alg = test.require("alg")
    if alg.value not in ALGORITHMS:
        raise TestCaseError(path, alg.line, f'unknown alg "{alg.value}" '
                            f"(one of {', '.join(ALGORITHMS)})")
    depth = _positive_int(test, "depth")
    num_agents = _positive_int(test, "num_agents")
    start = test.require("start_state")
    if len(start.value.split()) != 1:
        raise TestCaseError(path, start.line, "start_state must be one node name")
    win = _names(test, "win_states")
    lose = _names(test, "lose_states")
    children = _successors(test)
    # a name listed as both that is no node of the tree (e.g. "none") is harmless, as in the
    # classic grader
    nodes = {start.value.strip(), *children,
             *(child for edges in children.values() for _, child in edges)}
    both = sorted(win & lose & nodes)
    if both:
        raise TestCaseError(path, test.require("lose_states").line,
                            f"nodes both won and lost: {' '.join(both)}")
    _check_start(test, start, children, win | lose)
    values = _evaluations(test)
    diagram = test.get("diagram")
    tree = GameTree(start=start.value.strip(), num_agents=num_agents, children=children,
                    values=values, win_states=win, lose_states=lose)
    return alg.value, depth, tree, diagram.value if diagram is not None else ""


def _check_start(test: ParsedFile, start: Entry,
                 children: Mapping[str, tuple[tuple[str, str], ...]],
                 terminal: frozenset[str]) -> None:
    """The root must be a node the agent can move from: a search there has no action to return
    otherwise, and a correct agent would be blamed for the test's mistake."""
    name = start.value.strip()
    if name in terminal:
        raise TestCaseError(test.path, start.line, f'start_state "{name}" is a won or lost '
                            "node: the game is over before the agent moves")
    if name not in children:
        raise TestCaseError(test.path, start.line, f'start_state "{name}" has no line in '
                            "successors: the agent would have no action to choose")


def _positive_int(test: ParsedFile, key: str) -> int:
    entry = test.require(key)
    try:
        value = int(entry.value.strip())
    except ValueError:
        value = 0
    if value < 1:
        raise TestCaseError(test.path, entry.line,
                            f'{key} must be a positive integer, got "{entry.value}"')
    return value


def _names(test: ParsedFile, key: str) -> frozenset[str]:
    entry = test.get(key)
    return frozenset(entry.value.split()) if entry is not None else frozenset()


def _block_lines(entry: Entry) -> list[tuple[int, list[str]]]:
    """(line number, fields) of each non-blank, non-comment line of an entry."""
    first = entry.line + 1 if entry.block else entry.line
    rows = []
    for offset, text in enumerate(entry.value.split("\n")):
        fields = text.split()
        if fields and not fields[0].startswith("#"):
            rows.append((first + offset, fields))
    return rows


def _successors(test: ParsedFile) -> dict[str, tuple[tuple[str, str], ...]]:
    entry = test.require("successors")
    children: dict[str, list[tuple[str, str]]] = {}
    seen: set[tuple[str, str]] = set()  # (node, action): linear in the number of lines
    for number, fields in _block_lines(entry):
        if len(fields) != 3:
            raise TestCaseError(test.path, number, "a successor line needs exactly 3 fields: "
                                f"STATE ACTION NEXT_STATE, got {' '.join(fields)!r}")
        node, action, child = fields
        if (node, action) in seen:
            raise TestCaseError(test.path, number, f'action "{action}" listed twice for '
                                f'node "{node}"')
        seen.add((node, action))
        children.setdefault(node, []).append((action, child))
    return {node: tuple(pairs) for node, pairs in children.items()}


def _evaluations(test: ParsedFile) -> dict[str, float]:
    entry = test.require("evaluation")
    values: dict[str, float] = {}
    for number, fields in _block_lines(entry):
        if len(fields) != 2:
            raise TestCaseError(test.path, number, "an evaluation line needs exactly 2 fields: "
                                f"STATE VALUE, got {' '.join(fields)!r}")
        node, text = fields
        try:
            value = float(text)
        except ValueError:
            raise TestCaseError(test.path, number, f'value "{text}" of node "{node}" '
                                "is not a number") from None
        if value != value:  # NaN compares false with everything: no search can use it
            raise TestCaseError(test.path, number, f'value "{text}" of node "{node}" is not '
                                "a number (NaN)")
        if node in values:
            raise TestCaseError(test.path, number, f'node "{node}" has two values')
        values[node] = value
    return values
