"""Fuzzing the files and values the commands read: layouts, replays, test suites, weights and
experiment files, results stores, settings strings and the environments' actions.

Each input is a valid seed file of its kind, damaged by a random mutation: bytes flipped,
inserted or cut; a line dropped or doubled; for JSON, one value anywhere in the document
replaced by another of any type and shape (deep lists, huge numbers, control characters);
for a results store, pages of the SQLite file overwritten or rows edited by hand. The commands
that read that kind of file then run on it, in this process, each under a time limit.

The promise, for every input: the command exits 0 (or 1 where it reports a failed check:
`grade`, `replay`, `store check`), or exits 2 with exactly one line on stderr; it never prints
a traceback and never runs past its limit. An environment given any action either steps or
raises one of the package's errors (`pacman.errors.PacmanError`).

The default run is seeded (`derandomize=True`, the same inputs on every machine) and takes
under a minute; the `slow` run draws ten times as many inputs at random.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_cli import deadline, run, verdict

from pacman.errors import PacmanError

REPO = Path(__file__).resolve().parents[1]
LAYOUT_DIR = REPO / "pacman" / "layouts"
FEW = 40        # inputs per kind in the default run
MANY = 10 * FEW  # in the slow run

# --- the seed files ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeds() -> Iterator[dict[str, Path]]:
    """One valid file of every kind, made once by the commands themselves."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        made: dict[str, Path] = {}
        made["layout"] = folder / "seed.lay"
        shutil.copy(LAYOUT_DIR / "minimaxClassic.lay", made["layout"])
        made["replay"] = folder / "seed.json"
        code, _, err = run(["play", "-q", "-l", "minimaxClassic", "-p", "alphabeta", "-a",
                            "depth=2", "--max-moves", "12", "--seed", "3", "--trace",
                            "--record", str(made["replay"])])
        assert code == 0, err
        made["weights"] = folder / "seed-weights.json"
        made["weights"].write_text(json.dumps(
            {"format": 1, "features": {"score": 1.0, "food": -1.5, "ghost": 2.0},
             "radius": 3, "win": 1e6, "loss": -1e6}), encoding="utf-8")
        made["experiment"] = folder / "seed-experiment.json"
        made["experiment"].write_text(json.dumps(
            {"pacman": ["greedy", {"agent": "alphabeta", "depth": [1, 2]}],
             "ghosts": ["RandomGhost"], "layouts": ["testClassic"], "games": 1,
             "seed": 4, "max_moves": 10}), encoding="utf-8")
        made["suite"] = folder / "seed-suite"
        made["suite"].mkdir()
        for case in sorted((REPO / "tests" / "cases" / "minimax").glob("0[12]-*")):
            shutil.copy(case, made["suite"] / case.name)
        made["store"] = folder / "seed-store.db"
        code, _, err = run(["batch", "-p", "greedy", "-p", "random", "-l", "testClassic",
                            "-n", "3", "--max-moves", "10", "-j", "1", "-o",
                            str(made["store"])])
        assert code == 0, err
        yield made


# --- the mutations ----------------------------------------------------------------------------

NASTY_TEXT = st.sampled_from([
    "", "\x00", "\x1b[31mred\x1b[0m", "\ufeff", "\r\n", "\u202e", "%" * 300, "٣", "1_0",
    "nan", "-1", "é", "\ud800"[:0] + "x" * 5, "{", "]", "\\", '"', "\n\n\n"])

JSON_VALUES = st.recursive(
    st.none() | st.booleans()
    | st.sampled_from([0, 1, -1, 2, 5, 3 * 10**30, -(10**20), 299, 300, 10**6])
    | st.sampled_from([0.5, -0.0, 1e308, -1e-300, 2.0])
    | NASTY_TEXT | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["format", "layout", "moves", "agents", "name", "x", ""]),
                      children, max_size=3),
    max_leaves=12)


def _paths(document: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if len(prefix) > 20:
        return found
    if isinstance(document, dict):
        for key, value in document.items():
            found += _paths(value, prefix + (key,))
    elif isinstance(document, list):
        for index, value in enumerate(document[:40]):  # the head of long lists is enough
            found += _paths(value, prefix + (index,))
    return found


def _replace(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    copy: Any = dict(document) if isinstance(document, dict) else list(document)
    copy[head] = _replace(document[head], rest, value)
    return copy


@st.composite
def json_mutation(draw: st.DrawFn, original: bytes) -> bytes:
    document = json.loads(original)
    paths = _paths(document)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        if draw(st.integers(0, 5)) == 0:  # nesting deep enough to reach the recursion limit
            value: Any = _DEEP.format(draw(st.sampled_from([50, 900, 3000])))
        else:
            value = draw(JSON_VALUES)
        document = _replace(document, path, value)
        paths = _paths(document)
    text = json.dumps(document)
    for depth in (50, 900, 3000):
        text = text.replace(json.dumps(_DEEP.format(depth)), "[" * depth + "]" * depth)
    return text.encode()


_DEEP = "\x00deep {}\x00"  # stands for a list nested that deep, written out after dumping


@st.composite
def byte_mutation(draw: st.DrawFn, original: bytes) -> bytes:
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, max(len(data) - 1, 0)))
        kind = draw(st.sampled_from(["flip", "insert", "cut", "truncate", "repeat"]))
        if kind == "flip" and data:
            data[where] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[where:where] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "cut":
            del data[where:where + draw(st.integers(1, 64))]
        elif kind == "truncate":
            del data[where:]
        else:
            data[where:where] = data[where:where + draw(st.integers(1, 200))]
    return bytes(data)


@st.composite
def line_mutation(draw: st.DrawFn, original: bytes) -> bytes:
    lines = original.decode("utf-8").split("\n")
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["drop", "double", "replace", "insert"]))
        if kind == "drop" and len(lines) > 1:
            del lines[where]
        elif kind == "double":
            lines.insert(where, lines[where])
        elif kind == "replace":
            line = lines[where]
            at = draw(st.integers(0, len(line)))
            lines[where] = line[:at] + draw(NASTY_TEXT) + line[at + 1:]
        else:
            lines.insert(where, draw(NASTY_TEXT))
    return "\n".join(lines).encode("utf-8", errors="surrogatepass")


@st.composite
def mutated(draw: st.DrawFn, original: bytes, structured: str) -> bytes:
    """One damaged copy of `original`: mostly structure-aware, sometimes raw bytes."""
    choice = draw(st.integers(0, 3))
    if choice == 0:
        return draw(byte_mutation(original))
    if structured == "json":
        return draw(json_mutation(original))
    return draw(line_mutation(original))


# --- the commands that read each kind ---------------------------------------------------------

def check(argv: list[str]) -> None:
    verdict(argv)


def fuzz(kind: str, structured: str, commands: Callable[[Path, Path], list[list[str]]],
         examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, derandomize=examples == FEW,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def test(data: st.DataObject, seeds: dict[str, Path], tmp_path_factory: Any) -> None:
        scratch = tmp_path_factory.mktemp(kind)
        seed = seeds[kind]
        if seed.is_dir():
            target = scratch / seed.name
            shutil.copytree(seed, target)
            victim = data.draw(st.sampled_from(sorted(target.iterdir())))
            victim.write_bytes(data.draw(mutated(victim.read_bytes(), structured)))
        else:
            target = scratch / seed.name
            target.write_bytes(data.draw(mutated(seed.read_bytes(), structured)))
        for argv in commands(target, scratch):
            check(argv)
    return test


def _layout_commands(path: Path, scratch: Path) -> list[list[str]]:
    return [["play", "-q", "-l", str(path), "-p", "alphabeta", "-a", "depth=1",
             "--max-moves", "30", "--seed", "1"],
            ["explain", "--layout", str(path), "--depth", "1", "--max-shown", "5"]]


def _replay_commands(path: Path, scratch: Path) -> list[list[str]]:
    return [["replay", str(path), "-q"],
            ["replay", str(path), "-q", "--html", str(scratch / "page.html")]]


def _weights_commands(path: Path, scratch: Path) -> list[list[str]]:
    return [["play", "-q", "-l", "testClassic", "-p", "alphabeta", "-a",
             f"depth=1,evaluation=@{path}", "--max-moves", "10"]]


def _experiment_commands(path: Path, scratch: Path) -> list[list[str]]:
    return [["batch", str(path), "--dry-run", "-o", str(scratch / "dry.db")],
            ["batch", str(path), "-j", "1", "--max-moves", "10", "-o", str(scratch / "x.db")]]


def _suite_commands(path: Path, scratch: Path) -> list[list[str]]:
    return [["grade", str(path), "--in-process"]]


_SETTINGS_ALPHABET = "depth=evaluation,:@1-0._٣ x\x1bscorefood2e9nan|"


test_fuzzed_layouts = fuzz("layout", "lines", _layout_commands, FEW)
test_fuzzed_replays = fuzz("replay", "json", _replay_commands, FEW)
test_fuzzed_weights = fuzz("weights", "json", _weights_commands, FEW)
test_fuzzed_experiments = fuzz("experiment", "json", _experiment_commands, FEW)
test_fuzzed_suites = fuzz("suite", "lines", _suite_commands, FEW)

test_many_fuzzed_layouts = pytest.mark.slow(fuzz("layout", "lines", _layout_commands, MANY))
test_many_fuzzed_replays = pytest.mark.slow(fuzz("replay", "json", _replay_commands, MANY))
test_many_fuzzed_weights = pytest.mark.slow(fuzz("weights", "json", _weights_commands, MANY))
test_many_fuzzed_experiments = pytest.mark.slow(
    fuzz("experiment", "json", _experiment_commands, MANY))
test_many_fuzzed_suites = pytest.mark.slow(fuzz("suite", "lines", _suite_commands, MANY))


# --- results stores ---------------------------------------------------------------------------

_ROW_EDITS = st.sampled_from([
    "UPDATE games SET record = 'not json' WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET pacman_settings = '{' WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET game_index = -1 WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET config_key = 'x' WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET outcome = 'banana' WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET score = 'high' WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET version = NULL WHERE id = (SELECT min(id) FROM games)",
    "DELETE FROM meta",
    "UPDATE meta SET value = '99'",
    "DROP TABLE meta",
    # records that read as JSON but are not the game their row says (issue 46): an action
    # that is no direction, a layout or ghost that is not the row's, a misspelt key
    "UPDATE games SET record = replace(record, '\"East\"', '\"Ea{t\"') "
    "WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET record = json_set(record, '$.layout', 'mediumClassic') "
    "WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET record = json_set(record, '$.agents[1]', 'DirectionalGhost') "
    "WHERE id = (SELECT min(id) FROM games)",
    "UPDATE games SET record = replace(record, '\"fault\":', '\"faulu\":') "
    "WHERE id = (SELECT min(id) FROM games)",
    "INSERT INTO games SELECT NULL, config_key, base_seed, game_index, seed, pacman, "
    "pacman_settings, ghost, ghost_settings, num_ghosts, layout, max_moves, move_timeout, "
    "outcome, complete, score, pacman_moves, move_seconds, nodes, nodes_moves, fault, "
    "version, finished_at, record FROM games LIMIT 1",
])


def _store_commands(path: Path, scratch: Path) -> list[list[str]]:
    return [["table", str(path)], ["plot", str(path), "-o", str(scratch / "plots")],
            ["store", "check", str(path)],
            ["store", "recover", str(path), "-o", str(scratch / "recovered.db")],
            ["batch", "-p", "greedy", "-p", "random", "-l", "testClassic", "-n", "4",
             "--max-moves", "10", "-j", "1", "-o", str(path)]]


def _damage_store(data: st.DataObject, seed: Path, target: Path) -> None:
    shutil.copy(seed, target)
    if data.draw(st.booleans()):
        connection = sqlite3.connect(target)
        try:
            for statement in data.draw(st.lists(_ROW_EDITS, min_size=1, max_size=2)):
                with contextlib.suppress(sqlite3.Error):  # a statement the damage made moot
                    connection.execute(statement)
            connection.commit()
        finally:
            connection.close()
    else:
        raw = bytearray(target.read_bytes())
        page = 4096
        pages = max(len(raw) // page, 1)
        for _ in range(data.draw(st.integers(1, 3))):
            at = data.draw(st.integers(0, pages - 1)) * page + data.draw(st.integers(0, page - 1))
            if data.draw(st.integers(0, 3)) == 0:
                del raw[at:]
            elif at < len(raw):
                raw[at:at + 8] = data.draw(st.binary(min_size=8, max_size=8))
        target.write_bytes(bytes(raw))


def _fuzz_stores(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, derandomize=examples == FEW,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(data=st.data())
    def test(data: st.DataObject, seeds: dict[str, Path], tmp_path_factory: Any) -> None:
        scratch = tmp_path_factory.mktemp("store")
        target = scratch / "damaged.db"
        _damage_store(data, seeds["store"], target)
        for argv in _store_commands(target, scratch):
            check(argv)
    return test


test_fuzzed_stores = _fuzz_stores(FEW)
test_many_fuzzed_stores = pytest.mark.slow(_fuzz_stores(MANY))


# --- settings strings -------------------------------------------------------------------------

def _fuzz_settings(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples * 2, deadline=None, derandomize=examples == FEW)
    @given(text=st.text(_SETTINGS_ALPHABET, max_size=30),
           agent=st.sampled_from(["alphabeta", "expectimax", "anytime-alphabeta", "greedy"]))
    def test(text: str, agent: str) -> None:
        extra = ["-a", text] if agent != "greedy" else ["--ghost-args", text, "-g",
                                                        "AdversarialGhost"]
        check(["play", "-q", "-l", "testClassic", "-p", agent, "--max-moves", "8",
               "--timeout", "5", *extra])
    return test


test_fuzzed_settings = _fuzz_settings(FEW)
test_many_fuzzed_settings = pytest.mark.slow(_fuzz_settings(MANY))


# --- environment actions ----------------------------------------------------------------------

ACTIONS = st.one_of(
    st.integers(-3, 8), st.floats(allow_nan=True), st.text(max_size=2), st.none(),
    st.booleans(), st.lists(st.integers(0, 4), max_size=2),
    st.sampled_from(["0", "North", b"\x00"]),
    st.integers(-3, 8).map(lambda n: __import__("numpy").int8(n)),
    st.integers(0, 4).map(lambda n: __import__("numpy").array(n)),
    st.integers(0, 4).map(lambda n: __import__("numpy").float32(n)))


def _fuzz_env(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples * 2, deadline=None, derandomize=examples == FEW)
    @given(actions=st.lists(ACTIONS, min_size=1, max_size=12),
           kind=st.sampled_from(["gym", "parallel", "aec"]))
    def test(actions: list[Any], kind: str) -> None:
        pytest.importorskip("gymnasium")
        pytest.importorskip("pettingzoo")
        from pacman.envs import PacmanEnv, env, parallel_env

        game: Any
        if kind == "gym":
            game = PacmanEnv(layout="testClassic", max_moves=6)
            game.reset(seed=1)
        elif kind == "parallel":
            game = parallel_env(layout="testClassic", max_cycles=6)
            game.reset(seed=1)
        else:
            game = env(layout="testClassic", max_cycles=6)
            game.reset(seed=1)
        for action in actions:
            try:
                if kind == "gym":
                    _, _, terminated, truncated, _ = game.step(action)
                    if terminated or truncated:
                        game.reset(seed=2)
                elif kind == "parallel":
                    if not game.agents:
                        game.reset(seed=2)
                    game.step({agent: action for agent in game.agents})
                else:
                    if not game.agents:
                        game.reset(seed=2)
                    game.step(action)
            except PacmanError:
                pass
    return test


test_fuzzed_env_actions = _fuzz_env(FEW)
test_many_fuzzed_env_actions = pytest.mark.slow(_fuzz_env(MANY))


# --- names with lone surrogates (issue 46) ----------------------------------------------------

#: text no UTF-8 encoder writes (lone surrogates), with other hostile text around it
SURROGATE_TEXT = st.sampled_from([
    "\ud800", "bad\ud800name", "\udfff" * 300, "\ud83d\ude00", "\udc80\x1b[31m", "a\ud800\n",
    "\ud800" + "x" * 250, "\x00\ud800", "%\ud800%", "é\udbff"])


def _text_paths(document: Any) -> list[tuple[Any, ...]]:
    """Where `document` holds text (keys excepted)."""
    return [path for path in _paths(document) if path and isinstance(_at(document, path), str)]


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


def _fuzz_surrogate_replays(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, derandomize=examples == FEW,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(data=st.data())
    def test(data: st.DataObject, seeds: dict[str, Path], tmp_path_factory: Any) -> None:
        scratch = tmp_path_factory.mktemp("surrogates")
        document = json.loads(seeds["replay"].read_text(encoding="utf-8"))
        places = _text_paths(document)
        for _ in range(data.draw(st.integers(1, 4))):
            document = _replace(document, data.draw(st.sampled_from(places)),
                                data.draw(SURROGATE_TEXT))
        if data.draw(st.booleans()):
            document[data.draw(SURROGATE_TEXT)] = 1  # an unknown key
        target = scratch / "names.json"
        target.write_text(json.dumps(document), encoding="utf-8")  # "\ud800": valid JSON
        for argv in (["replay", str(target), "-q", "--html", str(scratch / "page.html")],
                     ["replay", str(target), "-t", "--frame-time", "0", "--screenshot",
                      str(scratch / "end.png")],
                     ["replay", str(target), "-q", "--gif", str(scratch / "game.gif")]):
            check(argv)
    return test


test_fuzzed_surrogate_replays = _fuzz_surrogate_replays(FEW // 2)
test_many_fuzzed_surrogate_replays = pytest.mark.slow(_fuzz_surrogate_replays(MANY // 2))


_DESCRIBED = '''
from pacman.agents.simple import RandomAgent


class Named(RandomAgent):
    def describe(self):
        return {name!r}
'''


def _fuzz_surrogate_describe(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, derandomize=examples == FEW,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(name=SURROGATE_TEXT, isolation=st.sampled_from(["none", "process"]),
           output=st.sampled_from([["-t", "--frame-time", "0"], ["-q", "--gif", "game.gif"],
                                   ["-q", "--screenshot", "end.png"]]))
    def test(name: str, isolation: str, output: list[str], tmp_path_factory: Any,
             monkeypatch: pytest.MonkeyPatch) -> None:
        from pacman.replay import load_replay, verify

        scratch = tmp_path_factory.mktemp("describe")
        (scratch / "named.py").write_text(_DESCRIBED.format(name=name), encoding="utf-8")
        monkeypatch.chdir(scratch)
        assert verdict(["play", "--agents", "named.py", "-p", "Named", "-l", "testClassic",
                        "--max-moves", "6", "--seed", "1", "--isolation", isolation,
                        "--record", "game.json", *output]) == "ok"
        replay = load_replay(scratch / "game.json")  # the record intact, with a safe name
        assert verify(replay).matches
        assert replay.record.agents[0].encode("utf-8")
    return test


test_fuzzed_surrogate_describe = _fuzz_surrogate_describe(FEW // 2)
test_many_fuzzed_surrogate_describe = pytest.mark.slow(_fuzz_surrogate_describe(MANY // 2))


# --- the notebook's play (issue 46) -----------------------------------------------------------

_NOTEBOOK_VALUES = st.sampled_from([
    None, True, 0, -1, 1, 2, 1.5, float("nan"), float("inf"), 10**400, "", "1", "\ud800",
    "testClassic", "greedy", "RandomGhost", b"x", [1], {"a": 1}, object()])


def _fuzz_notebook(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, derandomize=examples == FEW,
              suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test(data: st.DataObject) -> None:
        import inspect

        from pacman.notebook import play
        from pacman.record import GameRecord

        names = list(inspect.signature(play).parameters)
        call: dict[str, Any] = {"pacman": "greedy", "layout": "testClassic", "live": False,
                                "max_moves": 5}
        for name in data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3,
                                       unique=True)):
            call[name] = data.draw(_NOTEBOOK_VALUES)
        if isinstance(call.get("max_moves"), int) and not 0 < call["max_moves"] <= 5:
            call["max_moves"] = 5  # a game that ends soon
        try:
            with deadline(30):
                assert isinstance(play(**call), GameRecord)
        except PacmanError as error:
            assert "\n" not in str(error) and str(error), (call, error)
    return test


test_fuzzed_notebook_play = _fuzz_notebook(FEW * 2)
test_many_fuzzed_notebook_play = pytest.mark.slow(_fuzz_notebook(MANY * 2))
