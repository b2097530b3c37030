"""A student's unmodified CS188 `multiAgents.py`: loaded, built the classic way, played."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pacman import load_layout, run_game
from pacman.agents.registry import make_agent, resolve_name
from pacman.cli import main
from pacman.cs188.agent import StudentAgent, cs188_arguments
from pacman.cs188.loader import find_class, load_student_file
from pacman.errors import RegistryError, StudentCodeError
from pacman.record import Outcome

CORRECT = Path(__file__).parent / "submissions" / "correct" / "multiAgents.py"
SMALL = load_layout("smallClassic")

CLASSIC_TRAPS = {
    # the classic files a CS188 folder holds beside the student's: never to be imported
    "pacman.py": "raise SystemExit('the classic pacman.py was imported')\n",
    "util.py": "raise SystemExit('the classic util.py was imported')\n",
    "game.py": "raise SystemExit('the classic game.py was imported')\n",
    "layout.py": "raise SystemExit('the classic layout.py was imported')\n",
}


@pytest.fixture
def cs188_folder(tmp_path: Path) -> Path:
    """A CS188 project folder: the student's file, the classic files, a helper of theirs."""
    shutil.copy(CORRECT, tmp_path / "multiAgents.py")
    for name, text in CLASSIC_TRAPS.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def test_the_file_gets_our_modules_never_the_classic_files_beside_it(
        cs188_folder: Path) -> None:
    student = load_student_file(cs188_folder / "multiAgents.py")
    module = student.module
    assert module.util.__name__ == "pacman.cs188.modules.util"
    assert module.GameState.__name__ == "CS188GameState"
    assert module.Directions.NORTH == "North"
    assert "util" not in sys.modules and "game" not in sys.modules
    assert str(cs188_folder) not in sys.path


def test_a_helper_module_beside_the_file_is_loaded_the_same_way(tmp_path: Path) -> None:
    write(tmp_path, "helpers.py", """\
        import util
        def distance(a, b):
            return util.manhattanDistance(a, b)
        """)
    path = write(tmp_path, "agentsFile.py", """\
        from helpers import distance
        from game import Agent
        class NearAgent(Agent):
            def getAction(self, state):
                return state.getLegalActions()[0]
        VALUE = distance((0, 0), (3, 4))
        """)
    student = load_student_file(path)
    assert student.module.VALUE == 7
    assert "helpers" in student.siblings and "helpers" not in sys.modules


def test_a_classic_only_module_is_a_clear_error(cs188_folder: Path) -> None:
    path = write(cs188_folder, "usesLayout.py", "import layout\n")
    with pytest.raises(StudentCodeError) as caught:
        load_student_file(path)
    message = str(caught.value)
    assert "layout" in message and "classic CS188 code" in message and "\n" not in message


@pytest.mark.parametrize(("text", "expected"), [
    ("def broken(:\n", "SyntaxError: invalid syntax (bad.py:1)"),
    ("import sys\nsys.exit(3)\n", "SystemExit: 3 (bad.py:2 in <module>)"),
    ("raise KeyError('x')\n", "KeyError: 'x' (bad.py:1 in <module>)"),
    ("import no_such_module_anywhere\n", "ModuleNotFoundError"),
])
def test_a_file_that_cannot_load_is_one_line(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, "bad.py", text)
    with pytest.raises(StudentCodeError) as caught:
        load_student_file(path)
    assert expected in str(caught.value) and "\n" not in str(caught.value)


def test_an_edited_file_is_loaded_again(tmp_path: Path) -> None:
    path = write(tmp_path, "edited.py", "VALUE = 1\n")
    assert load_student_file(path).module.VALUE == 1
    path.write_text("VALUE = 22\n")
    assert load_student_file(path).module.VALUE == 22


def test_a_missing_class_names_the_agents_the_file_has() -> None:
    student = load_student_file(CORRECT)
    with pytest.raises(StudentCodeError) as caught:
        find_class(student, "MinmaxAgent")
    assert "MinimaxAgent" in str(caught.value) and "ExpectimaxAgent" in str(caught.value)


def test_settings_reach_a_classic_constructor_as_strings() -> None:
    assert cs188_arguments({"depth": 3, "evalFn": "better", "flag": True, "p": 0.5}) == {
        "depth": "3", "evalFn": "better", "flag": "True", "p": "0.5"}
    agent = make_agent(f"{CORRECT}:MinimaxAgent", "pacman", {"depth": 3, "evalFn": "better"},
                       index=0)
    assert isinstance(agent, StudentAgent)
    assert agent.agent.depth == 3
    assert agent.agent.evaluationFunction.__name__ == "betterEvaluationFunction"
    assert agent.describe() == "MinimaxAgent depth=3 evalFn=better"


def test_a_plain_class_name_resolves_in_the_agents_file(cs188_folder: Path) -> None:
    path = cs188_folder / "multiAgents.py"
    assert resolve_name("AlphaBetaAgent", "pacman", path) == f"{path.resolve()}:AlphaBetaAgent"
    # a class the file only imports stays ours: the ghost comes from our registry
    assert resolve_name("DirectionalGhost", "ghost", path) == "DirectionalGhost"
    # imported from game, not defined: no agent, said here (not by a host that would build it)
    with pytest.raises(RegistryError, match=r"^unknown Pacman agent 'Agent'; known: "):
        resolve_name("Agent", "pacman", path)


def test_seeded_student_games_are_identical_and_use_the_seed() -> None:
    def play(seed: int) -> tuple[object, ...]:
        pacman = make_agent(f"{CORRECT}:ReflexAgent", "pacman", {}, index=0)
        ghosts = [make_agent("RandomGhost", "ghost", {}, index=i) for i in (1, 2)]
        record = run_game(SMALL, pacman, ghosts, seed=seed, max_moves=300)
        return record.actions, record.score, record.outcome

    first = play(11)
    assert first == play(11)
    assert first != play(12)


def test_a_student_search_agent_plays_a_whole_game() -> None:
    pacman = make_agent(f"{CORRECT}:ExpectimaxAgent", "pacman", {"evalFn": "better"}, index=0)
    ghosts = [make_agent("RandomGhost", "ghost", index=1)]
    record = run_game(SMALL, pacman, ghosts, seed=3, max_moves=500)
    assert record.outcome is Outcome.WIN


def test_our_agents_take_the_cs188_evalfn_setting() -> None:
    agent = make_agent("ExpectimaxAgent", "pacman", {"evalFn": "betterEvaluationFunction"}, 0)
    assert agent.describe() == "ExpectimaxAgent depth=2 better"
    with pytest.raises(RegistryError, match="unknown evaluation"):
        make_agent("MinimaxAgent", "pacman", {"evalFn": "noSuchFunction"}, 0)


def test_a_failing_constructor_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "ctor.py", """\
        from game import Agent
        class Broken(Agent):
            def __init__(self, **kwargs):
                raise SystemExit('no')
            def getAction(self, state):
                return 'Stop'
        """)
    with pytest.raises(RegistryError) as caught:
        make_agent(f"{path}:Broken", "pacman", {}, 0)
    assert "Broken failed while being built: SystemExit: no" in str(caught.value)


def test_play_with_the_agents_file_in_a_cs188_folder(
        cs188_folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(cs188_folder)
    argv = ["play", "--agents", "multiAgents.py", "-p", "MinimaxAgent", "-a",
            "depth=2,evalFn=better", "-l", "smallClassic", "-q", "-n", "2", "--seed", "5"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    assert "Win Rate:" in first and "Outcomes:" in first


def test_classic_spellings_and_the_classic_call_without_a_subcommand(
        cs188_folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(cs188_folder)
    code = main(["-p", "multiAgents.py:ReflexAgent", "-l", "testClassic", "--numGames", "2",
                 "-q", "--fixRandomSeed", "--frameTime", "0", "-z", "2", "-c"])
    out, err = capsys.readouterr()
    assert code == 0
    assert out.count("game ") == 2 and "seed 0" in out
    assert "catchExceptions is always on" in err


def test_a_class_name_in_a_cs188_folder_plays_the_students_class_as_pacman_py_does(
        cs188_folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`-p MinimaxAgent` in a folder with a student `multiAgents.py` plays the student's class
    (its moves equal `--agents multiAgents.py`'s), with one line saying so; `-p minimax` is
    still the built-in one."""
    monkeypatch.chdir(cs188_folder)
    common = ["-l", "testClassic", "-q", "-n", "1", "--seed", "1"]
    games = {}
    for name, extra in (("habit", []), ("agents", ["--agents", "multiAgents.py"]),
                        ("builtin", [])):
        record = cs188_folder / f"{name}.json"
        pacman = "minimax" if name == "builtin" else "MinimaxAgent"
        assert main(["play", "-p", pacman, *extra, *common, "--record", str(record)]) == 0
        games[name] = json.loads(record.read_text())
        err = capsys.readouterr().err
        if name == "habit":
            assert err.strip().splitlines() == [
                "pacman: note: MinimaxAgent is multiAgents.py's class here, as python pacman.py "
                "plays it (the built-in one is -p minimax)"], err
    assert games["habit"]["actions"] == games["agents"]["actions"]
    assert games["habit"]["agents"] == games["agents"]["agents"]
    assert games["builtin"]["agents"] != games["habit"]["agents"]


def test_a_class_only_a_student_file_has_is_found_like_the_classic_pacman_py(
        cs188_folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    write(cs188_folder, "myAgents.py", """\
        from game import Agent
        class StopAgent(Agent):
            def getAction(self, state):
                return 'Stop'
        """)
    monkeypatch.chdir(cs188_folder)
    assert main(["play", "-p", "StopAgent", "-l", "testClassic", "-q", "--seed", "1",
                 "--max-moves", "3"]) == 0
    assert "capped" in capsys.readouterr().out


def test_module_colon_class_from_the_current_folder(
        cs188_folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(cs188_folder)
    assert main(["play", "-p", "multiAgents:AlphaBetaAgent", "-l", "testClassic", "-q",
                 "--seed", "1"]) == 0
    assert "Win Rate:" in capsys.readouterr().out


@pytest.mark.parametrize("name", [":", "multiAgents.py:", ":Class", "x.py:Not-A-Name"])
def test_malformed_agent_names_are_one_line(name: str, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    assert main(["play", "-p", name, "-q", "-l", "testClassic"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pacman: error:") and err.count("\n") == 1


def test_the_pacman_command_runs_in_a_cs188_folder_on_pythonpath(cs188_folder: Path) -> None:
    command = shutil.which("pacman", path=str(Path(sys.executable).parent))
    assert command is not None, "the pacman console script is installed with the package"
    env = dict(os.environ, PYTHONPATH=str(cs188_folder))
    done = subprocess.run([command, "play", "--agents", "multiAgents.py", "-p", "MinimaxAgent",
                           "-l", "testClassic", "-q", "--seed", "2"], cwd=cs188_folder,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Win Rate:" in done.stdout
    version = subprocess.run([command, "--version"], cwd=cs188_folder, env=env,
                             capture_output=True, text=True, timeout=60)
    assert version.stdout.startswith("pacman ")


def test_a_student_file_reading_the_data_fields_gets_the_points_of_the_same_code_on_getters(
        ) -> None:
    """`reads_data` is the correct submission with its ReflexAgent's evaluation reading
    `state.data` (`layout.totalFood`, `layout.walls.data`, `agentStates[i].configuration.pos`,
    `scaredTimer`, `food`, `score`, `_win`, `_lose`) instead of the getters, as several real
    student files do: the same evaluation, so q1 plays the same games and gets the same
    points and messages."""
    from pacman.grading.cases.suite import find_suite
    from pacman.grading.running.contestant import Contestant
    from pacman.grading.running.session import grade_suite

    suite = find_suite([Path(__file__).parents[2] / "pacman" / "grading" / "test_cases"]
                       ).select(["q1"])
    here = Path(__file__).parent / "submissions"
    reads_data = grade_suite(suite, Contestant(here / "reads_data" / "multiAgents.py"))
    getters = grade_suite(suite, Contestant(here / "correct" / "multiAgents.py"))
    assert [q.points for q in reads_data] == [q.points for q in getters] == [4]
    assert [[t.messages for t in q.tests] for q in reads_data] == [
        [t.messages for t in q.tests] for q in getters]


def test_an_evaluation_reading_the_data_fields_gets_the_points_of_the_same_code_on_getters(
        ) -> None:
    """`reads_data_in_eval` is the correct submission with its betterEvaluationFunction reading
    `state.data` (`_win`, `_lose`, `score`, `food`, `capsules`, `layout.width`, `.height`,
    `.walls.data`, `agentStates[i].configuration.pos`, `scaredTimer`): graded the default way
    (its code in its own host process), q5 plays the same ten games as the getters' version and
    gets the same points and messages."""
    from pacman.grading.cases.suite import find_suite
    from pacman.grading.running.isolated import grade_isolated

    suite = find_suite([Path(__file__).parents[2] / "pacman" / "grading" / "test_cases"]
                       ).select(["q5"])
    here = Path(__file__).parent / "submissions"
    reads_data = grade_isolated(suite, here / "reads_data_in_eval" / "multiAgents.py")
    getters = grade_isolated(suite, here / "correct" / "multiAgents.py")
    assert [q.points for q in reads_data.questions] == [
        q.points for q in getters.questions] == [6]
    assert [[t.messages for t in q.tests] for q in reads_data.questions] == [
        [t.messages for t in q.tests] for q in getters.questions]
